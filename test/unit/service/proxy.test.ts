// Behind a company's proxy: the service reaches providers through the proxy HTTPS_PROXY / HTTP_PROXY
// names, in a CONNECT tunnel, with the proxy's credentials sent to the proxy only; NO_PROXY's hosts and
// this computer's own addresses are reached directly; the log names the proxy without its credentials.
// The fake proxy is the only one that knows the provider's host name (`openai.proxied.test`), so an
// answer through it is proof the request went through the proxy.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import OpenAI from 'openai';
import { fakeEnv, startOpenAiFake, type ProviderFake } from '../support/providerFakes';
import { echoSpace, spaceOf, startService, type RunningService } from '../support/service';

const HOST = 'openai.proxied.test';

interface FakeProxy {
  url: string;
  /** The tunnels asked for (host:port), and the headers each came with. */
  tunnels: Array<{ target: string; headers: IncomingHttpHeaders }>;
  close: () => Promise<void>;
}

/** A proxy that tunnels to `HOST` (which it sends to the fake's port on this computer) and refuses the rest. */
async function startProxy(fakePort: number): Promise<FakeProxy> {
  const tunnels: FakeProxy['tunnels'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket) => {
    const target = request.url ?? '';
    tunnels.push({ target, headers: request.headers });
    sockets.add(client);
    if (target !== `${HOST}:${fakePort}`) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(fakePort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    for (const s of [client, upstream]) s.on('error', () => undefined).on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the service behind a proxy', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let proxy: FakeProxy;
  let service: RunningService | undefined;
  let fakePort: number;

  before(async () => {
    openai = await startOpenAiFake();
    fakePort = Number(new URL(openai.baseUrl).port);
    proxy = await startProxy(fakePort);
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    proxy.tunnels.length = 0;
  });
  after(async () => {
    await Promise.all([proxy.close(), openai.close()]);
  });

  const ask = async (model: string) => {
    const space = await spaceOf(service!, 'Behind a proxy', [model]);
    const sdk = new OpenAI({ baseURL: `${service!.url}/v1`, apiKey: space.key, maxRetries: 0 });
    return sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] });
  };

  it('reaches a provider through the proxy, with its credentials sent to the proxy alone', async () => {
    const env = {
      ...fakeEnv({ openai }),
      OPENAI_BASE_URL: `http://${HOST}:${fakePort}/v1`,
      HTTPS_PROXY: proxy.url.replace('//', '//tunnel-user:proxy-s3cret@'),
      HTTP_PROXY: proxy.url.replace('//', '//tunnel-user:proxy-s3cret@'),
    };
    // The price list too is read through the proxy (here an address with no list: the fake answers 404).
    service = await startService({ env, pricesUrl: `http://${HOST}:${fakePort}/no-list-here.json` });
    const reply = await ask('openai/gpt-4o-mini');
    assert.ok(reply.choices[0]?.message.content);
    assert.equal(openai.seen.at(-1)?.body.model, 'gpt-4o-mini');
    assert.ok(proxy.tunnels.length > 0);
    assert.ok(proxy.tunnels.every((t) => t.target === `${HOST}:${fakePort}`));
    assert.equal(
      proxy.tunnels[0]!.headers['proxy-authorization'],
      `Basic ${Buffer.from('tunnel-user:proxy-s3cret').toString('base64')}`,
    );
    // The provider never sees the proxy's credentials; the log names the proxy without them.
    assert.ok(!JSON.stringify(openai.seen.at(-1)?.headers).includes('s3cret'));
    const said = service.output();
    assert.ok(
      /Requests to providers go through the proxy http:\/\/…@127\.0\.0\.1:\d+; directly to localhost, 127\.0\.0\.1, \[::1\]\./.test(
        said,
      ),
      'the log names the proxy',
    );
    assert.ok(!said.includes('s3cret'), 'the log holds no proxy credentials');
    assert.ok(
      /The current price list could not be read from openai\.proxied\.test:\d+: it answered 404\./.test(said),
      'the price list was asked for through the proxy',
    );
    // The one complaint is of the list's request, which carries no key (the chat's answered).
    assert.deepEqual(openai.problems, ['openai: Authorization is not "Bearer <key>"']);
  });

  it("reaches NO_PROXY's hosts and this computer directly, and says in words when the proxy refuses", async () => {
    service = await startService({
      env: { ...fakeEnv({ openai }), HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'example.internal' },
    });
    // The fake on 127.0.0.1: this computer's own address, never tunnelled.
    assert.ok((await ask('openai/gpt-4o-mini')).choices[0]?.message.content);
    assert.equal(proxy.tunnels.length, 0, 'nothing went through the proxy');
    // The test model needs nothing outside.
    const echo = await echoSpace(service, 'Echo');
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: echo.key, maxRetries: 0 });
    assert.ok(
      (await sdk.chat.completions.create({ model: 'test/echo', messages: [{ role: 'user', content: 'hi' }] })).id,
    );
    await service.stop();

    // A provider the proxy will not tunnel to: refused in words, naming the proxy.
    service = await startService({
      env: {
        ...fakeEnv({ openai }),
        OPENAI_BASE_URL: `http://elsewhere.proxied.test:${fakePort}/v1`,
        HTTPS_PROXY: proxy.url,
      },
    });
    const refused = await ask('openai/gpt-4o-mini').catch(
      (error: unknown) => error as { status?: number; message: string },
    );
    assert.equal((refused as { status?: number }).status, 502);
    assert.match((refused as Error).message, /OpenAI could not be reached: the proxy refused to connect to it \(403\)/);
    // Asked again, as a connection that failed is, and never sent elsewhere than through the proxy.
    assert.ok(proxy.tunnels.length > 0);
    assert.ok(proxy.tunnels.every((t) => t.target === `elsewhere.proxied.test:${fakePort}`));
  });
});
