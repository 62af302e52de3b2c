// The service's requests to providers, model servers, integrations and the lists it reads go through
// the proxy the environment names (src/shared/proxy.ts). Credentials in the proxy's URL go to the
// proxy only (Proxy-Authorization), and never to the log. undici's EnvHttpProxyAgent does the work;
// HTTPS goes through a CONNECT tunnel.
import { Agent, EnvHttpProxyAgent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { goesThrough, proxyOf, unreadProxyVariables, type NamedProxy } from '../../shared/proxy';

/** An agent with these options that goes through the proxy `env` names, if it names one. */
export function outboundAgent(options: Agent.Options, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const proxy = proxyOf(env);
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
    const unread = unreadProxyVariables(env);
    return unread.length
      ? `${unread.join(' and ')} ${unread.length > 1 ? 'are' : 'is'} not a proxy's URL (http://host:port): requests go directly.`
      : undefined;
  }
  setGlobalDispatcher(outboundAgent({}, env));
  inUse = proxy;
  const https = shown(proxy.httpsProxy);
  const http = shown(proxy.httpProxy);
  const through = https === http ? `the proxy ${https}` : `the proxy ${https} (https) and ${http} (http)`;
  return `Requests to providers go through ${through}; directly to ${proxy.noProxy.split(',').join(', ')}.`;
}

/** The proxy the service's requests go through, once useEnvironmentProxy found one. */
let inUse: NamedProxy | undefined;

/**
 * Why `url` could not be reached (`words`, from the connection's error), said of the proxy where the
 * request went through one: the only connection made then is the proxy's.
 */
export function throughProxy(url: string | undefined, words: string): string {
  if (!inUse || !url || !goesThrough(url, inUse) || /proxy/.test(words)) return words;
  const proxy = shown(new URL(url).protocol === 'https:' ? inUse.httpsProxy : inUse.httpProxy);
  return `it goes through the proxy ${proxy}, which could not be reached: ${words}`;
}

/** A proxy's URL without its credentials. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.username || parsed.password ? '…@' : ''}${parsed.host}`;
}
