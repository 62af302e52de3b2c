// Costs from a model's prices: what the provider read from and wrote to its cache, the web searches it
// ran, and the bound routing checks against a Space's max_cost before a request runs.
import assert from 'node:assert/strict';
import type { ModelRecord } from '../../../src/api/schemas';
import { costOf, estimateCost, savingsOf } from '../../../src/service/chat/pricing';
import { searchesToEstimate } from '../../../src/service/chat/webSearches';

/** Claude Haiku 4.5's prices per token, as Anthropic lists them. */
const haiku = {
  prompt_token_cost: 1e-6,
  completion_token_cost: 5e-6,
  cache_read_token_cost: 0.1e-6,
  cache_write_token_cost: 1.25e-6,
  cache_write_1h_token_cost: 2e-6,
  web_search_cost: 0.01,
  base_cost: 0,
  price_unit: 'tokens',
  provider: 'anthropic',
} as ModelRecord;

const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-15, `${actual} is not ${expected}`);

describe('pricing', () => {
  it('bills the prompt read from the cache, written to it for five minutes and for an hour, each at its price', () => {
    const costs = costOf(haiku, {
      promptTokens: 1000,
      completionTokens: 10,
      promptChars: 4000,
      completionChars: 40,
      cachedTokens: 600,
      cacheWriteTokens: 300,
      hourCacheWriteTokens: 100,
    });
    near(costs.prompt, 100 * 1e-6 + 600 * 0.1e-6 + 200 * 1.25e-6 + 100 * 2e-6);
    near(costs.completion, 10 * 5e-6);
  });

  it('bills writes at the prompt price where the model lists no cache-write price', () => {
    const plain = { ...haiku, cache_write_token_cost: null, cache_write_1h_token_cost: null };
    const counts = { promptTokens: 100, completionTokens: 0, promptChars: 400, completionChars: 0 };
    near(costOf(plain, { ...counts, cacheWriteTokens: 100, hourCacheWriteTokens: 50 }).total, 100 * 1e-6);
  });

  it('bounds a request with cache marks as if its whole prompt were written for an hour', () => {
    const plain = estimateCost(haiku, 1000, 4000, 100);
    near(plain, 1000 * 1e-6 + 100 * 5e-6);
    const marked = estimateCost(haiku, 1000, 4000, 100, true);
    near(marked, 1000 * 2e-6 + 100 * 5e-6);
    // No mix of reads and writes the provider may report costs more than the bound.
    for (const [cached, written, hour] of [
      [0, 1000, 1000],
      [0, 1000, 0],
      [500, 500, 500],
      [0, 0, 0],
    ] as const) {
      const actual = costOf(haiku, {
        promptTokens: 1000,
        completionTokens: 100,
        promptChars: 4000,
        completionChars: 400,
        cachedTokens: cached,
        cacheWriteTokens: written,
        hourCacheWriteTokens: hour,
      });
      assert.ok(actual.total <= marked + 1e-15, `${cached}/${written}/${hour}: ${actual.total} > ${marked}`);
    }
  });

  it('bills each web search the model ran beside its tokens, in the total, and prices the searches a request may run', () => {
    const counts = { promptTokens: 1000, completionTokens: 10, promptChars: 4000, completionChars: 40 };
    const searched = costOf(haiku, { ...counts, webSearches: 3 });
    near(searched.searches, 0.03);
    near(searched.total, 1000 * 1e-6 + 10 * 5e-6 + 0.03);
    near(searched.prompt, costOf(haiku, counts).prompt);
    // A model with no listed search price bills none.
    near(costOf({ ...haiku, web_search_cost: null }, { ...counts, webSearches: 3 }).total, 1000 * 1e-6 + 10 * 5e-6);
    // The benchmark is taken to search at the same price: the saving is in the tokens only.
    const benchmark = { ...haiku, prompt_token_cost: 3e-6, completion_token_cost: 15e-6, web_search_cost: null };
    near(savingsOf(searched, benchmark, { ...counts, webSearches: 3 }).total, 1000 * 2e-6 + 10 * 10e-6);
    // The bound: as many searches as the client allowed, one when it set no limit, none where the
    // model cannot run the search asked.
    const anthropicSearch = (maxUses?: number) => ({ webSearch: { type: 'web_search_20250305', maxUses } });
    assert.equal(searchesToEstimate(anthropicSearch(8))(haiku), 8);
    assert.equal(searchesToEstimate(anthropicSearch())(haiku), 1);
    assert.equal(searchesToEstimate({})(haiku), 0);
    assert.equal(searchesToEstimate(anthropicSearch(8))({ ...haiku, provider: 'openai' }), 0);
    const openAiSearch = { openAiWebSearch: { preview: false, options: {} } };
    const gpt = { ...haiku, provider: 'openai', supports_reasoning: true };
    assert.equal(searchesToEstimate(openAiSearch)(gpt), 1);
    assert.equal(searchesToEstimate(openAiSearch)({ ...gpt, supports_reasoning: false }), 0);
    near(estimateCost(haiku, 1000, 4000, 100, false, 8), 1000 * 1e-6 + 100 * 5e-6 + 0.08);
  });
});
