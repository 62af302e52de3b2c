// Each vendor's web search, which runs only at that vendor, on the models that can run it: Anthropic's
// on its models, OpenAI's on its reasoning models (through its Responses API). The provider bills
// each search apart from the model's tokens.
import type { ModelRecord } from '../../api/schemas';
import type { ToolOptions } from './request';

const WEB_SEARCHES = [
  {
    asked: (o: ToolOptions) => !!o.webSearch,
    runs: (r: ModelRecord) => r.provider === 'anthropic',
    /** A model searches as often as it likes unless the client set max_uses: one at least. */
    most: (o: ToolOptions) => o.webSearch?.maxUses ?? 1,
    words: "Anthropic's web search runs only on Anthropic's models",
  },
  {
    asked: (o: ToolOptions) => !!o.openAiWebSearch,
    runs: (r: ModelRecord) => r.provider === 'openai' && r.supports_reasoning === true,
    /** OpenAI's search takes no limit: one at least. */
    most: () => 1,
    words: "OpenAI's web search runs only on OpenAI's reasoning models",
  },
];

const searchAsked = (options: ToolOptions) => WEB_SEARCHES.find((s) => s.asked(options));

/** What the answer is to say of a web search asked of a model that cannot run it. */
export function searchNotRun(r: ModelRecord, options: ToolOptions): string | undefined {
  const search = searchAsked(options);
  if (!search || (search.runs(r) && !r.is_test_model)) return undefined;
  return `${search.words}, so ${r.namespace} answered without searching.`;
}

/**
 * How many web searches a request may have each model run, for the estimate of its cost: as many as
 * the client allowed, one when it set no limit; none on a model that cannot run the search asked. The
 * search asked is found once for the request, not for each model weighed.
 */
export function searchesToEstimate(options: ToolOptions | undefined): (r: ModelRecord) => number {
  const search = options && searchAsked(options);
  if (!search) return () => 0;
  const most = search.most(options);
  return (r) => (search.runs(r) && !r.is_test_model ? most : 0);
}
