// Everything that can be checked before a model runs: the Space and the caller's permission, the
// conversation and assistant version, the messages as they will be sent (instructions and earlier
// turns), the token counts, and the first model with the chain behind it. Throws a 4xx Problem and
// stores nothing.
import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';
import type { ModelRecord } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { dayLabel } from '../../shared/labels';
import { isRetired, retiresSoon } from '../../shared/models';
import { keyVariableOf } from '../../shared/providerNames';
import { findModel, findModelByName, successorName, type CatalogueModel } from '../domain/models';
import { appConfig, loadApp, requirePermission } from '../domain/spaces';
import { Problem, invalid } from '../problem';
import { providerKeys } from '../providers/keys';
import { keyKindRefusal, runsInTheUs } from '../providers/offered';
import { providerSpec } from '../providers/providers';
import { promptTokens as memo } from '../tokenizer';
import { money } from '../../shared/money';
import { reasonLabel } from '../../shared/receipt';
import {
  capabilityRefusal,
  costCapWords,
  pdfPageLimit,
  RAISE_MAX_COST,
  type Rejection,
  type RouteInput,
} from './routing';
import { toolsRead } from './advancedToolUse';
import { messageImageTokens } from './imageTokens';
import { pdfCount, readPdfs } from './pdfReading';
import { buildMessages, resolveAssistantVersion, resolveConversation } from './messages';
import {
  messageText,
  needsOf,
  toolOptionsOf,
  type Body,
  type ChatMessage,
  type PdfPages,
  type Prepared,
} from './request';
import { activeModels, failoverChain, routeInput, weighActive } from './weigh';
import { answersHere } from '../domain/serving';

/** Parts of a sentence joined as English joins them ("a, b, and c"; "a or b"). */
const AND = new Intl.ListFormat('en', { type: 'conjunction' });
const OR = new Intl.ListFormat('en', { type: 'disjunction' });

/**
 * The system's randomness for request ids, drawn 4 KiB at a time: uuidv7's own source asks for 32
 * bytes at a time, which was 2% of the event loop's time under load (the uuid package, asking for 16
 * bytes for each id, 5%), measured.
 */
class RandomBatches {
  private readonly buffer = new Uint32Array(1024);
  private cursor = this.buffer.length;
  nextUint32(): number {
    if (this.cursor === this.buffer.length) {
      randomFillSync(this.buffer);
      this.cursor = 0;
    }
    return this.buffer[this.cursor++]!;
  }
}

/**
 * Time-ordered request ids, so that the log's primary key grows at its end: a random one wrote a page
 * of the index anywhere for each request, a fifth of the writer thread's time.
 */
const requestIds = new V7Generator(new RandomBatches());

/** A new request's id (its log row's key). */
export const newRequestId = (): string => requestIds.generate().toString();

/** Prepares a request to be sent (or counted as it would be), its PDFs read first (pdfReading.ts). */
export async function prepareSending(db: Database, caller: Caller, body: Body): Promise<Prepared> {
  body.pdfs = await readPdfs(body);
  return prepareChat(db, caller, body);
}

