// The catalogue of hosted providers' models is built from the shipped datasets: today's models with
// their real prices (cache reads included) and context windows, the dataset's version and date said at
// start, nothing written again when nothing changed, and a data folder made with the hand-written
// catalogue of 0.1.0 still opens with its Spaces and their models.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelRecord } from '../../../src/api/schemas';
import { cheapestFirst, isRetired } from '../../../src/shared/models';
import { STARTERS } from '../../../src/service/domain/spaces';
import { byListing, DATASET, datasetModels, pricedAt, qualityOf } from '../../../src/service/providers/dataset';
import { costOf } from '../../../src/service/chat/pricing';
import { providerKeys } from '../../../src/service/providers/keys';
import { GOOGLE_ADC_KEY, PROVIDER_NAMES } from '../../../src/shared/providerNames';
import { removeDir, startService, type RunningService } from '../support/service';

const ROOT = path.resolve(__dirname, '../../../..');

describe('the catalogue from the shipped datasets', function () {
  this.timeout(60_000);
  let service: RunningService;
  let models: ModelRecord[];
  const byName = (ns: string) => models.find((m) => m.namespace === ns);

  before(async () => {
    service = await startService();
    models = await service.client().listModels();
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it('names the dataset version the package has, and says it with its date at start', () => {
    const installed = JSON.parse(
      readFileSync(path.join(ROOT, 'node_modules/@pydantic/genai-prices/package.json'), 'utf8'),
    ) as { version: string };
    assert.equal(DATASET.version, installed.version, 'a new dataset version needs its date in providers/dataset.ts');
    assert.match(
      service.output(),
      /Catalogue: \d{3,} models of hosted providers from @pydantic\/genai-prices 0\.1\.8 \(2026-09-23\)/,
    );
  });

  it("carries today's models at their providers' prices, with cache reads, context windows and capabilities", () => {
    const mini = byName('openai/gpt-5-mini')!;
    assert.ok(mini, 'GPT-5 mini');
    assert.deepEqual(
      [
        mini.prompt_token_cost * 1e6,
        mini.completion_token_cost * 1e6,
        mini.cache_read_token_cost! * 1e6,
        mini.context_window,
      ],
      [0.25, 2, 0.025, 400_000],
    );
    const haiku = byName('anthropic/claude-haiku-4-5')!;
    assert.deepEqual(
      [haiku.prompt_token_cost * 1e6, haiku.completion_token_cost * 1e6, haiku.context_window],
      [1, 5, 200_000],
    );
    const flash = byName('google/gemini-3-flash-preview')!;
    assert.equal(flash.provider, 'google');
    assert.equal(flash.answers_here, false, 'no key, no answer');
    assert.equal(byName('openai/gpt-4o-mini')!.supports_vision, true, 'capabilities from models.dev');
    assert.equal(
      byName('openai/gpt-5.4-mini')!.supports_vision,
      true,
      "else from the AI SDK's table of OpenAI's models",
    );
    assert.deepEqual(
      [
        'openai/gpt-4o-mini',
        'openai/o3',
        'openai/gpt-5.4',
        'anthropic/claude-haiku-4-5',
        'anthropic/claude-3-5-haiku-latest',
        'google/gemini-2.0-flash',
        'google/gemini-3.5-flash',
        'deepseek/deepseek-v4-flash',
        'deepseek/deepseek-v3.2',
      ].map((ns) => byName(ns)!.supports_reasoning),
      [false, true, true, true, false, false, true, true, undefined],
      "which models reason (take an effort): models.dev's word, else the AI SDK's for OpenAI's, else the providers' lists by version; else none",
    );
    assert.ok(!models.some((m) => /embedding|whisper|dall-e|tts/.test(m.namespace)), 'chat models only');
    // models.dev lists it for Azure, but it answers text completions only: a chat to it is refused there.
    assert.equal(byName('azure/gpt-3.5-turbo-instruct'), undefined, 'no model of text completion only');
    // Azure OpenAI serves OpenAI's models at OpenAI's prices (the price list has only Azure's own):
    // each that models.dev lists for Azure, a deployment named by its id; a dated snapshot is the model.
    const azure = (ns: string) => {
      const m = byName(ns);
      return m && [m.prompt_token_cost * 1e6, m.completion_token_cost * 1e6, m.supports_reasoning];
    };
    assert.deepEqual(['azure/gpt-4o-mini', 'azure/gpt-5-mini', 'azure/o3-2025-04-16'].map(azure), [
      [0.15, 0.6, false],
      [0.25, 2, true],
      [2, 8, true],
    ]);
    assert.equal(mini.added_by, DATASET.name);
  });

  it("calls each model by the id its provider's API takes, where the price list names it by a label", () => {
    const target = (ns: string) => byName(ns)?.api_target;
    assert.deepEqual(
      [
        'mistral/codestral',
        'mistral/mistral-medium-3-1',
        'mistral/mistral-small-latest',
        'openai/gpt-4o-mini',
        'anthropic/claude-3-5-haiku-latest',
        'fireworks/gpt-oss-120b',
      ].map(target),
      [
        // Priced as codestral-latest and codestral-2501; models.dev lists codestral-latest.
        'codestral-latest',
        // Priced as mistral-medium-2505 and -2508, both listed: the newest.
        'mistral-medium-2508',
        'mistral-small-latest',
        'gpt-4o-mini',
        'claude-3-5-haiku-latest',
        'accounts/fireworks/models/gpt-oss-120b',
      ],
    );
  });

  it("retires the models their provider retired where the price list has not caught up: DeepSeek's, xAI's, Google's and Anthropic's", () => {
    const retired = (day: string, provider: string) =>
      datasetModels(`${day}T00:00:00.000Z`)
        .filter((m) => m.record.provider === provider && m.record.deprecated_on)
        .map((m) => `${m.record.namespace} ${m.record.deprecated_on}`);
    const deepseek = ['deepseek/deepseek-chat 2026-07-24', 'deepseek/deepseek-reasoner 2026-07-24'];
    // Listed as current by the price list; dated before the day (a warning) and after it (refused).
    assert.deepEqual(retired('2026-06-01', 'deepseek'), deepseek);
    assert.deepEqual(retired('2026-11-24', 'deepseek'), deepseek);
    assert.deepEqual(retired('2026-11-24', 'xai').sort(), [
      'xai/grok-2-1212 2026-09-23',
      'xai/grok-3 2026-05-15',
      'xai/grok-4-0709 2026-05-15',
      'xai/grok-4-1-fast-non-reasoning 2026-05-15',
      'xai/grok-4-1-fast-reasoning 2026-05-15',
      'xai/grok-4-fast-non-reasoning 2026-05-15',
      'xai/grok-4-fast-reasoning 2026-05-15',
      'xai/grok-code-fast-1 2026-05-15',
    ]);
    assert.equal(isRetired(byName('deepseek/deepseek-chat')!), true);
    for (const current of ['deepseek/deepseek-v4-flash', 'xai/grok-4.3', 'xai/grok-3-mini'])
      assert.equal(byName(current)!.deprecated_on, null, current);
    // Gemini 2.0 Flash on both of Google's APIs, 1.x long ago; 3 Pro Preview and 2.5 Pro and Flash on the
    // Gemini API only (Vertex AI keeps 2.5 on its own schedule); 2.5 Flash-Lite stays.
    const google = new Map(datasetModels('2026-11-24T00:00:00.000Z').map((m) => [m.record.namespace, m.record]));
    assert.deepEqual(
      [
        'google/gemini-2.0-flash',
        'vertex/gemini-2.0-flash-lite',
        'google/gemini-1.5-pro',
        'vertex/gemini-pro',
        'google/gemini-3-pro-preview',
        'google/gemini-2.5-pro',
        'google/gemini-2.5-flash',
        'vertex/gemini-2.5-pro',
        'google/gemini-2.5-flash-lite',
      ].map((ns) => google.get(ns)!.deprecated_on),
      ['2026-06-01', '2026-06-01', '2025-09-24', '2025-09-24', '2026-03-09', '2026-12-01', '2026-12-01', null, null],
    );
    // Anthropic's on the Claude API, which the price list lists as current (Claude 2 first, by name); Claude
    // Opus 4.5 retiring (served, with a warning); Vertex AI's Claude on Google's own schedule.
    assert.deepEqual(retired('2026-11-30', 'anthropic').sort(), [
      'anthropic/claude-2 2025-07-21',
      'anthropic/claude-3-5-haiku-latest 2026-02-19',
      'anthropic/claude-3-5-sonnet 2025-10-22',
      'anthropic/claude-3-7-sonnet-latest 2026-02-19',
      'anthropic/claude-3-haiku 2026-04-19',
      'anthropic/claude-3-opus-latest 2026-01-05',
      'anthropic/claude-3-sonnet 2025-07-21',
      'anthropic/claude-opus-4-0 2026-06-15',
      'anthropic/claude-opus-4-1 2026-08-05',
      'anthropic/claude-opus-4-5 2027-01-22',
      'anthropic/claude-sonnet-4-0 2026-06-15',
      'anthropic/claude-sonnet-4-5 2026-11-30',
      'anthropic/claude-v1 2024-11-06',
    ]);
    const today = new Map(datasetModels('2026-11-30T00:00:00.000Z').map((m) => [m.record.namespace, m.record]));
    assert.equal(isRetired(today.get('anthropic/claude-opus-4-1')!, '2026-11-30'), true);
    assert.equal(isRetired(today.get('anthropic/claude-opus-4-5')!, '2026-11-30'), false);
    for (const current of ['anthropic/claude-opus-4-6', 'anthropic/claude-haiku-4-5', 'vertex/claude-opus-4-1'])
      assert.equal(today.get(current)?.deprecated_on, null, current);
    // Claude 3.5 Haiku shut down on Vertex AI later than on the Claude API, by Google's page for partner models.
    assert.equal(today.get('vertex/claude-3-5-haiku')?.deprecated_on, '2026-07-05');
    // OpenAI's, which the price list lists as current: shut down (refused), to retire (a warning until
    // the day), and its newest models and Azure's deployments of the old ones, untouched.
    const openai = new Map(retired('2026-12-01', 'openai').map((line) => line.split(' ') as [string, string]));
    assert.equal(openai.size, 40);
    assert.deepEqual(
      [
        'openai/gpt-3.5-turbo',
        'openai/o4-mini',
        'openai/gpt-4.1-nano',
        'openai/davinci',
        'openai/chatgpt-4o-latest',
      ].map((ns) => isRetired({ deprecated_on: openai.get(ns) }, '2026-12-01')),
      [true, true, true, true, true],
    );
    assert.deepEqual(
      ['openai/gpt-5-mini', 'openai/o3', 'openai/gpt-4o-mini', 'openai/gpt-4.1', 'openai/gpt-5.4-nano'].map((ns) =>
        openai.get(ns),
      ),
      ['2026-12-11', '2026-12-11', '2027-01-14', '2027-01-14', '2027-04-01'],
    );
    const december = new Map(datasetModels('2026-12-01T00:00:00.000Z').map((m) => [m.record.namespace, m.record]));
    for (const current of ['openai/gpt-5.4-mini', 'openai/gpt-5.6-sol', 'openai/gpt-6-luna', 'azure/gpt-4.1-nano'])
      assert.equal(december.get(current)?.deprecated_on, null, current);
  });

  it('prices each model as on the day, and bills peak hours at their prices when they come', () => {
    const on = (day: string) =>
      new Map(datasetModels(`${day}T12:00:00.000Z`).map((m) => [m.record.namespace, m.record]));
    const perMillion = (r: ModelRecord | undefined) => r && [r.prompt_token_cost * 1e6, r.completion_token_cost * 1e6];
    // Gemini 3.6 Flash is at half price until 2027; its list price comes on the first day of 2027.
    assert.deepEqual(perMillion(on('2026-11-30').get('google/gemini-3.6-flash')), [0.75, 3.75]);
    assert.deepEqual(perMillion(on('2027-01-01').get('google/gemini-3.6-flash')), [1.5, 7.5]);
    // DeepSeek's V4 models: one price before 2026-08-17, another after, and twice that in its peak hours.
    assert.deepEqual(perMillion(on('2026-08-01').get('deepseek/deepseek-v4-flash')), [0.14, 0.28]);
    const flash = on('2026-11-30').get('deepseek/deepseek-v4-flash')!;
    assert.deepEqual(perMillion(flash), [0.22, 0.66], 'the catalogue gives the price outside peak hours');
    const at = (stamp: string) => perMillion(pricedAt(flash, new Date(stamp), 1000));
    // Monday 2026-11-30: peak from 01:00 to 04:00 and from 06:00 to 10:00 UTC.
    assert.deepEqual(at('2026-11-30T01:00:00Z'), [0.44, 1.32]);
    assert.deepEqual(at('2026-11-30T03:59:59Z'), [0.44, 1.32]);
    assert.deepEqual(at('2026-11-30T04:00:00Z'), [0.22, 0.66]);
    assert.deepEqual(at('2026-11-30T09:30:00Z'), [0.44, 1.32]);
    assert.deepEqual(at('2026-11-30T12:00:00Z'), [0.22, 0.66]);
    assert.equal(pricedAt(flash, new Date('2026-11-30T02:00:00Z'), 1000).cache_read_token_cost! * 1e6, 0.014);
    // None at weekends in Beijing time (UTC+8): Saturday and Sunday 09:00 UTC are 17:00 there; Friday
    // 07:00 UTC is Friday 15:00 there, a peak hour.
    assert.deepEqual(at('2026-11-28T09:00:00Z'), [0.22, 0.66]);
    assert.deepEqual(at('2026-11-29T01:00:00Z'), [0.22, 0.66]);
    assert.deepEqual(at('2026-11-27T07:00:00Z'), [0.44, 1.32]);
    // A model without peak hours is billed as it is.
    const mini = on('2026-11-30').get('openai/gpt-5-mini')!;
    assert.equal(pricedAt(mini, new Date('2026-11-30T02:00:00Z'), 1000), mini);
  });

  it("bills a prompt longer than a price list's tier at that tier's prices, the whole request, as the provider bills it", () => {
    const listed = new Map(datasetModels('2026-11-30T12:00:00.000Z').map((m) => [m.record.namespace, m.record]));
    const noon = new Date('2026-11-30T12:00:00Z');
    const perMillion = (r: ModelRecord) =>
      [r.prompt_token_cost, r.completion_token_cost, r.cache_read_token_cost].map((p) => Math.round(p! * 1e9) / 1e3);
    const billed = (ns: string, promptTokens: number) => perMillion(pricedAt(listed.get(ns)!, noon, promptTokens));
    // GPT-5.4: twice the input and 1.5 times the output above 272,000 prompt tokens (its tier starts after 271,999).
    assert.deepEqual(billed('openai/gpt-5.4', 271_999), [2.5, 15, 0.25]);
    assert.deepEqual(billed('openai/gpt-5.4', 272_000), [5, 22.5, 0.5]);
    // Gemini 2.5 Pro above 200,000; Grok 4.3 from 200,000.
    assert.deepEqual(billed('google/gemini-2.5-pro', 200_000), [1.25, 10, 0.125]);
    assert.deepEqual(billed('google/gemini-2.5-pro', 200_001), [2.5, 15, 0.25]);
    assert.deepEqual(billed('xai/grok-4.3', 199_999), [1.25, 2.5, 0.2]);
    assert.deepEqual(billed('xai/grok-4.3', 200_000), [2.5, 5, 0.4]);
    // Claude Sonnet 4.6's longer prompts were priced until its 1M-token window ended (2026-04-30): the
    // price list's prices of today have one price, cache writes included.
    assert.deepEqual(billed('anthropic/claude-sonnet-4-6', 250_000), [3, 15, 0.3]);
    // What a request costs: every token at the longer prompt's price, none at the base.
    const cost = costOf(pricedAt(listed.get('openai/gpt-5.4')!, noon, 300_000), {
      promptTokens: 300_000,
      completionTokens: 1_000,
      promptChars: 0,
      completionChars: 0,
    });
    assert.equal(Math.round(cost.total * 1e6) / 1e6, 1.5225);
    // A model with one price is billed as it is at any length.
    const mini = listed.get('openai/gpt-5-mini')!;
    assert.equal(pricedAt(mini, noon, 1_000_000), mini);
  });

  it("bills Claude from Sonnet 4.5 on 10% more at Vertex AI's regional and multi-regional endpoints than at its global one", () => {
    const vertex = new Map(
      datasetModels('2026-11-30T12:00:00.000Z')
        .map((m) => m.record)
        .filter((r) => r.provider === 'vertex')
        .map((r) => [r.model, r]),
    );
    const names = [
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'claude-opus-4-6',
      'claude-sonnet-4',
      'claude-opus-4-1',
      'claude-3-7-sonnet',
      'gemini-3.5-flash',
    ];
    const billed = () =>
      names.map((name) => {
        const r = pricedAt(vertex.get(name)!, new Date('2026-11-30T12:00:00Z'), 1000);
        const listed = vertex.get(name)!;
        return Math.round((r.prompt_token_cost / listed.prompt_token_cost) * 100) / 100;
      });
    const at = (location: string) =>
      providerKeys.set(
        'vertex',
        GOOGLE_ADC_KEY,
        PROVIDER_NAMES.find((p) => p.id === 'vertex')!.googleCloud!.baseUrl('llm-spaces-test', location),
      );
    try {
      assert.deepEqual(billed(), [1, 1, 1, 1, 1, 1, 1], "no key: the price list's");
      at('global');
      assert.deepEqual(billed(), [1, 1, 1, 1, 1, 1, 1]);
      for (const location of ['us-east5', 'eu']) {
        at(location);
        assert.deepEqual(billed(), [1.1, 1.1, 1.1, 1, 1, 1, 1], location);
      }
      const sonnet = pricedAt(vertex.get('claude-sonnet-4-5')!, new Date('2026-11-30T12:00:00Z'), 1000);
      assert.deepEqual(
        [sonnet.completion_token_cost, sonnet.cache_read_token_cost, sonnet.cache_write_token_cost].map(
          (p) => Math.round(p! * 1e9) / 1e3,
        ),
        [16.5, 0.33, 4.125],
      );
    } finally {
      providerKeys.remove('vertex');
    }
  });

  it("tells a provider's models models.dev lists from those only the price list keeps, retired long ago", () => {
    const groq = datasetModels('2026-11-24T00:00:00.000Z')
      .map((m) => m.record)
      .filter((r) => r.provider === 'groq' && !r.deprecated_on);
    const { listed, unlisted } = byListing(groq);
    assert.equal(listed[0]!.namespace, 'groq/llama-3.1-8b-instant');
    // Groq retired its Llama 3.2 previews in 2025; the price list lists them, and they are the cheapest.
    assert.equal(unlisted[0]!.namespace, 'groq/llama-3.2-1b-preview');
    assert.ok(cheapestFirst(unlisted[0]!, listed[0]!) < 0);
    assert.ok(listed.some((r) => r.namespace === 'groq/llama-3.3-70b-versatile'));
  });

  it('rates quality by the stated rule, and writes nothing again when the dataset did not change', async () => {
    assert.equal(qualityOf(0), 40);
    assert.equal(qualityOf(15), 88);
    assert.equal(qualityOf(1000), 95);
    await service.stop();
    const again = await startService({ dataDir: service.dataDir, orgs: [], token: service.token });
    try {
      assert.match(again.output(), /Catalogue: \d+ models of hosted providers from [^,]+\)\.\n/);
    } finally {
      await again.stop();
    }
    service = await startService({ dataDir: service.dataDir, orgs: [], token: service.token });
  });

  it("starts a Space with each provider's current models of our choice, all of them in the dataset", () => {
    const dataset = new Map(datasetModels('2026-11-24T00:00:00.000Z').map((m) => [m.record.namespace, m.record]));
    for (const [provider, names] of Object.entries(STARTERS))
      for (const name of names) {
        const model = dataset.get(name);
        assert.ok(model, `${name} is in ${DATASET.name} ${DATASET.version}: choose again after a dataset update`);
        assert.equal(model.provider, provider);
        assert.equal(model.deprecated_on, null, `${name} is current`);
        assert.equal(model.supports_functions, true, `${name} calls tools`);
      }
  });

  it('has only the test models and the local ones as its own', () => {
    const own = models.filter((m) => m.added_by !== DATASET.name).map((m) => m.provider);
    assert.deepEqual([...new Set(own)].sort(), ['local', 'test']);
  });

  it('keeps the models a Space of the hand-written catalogue refers to', async () => {
    const client = service.client();
    const space = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const view = await client.getSpace(space.id);
    assert.ok(view.main.base_model_settings.length > 0);
    for (const setting of view.main.base_model_settings)
      assert.ok(byName(setting.namespace), `${setting.namespace} is still in the catalogue`);
    const missing = datasetModels('2026-11-24T00:00:00.000Z').filter((m) => !byName(m.record.namespace));
    assert.deepEqual(missing, [], 'every model of the dataset is in the catalogue');
  });
});
