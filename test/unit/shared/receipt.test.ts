// The routing receipt in words: the one line under a reply, for each way a model is chosen.
import assert from 'node:assert/strict';
import type { ModelRecord, RoutingReceipt, SpaceUpdateResponse } from '../../../src/api/schemas';
import { placeholderNote, reasonLabel, receiptLine, receiptView } from '../../../src/shared/receipt';
import { estimatedBand, estimatedReceipt } from '../../../src/shared/clientEstimates';

/** English, with the arguments filled in, as the webview's and the host's localizers do without a translation. */
const t = (message: string, ...args: Array<string | number>) =>
  message.replace(/\{(\d+)\}/g, (_, n: string) => String(args[Number(n)]));
const candidate = (namespace: string, scores: [number, number, number], cost: number) => ({
  namespace,
  score: (scores[0] + scores[1] + scores[2]) / 3,
  cost_score: scores[0],
  latency_score: scores[1],
  quality_score: scores[2],
  estimated_cost: cost,
});

describe('routing receipt in words', () => {
  it('says a routed reply went to the cheapest of the models that met the policy, and how many were left out', () => {
    const wire: RoutingReceipt = {
      strategy: 'routed',
      candidates: [
        candidate('openai/gpt-4.1-nano', [1, 1, 0], 0.0001),
        candidate('mistral/mistral-small', [0.2, 0, 1], 0.0004),
        candidate('test/echo', [0.9, 0.9, 0.1], 0.0002),
        candidate('test/lorem', [0.9, 0.9, 0], 0.0002),
      ],
      rejected: [
        { namespace: 'openai/gpt-4o', reason: 'over max_cost' },
        { namespace: 'local/llama3.2', reason: 'cannot answer here' },
        { namespace: 'openai/o1', reason: 'inactive' },
      ],
      attempts: [{ namespace: 'openai/gpt-4.1-nano', status_code: 200, error: null }],
    };
    const view = receiptView(wire, 'openai/gpt-4.1-nano');
    assert.equal(receiptLine(view, t), 'Routed to openai/gpt-4.1-nano: cheapest of 4 that met the policy; 2 excluded');
    assert.equal(view.inactive, 1, 'inactive models are counted, not listed as excluded');
    assert.equal(reasonLabel(view.excluded[0]!.reason, t), "over the Space's max cost");
  });

  it('says so when the only candidate answered, when the model was named, and when a failover hop answered', () => {
    const one = receiptView(
      {
        strategy: 'routed',
        candidates: [candidate('test/echo', [1, 1, 1], 0)],
        rejected: [],
        attempts: [{ namespace: 'test/echo', status_code: 200, error: null }],
      },
      'test/echo',
    );
    assert.equal(receiptLine(one, t), 'Routed to test/echo: the only model that met the policy');
    const named = receiptView(
      {
        strategy: 'model',
        candidates: [],
        rejected: [],
        attempts: [
          { namespace: 'openai/gpt-4o', status_code: 500, error: 'x' },
          { namespace: 'openai/gpt-4o', status_code: 200, error: null },
        ],
      },
      'openai/gpt-4o',
    );
    assert.equal(receiptLine(named, t), 'Sent to openai/gpt-4o, the model asked for, after 1 retry');
    const hop = receiptView(
      {
        strategy: 'failover',
        candidates: [],
        rejected: [],
        attempts: [
          { namespace: 'openai/gpt-4o-mini', status_code: 500, error: 'upstream answered 500' },
          { namespace: 'openai/gpt-4o-mini', status_code: 500, error: 'upstream answered 500' },
          { namespace: 'anthropic/claude-3-5-haiku', status_code: 200, error: null },
        ],
      },
      'anthropic/claude-3-5-haiku',
    );
    assert.equal(
      receiptLine(hop, t),
      'Answered by anthropic/claude-3-5-haiku after 2 attempts failed on openai/gpt-4o-mini (failover)',
    );
  });
});

/** A catalogue record with only what the estimates read. */
const record = (namespace: string, prompt: number, completion: number, extra: Partial<ModelRecord> = {}) =>
  ({
    namespace,
    prompt_token_cost: prompt,
    completion_token_cost: completion,
    base_cost: 0,
    price_unit: 'tokens',
    supports_vision: false,
    deprecated_on: null,
    ...extra,
  }) as unknown as ModelRecord;

