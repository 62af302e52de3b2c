// What markdown-it needs of `punycode.js`, from the browser itself: link hosts to ASCII through the URL
// parser (which does IDNA), and left as they are for display (the address is shown as written).
function toASCII(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return host;
  }
}

const toUnicode = (host: string): string => host;

export default { toASCII, toUnicode };