/** Checks everything that can be checked before a model runs; throws a 4xx Problem and stores nothing. */
export function prepareChat(db: Database, caller: Caller, body: Body): Prepared {
  const row = loadApp(db, caller, body.app_id);
  requirePermission(caller, 'use_playground');
  const config = appConfig(row);
  checkAttachments(body);
  const conversation = resolveConversation(db, row.id, body);
  const version = resolveAssistantVersion(db, row.id, body, conversation?.settings ?? null, config);
  const built = buildMessages(db, caller, config, version, conversation ? row.id : null, body);
  // A model named as the Space itself lets the Space route (GET /v1/models offers it for tools that must name one).
  const named = body.model === row.name ? null : body.model;
  const modelId = named ?? version?.model_id ?? null;
  const warnings: string[] = [...(body.warnings ?? [])];
  const full = sizeOf(caller, body, built);
  const cut = body.truncation === 'auto' ? truncation(db, caller, row.id, modelId, body, built, full) : undefined;
  if (cut) warnings.push(cut.warning);
  const { messages, pdfs, promptChars, promptTokens } = cut?.kept ?? full;
  const maxTokens = body.max_tokens ?? version?.max_tokens ?? config.settings.max_tokens ?? 1024;
  const temperature = body.temperature ?? version?.temperature ?? config.settings.temperature ?? 0.7;
  const { route, budget, canServe } = routeInput(db, config, {
    promptTokens,
    promptChars,
    maxTokens,
    ...needsOf(body),
    pdfPages: pdfs.pages,
    writesCache:
      messages.some((m) => m.cache_control) || (body.completion?.tools ?? []).some((tool) => tool.cache_control),
    completion: toolOptionsOf(body),
  });
  const weighed = weighActive(db, caller, row.id, route, budget);
  const spaceChain = config.row.has_failover_chain ? failoverChain(db, caller, row.id) : [];
  let first: CatalogueModel;
  // What may answer for a named model that fails: the Space's failover chain, but for its test models
  // when the named one is real. A test model makes its answer up, and would hide that the named one
  // cannot answer (a client naming Claude with no Anthropic key got an echo of its question).
  let replacements = spaceChain;
  if (modelId) {
    const loc = named ? ['body', 'model'] : ['body', 'assistant_version_id'];
    first = explicitModel(db, caller, modelId, route, budget, loc);
    const r = first.record;
    if (!r.is_test_model) replacements = spaceChain.filter((m) => !m.record.is_test_model);
    // Named, it answers itself or not at all: nothing replaces it unless the Space's failover chain says so.
    if (!route.canServe(r) && !replacements.some((m) => m.record.id !== r.id))
      throw invalid(loc, `${r.namespace} cannot answer here: ${howToReach(r)}`, 'cannot_answer_here');
  } else {
    const ranked = weighed.ranked;
    if (ranked.length === 0) {
      if (route.needsInfill)
        throw invalid(
          ['body', 'suffix'],
          'No active model of this Space can fill in the middle of a text (suffix): a model server\u2019s model can (Ollama, llama.cpp, vLLM, LM Studio), and so can Mistral\u2019s Codestral and DeepSeek\u2019s V4 models with their provider\u2019s key; turn one on in this Space, or send the prompt without a suffix',
          'infill_unsupported',
        );
      if (route.needsUsOnly && !route.models.some((m) => runsInTheUs(m.record)))
        throw invalid(
          ['body', 'inference_geo'],
          'No active model of this Space can promise to run in the US only: Claude models on Anthropic\u2019s own API can (with your Anthropic key: LLM Spaces: Add Provider Key\u2026), and models on Amazon Bedrock or Vertex AI in a US region; turn one on in this Space, or send the request without inference_geo',
          'inference_geo_unsupported',
        );
      const reach = (namespace: string) => {
        const found = findModelByName(db, caller, namespace);
        return found ? howToReach(found.record) : 'no provider key or model server here reaches it';
      };
      throw new Problem(422, [
        { loc: ['body', 'model'], msg: noModelWords(weighed.rejected, reach), type: 'no_model' },
      ]);
    }
    first = ranked[0]!.model;
  }
  if (retiresSoon(first.record)) warnings.push(deprecationWarning(first.record));
  // Where a failed model's request goes next: the failover chain in its order when it is on, else the
  // Space's other active models by quality, best first (conventions.md, corrections).
  // A model the request named is not replaced by one the Space did not name for failing over: without
  // a failover chain, its failure is the answer.
  const chain = config.row.has_failover_chain
    ? replacements
    : modelId
      ? []
      : activeModels(db, caller, row.id)
          .filter((m) => m.record.id !== first.record.id && canServe(m.record) && budget(m.record) > 0)
          .sort((a, b) => b.quality - a.quality || a.record.namespace.localeCompare(b.record.namespace));
  return {
    requestId: newRequestId(),
    caller,
    config,
    body,
    first,
    chain,
    messages,
    promptTokens,
    promptChars,
    pdfPages: pdfs.pages,
    maxTokens,
    temperature,
    conversationId: body.conversation_id ?? null,
    benchmark: row.benchmark_model_id ? findModel(db, caller, row.benchmark_model_id)?.record : undefined,
    warnings,
    routing: { strategy: modelId ? 'model' : 'routed', candidates: weighed.candidates, rejected: weighed.rejected },
  };
}