describe("the extension's own receipt, for a service that sends none", () => {
  const catalogue = [
    record('a/cheap', 1e-7, 2e-7),
    record('b/middle', 1e-6, 2e-6, { supports_vision: true }),
    record('c/dear', 1e-5, 2e-5),
    record('d/old', 1e-8, 1e-8, { deprecated_on: '2020-01-01' }),
    record('e/off', 1e-9, 1e-9),
  ];
  const setting = (namespace: string, active = true) => ({ namespace, active, globally_disabled: false });
  const view = (maxCost = 0) =>
    ({
      main: {
        app: { policies: { max_cost: maxCost } },
        base_model_settings: [
          setting('a/cheap'),
          setting('b/middle'),
          setting('c/dear'),
          setting('d/old'),
          setting('e/off', false),
        ],
        custom_model_settings: [],
      },
    }) as unknown as SpaceUpdateResponse;
  const usage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
  const input = { catalogue, usage, images: false, today: '2026-11-21' };

  it('ranks the active models that could take the request by what this reply would have cost at each, and says it is an estimate', () => {
    const r = estimatedReceipt({ ...input, view: view(), asked: null, answered: 'b/middle' });
    assert.equal(r.estimated, true);
    assert.deepEqual(
      r.candidates.map((c) => c.namespace),
      ['a/cheap', 'b/middle', 'c/dear'],
    );
    assert.equal(r.candidates[0]!.estimatedCost, 1000 * 1e-7 + 500 * 2e-7);
    assert.deepEqual([r.candidates[0]!.costScore, r.candidates[2]!.costScore], [1, 0]);
    assert.equal(r.candidates[1]!.latencyScore, null, 'latency is not known to the client');
    assert.deepEqual(r.excluded, [{ namespace: 'd/old', reason: 'deprecated' }]);
    assert.equal(r.inactive, 1);
    assert.equal(
      receiptLine(r, t),
      'Estimated: Routed to b/middle, number 2 by cost of 3 active models for this reply; 1 excluded',
    );
    assert.equal(
      receiptLine(estimatedReceipt({ ...input, view: view(), asked: null, answered: 'a/cheap' }), t),
      'Estimated: Routed to a/cheap, the cheapest of 3 active models for this reply; 1 excluded',
    );
  });

  it("leaves out what cannot read the images, and what passes the Space's max cost", () => {
    const r = estimatedReceipt({ ...input, images: true, view: view(0.003), asked: null, answered: 'b/middle' });
    assert.deepEqual(
      r.candidates.map((c) => c.namespace),
      ['b/middle'],
    );
    assert.deepEqual(
      r.excluded.map((e) => `${e.namespace}: ${e.reason}`),
      ['a/cheap: cannot read images', 'c/dear: cannot read images', 'd/old: deprecated'],
    );
    const capped = estimatedReceipt({ ...input, view: view(0.003), asked: null, answered: 'a/cheap' });
    assert.deepEqual(
      capped.excluded.map((e) => `${e.namespace}: ${e.reason}`),
      ['c/dear: over max_cost', 'd/old: deprecated'],
    );
  });

  it('says a named model was asked for, and a model outside the Space answered', () => {
    assert.equal(
      receiptLine(estimatedReceipt({ ...input, view: view(), asked: 'c/dear', answered: 'c/dear' }), t),
      'Sent to c/dear, the model asked for (estimated: the service sent no receipt)',
    );
    assert.equal(
      receiptLine(estimatedReceipt({ ...input, view: view(), asked: null, answered: 'z/other' }), t),
      "Estimated: Routed to z/other, not one of the Space's 3 active models that could take it; 1 excluded",
    );
  });
});

describe("the extension's own cost band, for a service without the route preview", () => {
  const catalogue = [
    record('a/cheap', 1e-7, 2e-7),
    record('c/dear', 1e-5, 2e-5),
    record('f/chain', 1e-4, 1e-4),
    record('d/old', 1e-8, 1e-8, { deprecated_on: '2020-01-01' }),
  ];
  const view = (chain: boolean) =>
    ({
      main: {
        app: { has_failover_chain: chain, settings: { max_tokens: 100 } },
        base_model_settings: ['a/cheap', 'c/dear', 'd/old'].map((namespace) => ({
          namespace,
          active: true,
          globally_disabled: false,
        })),
        custom_model_settings: [],
        failover_models: [{ namespace: 'f/chain' }],
      },
    }) as unknown as SpaceUpdateResponse;
  const prompt = 'x'.repeat(400);

  it("spans the active models (and the failover chain when on) from no reply to the Space's max tokens", () => {
    const band = estimatedBand({
      view: view(true),
      catalogue,
      model: null,
      prompt,
      maxTokens: null,
      today: '2026-11-21',
    })!;
    assert.equal(band.estimated, true);
    assert.equal(band.prompt_tokens, 100);
    assert.equal(band.max_tokens, 100);
    assert.equal(band.min, 100 * 1e-7);
    assert.equal(band.max, 100 * 1e-4 + 100 * 1e-4, 'the dearest of the chain writing max tokens');
    assert.equal(
      band.expected,
      (100 * 1e-7 + 50 * 2e-7 + (100 * 1e-5 + 50 * 2e-5)) / 2,
      'half of max tokens, on average over the active models',
    );
    assert.equal(band.model, '');
    assert.equal(
      estimatedBand({ view: view(false), catalogue, model: null, prompt, maxTokens: null, today: '2026-11-21' })!.max,
      100 * 1e-5 + 100 * 2e-5,
      'no chain, no chain model',
    );
  });

  it('takes the named model and max tokens of the request, and gives no band for a retired model', () => {
    const band = estimatedBand({
      view: view(false),
      catalogue,
      model: 'c/dear',
      prompt,
      maxTokens: 10,
      today: '2026-11-21',
    })!;
    assert.deepEqual(
      [band.min, band.expected, band.max, band.model],
      [100 * 1e-5, 100 * 1e-5 + 5 * 2e-5, 100 * 1e-5 + 10 * 2e-5, 'c/dear'],
    );
    assert.equal(
      estimatedBand({ view: view(false), catalogue, model: 'd/old', prompt, maxTokens: 10, today: '2026-11-21' }),
      null,
    );
  });

  it("says a test model's reply is a placeholder and how to get real answers, and nothing of other models", () => {
    assert.match(
      placeholderNote('test/lorem', t)!,
      /^test\/lorem is a test model: this reply is a placeholder\. For real answers, add a provider key/,
    );
    assert.equal(placeholderNote('openai/gpt-5-mini', t), null);
  });
});
