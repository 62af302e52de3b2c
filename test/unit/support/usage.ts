// A request's usage as the counters take it (domain/usage.ts): its cost split evenly between prompt and
// completion, no savings.
import type { UsageDelta } from '../../../src/service/domain/usage';

export const spend = (cost: number, promptTokens = 10, completionTokens = 20): UsageDelta => ({
  promptTokens,
  completionTokens,
  promptCost: cost / 2,
  completionCost: cost / 2,
  totalCost: cost,
  promptSavings: 0,
  completionSavings: 0,
  totalSavings: 0,
});
