// The client's own estimates, for a service that gives none (the hosted one): from the Space's active
// models and the catalogue's prices.
// - The routing receipt of a reply: which models could have taken the request, and what each would
//   have cost for this reply's token counts. Latency and quality are not known here, so it ranks by
//   cost alone.
// - The cost band of a request before it is sent: the prompt's tokens at about four characters each
//   (earlier turns not counted), and the reply from nothing to max_tokens.
// Both are marked as estimates wherever they are shown.
import type { CostBand, ModelRecord, SpaceUpdateResponse, Usage } from '../api/schemas';
import { isRetired as retired, todayIso } from './models';
import type { ReceiptView } from './receipt';

export interface EstimateInput {
  view: SpaceUpdateResponse;
  catalogue: readonly ModelRecord[];
  /** The model the request named; null when the Space routed it. */
  asked: string | null;
  answered: string;
  usage: Usage;
  /** Whether the request carried images (only models that read them could take it). */
  images: boolean;
  today?: string;
}

/** What a model would have charged for these token counts (about four characters a token where it bills by character). */
function costAt(m: ModelRecord, usage: Pick<Usage, 'prompt_tokens' | 'completion_tokens'>): number {
  const unit = m.price_unit === 'characters' ? 4 : 1;
  return (
    usage.prompt_tokens * unit * m.prompt_token_cost +
    usage.completion_tokens * unit * m.completion_token_cost +
    m.base_cost
  );
}

/** The Space's active models, as catalogue records. */
function activeRecords(view: SpaceUpdateResponse, byName: ReadonlyMap<string, ModelRecord>): ModelRecord[] {
  const settings = [...view.main.base_model_settings, ...view.main.custom_model_settings];
  return [...new Set(settings.filter((s) => s.active && !s.globally_disabled).map((s) => s.namespace))].flatMap(
    (ns) => byName.get(ns) ?? [],
  );
}

export interface BandInput {
  view: SpaceUpdateResponse;
  catalogue: readonly ModelRecord[];
  /** The model the request names; null when the Space routes it. */
  model: string | null;
  prompt: string;
  maxTokens: number | null;
  today?: string;
}

/** A cost band as the service's (conventions, the route preview), estimated here; null when no model could answer. */
export function estimatedBand(input: BandInput): (CostBand & { estimated: true }) | null {
  const today = input.today ?? todayIso();
  const byName = new Map(input.catalogue.map((m) => [m.namespace, m]));
  const named = input.model ? byName.get(input.model) : undefined;
  const chain = input.view.main.app.has_failover_chain
    ? input.view.main.failover_models.flatMap((m) => byName.get(m.namespace) ?? [])
    : [];
  const first = input.model ? (named ? [named] : []) : activeRecords(input.view, byName);
  const answering = [...new Set([...first, ...chain])].filter((m) => !retired(m, today));
  const leading = first.filter((m) => !retired(m, today));
  if (leading.length === 0) return null;
  const promptTokens = Math.ceil(input.prompt.length / 4);
  const maxTokens = input.maxTokens ?? input.view.main.app.settings?.max_tokens ?? 1024;
  const cost = (m: ModelRecord, completion: number) =>
    costAt(m, { prompt_tokens: promptTokens, completion_tokens: completion });
  // Expected: half of max_tokens written, by the model named, else on average over the models routing may choose.
  const expected = leading.reduce((sum, m) => sum + cost(m, Math.ceil(maxTokens / 2)), 0) / leading.length;
  return {
    min: Math.min(...answering.map((m) => cost(m, 0))),
    expected,
    max: Math.max(...answering.map((m) => cost(m, maxTokens))),
    model: named?.namespace ?? '',
    prompt_tokens: promptTokens,
    max_tokens: maxTokens,
    estimated: true,
  };
}

export function estimatedReceipt(input: EstimateInput): ReceiptView {
  const today = input.today ?? todayIso();
  const byName = new Map(input.catalogue.map((m) => [m.namespace, m]));
  const settings = [...input.view.main.base_model_settings, ...input.view.main.custom_model_settings];
  const active = activeRecords(input.view, byName);
  const maxCost = input.view.main.app.policies?.max_cost ?? 0;
  const excluded: ReceiptView['excluded'] = [];
  const taking = active.filter((m) => {
    const reason = retired(m, today)
      ? 'deprecated'
      : input.images && !m.supports_vision
        ? 'cannot read images'
        : maxCost > 0 && costAt(m, input.usage) > maxCost
          ? 'over max_cost'
          : null;
    if (reason) excluded.push({ namespace: m.namespace, reason });
    return !reason;
  });
  const costs = taking.map((m) => costAt(m, input.usage));
  const low = Math.min(...costs);
  const span = Math.max(...costs) - low;
  const candidates = taking
    .map((m, i) => ({
      namespace: m.namespace,
      score: span === 0 ? 1 : 1 - (costs[i]! - low) / span,
      estimatedCost: costs[i]!,
    }))
    .sort((a, b) => a.estimatedCost - b.estimatedCost || a.namespace.localeCompare(b.namespace))
    .map((c) => ({ ...c, costScore: c.score, latencyScore: null, qualityScore: null }));
  return {
    strategy: input.asked ? 'model' : 'routed',
    answered: input.answered,
    candidates,
    excluded,
    inactive: settings.filter((s) => !s.active).length,
    attempts: [],
    estimated: true,
  };
}
