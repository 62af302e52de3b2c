// The models each provider offers to the key the service has, read from its list of models (GET
// /models) when the key is added or checked, when the service starts with one, when the provider says
// it has no such model, and every few hours (a model released or retired meanwhile): the price list keeps
// models their providers retired long ago without saying so (Groq's Llama 2, Together's Qwen 1.5), and
// a key may not reach every model (a newer model held back for an account). A model its provider does
// not list cannot answer here. Kept in memory with the key; a provider whose list could not be read
// offers every model of the catalogue, unless a list read before with the same key stands. OpenAI's
// list also says the day each model shuts down (`shutdown_date`), and Bedrock's the day each reaches its
// end of life there (`endOfLifeTime`), which the catalogue takes over the shipped table's
// (retirements.ts), so a retirement announced after this build is told in time.
import { AwsV4Signer } from 'aws4fetch';
import { providerKeys } from './keys';
import { poolFetch } from './poolFetch';
import type { ModelRecord } from '../../api/schemas';
import {
  awsRegionOf,
  BEDROCK_GEOGRAPHY,
  BEDROCK_GEOGRAPHY_PROFILE,
  claudeOnCloud,
  isGoogleApiKey,
  providerName,
  vertexLocationOf,
} from '../../shared/providerNames';
import { awsSigningOf, PROVIDERS, type Reach } from './providers';

/** How often the lists of the providers with a key are read again while the service runs. */
export const MODEL_LISTS_EVERY_MS = 6 * 60 * 60_000;

/**
 * How long a provider may take to list its models, all pages: a key check waits for the list before
 * its own request (20 s at most), both within the extension's 30 s.
 */
const LIST_TIMEOUT_MS = 8_000;
/** Pages read at most (Anthropic's and Gemini's lists come in pages of up to 1,000). */
const MAX_PAGES = 20;
/** Ids read at most: more is not a list of models. */
const MAX_IDS = 50_000;

interface Listing {
  /** The key and address it was read with. */
  reach: Reach;
  ids: ReadonlySet<string>;
  /** The catalogue's ids already matched against the list, and the answer. */
  matched: Map<string, boolean>;
  /** The geography's profile each of the catalogue's `regional.` Bedrock models is sent as (none listed: undefined). */
  profiles: Map<string, string | undefined>;
  /**
   * The day the provider says each model it lists shuts down, where it says one (OpenAI's
   * `shutdown_date`, Bedrock's `endOfLifeTime`).
   */
  shutdowns: ReadonlyMap<string, string>;
}

/**
 * The price list's stand-in for a Bedrock geography's inference profile
 * (`regional.anthropic.claude-3-7-sonnet-20250219-v1:0`): the profile of that model which the key's
 * region lists, `eu.…` in an EU region.
 */
const REGIONAL = 'regional.';

/** The prefix of a Bedrock profile's id (`us.`, `global.`) before its foundation model's (`anthropic.claude-…`). */
const PROFILE_PREFIX = /^(?:global|[a-z]{2,4}(?:-gov)?)\.(?=[a-z0-9-]+\.)/;

/** The geography's profiles of a model (`regional.` taken off) a list names, the narrowest first (`jp` before `apac`). */
function profilesOf(ids: ReadonlySet<string>, model: string): string[] {
  const found: string[] = [];
  for (const id of ids)
    if (id.endsWith(`.${model}`) && BEDROCK_GEOGRAPHY.test(id.slice(0, -model.length - 1)))
      found[id.startsWith('apac.') ? 'push' : 'unshift'](id);
  return found;
}

/**
 * The geography of a region whose list is not known, as its name says: `us-gov-west-1`'s own, the US's,
 * the EU's or Asia Pacific's (other regions' profiles are named by the model, and their list says them).
 */
function geographyOf(region: string): string {
  return /^us-gov-/.test(region) ? 'us-gov' : /^ap-/.test(region) ? 'apac' : /^eu-/.test(region) ? 'eu' : 'us';
}

type Named = Pick<ModelRecord, 'provider' | 'model'> & Partial<Pick<ModelRecord, 'api_target'>>;

/**
 * Whether the provider's kind of key cannot reach the model, whatever it may use: Claude on Vertex AI
 * with an API key (express mode), which Vertex AI's Messages API does not take.
 */
function beyondKeyKind(model: Named): boolean {
  if (model.provider !== 'vertex' || !claudeOnCloud('vertex', model.api_target || model.model)) return false;
  const key = providerKeys.reach('vertex')?.apiKey;
  return key !== undefined && isGoogleApiKey(key);
}

