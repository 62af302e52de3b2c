// What VS Code's model picker shows for a Space and a pinned model, and the budget guard's verdicts.
import assert from 'node:assert/strict';
import type { ModelRecord, SpaceUpdateResponse } from '../../../src/api/schemas';
import { band, pinnedEntry, spaceEntry } from '../../../src/chat/spaceModels';
import { budgetVerdict } from '../../../src/shared/budget';

const model = (
  namespace: string,
  input: number,
  output: number,
  context: number,
  vision: boolean,
  functions: boolean,
) =>
  ({
    namespace,
    prompt_token_cost: input / 1e6,
    completion_token_cost: output / 1e6,
    context_window: context,
    supports_vision: vision,
    supports_functions: functions,
  }) as ModelRecord;

const A = model('a/small', 0.15, 0.6, 128_000, true, true);
const B = model('b/large', 2.5, 10, 1_000_000, true, false);
const C = model('c/off', 30, 60, 8_000, false, false);
const catalogue = new Map([A, B, C].map((m) => [m.namespace, m]));
const view = {
  main: {
    app: { id: 's1', name: 'Team', modified_on: '2026-11-21T00:00:00Z', settings: { max_tokens: 2048 } },
    base_model_settings: [
      { namespace: 'a/small', active: true, globally_disabled: false },
      { namespace: 'b/large', active: true, globally_disabled: false },
      { namespace: 'c/off', active: false, globally_disabled: false },
    ],
    custom_model_settings: [],
  },
} as unknown as SpaceUpdateResponse;

describe('chat model entries', () => {
  it('a Space: the price band of its active models, the smallest context window, what every model can do', () => {
    const entry = spaceEntry(view, catalogue);
    assert.equal(entry.id, 'space:s1');
    assert.equal(entry.name, 'Team');
    assert.equal(entry.detail, '$0.15–$2.50 in · $0.60–$10.00 out per M tokens');
    assert.equal(entry.maxInputTokens, 128_000);
    assert.equal(entry.maxOutputTokens, 2048);
    assert.deepEqual(
      entry.capabilities,
      { imageInput: true },
      'tools only where every model has them; no key when false',
    );
    assert.match(entry.tooltip, /over 2 models/);
    assert.equal(entry.model, null);
  });

  it('a pinned model: its own price and abilities, routed as that model', () => {
    const entry = pinnedEntry(view, A);
    assert.equal(entry.id, 'space:s1|model:a/small');
    assert.equal(entry.name, 'a/small (Team)');
    assert.deepEqual(entry.capabilities, { imageInput: true, toolCalling: true });
    assert.equal(entry.model, 'a/small');
  });

  it('writes one price, or a band', () => {
    assert.equal(band([3, 3]), '$3.00');
    assert.equal(band([0.1, 12]), '$0.10–$12.00');
    assert.equal(band([0, 0.005]), '$0.00–$0.0050');
  });
});

describe('budget guard', () => {
  const org = (spent: number, soft: number | null, hard: number | null) => ({
    total_tokens_cost: spent,
    spending_limit_soft: soft,
    spending_limit_hard: hard,
  });
  it('lets a request go under the soft limit, warns past it, refuses at the hard limit', () => {
    assert.deepEqual(budgetVerdict(org(5, 20, 50)), { kind: 'go' });
    assert.deepEqual(budgetVerdict(org(20, 20, 50)), { kind: 'warn', spent: 20, limit: 20, hard: 50 });
    assert.deepEqual(budgetVerdict(org(50, 20, 50)), { kind: 'refuse', spent: 50, limit: 50, hard: 50 });
    assert.deepEqual(budgetVerdict(org(1000, 0, null)), { kind: 'go' }, 'no limits set');
    assert.deepEqual(budgetVerdict(undefined), { kind: 'go' }, 'a service that does not share the organization');
    assert.deepEqual(
      budgetVerdict(org(19.99, 20, 50), 0.02),
      { kind: 'warn', spent: 19.99, limit: 20, hard: 50 },
      'a request that would pass the soft limit',
    );
    assert.deepEqual(
      budgetVerdict(org(49.99, 20, 50), 0.02),
      { kind: 'refuse', spent: 49.99, limit: 50, hard: 50 },
      'a request that would pass the hard limit',
    );
  });
});
