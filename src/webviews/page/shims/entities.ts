// What markdown-it needs of the `entities` package, from the browser itself: the package's 23 KB table
// of named character references is the one the HTML parser already has. A textarea's content is
// parsed as text (RCDATA), so markup in `text` stays text.
const decoder = document.createElement('textarea');

export function decodeHTMLStrict(text: string): string {
  decoder.innerHTML = text;
  return decoder.value;
}
