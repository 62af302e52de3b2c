// Which proxy a request goes through, as curl and most developer tools read it: HTTPS_PROXY for https
// addresses, HTTP_PROXY for http ones (either in lower case too; one named serves both, as undici's
// own reading has it), NO_PROXY's hosts reached directly, and this computer's own addresses always
// reached directly (a model server on localhost is never sent to a company's proxy). For the built-in
// service (src/service/providers/proxy.ts) and the extension's connection to a remote service.

/** The proxies to use, in the options undici's EnvHttpProxyAgent takes. */
export interface NamedProxy {
  httpProxy: string;
  httpsProxy: string;
  /** Hosts reached directly, comma-separated. */
  noProxy: string;
}

/** This computer's addresses, never sent to the proxy. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A proxy variable as set, in lower case (as curl prefers it) or upper; '' when unset. */
const setTo = (env: Record<string, string | undefined>, name: string): string =>
  (env[name.toLowerCase()] || env[name] || '').trim();

/** A proxy variable's URL (curl takes `host:port` for http://host:port); undefined when unset or not one. */
function proxyUrl(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = setTo(env, name);
  if (!value) return undefined;
  const url = value.includes('://') ? value : `http://${value}`;
  try {
    return ['http:', 'https:', 'socks5:'].includes(new URL(url).protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The proxy variables the environment sets to something that is not a proxy's URL. */
export function unreadProxyVariables(env: Record<string, string | undefined>): string[] {
  return ['HTTPS_PROXY', 'HTTP_PROXY'].filter((name) => setTo(env, name) && !proxyUrl(env, name));
}

/** The proxies the environment names, and the hosts reached directly; undefined when it names none. */
export function proxyOf(env: Record<string, string | undefined>): NamedProxy | undefined {
  const httpsProxy = proxyUrl(env, 'HTTPS_PROXY');
  const httpProxy = proxyUrl(env, 'HTTP_PROXY');
  const either = httpsProxy ?? httpProxy;
  if (!either) return undefined;
  const named = (env.no_proxy || env.NO_PROXY || '').split(/[,\s]+/).filter(Boolean);
  return {
    httpProxy: httpProxy ?? either,
    httpsProxy: httpsProxy ?? either,
    noProxy: [...named, ...LOOPBACK].join(','),
  };
}

/** Whether a request to `url` goes through the proxy: its host is none of those reached directly (as undici decides). */
export function goesThrough(url: string, proxy: NamedProxy): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  return !proxy.noProxy.split(',').some((entry) => {
    if (entry === '*') return true;
    const [, named = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? [];
    const direct = named.replace(/^\*?\./, '').toLowerCase();
    return (!entryPort || Number(entryPort) === port) && (host === direct || host.endsWith(`.${direct}`));
  });
}

/**
 * VS Code's proxy setting (`http.proxy`, with `http.noProxy`) as the variables above; none when it is
 * not set.
 */
export function proxyVariables(proxy: { url: string; noProxy: string[] }): Record<string, string> {
  if (!proxy.url) return {};
  const noProxy = proxy.noProxy.join(',');
  return {
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    https_proxy: proxy.url,
    http_proxy: proxy.url,
    ...(noProxy ? { NO_PROXY: noProxy, no_proxy: noProxy } : {}),
  };
}
