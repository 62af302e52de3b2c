// Behind a company's proxy: the service reaches providers through the proxy HTTPS_PROXY / HTTP_PROXY
// names, in a CONNECT tunnel, with the proxy's credentials sent to the proxy only; NO_PROXY's hosts and
// this computer's own addresses are reached directly; the log names the proxy without its credentials.
// The fake proxy is the only one that knows the provider's host name (`openai.proxied.test`), so an
// answer through it is proof the request went through the proxy. The extension's own client reaches a
// remote LLM Spaces service through VS Code's proxy setting the same way.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { LlmSpacesClient } from '../../../src/api/client';
import { startProxy, type FakeProxy } from '../support/fakeProxy';
import { fakeEnv, startOpenAiFake, type ProviderFake } from '../support/providerFakes';
import { echoSpace, spaceOf, startService, type RunningService } from '../support/service';

const HOST = 'openai.proxied.test';

describe('the service behind a proxy', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let proxy: FakeProxy;
  let service: RunningService | undefined;
  let fakePort: number;

  before(async () => {
    openai = await startOpenAiFake();
    fakePort = Number(new URL(openai.baseUrl).port);
    proxy = await startProxy();
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
        OPENAI_BASE_URL: `http://refused.proxied.test:${fakePort}/v1`,
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
    assert.ok(proxy.tunnels.every((t) => t.target === `refused.proxied.test:${fakePort}`));
  });

  it('says when it is the proxy that does not answer', async () => {
    // A port nothing listens on: the proxy is down.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const down = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    service = await startService({
      env: { ...fakeEnv({ openai }), OPENAI_BASE_URL: `http://${HOST}:${fakePort}/v1`, HTTPS_PROXY: down },
      pricesUrl: `https://${HOST}/data.json`,
    });
    const failed = await ask('openai/gpt-4o-mini').catch((error: unknown) => error as Error);
    const why = `it goes through the proxy ${down}, which could not be reached: nothing answers at its address`;
    assert.ok((failed as Error).message.includes(`OpenAI could not be reached: ${why}`), (failed as Error).message);
    assert.ok(
      service.output().includes(`The current price list could not be read from ${HOST}: ${why}`),
      'the list says so too',
    );
  });

  it("reaches a remote LLM Spaces service through VS Code's proxy setting, and this computer directly", async () => {
    service = await startService();
    const port = new URL(service.url).port;
    const token = service.token;
    const remote = new LlmSpacesClient({
      baseUrl: `http://llm-spaces.proxied.test:${port}`,
      token: () => token,
      proxy: { url: proxy.url, noProxy: [] },
    });
    const local = new LlmSpacesClient({
      baseUrl: service.url,
      token: () => token,
      proxy: { url: proxy.url, noProxy: [] },
    });
    try {
      assert.ok((await remote.listModels()).length > 0);
      assert.deepEqual(
        proxy.tunnels.map((t) => t.target),
        [`llm-spaces.proxied.test:${port}`],
      );
      assert.ok((await local.listModels()).length > 0);
      assert.equal(proxy.tunnels.length, 1, 'the service on this computer is reached directly');
    } finally {
      await Promise.all([remote.close(), local.close()]);
    }
  });
});
