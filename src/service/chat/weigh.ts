// The Space's models weighed for one request: which of its active models may take a request of this
// size, how each scores by the Space's weights (routing.ts), which are left out and why, and where a
// failed request goes next.
import type { ModelRecord } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { appModelRows, findModel, type CatalogueModel } from '../domain/models';
import { answersHere } from '../domain/serving';
import type { AppConfig } from '../domain/spaces';
import { latencyBook } from './latency';
import { pricedFor } from '../providers/dataset';
import { estimateCost } from './pricing';
import type { JsonNeed, PdfPages, ToolOptions } from './request';
import { explain, type RouteInput } from './routing';
import { pageTokensToEstimate, searchesToEstimate } from './webSearches';

/**
 * The Space's models weighed for a request: the active ones that can take it, ranked, with their
 * scores; and the Space's models left out, with the reason (conventions.md, routing receipt). Inactive
 * are the models the Space has turned off (toggled off, or in its failover chain only), not the whole
 * catalogue, which can be large.
 */
export function weighActive(
  db: Database,
  caller: Caller,
  appId: string,
  route: RouteInput,
  budget: (r: ModelRecord) => number,
) {
  const rows = appModelRows(db, appId);
  // A model this service has measured is weighed by what it measured, others by the catalogue's prior.
  const active = rows
    .filter((r) => r.active === 1)
    .flatMap((r) => findModel(db, caller, r.model_id) ?? [])
    .map((m) => ({ ...m, latencyMs: latencyBook.measured(m.record.namespace) ?? m.latencyMs }));
  route.models = active.filter((m) => budget(m.record) > 0);
  const { ranked, rejected } = explain(route);
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return {
    ranked,
    candidates: ranked.map((c) => ({
      namespace: c.model.record.namespace,
      score: round(c.score),
      cost_score: round(c.costScore),
      latency_score: round(c.latencyScore),
      quality_score: round(c.qualityScore),
      estimated_cost: c.estimate,
      latency_source:
        latencyBook.measured(c.model.record.namespace) === undefined ? ('prior' as const) : ('measured' as const),
    })),
    rejected: [
      ...rejected.map((r) => ({ namespace: r.model.record.namespace, reason: r.reason as string })),
      ...active
        .filter((m) => budget(m.record) <= 0)
        .map((m) => ({ namespace: m.record.namespace, reason: 'prompt longer than its context window' })),
      ...rows
        .filter((r) => r.active !== 1)
        .flatMap((r) => findModel(db, caller, r.model_id) ?? [])
        .map((m) => ({ namespace: m.record.namespace, reason: 'inactive' })),
    ],
  };
}

export interface PromptSize {
  promptTokens: number;
  promptChars: number;
  maxTokens: number;
  needsVision: boolean;
  needsPdf?: boolean;
  pdfPages?: PdfPages;
  /** JSON the reply must be (absent: text, as the playground's preview always is). */
  needsJson?: JsonNeed;
  needsLogprobs?: boolean;
  needsLogitBias?: boolean;
  needsInfill?: boolean;
  needsUsOnly?: boolean;
  /** The prompt marks cache breakpoints: it may be written to the provider's cache (at its price). */
  writesCache?: boolean;
  /** The tools asked for, of which a web search is billed per search and a web fetch by the pages' tokens. */
  completion?: ToolOptions;
}

/** What routing weighs for a request of this size in this Space (the candidates are filled in by the caller). */
export function routeInput(db: Database, config: AppConfig, size: PromptSize) {
  const canServe = (r: ModelRecord) => answersHere(db, r);
  const budget = (r: ModelRecord) => Math.min(size.maxTokens, r.context_window - size.promptTokens);
  const searches = searchesToEstimate(size.completion);
  const pageTokens = pageTokensToEstimate(size.completion);
  const route: RouteInput = {
    models: [],
    weights: config.weights,
    maxCost: config.policies.max_cost ?? 0,
    needsVision: size.needsVision,
    needsPdf: size.needsPdf ?? false,
    pdfPages: size.pdfPages,
    needsJson: size.needsJson ?? null,
    needsLogprobs: size.needsLogprobs ?? false,
    needsLogitBias: size.needsLogitBias ?? false,
    needsInfill: size.needsInfill ?? false,
    needsUsOnly: size.needsUsOnly ?? false,
    canServe,
    // At the prices of where the provider's key reaches it and of the prompt's length, as billing
    // prices it (a Vertex AI region's, a long prompt's).
    estimate: (r) =>
      estimateCost(
        pricedFor(r, size.promptTokens + pageTokens(r), size.completion?.inferenceGeo),
        size.promptTokens + pageTokens(r),
        size.promptChars + pageTokens(r) * 4,
        Math.max(1, budget(r)),
        size.writesCache ?? false,
        searches(r),
      ),
    searches,
    pageTokens,
  };
  return { route, budget, canServe };
}

export function activeModels(db: Database, caller: Caller, appId: string): CatalogueModel[] {
  return appModelRows(db, appId)
    .filter((r) => r.active === 1)
    .flatMap((r) => findModel(db, caller, r.model_id) ?? []);
}

export function failoverChain(db: Database, caller: Caller, appId: string): CatalogueModel[] {
  return appModelRows(db, appId)
    .filter((r) => r.failover_position !== null)
    .sort((a, b) => (a.failover_position ?? 0) - (b.failover_position ?? 0))
    .flatMap((r) => findModel(db, caller, r.model_id) ?? []);
}
