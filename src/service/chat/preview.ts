// What a request would do before it is sent (the built-in service's POST /v1/apps/{app_id}/route):
// the model the Space would pick and why, and the cost band over the models that may answer.
import type { z } from 'zod';
import type { CostBand, ModelRecord, RouteQuestion, RoutePreview } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { isRetired } from '../../shared/models';
import { appConfig, loadApp } from '../domain/spaces';
import { Problem } from '../problem';
import { pricedFor } from '../providers/dataset';
import { countTokens, truncateTokens } from '../tokenizer';
import { pdfPagesOf, readPdfs } from './pdfReading';
import { withPlugins } from './plugins';
import { prepareChat } from './prepare';
import { costOf, estimateCost } from './pricing';
import { testModelReply } from './reach/testReplies';
import { toolOptionsOf, type Body, type Prepared } from './request';
import { searchesToEstimate } from './webSearches';
import { failoverChain, routeInput, weighActive } from './weigh';

/**
 * Which model the Space would pick for a prompt, and why (the built-in service's own endpoint,
 * POST /v1/apps/{app_id}/route): the candidates with their scores and estimated cost, the active
 * models left out with the reason, and the failover chain. Runs no model and stores nothing.
 */
export async function previewRoute(
  db: Database,
  caller: Caller,
  appId: string,
  input: z.output<typeof RouteQuestion>,
): Promise<RoutePreview> {
  const row = loadApp(db, caller, appId);
  const config = appConfig(row);
  // The playground's plugins give the model the tools its send would (an unknown one is refused alike):
  // a web search is billed apart from the tokens, and the Space's cost cap counts it.
  const body: Body = withPlugins({
    app_id: row.id,
    prompt: input.prompt,
    files: input.files,
    max_tokens: input.max_tokens,
    model: input.model,
    conversation_id: input.conversation_id,
    parent_request_id: input.parent_request_id,
    plugins: input.plugins,
  });
  // A PDF that cannot be read is the question's own fault: refused (422) as the send would refuse it,
  // so that the playground can say so before anything is sent.
  body.pdfs = await readPdfs(body);
  const promptTokens = countTokens(input.prompt);
  const maxTokens = input.max_tokens ?? config.settings.max_tokens ?? 1024;
  // The prompt alone is weighed; the attached files only leave out the models that cannot read them.
  const { route, budget } = routeInput(db, config, {
    promptTokens,
    promptChars: input.prompt.length,
    maxTokens,
    needsVision: (input.images ?? 0) > 0,
    needsPdf: !!body.pdfs?.size,
    pdfPages: pdfPagesOf(body.pdfs?.values() ?? []),
    completion: toolOptionsOf(body),
  });
  const weighed = weighActive(db, caller, row.id, route, budget);
  const chain = config.row.has_failover_chain ? failoverChain(db, caller, row.id) : [];
  return {
    strategy: 'routed',
    chosen: weighed.ranked[0]?.model.record.namespace ?? null,
    prompt_tokens: promptTokens,
    max_tokens: maxTokens,
    candidates: weighed.candidates,
    rejected: weighed.rejected,
    failover: chain.map((m) => ({ namespace: m.record.namespace, estimated_cost: route.estimate(m.record) })),
    ...costBand(db, caller, body),
  };
}

/**
 * What a request would cost as it would be sent (instructions and earlier turns counted), over the
 * models that may answer it: the first, then the failover chain (CostBand in api/schemas.ts). The band
 * is null when the request could not be sent as it is (no model can take it, an unknown
 * conversation...); `refused` then says in words why, when sending it would be refused (a 422: a named
 * model over the Space's cost cap, or one that cannot read its images), so that the user learns it first.
 */
function costBand(db: Database, caller: Caller, body: Body): { band: CostBand | null; refused: string | null } {
  let prepared: Prepared;
  try {
    prepared = prepareChat(db, caller, body);
  } catch (error) {
    if (error instanceof Problem) return { band: null, refused: error.status === 422 ? error.message : null };
    throw error;
  }
  const { promptTokens, promptChars } = prepared;
  const budget = (r: ModelRecord) => Math.max(1, Math.min(prepared.maxTokens, r.context_window - promptTokens));
  // The web searches it may run, each billed apart: none when it writes nothing, all it may otherwise.
  const searches = searchesToEstimate(toolOptionsOf(body));
  /**
   * At a number of completion tokens, as routing estimates; at a known reply, as finishChat bills it;
   * either at the prices of where the provider's key reaches the model (a Vertex AI region's) and of
   * the prompt's length.
   */
  const cost = (model: ModelRecord, completion: string | number) => {
    const r = pricedFor(model, promptTokens);
    return typeof completion === 'number'
      ? estimateCost(r, promptTokens, promptChars, completion, false, completion ? searches(r) : 0)
      : costOf(r, {
          promptTokens,
          promptChars,
          completionTokens: countTokens(completion),
          completionChars: completion.length,
        }).total;
  };
  const first = prepared.first.record;
  const answering = [
    first,
    ...prepared.chain
      .map((m) => m.record)
      .filter((r) => r.id !== first.id && !isRetired(r) && r.context_window > promptTokens),
  ];
  // A test model's reply is known in advance (it is what generate() produces); other models are
  // expected to write half of what they may.
  const expected = first.is_test_model
    ? cost(
        first,
        truncateTokens(testModelReply({ model: first.model, prompt: body.prompt, images: 0, files: 0 }), budget(first))
          .text,
      )
    : cost(first, Math.ceil(budget(first) / 2));
  const band = {
    min: Math.min(...answering.map((r) => cost(r, 0))),
    expected,
    max: Math.max(...answering.map((r) => cost(r, budget(r)))),
    model: first.namespace,
    prompt_tokens: promptTokens,
    max_tokens: prepared.maxTokens,
  };
  return { band, refused: null };
}