/** A prompt's size as the model reads it: its messages, tools, images and PDFs. */
function sizeOf(caller: Caller, body: Body, messages: ChatMessage[]) {
  // The model reads its tools too (a coding agent's are thousands of tokens): each one's name,
  // description and parameters, which providers count into the prompt in wording close to their JSON.
  // A tool deferred by tool search is not read until a search or a tool's result loads it; examples of
  // its input are read too.
  const toolTexts = toolsRead(body.completion, messages).map(
    (tool) => JSON.stringify(tool.function) + (tool.examples ? JSON.stringify(tool.examples) : ''),
  );
  const texts = [...messages.map(messageText), ...toolTexts];
  // Images and PDFs count by the rule of the vendor whose API the request came by (imageTokens.ts,
  // pdfReading.ts).
  const rule = body.imageRule ?? 'openai';
  const pdfs = pdfCount(messages, body.pdfs, rule, (text) => memo.prompt(caller.orgId, [text]));
  const promptChars = texts.reduce((n, text) => n + text.length, Math.max(0, texts.length - 1)) + pdfs.chars;
  const promptTokens = memo.prompt(caller.orgId, texts) + messageImageTokens(messages, rule) + pdfs.tokens;
  return { messages, pdfs, promptChars, promptTokens };
}

/**
 * OpenAI's `truncation: "auto"`: a conversation longer than the context window of the model named (else
 * of the largest of the Space's active models) loses its earliest turns, from a user's message on, until
 * it fits, as OpenAI drops items from the start of a conversation; its system messages stay, and a tool's
 * result never loses the call it answers. Undefined when it fits as it is (or fits nowhere).
 */
function truncation(
  db: Database,
  caller: Caller,
  appId: string,
  modelId: string | null,
  body: Body,
  messages: ChatMessage[],
  full: ReturnType<typeof sizeOf>,
): { kept: ReturnType<typeof sizeOf>; warning: string } | undefined {
  const models = modelId
    ? [findModelByName(db, caller, modelId)].flatMap((m) => m ?? [])
    : activeModels(db, caller, appId).filter((m) => answersHere(db, m.record));
  const window = Math.max(0, ...models.map((m) => m.record.context_window));
  if (full.promptTokens < window) return undefined;
  // Where the kept part may begin: a user's message after the first turn (a later one leaves less to read).
  const first = messages.findIndex((m) => m.role !== 'system');
  const starts = messages.flatMap((m, i) => (i > first && m.role === 'user' ? [i] : []));
  const from = (i: number) =>
    sizeOf(
      caller,
      body,
      messages.filter((m, j) => j >= i || m.role === 'system'),
    );
  let [low, high] = [0, starts.length - 1];
  let kept: ReturnType<typeof sizeOf> | undefined;
  let cut = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const size = from(starts[mid]!);
    if (size.promptTokens < window) [kept, cut, high] = [size, starts[mid]!, mid - 1];
    else low = mid + 1;
  }
  if (!kept) return undefined;
  const dropped = messages.slice(0, cut).filter((m) => m.role !== 'system').length;
  const left =
    dropped === 1 ? "The conversation's first message was" : `The conversation's first ${dropped} messages were`;
  return {
    kept,
    warning: `${left} left out (truncation: auto) to fit a context window of ${window.toLocaleString('en-US')} tokens.`,
  };
}

