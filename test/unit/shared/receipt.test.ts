// The routing receipt in words: the one line under a reply, for each way a model is chosen.
import assert from 'node:assert/strict';
import type { RoutingReceipt } from '../../../src/api/schemas';
import { reasonLabel, receiptLine, receiptView } from '../../../src/shared/receipt';

/** English, with the arguments filled in, as the webview's and the host's localizers do without a translation. */
const t = (message: string, ...args: Array<string | number>) => message.replace(/\{(\d+)\}/g, (_, n: string) => String(args[Number(n)]));
const candidate = (namespace: string, scores: [number, number, number], cost: number) => ({ namespace, score: (scores[0] + scores[1] + scores[2]) / 3, cost_score: scores[0], latency_score: scores[1], quality_score: scores[2], estimated_cost: cost });

describe('routing receipt in words', () => {
  it('says a routed reply went to the cheapest of the models that met the policy, and how many were left out', () => {
    const wire: RoutingReceipt = {
      strategy: 'routed',
      candidates: [candidate('openai/gpt-4.1-nano', [1, 1, 0], 0.0001), candidate('mistral/mistral-small', [0.2, 0, 1], 0.0004), candidate('test/echo', [0.9, 0.9, 0.1], 0.0002), candidate('test/lorem', [0.9, 0.9, 0], 0.0002)],
      rejected: [{ namespace: 'openai/gpt-4o', reason: 'over max_cost' }, { namespace: 'local/llama3.2', reason: 'cannot answer here' }, { namespace: 'openai/o1', reason: 'inactive' }],
      attempts: [{ namespace: 'openai/gpt-4.1-nano', status_code: 200, error: null }],
    };
    const view = receiptView(wire, 'openai/gpt-4.1-nano');
    assert.equal(receiptLine(view, t), 'Routed to openai/gpt-4.1-nano: cheapest of 4 that met the policy; 2 excluded');
    assert.equal(view.inactive, 1, 'inactive models are counted, not listed as excluded');
    assert.equal(reasonLabel(view.excluded[0]!.reason, t), "over the Space's max cost");
  });

  it('says so when the only candidate answered, when the model was named, and when a failover hop answered', () => {
    const one = receiptView({ strategy: 'routed', candidates: [candidate('test/echo', [1, 1, 1], 0)], rejected: [], attempts: [{ namespace: 'test/echo', status_code: 200, error: null }] }, 'test/echo');
    assert.equal(receiptLine(one, t), 'Routed to test/echo: the only model that met the policy');
    const named = receiptView({ strategy: 'model', candidates: [], rejected: [], attempts: [{ namespace: 'openai/gpt-4o', status_code: 500, error: 'x' }, { namespace: 'openai/gpt-4o', status_code: 200, error: null }] }, 'openai/gpt-4o');
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
    assert.equal(receiptLine(hop, t), 'Answered by anthropic/claude-3-5-haiku after 2 attempts failed on openai/gpt-4o-mini (failover)');
  });
});
