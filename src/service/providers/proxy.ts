// The service's requests to providers, model servers, integrations and the lists it reads go through
// the proxy the environment names, as curl and most developer tools read it: HTTPS_PROXY for https
// addresses, HTTP_PROXY for http ones (either in lower case too), NO_PROXY for hosts reached directly.
// This computer's own addresses are always reached directly (a model server on localhost is never sent
// to a company's proxy). Credentials in the proxy's URL go to the proxy only (Proxy-Authorization),
// and never to the log. undici's EnvHttpProxyAgent does the work; HTTPS goes through a CONNECT tunnel.
import { Agent, EnvHttpProxyAgent, setGlobalDispatcher, type Dispatcher } from 'undici';

/** This computer's addresses, never sent to the proxy. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A proxy variable's URL (curl takes `host:port` for http://host:port); undefined when unset or not one. */
function proxyUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = (env[name.toLowerCase()] || env[name] || '').trim();
  if (!value) return undefined;
  const url = value.includes('://') ? value : `http://${value}`;
  try {
    return ['http:', 'https:', 'socks5:'].includes(new URL(url).protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The proxies the environment names, and the hosts reached directly; undefined when it names none. */
export function proxyOf(env: NodeJS.ProcessEnv = process.env) {
  const httpsProxy = proxyUrl(env, 'HTTPS_PROXY');
  const httpProxy = proxyUrl(env, 'HTTP_PROXY');
  const either = httpsProxy ?? httpProxy;
  if (!either) return undefined;
  const named = (env.no_proxy || env.NO_PROXY || '').split(/[,\s]+/).filter(Boolean);
  // One proxy named serves both kinds of address, as undici's own reading of these variables has it.
  return {
    httpProxy: httpProxy ?? either,
    httpsProxy: httpsProxy ?? either,
    noProxy: [...named, ...LOOPBACK].join(','),
  };
}

/** An agent with these options that goes through the environment's proxy, if it names one. */
export function outboundAgent(options: Agent.Options): Dispatcher {
  const proxy = proxyOf();
  return proxy ? new EnvHttpProxyAgent({ ...options, ...proxy }) : new Agent(options);
}

/**
 * Sends every request made without an agent of its own (fetch, undici's request) through the
 * environment's proxy; what it did, in words for the log (the proxy's credentials left out), or
 * undefined when the environment names none.
 */
export function useEnvironmentProxy(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const proxy = proxyOf(env);
  if (!proxy) {
    const unread = ['HTTPS_PROXY', 'HTTP_PROXY'].filter((name) => (env[name.toLowerCase()] || env[name] || '').trim());
    return unread.length
      ? `${unread.join(' and ')} ${unread.length > 1 ? 'are' : 'is'} not a proxy's URL (http://host:port): requests go directly.`
      : undefined;
  }
  setGlobalDispatcher(outboundAgent({}));
  const https = shown(proxy.httpsProxy);
  const http = shown(proxy.httpProxy);
  const through = https === http ? `the proxy ${https}` : `the proxy ${https} (https) and ${http} (http)`;
  return `Requests to providers go through ${through}; directly to ${proxy.noProxy.split(',').join(', ')}.`;
}

/** A proxy's URL without its credentials. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.username || parsed.password ? '…@' : ''}${parsed.host}`;
}