function explicitModel(
  db: Database,
  caller: Caller,
  name: string,
  route: RouteInput,
  budget: (r: ModelRecord) => number,
  loc: string[],
): CatalogueModel {
  const model = findModelByName(db, caller, name);
  if (!model) throw invalid(loc, `Unknown model "${name}"`, 'not_found');
  const r = model.record;
  if (isRetired(r)) throw retired(r, loc, successorName(db, caller, r, name));
  const unable = capabilityRefusal(r, route);
  if (unable) {
    const { loc: field, type, words } = REFUSED_FIELD[unable]!;
    throw invalid(['body', ...field], words?.(r, route) ?? `${r.namespace} ${unable}`, type);
  }
  if (budget(r) <= 0)
    throw invalid(
      ['body', 'prompt'],
      `The prompt is longer than the context window of ${r.namespace} (${r.context_window.toLocaleString('en-US')} tokens)`,
      'context_window',
    );
  if (route.maxCost > 0 && route.estimate(r) > route.maxCost) {
    const searches = route.searches?.(r) ?? 0;
    const pages = route.pageTokens?.(r) ?? 0;
    const parts = [
      'its prompt',
      'the longest reply its max_tokens allows',
      ...(searches
        ? [
            searches === 1
              ? `a web search at ${money(r.web_search_cost ?? 0)}`
              : `${searches} web searches at ${money(r.web_search_cost ?? 0)} each`,
          ]
        : []),
      ...(pages ? [`${pages.toLocaleString('en-US')} tokens of pages its web fetch may read`] : []),
    ];
    const fewer = [
      'a shorter reply (max_tokens)',
      ...(searches > 1 ? ['fewer web searches (max_uses)'] : []),
      ...(pages ? ['fewer tokens of pages (max_content_tokens, max_uses)'] : []),
    ];
    throw invalid(
      loc,
      `${r.namespace} may cost up to ${money(route.estimate(r))} for this request (${AND.format(parts)}), more than ${costCapWords(route.maxCost)}: ${RAISE_MAX_COST}, or ask for ${OR.format(fewer)}`,
      'max_cost',
    );
  }
  return model;
}

/**
 * The request's field a model cannot honour, and the kind of refusal, by what it cannot do; with its
 * own words where "<model> <what it cannot do>" would not say enough.
 */
const REFUSED_FIELD: Partial<
  Record<Rejection, { loc: string[]; type: string; words?: (r: ModelRecord, route: RouteInput) => string }>
> = {
  'cannot read images': { loc: ['images'], type: 'vision_unsupported' },
  'cannot read PDFs': { loc: ['files'], type: 'pdf_unsupported' },
  'too many PDF pages': { loc: ['files'], type: 'pdf_too_long', words: (r, route) => tooManyPages(r, route.pdfPages!) },
  'cannot answer in JSON': { loc: ['response_format'], type: 'json_unsupported' },
  'cannot follow a JSON schema': { loc: ['response_format'], type: 'json_unsupported' },
  'cannot report token probabilities': { loc: ['logprobs'], type: 'logprobs_unsupported' },
  'cannot bias tokens': {
    loc: ['logit_bias'],
    type: 'logit_bias_unsupported',
    words: (r) =>
      `${r.namespace} cannot bias tokens: logit_bias is by the token ids of OpenAI's tokenizers, which only OpenAI's chat models (on OpenAI or Azure, not its reasoning models) take; send it to one of those, or without logit_bias`,
  },
  'cannot fill in the middle': { loc: ['suffix'], type: 'infill_unsupported' },
  'cannot run in the US only': {
    loc: ['inference_geo'],
    type: 'inference_geo_unsupported',
    words: (r) =>
      `${r.namespace} cannot promise to run in the US only: only models on Anthropic's own API, or on Amazon Bedrock or Vertex AI in a US region (not a global profile or endpoint), can; send it to one of those, or without inference_geo`,
  },
};