/** Why the provider's kind of key cannot reach the model (beyondKeyKind), in words; undefined where it can. */
export const keyKindRefusal = (model: Named): string | undefined =>
  beyondKeyKind(model)
    ? `Claude on ${providerName(model.provider)!.label} takes no API key: add its key again as your Google Cloud login or a service account's key file`
    : undefined;

/** One page of a provider's list: its models' ids, and where the next page is (if any). */
interface Page {
  ids: string[];
  next: string | null;
  /** The days the page says models shut down, by id. */
  shutdowns?: [string, string][];
}

/** What a provider's list says: the ids, and the shutdown days it gives. */
interface Listed {
  ids: Set<string>;
  shutdowns: Map<string, string>;
}

export class OfferedModels {
  private readonly listings = new Map<string, Listing>();
  /** The refresh under way of each provider and the key and address it reads with, so that two callers wait for the same one. */
  private readonly pending = new Map<string, { reach: Reach | undefined; done: Promise<void> }>();
  private readonly listeners = new Set<(provider: string) => void>();

  /**
   * Whether the provider offers the model to the key, by the id its API takes: the list has that id, a
   * dated snapshot of it (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`,
   * `grok-4.20-0309-reasoning`), or its `-latest` alias; true while the list is not known.
   */
  offers(model: Pick<ModelRecord, 'provider' | 'model' | 'api_target'>): boolean {
    const listing = this.listings.get(model.provider ?? '');
    if (!listing) return !beyondKeyKind(model);
    const apiId = model.api_target || model.model;
    let answer = listing.matched.get(apiId);
    if (answer === undefined) {
      answer = isRegional(model, apiId)
        ? profilesOf(listing.ids, apiId.slice(REGIONAL.length)).length > 0
        : matches(listing.ids, apiId);
      listing.matched.set(apiId, answer);
    }
    return answer;
  }

  /**
   * The id the provider's API is sent for the model: its own, or for a Bedrock model of a geography's
   * profile, the profile the key's region lists (by its region's name while the list is not known).
   */
  targetOf(model: Pick<ModelRecord, 'provider' | 'model' | 'api_target'>): string {
    const apiId = model.api_target || model.model;
    if (!isRegional(model, apiId)) return apiId;
    const rest = apiId.slice(REGIONAL.length);
    const listing = this.listings.get('bedrock');
    if (listing && !listing.profiles.has(rest)) listing.profiles.set(rest, profilesOf(listing.ids, rest)[0]);
    const listed = listing?.profiles.get(rest);
    if (listed) return listed;
    const reach = providerKeys.reach('bedrock');
    return `${geographyOf(awsRegionOf(reach?.baseURL ?? ''))}.${rest}`;
  }

  /** Whether the provider's list of models is known (it answered with one). */
  listed(provider: string): boolean {
    return this.listings.has(provider);
  }

  /**
   * The day the provider's list says the model shuts down (OpenAI's `shutdown_date`, Bedrock's
   * `endOfLifeTime`), by the id its API takes (Bedrock's: of the foundation model a profile sends to);
   * undefined where the list gives none, or is not known.
   */
  shutdownOf(model: Pick<ModelRecord, 'provider' | 'model' | 'api_target'>): string | undefined {
    const shutdowns = this.listings.get(model.provider ?? '')?.shutdowns;
    if (!shutdowns?.size) return undefined;
    if (model.provider !== 'bedrock') return shutdowns.get(model.api_target || model.model);
    // Bedrock dates the foundation model, which a profile (`us.…`, `global.…`) sends to.
    const sent = this.targetOf(model);
    return shutdowns.get(sent) ?? shutdowns.get(sent.replace(PROFILE_PREFIX, ''));
  }

