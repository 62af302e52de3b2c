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
import { fillsInMiddle, isRetired } from '../../shared/models';
import { money } from '../../shared/money';
import { dialectOf } from '../../shared/providerNames';
import { runsInTheUs } from '../providers/offered';
import type { JsonNeed, PdfPages } from './request';

/**
 * What a request needs of a model beyond text: reading images, writing JSON, reporting token
 * probabilities or biasing them, filling in the middle of a text.
 */
export interface Needs {
  needsVision: boolean;
  needsPdf?: boolean;
  /** The pages of the request's PDFs, all together and of the longest (pdfReading.ts). */
  pdfPages?: PdfPages;
  needsJson: JsonNeed;
  needsLogprobs: boolean;
  /** Token odds biased by OpenAI's token ids (its `logit_bias`). */
  needsLogitBias?: boolean;
  needsInfill?: boolean;
  /** Run in the US only (Anthropic's `inference_geo: "us"`): providers/offered.ts runsInTheUs. */
  needsUsOnly?: boolean;
}

export interface RouteInput extends Needs {
  models: CatalogueModel[];
  weights: Weights;
  maxCost: number;
  canServe: (record: ModelRecord) => boolean;
  /** What the request may cost on a model at most. */
  estimate: (record: ModelRecord) => number;
  /** Of which the web searches it may run there (each billed apart). */
  searches?: (record: ModelRecord) => number;
  /** And the tokens of the pages its web fetch may read there (billed as its prompt's). */
  pageTokens?: (record: ModelRecord) => number;
}

export interface Scored {
  model: CatalogueModel;
  score: number;
  estimate: number;
  costScore: number;
  latencyScore: number;
  qualityScore: number;
}

/** What to do about a request the Space's max_cost refuses, in the words of its settings editor. */
export const RAISE_MAX_COST = "raise the Space's cost cap per request in its settings (0 means no cap)";

/** The Space's max_cost in the words of its settings editor: "this Space's cost cap of $0.020 a request". */
export const costCapWords = (maxCost: number) => `this Space's cost cap of ${money(maxCost)} a request`;

/** Why an active model is not a candidate, in the words of the routing receipt (conventions.md). */
export type Rejection =
  | 'deprecated'
  | 'cannot read images'
  | 'cannot read PDFs'
  | 'too many PDF pages'
  | 'cannot answer in JSON'
  | 'cannot follow a JSON schema'
  | 'cannot report token probabilities'
  | 'cannot bias tokens'
  | 'cannot fill in the middle'
  | 'cannot run in the US only'
  | 'cannot answer here'
  | 'over max_cost';

/**
 * What the request needs that the model cannot do, or null: the one check of routing, of a model the
 * request names (prepare.ts) and of the next model of a failover chain (run.ts).
 */
export function capabilityRefusal(r: ModelRecord, needs: Needs): Rejection | null {
  if (needs.needsVision && !r.supports_vision) return 'cannot read images';
  if (needs.needsPdf && !readsPdf(r)) return 'cannot read PDFs';
  if (needs.pdfPages && tooManyPdfPages(r, needs.pdfPages)) return 'too many PDF pages';
  // A hosted provider's chat model answers a prompt; a model server's code model fills in the middle, and
  // so do the hosted models with an API for it (Codestral, DeepSeek's V4 models).
  if (needs.needsInfill && !r.is_test_model && r.provider !== 'local' && !fillsInMiddle(r))
    return 'cannot fill in the middle';
  if (needs.needsUsOnly && !runsInTheUs(r)) return 'cannot run in the US only';
  if (needs.needsLogitBias && !biasesTokens(r)) return 'cannot bias tokens';
  return jsonRefusal(r, needs.needsJson) ?? logprobsRefusal(r, needs.needsLogprobs);
}

/** Providers whose API takes a PDF whole, for their models that read images (its pages are read as both). */
const READS_PDF = new Set(['anthropic', 'google', 'openai']);

/**
 * Whether a model reads a PDF given whole (a test model notes it): Claude through Bedrock and Vertex AI
 * as at Anthropic, Gemini through Vertex AI as at Google.
 */
export const readsPdf = (r: ModelRecord): boolean =>
  !!r.is_test_model || (!!r.supports_vision && READS_PDF.has(dialectOf(r.provider ?? '', r.model)));

/**
 * The most pages of PDF a model reads, as its vendor publishes them: Claude, in one request (600, or 100
 * for a model with a context window of 200,000 tokens), on Anthropic's API or Google's; Gemini, in each
 * document (1,000). Undefined where the service knows of none (OpenAI's is not checked).
 */
