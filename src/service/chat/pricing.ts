// Costs from a model's listed prices: per token, or per character when price_unit is characters, and
// per web search the model ran at its provider.
import type { ModelRecord } from '../../api/schemas';

export interface Counts {
  promptTokens: number;
  completionTokens: number;
  promptChars: number;
  completionChars: number;
  /** Of the prompt's tokens, those the provider read from its cache (billed at its cache-read price). */
  cachedTokens?: number;
  /** Of the prompt's tokens, those the provider wrote to its cache (billed at its cache-write price). */
  cacheWriteTokens?: number;
  /** Of those written, the ones kept for an hour (billed at its one-hour cache-write price). */
  hourCacheWriteTokens?: number;
  /** Web searches the model ran at its provider (billed apart from its tokens). */
  webSearches?: number;
}

export interface Costs {
  prompt: number;
  completion: number;
  /** The web searches' (in the total, not in the prompt's or the completion's). */
  searches: number;
  total: number;
}

export function costOf(model: ModelRecord, counts: Counts): Costs {
  const byChars = model.price_unit === 'characters';
  const cached = byChars ? 0 : Math.min(counts.cachedTokens ?? 0, counts.promptTokens);
  const written = byChars ? 0 : Math.min(counts.cacheWriteTokens ?? 0, counts.promptTokens - cached);
  const hour = Math.min(counts.hourCacheWriteTokens ?? 0, written);
  const writePrice = model.cache_write_token_cost ?? model.prompt_token_cost;
  const prompt =
    (byChars ? counts.promptChars : counts.promptTokens - cached - written) * model.prompt_token_cost +
    cached * (model.cache_read_token_cost ?? model.prompt_token_cost) +
    (written - hour) * writePrice +
    hour * (model.cache_write_1h_token_cost ?? writePrice);
  const completion = (byChars ? counts.completionChars : counts.completionTokens) * model.completion_token_cost;
  const searches = (counts.webSearches ?? 0) * (model.web_search_cost ?? 0);
  return { prompt, completion, searches, total: prompt + completion + searches + model.base_cost };
}

/**
 * What the benchmark model would have cost for the same text, minus what this one cost. Its web
 * searches are taken to cost the same (many models cannot search at all).
 */
export function savingsOf(actual: Costs, benchmark: ModelRecord | undefined, counts: Counts): Costs {
  if (!benchmark) return { prompt: 0, completion: 0, searches: 0, total: 0 };
  const reference = costOf(benchmark, { ...counts, webSearches: 0 });
  return {
    prompt: reference.prompt - actual.prompt,
    completion: reference.completion - actual.completion,
    searches: 0,
    total: reference.total + actual.searches - actual.total,
  };
}

/**
 * Upper bound of a request's cost before it runs: the prompt plus a reply of `maxTokens` tokens and
 * the web searches it may run. A prompt with cache marks may be written to the provider's cache
 * whole, for an hour at most.
 */
export function estimateCost(
  model: ModelRecord,
  promptTokens: number,
  promptChars: number,
  maxTokens: number,
  writesCache = false,
  webSearches = 0,
): number {
  // About four characters per token when a model bills by character.
  const bound = costOf(model, {
    promptTokens,
    completionTokens: maxTokens,
    promptChars,
    completionChars: maxTokens * 4,
    webSearches,
  });
  if (!writesCache || model.price_unit === 'characters') return bound.total;
  const dearestWrite = Math.max(model.cache_write_token_cost ?? 0, model.cache_write_1h_token_cost ?? 0);
  return bound.total + promptTokens * Math.max(0, dearestWrite - model.prompt_token_cost);
}
