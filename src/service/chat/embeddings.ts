// POST /v1/embeddings (OpenAI's Embeddings API) through a Space: the model the request names, at its
// provider with the user's key (providers.ts) or at the model server that serves it, logged and billed
// in the Space as a chat is. Vectors of two models cannot be compared, so an embeddings request is never
// routed or failed over to another model: it is answered by the model named, or refused in words.
import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import type { z } from 'zod';
import type { EmbeddingModelRecord, EmbeddingsBody } from '../../api/schemas';
import { isRetired, todayIso } from '../../shared/models';
import { money } from '../../shared/money';
import { ownsBareNames } from '../../shared/providerNames';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { findModelByName } from '../domain/models';
import { embeddingServing, servedEmbeddingModels } from '../domain/serving';
import { appConfig, loadApp, requirePermission } from '../domain/spaces';
import { record } from '../ledgerThread';
import { Problem, invalid } from '../problem';
import { embeddingModels, catalogueSourcesGeneration, type EmbeddingModel } from '../providers/dataset';
import { costCapWords, RAISE_MAX_COST } from './routing';
import { countsAgainstProvider, providerCooldown } from '../providers/cooldown';
import { providerKeys } from '../providers/keys';
import { embeddingModel, embeds, type EmbeddingAsked } from '../providers/embedders';
import { providerSpec } from '../providers/providers';
import { countTokens, textOfTokenIds } from '../tokenizer';
import { howToReach, newRequestId, retired } from './prepare';
import { ProviderFailure, failureOf, notAskedWhileCooling } from './reach/hosted/providerFailure';
import { postToServer } from './reach/openaiCompatible';
import { ReachFailure } from './reach/reach';
import { requestedSpace } from './request';

type Body = z.output<typeof EmbeddingsBody>;

