// The agent tools' answers from known data: the cost band's figures exactly, the routing explanation,
// the catalogue search and the budget, and what a wrong input is told.
import assert from 'node:assert/strict';
import type { ModelRecord, Organization, RoutePreview, Space, SpaceUpdateResponse } from '../../../src/api/schemas';
import {
  ToolInputError,
  checkBudget,
  estimateCost,
  explainRoute,
  findModels,
  type ToolData,
} from '../../../src/tools/spaceTools';

const model = (namespace: string, input: number, output: number, extra: Partial<ModelRecord> = {}) =>
  ({
    namespace,
    model: namespace,
    prompt_token_cost: input / 1e6,
    completion_token_cost: output / 1e6,
    base_cost: 0,
    price_unit: 'tokens',
    context_window: 128_000,
    description: '',
    supports_vision: false,
    supports_functions: true,
    supports_json: true,
    supports_stream: true,
    deprecated_on: null,
    ...extra,
  }) as unknown as ModelRecord;

const CHEAP = model('p/cheap', 0.1, 0.2);
const DEAR = model('p/dear', 5, 15, { supports_vision: true });
const SPARE = model('p/spare', 1, 2);

function data(route?: RoutePreview): ToolData {
  const space = { id: 's1', name: 'Team', sandbox_of: null } as unknown as Space;
  const setting = (m: ModelRecord, active: boolean) => ({ namespace: m.namespace, active, globally_disabled: false });
  const view = {
    main: {
      app: {
        ...space,
        has_failover_chain: true,
        weights: { cost: 1, latency: 0, quality: 0 },
        settings: { max_tokens: 100 },
      },
      base_model_settings: [setting(CHEAP, true), setting(DEAR, true), setting(SPARE, false)],
      custom_model_settings: [],
      failover_models: [SPARE],
    },
  } as unknown as SpaceUpdateResponse;
  return {
    spaces: async () => [space],
    detail: async () => view,
    models: async () => [CHEAP, DEAR, SPARE],
    organization: async () =>
      ({
        org_name: 'Acme',
        total_tokens_cost: 12.5,
        num_requests: 40,
        spending_limit_soft: 10,
        spending_limit_hard: 50,
      }) as unknown as Organization,
    route: async () => route,
    countTokens: (text) => text.split(' ').length,
  };
}

