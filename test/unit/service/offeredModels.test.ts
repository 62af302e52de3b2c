// The models each provider lists for the key the service has (its GET /models), read when the service
// starts with a key and when a key is handed over or checked: a model its provider does not list, or
// lists only as a dated snapshot or a `-latest` alias, is told apart; one not listed cannot answer
// here, is said so in words, is not routed to, not tried by a key check and not started with. Fakes of
// OpenAI's, Anthropic's (in pages) and Gemini's (in pages) lists, a Groq of OpenAI's shape and a
// Together of its own (a bare array).
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { LlmSpacesClient } from '../../../src/api/client';
import type { ModelRecord } from '../../../src/api/schemas';
import { raw } from '../support/http';
import {
  fakeEnv,
  startAnthropicFake,
  startGeminiFake,
  startOpenAiFake,
  startTogetherFake,
  type ProviderFake,
} from '../support/providerFakes';
import { removeDir, startService, type RunningService } from '../support/service';
import { until } from '../support/until';
import { dayLabel } from '../../../src/shared/labels';

/** OpenAI's list for a key that is not given GPT-5.4 mini (one of our starters) nor the old completion models. */
const OPENAI_LISTED = ['gpt-4o-2024-08-06', 'gpt-4o-mini', 'gpt-4.1-nano', 'gpt-6-luna', 'gpt-5.6-luna'];
/** Anthropic's names: dated for the older models, undated for the newer (as its reference shows). */
const ANTHROPIC_LISTED = [
  'claude-opus-4-6',
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-20250514',
  'claude-3-7-sonnet-20250219',
];
const GEMINI_LISTED = ['gemini-3.5-flash', 'gemini-3.5-flash-lite', 'gemini-3.1-flash-lite', 'gemini-embedding-001'];
/** Groq's models of today: none of Llama 2, Mixtral or the Llama 3.2 previews. */
const GROQ_LISTED = ['llama-3.1-8b-instant', 'llama-3.3-70b-versatile', 'openai/gpt-oss-20b', 'openai/gpt-oss-120b'];