/** Why a model named cannot take a request's PDFs: more pages than it reads, with both counts. */
function tooManyPages(r: ModelRecord, pages: PdfPages): string {
  const limit = pdfPageLimit(r)!;
  const most = limit.pages.toLocaleString('en-US');
  const words =
    limit.of === 'request'
      ? `${r.namespace} reads at most ${most} pages of PDF in a request, and this one has ${pages.total.toLocaleString('en-US')}`
      : `${r.namespace} reads at most ${most} pages of each PDF, and one here has ${pages.longest.toLocaleString('en-US')}`;
  return `${words}: send fewer pages, or another model`;
}

/** Names in a sentence, the first few of them ("a, b, c and 4 more"). */
const someOf = (names: string[]) =>
  AND.format(names.length > 3 ? [...names.slice(0, 3), `${names.length - 3} more`] : names);

/**
 * Why no active model of a Space can serve a request, in words: what each could not do ("openai/a and
 * mistral/b cannot read PDFs"), so that the caller knows which model to turn on or what to change.
 */
function noModelWords(
  rejected: ReadonlyArray<{ namespace: string; reason: string }>,
  reach: (namespace: string) => string,
): string {
  // Models that cannot answer here are told apart by what would let them (a provider's key, a server).
  const why = new Map<string, string[]>();
  for (const r of rejected) {
    if (r.reason === 'inactive') continue;
    const label = reasonLabel(r.reason, (words) => words);
    const words = r.reason === 'cannot answer here' ? `${label}, ${reach(r.namespace)}` : label;
    why.set(words, [...(why.get(words) ?? []), r.namespace]);
  }
  if (why.size === 0) return 'This Space has no active model: turn one on in its settings.';
  const reasons = [...why].map(([words, names]) => `${someOf(names.sort())}: ${words}`);
  const raise = rejected.some((r) => r.reason === 'over max_cost') ? `, or ${RAISE_MAX_COST}` : '';
  return `No active model of this Space can serve this request (${reasons.join('; ')}). Turn on one that can in the Space's settings${raise}.`;
}

/** What would let a model answer on this service, in words. */
export function howToReach(
  r: Pick<ModelRecord, 'provider' | 'model'> & Partial<Pick<ModelRecord, 'api_target'>>,
): string {
  const spec = providerSpec(r.provider);
  const refusal = keyKindRefusal(r);
  if (refusal) return refusal;
  // The key is there, but the provider's list of models for it does not have this one (offered.ts).
  if (spec && providerKeys.has(spec.id))
    return `${spec.label} does not list it among the models your key can use (it may be retired, or not open to your account)`;
  if (spec)
    return `add your ${spec.label} key (LLM Spaces: Add Provider Key…, or ${keyVariableOf(spec)} for the standalone service)`;
  if (r.provider === 'local') return 'start the model server that serves it, then refresh the local models';
  return 'no provider key or model server here reaches it';
}

/**
 * The refusal of a model retired (its `deprecated_on` passed), chat or embedding model alike, with the
 * model to ask for instead where the catalogue has one.
 */
export const retired = (r: { namespace: string; deprecated_on?: string | null }, loc: string[], instead?: string) =>
  invalid(
    loc,
    `${r.namespace} was retired on ${dayLabel(r.deprecated_on!)} and is no longer served${instead ? `: ask for ${instead} instead` : ''}`,
    'model_deprecated',
  );

export function deprecationWarning(r: ModelRecord): string {
  return `${r.namespace} is deprecated and will stop being served on ${dayLabel(r.deprecated_on!)}.`;
}

function checkAttachments(body: Body): void {
  body.images?.forEach((url, i) => {
    if (!/^data:image\/[a-z0-9.+-]+;base64,/i.test(url))
      throw invalid(['body', 'images', i], 'must be a data URL of an image (data:image/...;base64,...)', 'data_url');
  });
  body.files?.forEach((url, i) => {
    if (!/^data:[a-z0-9.+-]+\/[a-z0-9.+-]+;base64,/i.test(url))
      throw invalid(['body', 'files', i], 'must be a data URL (data:<type>;base64,...)', 'data_url');
  });
}