export function pdfPageLimit(r: ModelRecord): { pages: number; of: 'request' | 'document' } | undefined {
  if (r.is_test_model) return undefined;
  const dialect = dialectOf(r.provider ?? '', r.model);
  if (dialect === 'anthropic' || r.namespace.includes('/claude-'))
    return { pages: r.context_window > 200_000 ? 600 : 100, of: 'request' };
  if (dialect === 'google') return { pages: 1000, of: 'document' };
  return undefined;
}

/** Whether a request's PDFs have more pages than the model reads. */
function tooManyPdfPages(r: ModelRecord, pages: PdfPages): boolean {
  const limit = pdfPageLimit(r);
  return !!limit && (limit.of === 'request' ? pages.total : pages.longest) > limit.pages;
}

/** Providers whose API reports token probabilities (OpenAI's Chat Completions, on OpenAI or Azure). */
const REPORTS_LOGPROBS = new Set(['openai', 'azure']);

/** Why a model cannot report the token probabilities asked for, or null. */
function logprobsRefusal(r: ModelRecord, asked: boolean): Rejection | null {
  return asked && (r.is_test_model || !REPORTS_LOGPROBS.has(r.provider ?? ''))
    ? 'cannot report token probabilities'
    : null;
}

/**
 * Whether a model takes `logit_bias`: OpenAI's chat models, on OpenAI or Azure. Its reasoning models
 * refuse it (and answer here through the Responses API, which has no such field), and any other
 * model's token ids are not those of OpenAI's tokenizers the biases are by.
 */
const biasesTokens = (r: ModelRecord) => REPORTS_LOGPROBS.has(r.provider ?? '') && r.supports_reasoning !== true;

/**
 * Why a model cannot write the JSON asked for, or null: it must support JSON, and a test model's
 * canned reply can be wrapped in an object but cannot follow a schema.
 */
function jsonRefusal(r: ModelRecord, need: JsonNeed): Rejection | null {
  if (!need) return null;
  if (!r.supports_json) return 'cannot answer in JSON';
  return need === 'schema' && r.is_test_model ? 'cannot follow a JSON schema' : null;
}

function rejection(input: RouteInput, model: CatalogueModel): Rejection | null {
  const r = model.record;
  if (isRetired(r)) return 'deprecated';
  const unable = capabilityRefusal(r, input);
  if (unable) return unable;
  if (!input.canServe(r)) return 'cannot answer here';
  if (input.maxCost > 0 && input.estimate(r) > input.maxCost) return 'over max_cost';
  return null;
}

/** The candidates best first, with their scores, and the active models left out with the reason. */
export function explain(input: RouteInput): {
  ranked: Scored[];
  rejected: Array<{ model: CatalogueModel; reason: Rejection }>;
} {
  const rejected = input.models.flatMap((model) => {
    const reason = rejection(input, model);
    return reason ? [{ model, reason }] : [];
  });
  return { ranked: rank(input), rejected };
}

export function rank(input: RouteInput): Scored[] {
  const candidates = input.models
    .filter((m) => rejection(input, m) === null)
    .map((model) => ({ model, estimate: input.estimate(model.record) }));
  if (candidates.length === 0) return [];
  /** Min-max normalised to [0, 1], 1 the best; 1 for every candidate when all are equal. */
  const norm = (values: number[], lowerIsBetter: boolean) => {
    const min = Math.min(...values);
    const span = Math.max(...values) - min;
    return (v: number) => (span === 0 ? 1 : lowerIsBetter ? 1 - (v - min) / span : (v - min) / span);
  };
  const cost = norm(
    candidates.map((c) => c.estimate),
    true,
  );
  const latency = norm(
    candidates.map((c) => c.model.latencyMs),
    true,
  );
  const quality = norm(
    candidates.map((c) => c.model.quality),
    false,
  );
  const w = input.weights;
  const sum = w.cost + w.latency + w.quality || 1;
  return candidates
    .map((c) => {
      const scores = {
        costScore: cost(c.estimate),
        latencyScore: latency(c.model.latencyMs),
        qualityScore: quality(c.model.quality),
      };
      return {
        ...c,
        ...scores,
        score: (w.cost * scores.costScore + w.latency * scores.latencyScore + w.quality * scores.qualityScore) / sum,
      };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.estimate - b.estimate ||
        a.model.record.namespace.localeCompare(b.model.record.namespace),
    );
}
