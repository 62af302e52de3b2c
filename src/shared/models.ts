// The rules of models that every part of the project applies alike (the built-in service, the views,
// the pickers, the workspace's model ids, the agent tools): when a model is retired, what it costs
// listed as people read it, which capabilities it has, and "cheapest first". No vscode, no zod here.
import type { ModelRecord } from '../api/schemas';
import { dayLabel } from './labels';
import { money, perMillion } from './money';

/**
 * A model id that names what is not a chat model (embeddings, images, audio, speech, video, moderation,
 * search, Gemini's models of its Live API alone and its video model, and OpenAI's models of text
 * completion only, which its Chat Completions refuse): the catalogue lists chat models only.
 */
export const NOT_CHAT_MODEL =
  /embed|tts|whisper|transcri|dall-e|image|audio|realtime|(^|-)live(-|$)|gemini-omni|moderation|search|computer-use|rerank|speech|sora|video|veo|imagen|lyria|gpt-3\.5-turbo-instruct|davinci-002|babbage-002/i;

/**
 * The hosted models with an API of their provider's to fill in the middle of a text (a code completion
 * tool's suffix): Mistral's Codestral (its fill-in-the-middle API), DeepSeek's V4 models (its beta text
 * completion; before them its chat model, deepseek-chat, retired on 2026-07-24). How the service
 * reaches them: src/service/providers/fim.ts.
 */
const FILLS_IN_MIDDLE: Record<string, RegExp> = {
  mistral: /^codestral(?!-mamba)/,
  deepseek: /^deepseek-v4-(flash|pro)$/,
};

/**
 * The hosted providers whose API continues a prompt as it is, with any of their models: OpenAI's legacy
 * text completion (POST /completions), which Together AI, Fireworks and OpenRouter keep. A code
 * completion tool's prompt, written for a code model's own fill-in-the-middle markers, reaches the
 * model there as written (src/service/providers/fim.ts).
 */
export const CONTINUES_PROMPTS: ReadonlySet<string> = new Set(['together', 'fireworks', 'openrouter']);

/** Whether a hosted provider's model fills in the middle, by its id at the provider. */
export const fillsInMiddle = (r: Pick<ModelRecord, 'provider' | 'model' | 'api_target'>): boolean =>
  !!FILLS_IN_MIDDLE[r.provider ?? '']?.test(r.api_target || r.model);

/**
 * Today as the catalogue writes dates (YYYY-MM-DD, UTC): the day models are retired by. The tests pin
 * it with `LLM_SPACES_TODAY` (test/calendar.ts), so a retirement on the calendar does not change them.
 */
export const todayIso = (): string => {
  // Read through globalThis: webview pages share this module and have no `process`.
  const pinned = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.LLM_SPACES_TODAY;
  return pinned && /^\d{4}-\d{2}-\d{2}$/.test(pinned) ? pinned : new Date().toISOString().slice(0, 10);
};

type Dated = { deprecated_on?: string | null };

// Today is asked for only when a model has a date: routing asks these of every model of a Space for
// every request, and most models have none.

/** A `deprecated_on` on or before today: the model is no longer served. */
export const isRetired = (m: Dated, today?: string) => !!m.deprecated_on && m.deprecated_on <= (today ?? todayIso());
/** A `deprecated_on` still ahead: the model answers, with a warning. */
export const retiresSoon = (m: Dated, today?: string) => !!m.deprecated_on && m.deprecated_on > (today ?? todayIso());

export type Deprecation = { kind: 'retired' | 'soon'; date: string } | null;

/** Whether a model is retired or retires soon, with the day as people read it. */
export function deprecationOf(m: Dated, today = todayIso()): Deprecation {
  if (!m.deprecated_on) return null;
  return { kind: isRetired(m, today) ? 'retired' : 'soon', date: dayLabel(m.deprecated_on) };
}

export type Priced = Pick<ModelRecord, 'prompt_token_cost' | 'completion_token_cost' | 'namespace'>;

/** Price of input plus output per unit: what "cheapest" compares. */
export const priceKey = (m: Pick<ModelRecord, 'prompt_token_cost' | 'completion_token_cost'>) =>
  m.prompt_token_cost + m.completion_token_cost;