describe('the models a provider lists for its key', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let anthropic: ProviderFake;
  let gemini: ProviderFake;
  let groq: ProviderFake;
  let service: RunningService;
  let client: LlmSpacesClient;

  const model = async (namespace: string): Promise<ModelRecord> => {
    const found = (await client.listModels()).find((m) => m.namespace === namespace);
    assert.ok(found, `${namespace} is in the catalogue`);
    return found;
  };
  const state = async (namespace: string) => {
    const m = await model(namespace);
    return [m.answers_here, m.offered_to_key ?? null, m.served_by];
  };
  /** Waits until the list read in the background has been taken in (a model it leaves out shows so). */
  const listed = (namespace: string) =>
    until(`${namespace} was never shown as not listed`, async () => (await model(namespace)).offered_to_key === false);
  /** A chat completion through the Space, naming the model. */
  const ask = (appId: string, namespace: string) =>
    raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { app_id: appId, model: namespace, messages: [{ role: 'user', content: 'hi' }] },
    });

  before(async () => {
    [openai, anthropic, gemini, groq] = await Promise.all([
      startOpenAiFake(),
      startAnthropicFake(),
      startGeminiFake(),
      startOpenAiFake('gsk_fake-groq-0123456789abcdef'),
    ]);
    openai.listed = OPENAI_LISTED;
    anthropic.listed = ANTHROPIC_LISTED;
    gemini.listed = GEMINI_LISTED;
    groq.listed = GROQ_LISTED;
    // Pages of two: the service follows Anthropic's `after_id` and Gemini's `pageToken` to the end.
    anthropic.listPage = 2;
    gemini.listPage = 2;
    service = await startService({
      // Groq's key comes later, in a test (its fake's address is set now).
      env: { ...fakeEnv({ openai, anthropic, google: gemini }), GROQ_BASE_URL: groq.baseUrl },
    });
    client = service.client();
    await Promise.all([listed('openai/gpt-4-32k'), listed('anthropic/claude-2'), listed('google/gemini-1.5-pro')]);
  });
  after(async () => {
    await service?.stop();
    await Promise.all([openai, anthropic, gemini, groq].map((fake) => fake?.close()));
    if (service) removeDir(service.dataDir);
  });

  it("reads each list at start, Anthropic's and Gemini's page by page, and tells a model listed, as a snapshot or alias, from one not", async () => {
    // Three pages of Anthropic's five, three of Gemini's four (the last with one).
    assert.deepEqual([openai.listings, anthropic.listings, gemini.listings], [1, 3, 2]);
    assert.deepEqual([openai.problems, anthropic.problems, gemini.problems], [[], [], []]);
    const served = [true, null, 'OpenAI'];
    const notListed = (label: string) => [false, false, label];
    // Listed as it is, as a dated snapshot (gpt-4o, claude-sonnet-4-5), or behind an alias the
    // catalogue names (claude-opus-4-0, claude-3-7-sonnet-latest).
    assert.deepEqual(await state('openai/gpt-4o-mini'), served);
    assert.deepEqual(await state('openai/gpt-4o'), served);
    assert.deepEqual(await state('openai/gpt-5.4-mini'), notListed('OpenAI'));
    assert.deepEqual(await state('openai/davinci'), notListed('OpenAI'));
    for (const ns of ['claude-opus-4-6', 'claude-sonnet-4-5', 'claude-opus-4-0', 'claude-3-7-sonnet-latest'])
      assert.deepEqual(await state(`anthropic/${ns}`), [true, null, 'Anthropic'], ns);
    assert.deepEqual(await state('anthropic/claude-opus-4-1'), notListed('Anthropic'));
    assert.deepEqual(await state('google/gemini-3.5-flash-lite'), [true, null, 'Google Gemini']);
    assert.deepEqual(await state('google/gemini-1.5-pro'), notListed('Google Gemini'));
  });

  it("refuses a model not listed in words before the provider is asked, routes around it, and lists only the others to OpenAI's SDK", async () => {
    const space = await client.createSpace({ name: 'Listed only' });
    // A new Space starts with the starters the key reaches: GPT-6 Luna, not GPT-5.4 mini.
    const settings = (await client.getSpaceModels(space.id)).base_model_settings;
    assert.deepEqual(
      settings.filter((s) => s.active && s.namespace.startsWith('openai/')).map((s) => s.namespace),
      ['openai/gpt-6-luna'],
    );
    // Turned on, no failover chain: routing passes over the one not listed.
    for (const s of settings) {
      const want = s.namespace === 'openai/gpt-5.4-mini' || s.namespace === 'openai/gpt-4o-mini';
      if (s.active !== want) await client.toggleModel(space.id, s.id, want);
    }
    await client.updateSpace({ id: space.id, has_failover_chain: false });
    const routed = await client.chat({ app_id: space.id, prompt: 'Which of you?' });
    assert.equal(routed.metadata.model.namespace, 'openai/gpt-4o-mini');
    assert.ok(
      routed.metadata.routing?.rejected?.some((r) => r.namespace === 'openai/gpt-5.4-mini'),
      JSON.stringify(routed.metadata.routing),
    );
    const before = openai.seen.length;
    const named = await ask(space.id, 'openai/gpt-5.4-mini');
    assert.equal(named.status, 422, named.text);
    assert.match(
      named.text,
      /openai\/gpt-5\.4-mini cannot answer here: OpenAI does not list it among the models your key can use/,
    );
    assert.equal(openai.seen.length, before, 'OpenAI was not asked');
    // With a failover chain, it is passed over for the chain's next model, OpenAI still not asked for it.
    const mini = settings.find((s) => s.namespace === 'openai/gpt-4o-mini')!;
    await client.updateSpace({ id: space.id, has_failover_chain: true, failover_model_ids: [mini.id!] });
    const failedOver = await client.chat({ app_id: space.id, model: 'openai/gpt-5.4-mini', prompt: 'And you?' });
    assert.equal(failedOver.metadata.model.namespace, 'openai/gpt-4o-mini');
    assert.deepEqual(
      openai.seen.slice(before).map((r) => r.body.model),
      ['gpt-4o-mini'],
    );
    assert.match(
      JSON.stringify(failedOver.metadata.routing?.attempts ?? []),
      /OpenAI does not list it among the models your key can use/,
    );
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: space.created_key!, maxRetries: 0 });
    const ids = (await sdk.models.list()).data.map((m) => m.id);
    assert.ok(ids.includes('openai/gpt-4o-mini'));
    assert.ok(!ids.includes('openai/gpt-5.4-mini') && !ids.includes('anthropic/claude-2'), 'not listed, not offered');
  });

  it('reads the list of a key handed over before checking it, tries a model the key reaches, and forgets the list with the key', async () => {
    assert.deepEqual(await state('groq/llama2-70b-4096'), [false, null, null], 'no Groq key yet');
    await client.setProviderKey('groq', { key: groq.key });
    const check = await client.checkProvider('groq');
    assert.equal(check.ok, true, check.message);
    assert.equal(check.model, 'groq/llama-3.3-70b-versatile');
    assert.equal(groq.seen.at(-1)!.body.model, 'llama-3.3-70b-versatile');
    assert.ok(groq.listings >= 1);
    for (const old of ['llama2-70b-4096', 'mixtral-8x7b-32768', 'llama-3.2-1b-preview'])
      assert.deepEqual(await state(`groq/${old}`), [false, false, 'Groq'], old);
    assert.deepEqual(await state('groq/llama-3.1-8b-instant'), [true, null, 'Groq']);
    // A key none of whose current models are listed cannot be tried, and says why.
    groq.listed = ['whisper-large-v3'];
    const none = await client.checkProvider('groq');
    assert.deepEqual(
      [none.ok, none.message],
      [false, "Groq lists none of the catalogue's current models for this key, so it cannot be tried."],
    );
    await client.removeProviderKey('groq');
    assert.deepEqual(await state('groq/llama-3.1-8b-instant'), [false, null, null]);
    assert.ok(!service.output().includes(groq.key), 'the key is not in the output');
  });

  it('reads the list again when the provider says it has no such model, which from then on shows so', async () => {
    // OpenAI retires gpt-5.6-luna while the service runs: gone from its list, and refused by name.
    openai.listed = OPENAI_LISTED.filter((id) => id !== 'gpt-5.6-luna');
    const listings = openai.listings;
    try {
      assert.deepEqual(await state('openai/gpt-5.6-luna'), [true, null, 'OpenAI'], 'still listed, as last read');
      const space = await client.createSpace({ name: 'Retired meanwhile' });
      await client.updateSpace({ id: space.id, has_failover_chain: false });
      const refused = await ask(space.id, 'openai/gpt-5.6-luna');
      assert.equal(refused.status, 502, refused.text);
      assert.match(
        refused.text,
        /OpenAI has no model gpt-5.6-luna that your key can use \(HTTP 404: The model `gpt-5.6-luna` does not exist or you do not have access to it\.\)/,
      );
      await listed('openai/gpt-5.6-luna');
      assert.equal(openai.listings, listings + 1, 'read once more');
      const named = await ask(space.id, 'openai/gpt-5.6-luna');
      assert.equal(named.status, 422, named.text);
      assert.deepEqual(openai.problems, []);
    } finally {
      openai.listed = OPENAI_LISTED;
    }
  });

  it("reads Anthropic's and Gemini's lists again when either says in its own words that it has no such model", async () => {
    const space = await client.createSpace({ name: 'Retired at Anthropic and Google' });
    await client.updateSpace({ id: space.id, has_failover_chain: false });
    // Cheap models, within the Space's default cap on a request's cost; Anthropic's listed as a snapshot.
    const cases = [
      {
        fake: anthropic,
        listedIds: ANTHROPIC_LISTED,
        namespace: 'anthropic/claude-haiku-4-5',
        retired: 'claude-haiku-4-5-20251001',
        said: /Anthropic has no model claude-haiku-4-5 that your key can use \(HTTP 404: model: claude-haiku-4-5\)/,
      },
      {
        fake: gemini,
        listedIds: GEMINI_LISTED,
        namespace: 'google/gemini-3.1-flash-lite',
        retired: 'gemini-3.1-flash-lite',
        said: /Google Gemini has no model gemini-3\.1-flash-lite that your key can use \(HTTP 404: models\/gemini-3\.1-flash-lite is not found/,
      },
    ];
    for (const { fake, listedIds, namespace, retired, said } of cases) {
      fake.listed = listedIds.filter((id) => id !== retired);
      const listings = fake.listings;
      try {
        const refused = await ask(space.id, namespace);
        assert.equal(refused.status, 502, refused.text);
        assert.match(refused.text, said);
        await listed(namespace);
        assert.ok(fake.listings > listings, `${namespace}: its list was read again`);
        const named = await ask(space.id, namespace);
        assert.equal(named.status, 422, named.text);
        assert.match(named.text, /does not list it among the models your key can use/);
        assert.deepEqual(fake.problems, []);
      } finally {
        fake.listed = listedIds;
      }
    }
  });

  it("reads Together's list, a bare array, and starts no Space with its long-retired models", async () => {
    const together = await startTogetherFake();
    together.listed = ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'Qwen/Qwen3-235B-A22B-Instruct-2507-tput'];
    try {
      await client.setProviderKey('together', { key: together.key, base_url: together.baseUrl });
      const check = await client.checkProvider('together');
      assert.equal(check.ok, true, check.message);
      assert.equal(check.model, 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo');
      for (const old of ['Qwen/Qwen1.5-72B', 'togethercomputer/RedPajama-INCITE-7B-Chat', 'google/gemma-2b'])
        assert.deepEqual(await state(`together/${old}`), [false, false, 'Together AI'], old);
      const space = await client.createSpace({ name: 'With Together' });
      const started = (await client.getSpaceModels(space.id)).base_model_settings
        .filter((s) => s.active && s.namespace.startsWith('together/'))
        .map((s) => s.namespace);
      assert.deepEqual(started, ['together/meta-llama/Llama-3.3-70B-Instruct-Turbo']);
      assert.deepEqual(together.problems, []);
    } finally {
      await client.removeProviderKey('together');
      await together.close();
    }
  });
});

