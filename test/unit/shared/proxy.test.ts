// Which proxy the environment names, as curl reads the variables: either case, `host:port` for an
// http:// URL, one variable serving both schemes, this computer always direct; and the variables set
// to something that is not a proxy's URL, which the service's log names.
import assert from 'node:assert/strict';
import { goesThrough, proxyOf, unreadProxyVariables } from '../../../src/shared/proxy';

describe('the proxy the environment names', () => {
  it('reads either case, takes host:port for http://, and lets one variable serve both schemes', () => {
    const proxy = proxyOf({ https_proxy: 'proxy.example:3128', NO_PROXY: 'intranet.example' })!;
    assert.deepEqual(proxy, {
      httpsProxy: 'http://proxy.example:3128',
      httpProxy: 'http://proxy.example:3128',
      noProxy: 'intranet.example,localhost,127.0.0.1,[::1]',
    });
    assert.equal(goesThrough('https://api.openai.com/v1', proxy), true);
    assert.equal(goesThrough('https://wiki.intranet.example/x', proxy), false);
    assert.equal(goesThrough('http://127.0.0.1:11434/v1', proxy), false, 'this computer, directly');
    assert.equal(proxyOf({}), undefined);
  });

  it('names the variables set to something that is not a proxy URL, and only those', () => {
    assert.deepEqual(unreadProxyVariables({ HTTPS_PROXY: 'ftp://proxy.example', http_proxy: ' ' }), ['HTTPS_PROXY']);
    assert.deepEqual(unreadProxyVariables({ HTTPS_PROXY: 'http://proxy.example:3128', HTTP_PROXY: '::' }), [
      'HTTP_PROXY',
    ]);
    assert.deepEqual(unreadProxyVariables({ https_proxy: 'proxy.example:3128' }), []);
    assert.equal(proxyOf({ HTTPS_PROXY: 'ftp://proxy.example' }), undefined);
  });
});