  /**
   * Calls `listener` when the shutdown days a provider's list gives change: a list read anew that says
   * other days, or a list with days forgotten with its key. Returns what stops it.
   */
  onShutdownsChanged(listener: (provider: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Reads the provider's list with the key it has now. A list that cannot be read (no answer, a
   * refusal, a shape not known) leaves the one read before with this key, or else the provider
   * offering every model: the key check says in words what is wrong with a key, not this.
   */
  refresh(provider: string): Promise<void> {
    const reach = providerKeys.reach(provider);
    const under = this.pending.get(provider);
    if (under && sameReach(under.reach, reach)) return under.done;
    const done = this.read(provider).finally(() => {
      if (this.pending.get(provider)?.done === done) this.pending.delete(provider);
    });
    this.pending.set(provider, { reach, done });
    return done;
  }

  /**
   * The provider's key was handed over (again): a list read with another key or address is forgotten,
   * and the list is read with this one. The same key handed over at each start keeps its list meanwhile.
   */
  follow(provider: string): Promise<void> {
    const listing = this.listings.get(provider);
    if (listing && !sameReach(listing.reach, providerKeys.reach(provider))) this.forget(provider);
    return this.refresh(provider);
  }

  forget(provider: string): void {
    const days = this.listings.get(provider)?.shutdowns.size ?? 0;
    if (!this.listings.delete(provider)) return;
    providerKeys.version++;
    if (days > 0) this.tell(provider);
  }

  /**
   * Reads the list of every provider with a key again every `everyMs`, so that a model a provider
   * released or retired since shows so without a restart. Returns what stops it.
   */
  keepFresh(everyMs = MODEL_LISTS_EVERY_MS): () => void {
    const timer = setInterval(() => {
      for (const spec of PROVIDERS) if (providerKeys.has(spec.id)) void this.refresh(spec.id);
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async read(provider: string): Promise<void> {
    const reach = providerKeys.reach(provider);
    const lister = listerOf(provider);
    if (!reach || !lister) return this.forget(provider);
    const listed = await readAll(lister, reach);
    // The key changed while its list was read: the list is of another key, whose own read decides.
    if (!sameReach(providerKeys.reach(provider), reach)) return;
    // A list that could not be read this time (the provider down for a moment) leaves the one read
    // before with this key standing; without one, every model is offered.
    if (!listed) {
      if (!sameReach(this.listings.get(provider)?.reach, reach)) this.forget(provider);
      return;
    }
    const { ids, shutdowns } = listed;
    const before = this.listings.get(provider)?.shutdowns ?? new Map<string, string>();
    this.listings.set(provider, { reach, ids, matched: new Map(), profiles: new Map(), shutdowns });
    providerKeys.version++;
    // Most lists give no days, and a list read again mostly the same ones: the catalogue is not
    // brought up to date for nothing.
    if (before.size !== shutdowns.size || [...shutdowns].some(([id, day]) => before.get(id) !== day))
      this.tell(provider);
  }

  private tell(provider: string): void {
    for (const listener of this.listeners) listener(provider);
  }
}

const isRegional = (model: Pick<ModelRecord, 'provider'>, apiId: string) =>
  model.provider === 'bedrock' && apiId.startsWith(REGIONAL);

const sameReach = (a: Reach | undefined, b: Reach | undefined) => a?.apiKey === b?.apiKey && a?.baseURL === b?.baseURL;

/** This process's lists (one service, one set of keys). */
export const offeredModels = new OfferedModels();

/**
 * Whether a model runs in the US only, as a request's `inference_geo: "us"` asks: on Anthropic's API,
 * asked so; on Amazon Bedrock in a US region, by the region's own model or its US profile (not a global
 * one); on Vertex AI at a US location (not its global endpoint).
 */
export function runsInTheUs(r: Pick<ModelRecord, 'provider' | 'model' | 'api_target'>): boolean {
  if (r.provider === 'anthropic') return true;
  const baseURL = r.provider ? (providerKeys.reach(r.provider)?.baseURL ?? '') : '';
  if (r.provider === 'bedrock') {
    // The model as it is sent: the region's own, or a geography's profile (`us.…`), or a global one.
    const target = offeredModels.targetOf(r);
    const geography = BEDROCK_GEOGRAPHY_PROFILE.exec(target)?.[1];
    return /^us-/.test(awsRegionOf(baseURL)) && !target.startsWith('global.') && (geography ?? 'us').startsWith('us');
  }
  if (r.provider === 'vertex') return /^us(-|$)/.test(vertexLocationOf(baseURL) ?? '');
  return false;
}

/** Every page of a provider's list, read one after another; undefined when it could not be read or is empty. */
async function readAll(lister: Lister, reach: Reach): Promise<Listed | undefined> {
  const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
  const ids = new Set<string>();
  const shutdowns = new Map<string, string>();
  let next: string | null = null;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await lister(reach, next, signal);
      for (const id of answer.ids) if (ids.size < MAX_IDS) ids.add(id);
      for (const [id, day] of answer.shutdowns ?? []) if (shutdowns.size < MAX_IDS) shutdowns.set(id, day);
      next = answer.next;
      if (!next) break;
    }
  } catch {
    return undefined;
  }
  return ids.size > 0 ? { ids, shutdowns } : undefined;
}

/** A snapshot's suffix: a date or a version number after the model's own id. */
const SNAPSHOT = /^-\d{4}/;

function matches(ids: ReadonlySet<string>, apiId: string): boolean {
  if (ids.has(apiId)) return true;
  // `claude-3-7-sonnet-latest` and `claude-opus-4-0` name the snapshots of what precedes them.
  const stem = apiId.replace(/-(latest|0)$/, '');
  if (ids.has(`${stem}-latest`)) return true;
  for (const id of ids) if (id.startsWith(`${stem}-`) && SNAPSHOT.test(id.slice(stem.length))) return true;
  return false;
}

type Lister = (reach: Reach, next: string | null, signal: AbortSignal) => Promise<Page>;

/** GET of a list, as JSON; anything but a 200 with JSON is a list not read. */
async function getJson(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  const answer = await poolFetch(url, { headers, signal });
  if (answer.status !== 200) {
    await answer.body?.cancel();
    throw new Error(`listing models answered ${answer.status}`);
  }
  return answer.json();
}

/** A list's entries; anything but a list is not a list of models. */
function listOf(entries: unknown): unknown[] {
  if (!Array.isArray(entries)) throw new Error('not a list of models');
  return entries as unknown[];
}

/** The `id`s of a list's entries (or `name`s, without Gemini's `models/`), each a string; others are skipped. */
function idsOf(entries: unknown, field: 'id' | 'name' | 'modelId' | 'inferenceProfileId'): string[] {
  const ids: string[] = [];
  for (const entry of listOf(entries)) {
    const value = entry && typeof entry === 'object' ? (entry as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string' && value) ids.push(value.replace(/^models\//, ''));
  }
  return ids;
}

const field = (body: unknown, name: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

/**
 * OpenAI's list, and every API that copies it (`{"data": [{"id"}]}`): Mistral, DeepSeek, Groq, xAI,
 * OpenRouter, Fireworks, Cerebras. Together answers the same entries as a bare array.
 */
const openAiList: Lister = async (reach, _next, signal) => {
  const body = await getJson(`${reach.baseURL}/models`, { authorization: `Bearer ${reach.apiKey}` }, signal);
  const entries = Array.isArray(body) ? body : field(body, 'data');
  return { ids: idsOf(entries, 'id'), next: null, shutdowns: shutdownsOf(entries) };
};

/**
 * The days OpenAI's list says its models shut down (`shutdown_date`, YYYY-MM-DD, or null while none is
 * announced: its deprecations page), by id; a day in any other shape is not one.
 */
function shutdownsOf(entries: unknown): [string, string][] {
  const days: [string, string][] = [];
  for (const entry of listOf(entries)) {
    const id = field(entry, 'id');
    const day = field(entry, 'shutdown_date');
    if (typeof id === 'string' && typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day)) days.push([id, day]);
  }
  return days;
}

/** Anthropic's, in pages: `after_id` the last id of the page before, while `has_more`. */
const anthropicList: Lister = async (reach, next, signal) => {
  const query = new URLSearchParams({ limit: '1000', ...(next ? { after_id: next } : {}) });
  const headers = { 'x-api-key': reach.apiKey, 'anthropic-version': '2023-06-01' };
  const body = await getJson(`${reach.baseURL}/models?${query}`, headers, signal);
  const ids = idsOf(field(body, 'data'), 'id');
  const last = field(body, 'last_id');
  return { ids, next: field(body, 'has_more') === true && typeof last === 'string' && last ? last : null };
};

/** Gemini's, in pages: `models/<id>` names, the next page by its token. */
const geminiList: Lister = async (reach, next, signal) => {
  const query = new URLSearchParams({ pageSize: '1000', ...(next ? { pageToken: next } : {}) });
  const body = await getJson(`${reach.baseURL}/models?${query}`, { 'x-goog-api-key': reach.apiKey }, signal);
  const token = field(body, 'nextPageToken');
  return { ids: idsOf(field(body, 'models'), 'name'), next: typeof token === 'string' && token ? token : null };
};

/**
 * Cohere's, in pages (`next_page_token`): its list is of its v1 API (GET /v1/models, its API reference),
 * beside the v2 API that chats, each model by its `name`.
 */
const cohereList: Lister = async (reach, next, signal) => {
  const query = new URLSearchParams({ page_size: '1000', ...(next ? { page_token: next } : {}) });
  const root = reach.baseURL.replace(/\/v2$/, '/v1');
  const body = await getJson(`${root}/models?${query}`, { authorization: `Bearer ${reach.apiKey}` }, signal);
  const token = field(body, 'next_page_token');
  return { ids: idsOf(field(body, 'models'), 'name'), next: typeof token === 'string' && token ? token : null };
};

/**
 * Bedrock's, from its control plane (`bedrock.<region>`, beside the runtime's `bedrock-runtime.<region>`;
 * a Bedrock API key reaches both): the foundation models its region serves on demand, by the id the
 * Converse API takes (ListFoundationModels, one page), then the active inference profiles (`global.…`,
 * `us.…`) in pages of `nextToken` (ListInferenceProfiles).
 */
const bedrockList: Lister = async (reach, next, signal) => {
  const root = reach.baseURL.replace('://bedrock-runtime.', '://bedrock.');
  if (next === null) {
    const url = `${root}/foundation-models`;
    const body = await getJson(url, await bedrockHeaders(reach, url), signal);
    const models = listOf(field(body, 'modelSummaries'));
    const onDemand = models.filter((m) => {
      const types = field(m, 'inferenceTypesSupported');
      return Array.isArray(types) && types.includes('ON_DEMAND');
    });
    return { ids: idsOf(onDemand, 'modelId'), next: PROFILES, shutdowns: endsOfLife(models) };
  }
  const query = new URLSearchParams({ maxResults: '1000', ...(next !== PROFILES ? { nextToken: next } : {}) });
  const url = `${root}/inference-profiles?${query}`;
  const body = await getJson(url, await bedrockHeaders(reach, url), signal);
  const active = listOf(field(body, 'inferenceProfileSummaries')).filter((p) => field(p, 'status') === 'ACTIVE');
  const token = field(body, 'nextToken');
  return { ids: idsOf(active, 'inferenceProfileId'), next: typeof token === 'string' && token ? token : null };
};

/**
 * The days Bedrock's list says its models reach their end of life (`modelLifecycle.endOfLifeTime`, a
 * date-time, set once a model is Legacy: Bedrock's own schedule, not its maker's), by the foundation
 * model's id, whether it is called on demand or only through a profile; a time in any other shape is
 * not one.
 */
function endsOfLife(models: unknown[]): [string, string][] {
  const days: [string, string][] = [];
  for (const m of models) {
    const id = field(m, 'modelId');
    const end = field(field(m, 'modelLifecycle'), 'endOfLifeTime');
    const day = typeof end === 'string' && !Number.isNaN(Date.parse(end)) && /^\d{4}-\d{2}-\d{2}(?=T)/.exec(end)?.[0];
    if (typeof id === 'string' && day) days.push([id, day]);
  }
  return days;
}

/** Bedrock's first page of inference profiles, read after its foundation models (not a token it gives). */
const PROFILES = '(inference profiles)';

/** A GET of Bedrock's with its key: a Bedrock API key as a bearer token, AWS credentials as their signature. */
async function bedrockHeaders(reach: Reach, url: string): Promise<Record<string, string>> {
  const signing = awsSigningOf(reach);
  if (!signing) return { authorization: `Bearer ${reach.apiKey}` };
  const { accessKeyId, secretAccessKey, sessionToken } = await signing.credentials();
  const signer = new AwsV4Signer({
    url,
    method: 'GET',
    service: 'bedrock',
    region: signing.region,
    accessKeyId,
    secretAccessKey,
    sessionToken,
  });
  const signed = await signer.sign();
  return Object.fromEntries(signed.headers.entries());
}

/**
 * How a provider lists its models: Anthropic, Gemini and Cohere their own way, any other as OpenAI does. Azure's
 * models answer through the deployments a resource made, which the key check finds
 * (azureDeployments.ts), not through a list of models; Voyage, of embeddings only, has no such list,
 * and MiniMax's Anthropic-compatible API documents none; Vertex AI's list of a publisher's models
 * says what it publishes, not what the project may use (Claude needs enabling in its Model Garden).
 */
const listerOf = (provider: string): Lister | undefined =>
  provider === 'azure' || provider === 'minimax' || provider === 'vertex' || providerName(provider)?.embeddingsOnly
    ? undefined
    : provider === 'anthropic'
      ? anthropicList
      : provider === 'google'
        ? geminiList
        : provider === 'cohere'
          ? cohereList
          : provider === 'bedrock'
            ? bedrockList
            : openAiList;