describe('the lists of models, read again while the service runs', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let service: RunningService;
  let client: LlmSpacesClient;

  const offered = async (namespace: string) =>
    (await client.listModels()).find((m) => m.namespace === namespace)?.offered_to_key !== false;
  before(async () => {
    openai = await startOpenAiFake();
    openai.listed = ['gpt-4o-mini', 'gpt-4.1-nano'];
    service = await startService({
      env: { OPENAI_API_KEY: openai.key, OPENAI_BASE_URL: openai.baseUrl },
      modelListsEveryMs: 1000,
    });
    client = service.client();
    await until('the first list was never taken in', async () => !(await offered('openai/gpt-4.1-mini')));
  });
  after(async () => {
    await service?.stop();
    await openai?.close();
    if (service) removeDir(service.dataDir);
  });

  it('shows a model the provider released since as offered, one it retired as not, and keeps the list when a read fails', async () => {
    assert.deepEqual(
      [await offered('openai/gpt-4o-mini'), await offered('openai/gpt-4.1-nano')],
      [true, true],
      'listed at start',
    );
    // The provider releases GPT-4.1 mini to the key and retires GPT-4.1 nano: no key handed over, no
    // request refused, no restart.
    openai.listed = ['gpt-4o-mini', 'gpt-4.1-mini'];
    await until('the list was never read again', async () => await offered('openai/gpt-4.1-mini'));
    assert.equal(await offered('openai/gpt-4.1-nano'), false);
    // The list cannot be read for a while (a 404 here): the one read before stands.
    openai.listed = undefined;
    const listings = openai.listings;
    await until('no read was tried', async () => openai.listings >= listings + 2);
    assert.deepEqual(
      [await offered('openai/gpt-4o-mini'), await offered('openai/gpt-4.1-mini'), await offered('openai/gpt-4.1-nano')],
      [true, true, false],
    );
    assert.deepEqual(openai.problems, []);
    assert.ok(!service.output().includes(openai.key), 'the key is not in the output');
  });

  it("retires a model on the day its provider's list says it shuts down, and on the shipped day once the list says none", async () => {
    const retiresOn = async (namespace: string) =>
      (await client.listModels()).find((m) => m.namespace === namespace)?.deprecated_on ?? null;
    openai.listed = ['gpt-4o-mini', 'gpt-6-luna'];
    // OpenAI announces GPT-6 Luna's shutdown, and moves GPT-4o mini's before the day the catalogue has.
    openai.shutdowns = { 'gpt-6-luna': '2027-06-30', 'gpt-4o-mini': '2026-12-20' };
    try {
      await until(
        'the shutdown day was never taken in',
        async () => (await retiresOn('openai/gpt-6-luna')) === '2027-06-30',
      );
      assert.equal(await retiresOn('openai/gpt-4o-mini'), '2026-12-20');
      const space = await client.createSpace({ name: 'Retiring' });
      const reply = await client.chat({ app_id: space.id, prompt: 'still there?', model: 'openai/gpt-6-luna' });
      assert.equal(reply.model, 'openai/gpt-6-luna');
      assert.equal(
        reply.metadata.warning,
        `openai/gpt-6-luna is deprecated and will stop being served on ${dayLabel('2027-06-30')}.`,
      );
      // The list says no day any more: the catalogue's own (none for GPT-6 Luna) stands again.
      openai.shutdowns = {};
      await until('the shutdown day was never dropped', async () => (await retiresOn('openai/gpt-6-luna')) === null);
      assert.equal(await retiresOn('openai/gpt-4o-mini'), '2027-01-14');
      assert.deepEqual(openai.problems, []);
    } finally {
      openai.shutdowns = undefined;
    }
  });
});