describe('agent tools', () => {
  it('estimates the cost band over the active models and the failover chain, exactly', async () => {
    const route = {
      chosen: 'p/cheap',
      candidates: [
        { namespace: 'p/cheap', score: 1, cost_score: 1, latency_score: 1, quality_score: 1, estimated_cost: 0 },
      ],
      rejected: [],
      failover: [],
    } as unknown as RoutePreview;
    const { text: answer, data: figures } = await estimateCost(data(route), {
      prompt: 'one two three four',
      maxTokens: 10,
    });
    // 4 prompt tokens, 10 reply tokens: cheap 4×0.1e-6 + 10×0.2e-6 = 2.4e-6; dear 4×5e-6 + 10×15e-6 = 1.7e-4.
    assert.match(
      answer,
      /minimum \$0\.0000024 \(p\/cheap\), expected \$0\.0000024 \(p\/cheap, the model the Space picks for this prompt now\), maximum \$0\.00017 \(p\/dear\)/,
    );
    assert.match(answer, /Over 3 models: the Space's active models and its failover chain/);
    type Named = { model: string; cost: number };
    const [min, expected, max] = [figures.minimum, figures.expected, figures.maximum] as Named[];
    assert.deepEqual([figures.space, figures.promptTokens, figures.maxTokens, figures.models], ['Team', 4, 10, 3]);
    assert.deepEqual([min!.model, expected!.model, max!.model], ['p/cheap', 'p/cheap', 'p/dear']);
    assert.ok(Math.abs(min!.cost - 2.4e-6) < 1e-15 && expected!.cost === min!.cost, String(min!.cost));
    assert.ok(Math.abs(max!.cost - 1.7e-4) < 1e-15, String(max!.cost));
    const { text: mean } = await estimateCost(data(undefined), { prompt: 'one two three four', maxTokens: 10 });
    assert.match(mean, /the mean over its models; this service does not say which one it would pick/);
  });

  it('explains a route, or says the service does not', async () => {
    const route = {
      chosen: 'p/cheap',
      candidates: [
        {
          namespace: 'p/cheap',
          score: 0.9,
          cost_score: 1,
          latency_score: 0.5,
          quality_score: 0.2,
          estimated_cost: 0.001,
        },
      ],
      rejected: [{ namespace: 'p/dear', reason: 'over max_cost' }],
      failover: [{ namespace: 'p/spare', estimated_cost: 0.01 }],
    } as unknown as RoutePreview;
    const { text: answer, data: explained } = await explainRoute(data(route), { prompt: 'x' });
    assert.match(answer, /It would pick p\/cheap: the best score \(0\.90\) of 1 candidate/);
    assert.match(answer, /p\/dear: left out, over max_cost/);
    assert.match(answer, /If it fails: p\/spare\./);
    assert.equal(explained.chosen, 'p/cheap');
    assert.deepEqual(explained.leftOut, [{ model: 'p/dear', reason: 'over max_cost' }]);
    assert.deepEqual(explained.failover, ['p/spare']);
    assert.match((await explainRoute(data(undefined), { prompt: 'x' })).text, /does not explain its routing/);
  });

  it('finds models by capability and price, cheapest first', async () => {
    assert.match(
      (await findModels(data(), { capabilities: ['vision'] })).text,
      /^1 model matches, cheapest first:\n- p\/dear: \$5\.00 in \/ \$15\.00 out per M tokens/,
    );
    const cheap = await findModels(data(), { maxInputPrice: 1 });
    assert.deepEqual(
      (cheap.data.models as Array<{ model: string }>).map((m) => m.model),
      ['p/cheap', 'p/spare'],
    );
    assert.deepEqual(
      cheap.text
        .split('\n')
        .slice(1)
        .map((l) => l.split(':')[0]),
      ['- p/cheap', '- p/spare'],
    );
    await assert.rejects(findModels(data(), { capabilities: ['telepathy'] }), ToolInputError);
    await assert.rejects(findModels(data(), { maxInputPrice: -1 }), /"maxInputPrice" must be at least 0/);
    await assert.rejects(findModels(data(), { limit: 0 }), /"limit" must be at least 1/);
    await assert.rejects(findModels(data(), { limit: 2.5 }), /"limit" must be a whole number/);
  });

  it('tells the budget against both limits', async () => {
    const { text: answer, data: budget } = await checkBudget(data());
    assert.match(answer, /Acme has spent \$12\.50 this billing cycle over 40 requests/);
    assert.match(answer, /Soft limit \$10\.00: reached \(over by \$2\.50\)/);
    assert.match(answer, /Hard limit \$50\.00: \$37\.50 left/);
    assert.deepEqual(budget, { shared: true, spent: 12.5, requests: 40, softLimit: 10, hardLimit: 50 });
    const first = await data().organization();
    const one = await checkBudget({ ...data(), organization: async () => ({ ...first!, num_requests: 1 }) });
    assert.match(one.text, /this billing cycle over 1 request\./);
  });

  it('says which input is wrong', async () => {
    await assert.rejects(estimateCost(data(), {}), /"prompt" is required/);
    await assert.rejects(estimateCost(data(), { prompt: 3 }), /"prompt" must be text/);
    await assert.rejects(estimateCost(data(), { prompt: 'x', maxTokens: 0 }), /"maxTokens" must be at least 1/);
    await assert.rejects(
      estimateCost(data(), { prompt: 'x', space: 'Other' }),
      /There is no Space "Other"\. The Spaces are: "Team"/,
    );
  });
});
