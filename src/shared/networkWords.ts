// Network failures by their system and undici codes, in words: for the extension's calls to the service
// and the service's calls to providers alike.

const WORDS: Array<[RegExp, string]> = [
  [/ENOTFOUND|EAI_AGAIN/, 'its address was not found (no network here, or a wrong URL)'],
  [/ECONNREFUSED/, 'nothing answers at its address (a wrong URL, or the server is down)'],
  [/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|ENETUNREACH|EHOSTUNREACH/, 'the connection timed out (no network here?)'],
  [/ECONNRESET|EPIPE|UND_ERR_SOCKET/, 'the connection was cut'],
  [/UND_ERR_CLOSED|UND_ERR_DESTROYED/, 'the connection was closed before the request was sent'],
  [/CERT|SSL|TLS/i, 'its certificate was not accepted'],
];

/** How undici says a proxy would not open a tunnel to the address (HTTPS_PROXY, HTTP_PROXY). */
const PROXY_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

/** Why something could not be reached, from the codes of an error and of its cause; undefined when none says. */
export function networkWords(error: unknown, ...more: string[]): string | undefined {
  const codes = [...more, (error as { code?: unknown })?.code, (error as { cause?: { code?: unknown } })?.cause?.code]
    .filter((c): c is string => typeof c === 'string')
    .join(' ');
  const proxy = PROXY_REFUSED.exec(codes)?.[1];
  if (proxy === '407')
    return "the proxy asks for credentials (407): put them in the proxy's URL, http://user:password@host:port";
  if (proxy) return `the proxy refused to connect to it (${proxy})`;
  return WORDS.find(([code]) => code.test(codes))?.[1];
}
