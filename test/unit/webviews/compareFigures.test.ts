// What the comparison says of its columns: the figures and the saving in words, which model won on
// cost and on latency, and the weight a promotion shifts toward by default.
import assert from 'node:assert/strict';
import type { ReplyInfo } from '../../../src/shared/protocol/playground';
import {
  defaultToward,
  figuresLine,
  outcome,
  ownReply,
  savingLine,
  winners,
  type Column,
} from '../../../src/webviews/compare/page/figures';

const reply = (namespace: string, cost: number, latency: number, saved = 0): ReplyInfo => ({
  id: namespace,
  content: 'x',
  finishReason: 'stop',
  namespace,
  usage: { prompt_tokens: 1000, completion_tokens: 204, total_tokens: 1204 },
  costs: { prompt_tokens: 0, completion_tokens: 0, total_tokens: cost },
  savings: { prompt_tokens: 0, completion_tokens: 0, total_tokens: saved },
  latencySeconds: latency,
  retries: 0,
  warning: null,
  conversationId: null,
  routing: null,
});
const column = (model: string, r: ReplyInfo | null): Column => ({
  model,
  text: '',
  reply: r,
  error: r ? null : 'failed',
});

describe('compare: the figures of a column', () => {
  it('gives tokens, cost and latency in one line', () => {
    assert.equal(figuresLine(reply('a/x', 0.00041, 1.2)), '1,204 tokens (1,000 in, 204 out) · $0.00041 · 1.20 s');
  });

  it('names the cached and reasoning tokens among them where the provider counted any', () => {
    const counted = (cached: number, reasoning: number) =>
      figuresLine({
        ...reply('a/x', 0.00041, 1.2),
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 204,
          total_tokens: 1204,
          prompt_tokens_details: { cached_tokens: cached },
          completion_tokens_details: { reasoning_tokens: reasoning },
        },
      }).split(' · ')[0];
    assert.equal(counted(800, 150), '1,204 tokens (1,000 in, 204 out; 800 cached, 150 reasoning)');
    assert.equal(counted(1000, 0), '1,204 tokens (1,000 in, 204 out; 1,000 cached)');
    assert.equal(counted(0, 0), '1,204 tokens (1,000 in, 204 out)');
  });

  it('says why an answer stopped short: cut at max tokens, or stopped by its provider’s content filter', () => {
    const said = (finishReason: string) =>
      figuresLine({ ...reply('a/x', 0.00041, 1.2), finishReason })
        .split(' · ')
        .at(-1);
    assert.equal(said('length'), 'cut at max tokens');
    assert.equal(said('content_filter'), "stopped by the provider's content filter");
    assert.equal(said('stop'), '1.20 s');
  });

  it('says what the model saves or costs more against the benchmark, or that it is the benchmark', () => {
    assert.equal(savingLine(reply('a/x', 0.001, 1, 0.002), 'b/bench'), 'Saves $0.0020 against b/bench');
    assert.equal(savingLine(reply('a/x', 0.003, 1, -0.002), 'b/bench'), 'Costs $0.0020 more than b/bench');
    assert.equal(savingLine(reply('b/bench', 0.003, 1), 'b/bench'), 'This is the benchmark model.');
    assert.equal(savingLine(reply('a/x', 0.003, 1), null), null, 'without one, the Space line says so once');
  });

  it('names the cheapest and the fastest of the columns that answered, none with fewer than two', () => {
    const columns = [
      column('a/x', reply('a/x', 0.003, 0.5)),
      column('b/y', reply('b/y', 0.001, 2)),
      column('c/z', null),
    ];
    assert.deepEqual(winners(columns), { cheapest: 'b/y', fastest: 'a/x' });
    assert.deepEqual(winners(columns.slice(0, 1)), { cheapest: null, fastest: null });
    assert.equal(defaultToward('b/y', winners(columns)), 'cost');
    assert.equal(defaultToward('a/x', winners(columns)), 'latency');
    assert.equal(defaultToward('c/z', winners(columns)), 'quality');
  });
});

describe('compare: how the comparison went', () => {
  it('counts only the models that answered themselves, and says when the failover chain answered instead', () => {
    const all = [column('a/x', reply('a/x', 1, 1)), column('b/y', reply('b/y', 1, 1))];
    assert.equal(outcome(all), 'All 2 models answered.');
    const replaced = [column('a/x', reply('a/x', 1, 1)), column('b/y', reply('test/echo', 0, 0)), column('c/z', null)];
    assert.equal(ownReply(replaced[1]!), false, 'a reply of another model is not promoted as this one');
    assert.equal(
      outcome(replaced),
      '1 of 3 models answered. In 1 column another model of the failover chain answered instead.',
    );
  });
});