/** Cheapest first, then by namespace. */
export const cheapestFirst = (a: Priced, b: Priced) =>
  priceKey(a) - priceKey(b) || a.namespace.localeCompare(b.namespace);

/** "$0.15 in / $0.60 out per M tokens", with a per-request fee where the model has one. */
export function priceLine(
  m: Pick<ModelRecord, 'prompt_token_cost' | 'completion_token_cost' | 'price_unit' | 'base_cost'>,
): string {
  const unit = m.price_unit === 'characters' ? 'M characters' : 'M tokens';
  return `${perMillion(m.prompt_token_cost)} in / ${perMillion(m.completion_token_cost)} out per ${unit}${m.base_cost ? ` + ${money(m.base_cost)} per request` : ''}`;
}

export const CAPABILITIES = ['functions', 'json', 'n', 'penalties', 'stream', 'vision', 'reasoning'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** What each capability means, for people. */
export const CAPABILITY_WORDS: Record<Capability, { label: string; detail: string }> = {
  functions: { label: 'calls tools', detail: 'function calling: the model may ask for a tool to be run' },
  json: { label: 'JSON mode', detail: 'answers in valid JSON when asked to' },
  n: { label: 'several answers', detail: 'more than one answer per request (n)' },
  penalties: { label: 'penalties', detail: 'frequency and presence penalties against repetition' },
  stream: { label: 'streams', detail: 'sends its reply piece by piece as it is written' },
  vision: { label: 'reads images', detail: 'takes images in the prompt' },
  reasoning: { label: 'reasons', detail: 'thinks before it answers, as hard as the reasoning effort asks' },
};

export const supports = (m: ModelRecord, c: Capability) => m[`supports_${c}`] === true;

/** The capabilities a model has. */
export const capabilitiesOf = (m: ModelRecord) => CAPABILITIES.filter((c) => supports(m, c));

/** The provider a model belongs to: its own field, else the first part of its namespace. */
export const providerOf = (m: Pick<ModelRecord, 'provider' | 'namespace'>) =>
  m.provider ?? m.namespace.split('/')[0] ?? '?';

/**
 * How many whole words two model names share from their start, a version's parts counted apart
 * (`gemini-2.5-flash-preview` and `gemini-2.5-flash`: 4; and `gemini-1.5-flash`: 1).
 */
function sharedStart(a: string, b: string): number {
  const x = a.split(/[-.:/]/);
  const y = b.split(/[-.:/]/);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * What could replace a model: same provider, not retiring, not a test model, at least its context
 * window and every capability it has, chat if it is chat. Its own family first (the longest start of
 * the name in common: gemini-2.5-flash for gemini-2.5-flash-preview, before an older gemini-1.5 that
 * costs less), then cheapest first (then by namespace).
 */
export function successorsOf(model: ModelRecord, models: readonly ModelRecord[]): ModelRecord[] {
  const kin = (m: ModelRecord) => sharedStart(m.model, model.model);
  const provider = providerOf(model);
  const capabilities = Object.keys(model).filter(
    (k) => k.startsWith('supports_') && (model as Record<string, unknown>)[k] === true,
  );
  return models
    .filter((m) => m !== model && providerOf(m) === provider && !m.deprecated_on && !m.is_test_model)
    .filter(
      (m) =>
        m.context_window >= model.context_window &&
        m.is_chat === model.is_chat &&
        capabilities.every((k) => (m as Record<string, unknown>)[k] === true),
    )
    .sort((a, b) => kin(b) - kin(a) || cheapestFirst(a, b));
}

/**
 * The successor of a model's own line, if the catalogue has one: the first of `successorsOf` when it
 * shares at least three words of the name, its maker's line and major version (claude-opus-4-6 for
 * claude-opus-4-1); not the provider's cheapest model with as much, nor an older one that shares less
 * (claude-3-haiku for claude-3-5-haiku).
 */
export function lineSuccessor(model: ModelRecord, models: readonly ModelRecord[]): ModelRecord | undefined {
  const next = successorsOf(model, models)[0];
  return next && sharedStart(next.model, model.model) >= 3 ? next : undefined;
}
