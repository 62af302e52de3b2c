// Chooses the model for a request with no `model`, by the Space's weights.
//
// Candidates: the Space's active models that are not retired, can see images
// when the request has some, can be served here (test models always, others only with an upstream),
// and whose estimated cost stays within policies.max_cost (0 means no cap).
// Each candidate gets three scores in [0, 1], min-max normalised over the candidates:
//   cost    = 1 - (estimate - min) / (max - min)        (cheaper is better)
//   latency = 1 - (latencyMs - min) / (max - min)       (faster is better)
//   quality = (quality - min) / (max - min)              (better is better)
// (1 for every candidate when all are equal). The score is the weighted mean
//   (w.cost * cost + w.latency * latency + w.quality * quality) / (w.cost + w.latency + w.quality)
// and the highest wins; ties go to the cheaper, then to the namespace that sorts first.
import type { ModelRecord, Weights } from '../../api/schemas';
import type { CatalogueModel } from '../domain/models';
import { isRetired } from '../domain/models';

export interface RouteInput {
  models: CatalogueModel[];
  weights: Weights;
  maxCost: number;
  needsVision: boolean;
  canServe: (record: ModelRecord) => boolean;
  estimate: (record: ModelRecord) => number;
}

export interface Scored {
  model: CatalogueModel;
  score: number;
  estimate: number;
}

function eligible(input: RouteInput, model: CatalogueModel): string | null {
  const r = model.record;
  if (isRetired(r)) return `${r.namespace} is deprecated`;
  if (input.needsVision && !r.supports_vision) return `${r.namespace} cannot read images`;
  if (!input.canServe(r)) return `${r.namespace} needs an upstream model server`;
  if (input.maxCost > 0 && input.estimate(r) > input.maxCost) return `${r.namespace} may cost more than the Space's max_cost of $${input.maxCost}`;
  return null;
}

export function rank(input: RouteInput): Scored[] {
  const candidates = input.models.filter((m) => eligible(input, m) === null).map((model) => ({ model, estimate: input.estimate(model.record) }));
  if (candidates.length === 0) return [];
  const norm = (values: number[]) => {
    const min = Math.min(...values);
    const span = Math.max(...values) - min;
    return (v: number) => (span === 0 ? 1 : (v - min) / span);
  };
  const cost = norm(candidates.map((c) => c.estimate));
  const latency = norm(candidates.map((c) => c.model.latencyMs));
  const quality = norm(candidates.map((c) => c.model.quality));
  const w = input.weights;
  const sum = w.cost + w.latency + w.quality || 1;
  return candidates
    .map((c) => ({
      ...c,
      score: (w.cost * (1 - cost(c.estimate)) + w.latency * (1 - latency(c.model.latencyMs)) + w.quality * quality(c.model.quality)) / sum,
    }))
    .sort((a, b) => b.score - a.score || a.estimate - b.estimate || a.model.record.namespace.localeCompare(b.model.record.namespace));
}