export interface EmbeddingsAnswer {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

let known: { day: string; list: number; models: readonly EmbeddingModel[] } | undefined;

/** The embedding models of the providers reached, from the price list in place, as of today. */
function providersEmbeddingModels(): readonly EmbeddingModel[] {
  const day = todayIso();
  const list = catalogueSourcesGeneration();
  if (known?.day !== day || known.list !== list) known = { day, list, models: embeddingModels(embeds, day) };
  return known.models;
}

/** How many calls to a provider's embedding model one request makes at once, where the model takes several. */
const PARALLEL_CALLS = 5;

/** How long a provider or model server may take to embed one request's texts. */
const EMBED_TIMEOUT_MS = 120_000;

/** How much of the texts the log keeps (a batch of a codebase's chunks would be megabytes). */
const LOGGED_CHARS = 4_000;

/**
 * The service's own embedding model, which needs no provider (as the test chat models): a hashed bag of
 * words, so that texts sharing words are near each other; for trying a client, not for search.
 */
export const TEST_EMBEDDING_MODEL = 'test/embed';
const TEST_DIMENSIONS = 256;
const TEST_MAX_DIMENSIONS = 3072;

/**
 * Every embedding model a request may name, for the Models view and GET /v1/models: the test model, the
 * providers' (each answers with its key, or at --upstream), and the model servers'.
 */
export function embeddingCatalogue(db: Database): EmbeddingModelRecord[] {
  return [
    {
      namespace: TEST_EMBEDDING_MODEL,
      provider: 'test',
      prompt_token_cost: 0,
      answers_here: true,
      deprecated_on: null,
    },
    ...providersEmbeddingModels().map((m) => ({
      namespace: m.namespace,
      provider: m.provider,
      prompt_token_cost: m.inputCost,
      answers_here: !isRetired(m) && (providerKeys.has(m.provider) || embeddingServing(db, m.model) !== null),
      deprecated_on: m.deprecated_on,
    })),
    ...servedEmbeddingModels(db).map((m) => ({
      namespace: m.namespace,
      provider: 'local',
      prompt_token_cost: 0,
      answers_here: true,
      deprecated_on: null,
    })),
  ];
}

/**
 * Who answers, named as the log and the answer name it and priced per input token: a hosted provider's
 * embedding model, a model server's model under its name there, or the test model.
 */
type Target = { namespace: string; inputCost: number } & (
  { kind: 'test' } | { kind: 'hosted'; model: EmbeddingModel } | { kind: 'server'; baseUrl: string; target: string }
);

interface Embedded {
  vectors: number[][];
  /** The provider's count of the texts' tokens, when it gave one. */
  tokens: number | undefined;
}

/** `logged`: told the id of the request's log entry before it is answered. */
export async function embed(
  db: Database,
  caller: Caller,
  body: Body,
  logged: (requestId: string) => void,
): Promise<EmbeddingsAnswer> {
  const row = loadApp(db, caller, requestedSpace(caller, body.app_id));
  requirePermission(caller, 'use_playground');
  const config = appConfig(row);
  const values = textsOf(body.input);
  const dimensions = dimensionsOf(body);
  const target = resolve(db, caller, body.model);
  const asked = askedOf(body, target);
  if (target.kind === 'test' && (dimensions ?? 0) > TEST_MAX_DIMENSIONS)
    throw invalid(['body', 'dimensions'], `${TEST_EMBEDDING_MODEL} makes at most ${TEST_MAX_DIMENSIONS}`, 'too_big');
  const { namespace, inputCost } = target;
  const counted = values.reduce((n, text) => n + countTokens(text), 0);
  const maxCost = config.policies.max_cost ?? 0;
  if (maxCost > 0 && counted * inputCost > maxCost)
    throw invalid(
      ['body', 'input'],
      `${namespace} may cost ${money(counted * inputCost)} for this input, more than ${costCapWords(maxCost)}: ${RAISE_MAX_COST}`,
      'max_cost',
    );
  const started = Date.now();
  const requestId = newRequestId();
  logged(requestId);
  /** The request in the Space's log, billed (usage) only when answered. */
  const log = (outcome: {
    status: number;
    tokens: number;
    cost: number;
    response: string | null;
    error: string | null;
  }) =>
    record(db, {
      request: {
        id: requestId,
        orgId: caller.orgId,
        appId: row.id,
        conversationId: null,
        parentRequestId: null,
        model: namespace,
        prompt: loggedTexts(values),
        response: outcome.response,
        promptTokens: outcome.tokens,
        completionTokens: 0,
        cost: outcome.cost,
        savings: 0,
        latency: (Date.now() - started) / 1000,
        status: outcome.status,
        error: outcome.error,
        privacyLevel: config.policies.privacy_level ?? 1,
      },
      usage:
        outcome.status === 200
          ? {
              promptTokens: outcome.tokens,
              completionTokens: 0,
              promptCost: outcome.cost,
              completionCost: 0,
              totalCost: outcome.cost,
              promptSavings: 0,
              completionSavings: 0,
              totalSavings: 0,
            }
          : null,
    });
  let embedded: Embedded;
  try {
    embedded =
      target.kind === 'test'
        ? { vectors: values.map((text) => bagOfWords(text, dimensions ?? TEST_DIMENSIONS)), tokens: undefined }
        : target.kind === 'hosted'
          ? await embedHosted(target.model, values, dimensions, asked)
          : await embedAtServer(target, values, dimensions);
  } catch (error) {
    const failure = error instanceof ReachFailure ? error : new ReachFailure((error as Error).message);
    await log({ status: 502, tokens: counted, cost: 0, response: null, error: `${namespace}: ${failure.message}` });
    throw answerOf(failure, namespace);
  }
  const tokens = embedded.tokens ?? counted;
  const cost = tokens * inputCost;
  const made = embedded.vectors[0]?.length ?? 0;
  const response = `${values.length === 1 ? '1 embedding' : `${values.length} embeddings`} of ${made} dimensions`;
  await log({ status: 200, tokens, cost, response, error: null });
  const base64 = body.encoding_format === 'base64';
  return {
    object: 'list',
    data: embedded.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    model: namespace,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/**
 * The model a request names: an embedding model by its namespace or its provider's id (the maker's
 * first: `text-embedding-3-small` is OpenAI's, not Azure's), or a model server's embedding model (as
 * the server names it, or `local/<name>`; with --upstream, any name goes there). A chat model, a model
 * retired, or one that cannot answer here is refused in words.
 */
function resolve(db: Database, caller: Caller, name: string): Target {
  const loc = ['body', 'model'];
  if (name === TEST_EMBEDDING_MODEL) return { kind: 'test', namespace: TEST_EMBEDDING_MODEL, inputCost: 0 };
  const models = providersEmbeddingModels();
  const named =
    models.find((m) => m.namespace === name) ??
    models
      .filter((m) => m.model === name)
      .sort((a, b) => Number(ownsBareNames(b.provider)) - Number(ownsBareNames(a.provider)))[0];
  if (named && isRetired(named)) throw retired(named, loc);
  if (named && providerKeys.has(named.provider))
    return { kind: 'hosted', model: named, namespace: named.namespace, inputCost: named.inputCost };
  // A chat model is not forwarded to --upstream as an embedding model: it is refused below.
  const chat = named ? undefined : findModelByName(db, caller, name);
  const server = chat ? null : embeddingServing(db, named?.model ?? name);
  if (server)
    return {
      kind: 'server',
      baseUrl: server.baseUrl,
      target: server.target,
      namespace: named?.namespace ?? server.namespace,
      inputCost: named?.inputCost ?? 0,
    };
  if (named) throw invalid(loc, `${named.namespace} cannot answer here: ${howToReach(named)}`, 'cannot_answer_here');
  const offered = models
    .filter((m) => !m.deprecated_on)
    .map((m) => m.namespace)
    .join(', ');
  throw invalid(
    loc,
    `${chat ? `${chat.record.namespace} is a chat model, not an embedding model` : `Unknown embedding model "${name}"`}. The embedding models here: ${offered}, those of a model server on this computer, and ${TEST_EMBEDDING_MODEL} (no provider needed).`,
    chat ? 'not_embedding_model' : 'not_found',
  );
}

/** The dimensions asked, in OpenAI's word or Voyage's (`output_dimension`); the same number if both. */
function dimensionsOf(body: Body): number | undefined {
  const { dimensions, output_dimension: voyage } = body;
  if (dimensions != null && voyage != null && dimensions !== voyage)
    throw invalid(['body', 'output_dimension'], `is ${voyage} where dimensions is ${dimensions}: send one of them`);
  return dimensions ?? voyage ?? undefined;
}

/** The providers whose models take Voyage's own fields (Cohere's as its `input_type` and `truncate`). */
const TAKE_VOYAGE_FIELDS = new Set(['voyage', 'cohere']);

/**
 * Voyage's own fields for a Voyage or Cohere model, as the package's options; for any other model,
 * which has no such thing, refused in words rather than answered with vectors that are not what was
 * asked. Numbers of another type than float are refused for every model: the answer carries floats.
 */
function askedOf(body: Body, target: Target): EmbeddingAsked | undefined {
  if (body.output_dtype != null && body.output_dtype !== 'float')
    throw invalid(
      ['body', 'output_dtype'],
      `must be float: the vectors are answered as floats, not ${body.output_dtype}`,
    );
  const asked: EmbeddingAsked = {
    ...(body.input_type != null ? { inputType: body.input_type } : {}),
    ...(body.truncation != null ? { truncation: body.truncation } : {}),
  };
  if (Object.keys(asked).length === 0) return undefined;
  if (target.kind === 'hosted' && TAKE_VOYAGE_FIELDS.has(target.model.provider)) return asked;
  const field = body.input_type != null ? 'input_type' : 'truncation';
  throw invalid(['body', field], `is Voyage AI's and Cohere's: ${target.namespace} does not take it`, 'not_supported');
}

/**
 * Through the provider's package, in as many calls as its API takes texts at once. A provider that
 * keeps failing cools down for embeddings and chats alike (cooldown.ts): its outage is the same.
 */
async function embedHosted(
  model: EmbeddingModel,
  values: string[],
  dimensions: number | undefined,
  asked: EmbeddingAsked | undefined,
): Promise<Embedded> {
  const spec = providerSpec(model.provider)!;
  const reach = providerKeys.reach(model.provider)!;
  const cooling = notAskedWhileCooling(providerCooldown, model.provider, spec.label);
  if (cooling) throw cooling;
  const embedder: EmbeddingModelV4 = embeddingModel(model.provider, reach, model.model)!;
  const signal = AbortSignal.timeout(EMBED_TIMEOUT_MS);
  const call = { dimensions, ...(asked ? { providerOptions: { [model.provider]: asked } } : {}) };
  const vectors: number[][] = [];
  let tokens: number | undefined = 0;
  try {
    const results = await inCalls(embedder, values, call, signal);
    for (const result of results) {
      vectors.push(...result.embeddings);
      // A count that is not one (Bedrock's Cohere models give theirs in a header only) is not used.
      const counted = result.usage?.tokens;
      tokens = tokens !== undefined && Number.isFinite(counted) ? tokens + counted! : undefined;
    }
  } catch (error) {
    const failure = signal.aborted
      ? new ProviderFailure(`${spec.label} did not answer within ${EMBED_TIMEOUT_MS / 1000} s`, 504, false, null)
      : failureOf(error, spec, providerKeys.secrets());
    if (countsAgainstProvider(failure.status)) providerCooldown.failed(model.provider, failure.retryAfterMs);
    throw failure;
  }
  providerCooldown.succeeded(model.provider);
  return { vectors, tokens };
}

type EmbedCall = Omit<Parameters<EmbeddingModelV4['doEmbed']>[0], 'values' | 'abortSignal'>;

/**
 * The texts embedded in as many calls as the model takes texts at once, a few calls at once where it
 * takes them (Bedrock's Titan takes one text a call), as the AI SDK's embedMany does; the first failure
 * stops the calls not yet made and aborts those under way. The results are in the texts' order.
 */
async function inCalls(embedder: EmbeddingModelV4, values: string[], call: EmbedCall, signal: AbortSignal) {
  const perCall = Number((await embedder.maxEmbeddingsPerCall) ?? values.length) || values.length;
  const batches: string[][] = [];
  for (let at = 0; at < values.length; at += perCall) batches.push(values.slice(at, at + perCall));
  const failed = new AbortController();
  const abortSignal = AbortSignal.any([signal, failed.signal]);
  const results: Array<Awaited<ReturnType<EmbeddingModelV4['doEmbed']>>> = [];
  let next = 0;
  const calls = async () => {
    while (next < batches.length && !abortSignal.aborted) {
      const at = next++;
      results[at] = await embedder.doEmbed({ ...call, values: batches[at]!, abortSignal });
    }
  };
  const together = Math.min((await embedder.supportsParallelCalls) ? PARALLEL_CALLS : 1, batches.length);
  await Promise.all(Array.from({ length: together }, calls)).catch((error: unknown) => {
    failed.abort();
    throw error;
  });
  return results;
}

/** At an OpenAI-compatible model server (Ollama, LM Studio, llama.cpp, vLLM): its /embeddings. */
async function embedAtServer(
  target: Extract<Target, { kind: 'server' }>,
  values: string[],
  dimensions: number | undefined,
): Promise<Embedded> {
  const signal = AbortSignal.timeout(EMBED_TIMEOUT_MS);
  const response = await postToServer(
    target.baseUrl,
    '/embeddings',
    { model: target.target, input: values, encoding_format: 'float', dimensions },
    { signal, accept: 'application/json', timeoutMs: EMBED_TIMEOUT_MS },
  );
  const text = await response.body.text().catch(() => '');
  return readVectors(text, values.length);
}

/** An OpenAI-shaped embeddings answer, read tolerantly: one vector of numbers for each text, in its order. */
function readVectors(text: string, count: number): Embedded {
  let json: { data?: Array<{ index?: unknown; embedding?: unknown }>; usage?: { prompt_tokens?: unknown } };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw new ReachFailure('the model server answered with a body that is not JSON');
  }
  const data = Array.isArray(json.data) ? json.data : [];
  const vectors = data
    .map((d, i) => ({ at: typeof d.index === 'number' ? d.index : i, vector: d.embedding }))
    .sort((a, b) => a.at - b.at)
    .map((d) => d.vector);
  if (vectors.length !== count || !vectors.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number')))
    throw new ReachFailure(`the model server answered without one vector of numbers for each of the ${count} texts`);
  const tokens = json.usage?.prompt_tokens;
  return { vectors: vectors as number[][], tokens: typeof tokens === 'number' ? tokens : undefined };
}

/** What the caller is answered when the model failed: its own mistake as a 400, a wait as a 429 or 503, else a 502. */
function answerOf(failure: ReachFailure, namespace: string): Problem {
  const said = `${namespace} could not embed the texts: ${failure.message}`;
  if (failure.status === 400 || failure.status === 422) return new Problem(400, said);
  // A rate limit, or a provider cooling down: the caller is told when to try again.
  if (failure.status === 429 || failure.status === 503) {
    const wait = failure instanceof ProviderFailure ? failure.retryAfterMs : null;
    return new Problem(failure.status, said, wait ? { 'retry-after': String(Math.ceil(wait / 1000)) } : {});
  }
  return new Problem(502, said);
}

/** The texts of a request's input: a text, texts, or token ids of each (read back into their text). */
function textsOf(input: Body['input']): string[] {
  if (typeof input === 'string') return [input];
  const [first] = input;
  if (typeof first === 'string') return input as string[];
  if (typeof first === 'number') return [textOfTokenIds(input as number[])];
  return (input as number[][]).map(textOfTokenIds);
}

/** The texts as the log keeps them: the first ones, up to a few thousand characters, and how many there were. */
function loggedTexts(values: string[]): string {
  const joined = values.join('\n\n');
  const head = joined.length > LOGGED_CHARS ? `${joined.slice(0, LOGGED_CHARS)}…` : joined;
  return values.length === 1 ? head : `(${values.length} texts) ${head}`;
}

/** The test model's vector: each word (lower-cased) adds one at the place its hash names; of length one. */
function bagOfWords(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    const at = (hash >>> 0) % dimensions;
    vector[at] = vector[at]! + 1;
  }
  const length = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x) => x / length);
}
