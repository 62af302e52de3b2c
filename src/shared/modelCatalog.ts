// Filtering, sorting, grouping and describing the model catalogue. No vscode here: it is unit tested
// and benchmarked with 10,000 models.
import type { EmbeddingModelRecord, ModelRecord } from '../api/schemas';
import {
  CAPABILITY_WORDS,
  capabilitiesOf,
  cheapestFirst,
  CONTINUES_PROMPTS,
  deprecationOf,
  fillsInMiddle,
  isRetired,
  priceKey,
  priceLine,
  providerOf,
  supports,
  todayIso,
  type Capability,
} from './models';
import { dayLabel } from './labels';
import { keyVariableOf, PROVIDER_NAMES, providerLabel, providerName } from './providerNames';
import { perMillion } from './money';

export type ModelSort = 'name' | 'price' | 'context';

export interface ModelFilter {
  text: string;
  capabilities: Capability[];
  sort: ModelSort;
  /** One list across providers (to answer "what is cheapest?") instead of a group per provider. */
  flat: boolean;
}

export interface ProviderGroup {
  provider: string;
  models: ModelRecord[];
}

const searchText = new WeakMap<ModelRecord, string>();
const haystack = (m: ModelRecord) => {
  let text = searchText.get(m);
  if (text === undefined) {
    text = `${m.namespace} ${m.model} ${m.provider ?? ''} ${m.description}`.toLowerCase();
    searchText.set(m, text);
  }
  return text;
};

const compare: Record<ModelSort, (a: ModelRecord, b: ModelRecord) => number> = {
  name: (a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0),
  price: (a, b) => priceKey(a) - priceKey(b) || compare.name(a, b),
  context: (a, b) => b.context_window - a.context_window || compare.name(a, b),
};

/** The filter's order, with the models no longer served after the others (a list to choose from first). */
function inOrder(sort: ModelSort): (a: ModelRecord, b: ModelRecord) => number {
  const today = todayIso();
  return (a, b) => Number(isRetired(a, today)) - Number(isRetired(b, today)) || compare[sort](a, b);
}

function matching(models: readonly ModelRecord[], filter: Pick<ModelFilter, 'text' | 'capabilities'>): ModelRecord[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter(
    (m) => words.every((w) => haystack(m).includes(w)) && filter.capabilities.every((c) => supports(m, c)),
  );
}

/** The models under the filter in one list across providers, in the filter's order. */
export function arrangeFlat(models: readonly ModelRecord[], filter: ModelFilter): ModelRecord[] {
  return matching(models, filter).sort(inOrder(filter.sort));
}

export function arrange(models: readonly ModelRecord[], filter: ModelFilter): ProviderGroup[] {
  const matches = matching(models, filter);
  const groups = new Map<string, ModelRecord[]>();
  for (const m of matches) {
    const provider = providerOf(m);
    let list = groups.get(provider);
    if (!list) groups.set(provider, (list = []));
    list.push(m);
  }
  return (
    [...groups.entries()]
      // By the provider's name for people (Amazon Bedrock's id is `bedrock`).
      .sort(([a], [b]) => providerLabel(a).localeCompare(providerLabel(b)))
      .map(([provider, list]) => ({ provider, models: list.sort(inOrder(filter.sort)) }))
  );
}

/**
 * The embedding models under the filter, by name or by price: none under a capability filter (those
 * are chat models' capabilities); "embed" finds them all.
 */
export function arrangeEmbeddings(
  models: readonly EmbeddingModelRecord[],
  filter: ModelFilter,
): EmbeddingModelRecord[] {
  if (filter.capabilities.length) return [];
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return models
    .filter((m) => words.every((w) => `${m.namespace} embedding`.toLowerCase().includes(w)))
    .sort(
      (a, b) =>
        (filter.sort === 'price' ? a.prompt_token_cost - b.prompt_token_cost : 0) ||
        (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0),
    );
}

/** The markdown of an embedding model's tooltip (codicons allowed). */
export function embeddingMarkdown(m: EmbeddingModelRecord, today?: string): string {
  const dep = deprecationOf(m, today);
  const lines = [
    `**${m.namespace}**`,
    '',
    "An embedding model: it turns texts into vectors for search (Continue's codebase index, a RAG script), through `POST /v1/embeddings` on a Space's endpoint. It is never routed: a request is answered by the model it names, as vectors of two models cannot be compared.",
    '',
    `- $(credit-card) ${perMillion(m.prompt_token_cost)} per M input tokens`,
  ];
  if (cannotAnswerHere(m) && dep?.kind !== 'retired')
    lines.push('', `$(debug-disconnect) **Cannot answer here.** ${answerHereFix(m, false)}`);
  if (dep?.kind === 'retired') lines.push('', `$(error) **Retired on ${dep.date}: no longer served.**`);
  if (dep?.kind === 'soon') lines.push('', `$(warning) Deprecated: stops being served on ${dep.date}.`);
  // A retired model is not one to set a tool up with.
  if (dep?.kind !== 'retired')
    lines.push(
      '',
      '[Copy Space Endpoint for Other Tools…](command:llmSpaces.copySpaceEndpoint) sets Continue up with one.',
    );
  return lines.join('\n');
}

/**
 * The embedding model to suggest for a tool's codebase index: the first provider's default one that
 * answers here (a key added), a provider of embeddings only first (its key was added for this), else a
 * model server's, else OpenAI's, which needs a key (`answers` false). Never the test model, which is
 * not for search.
 */
export function embeddingToSuggest(models: readonly EmbeddingModelRecord[]): { model: string; answers: boolean } {
  const answering = (namespace: string | undefined) =>
    models.some((m) => m.namespace === namespace && !cannotAnswerHere(m));
  const providers = [
    ...PROVIDER_NAMES.filter((p) => p.embeddingsOnly),
    ...PROVIDER_NAMES.filter((p) => !p.embeddingsOnly),
  ];
  const keyed = providers.find((p) => answering(p.embeddingModel))?.embeddingModel;
  const local = models.find(answersAtModelServer)?.namespace;
  const chosen = keyed ?? local;
  return chosen ? { model: chosen, answers: true } : { model: providerName('openai')!.embeddingModel!, answers: false };
}

/**
 * The model to offer Continue's autocomplete, or undefined, and whether it takes the text after the
 * cursor on its own API (`fim`): a model server's code model (by its name), which continues Continue's
 * prompt as it is (POST /v1/completions); else a hosted model with an API to fill in the middle
 * (Codestral, else the cheapest: DeepSeek's V4 Flash), reached through the Space's POST
 * /v1/fim/completions; else the cheapest code model of a provider that continues a prompt as it is
 * (Together AI, Fireworks, OpenRouter); else any model server's model. Another hosted chat model would
 * answer a code completion tool's prompt as a message.
 */
export function autocompleteToSuggest(models: readonly ModelRecord[]): { model: string; fim: boolean } | undefined {
  const local = models.filter(answersAtModelServer);
  const code = local.find((m) => /cod(e|er|estral)/i.test(m.namespace));
  const hosted = models.filter((m) => !cannotAnswerHere(m) && !isRetired(m));
  const filling = hosted.filter((m) => fillsInMiddle(m));
  // Codestral is made for code completion; DeepSeek's models fill in the middle beside chatting, and
  // autocomplete wants the quickest and cheapest of them.
  const fills = filling.find((m) => m.provider === 'mistral') ?? [...filling].sort(cheapestFirst)[0];
  const continuing = hosted.filter((m) => CONTINUES_PROMPTS.has(m.provider ?? '') && /coder/i.test(m.namespace));
  const chosen = code ?? fills ?? [...continuing].sort(cheapestFirst)[0] ?? local[0];
  return chosen && { model: chosen.namespace, fim: chosen === fills };
}

/** The built-in service marks models nothing here serves (no model server for them); the hosted one answers for all. */
export const cannotAnswerHere = (m: Pick<ModelRecord, 'answers_here'>) => m.answers_here === false;

/** A model of a model server on this computer (Ollama, LM Studio…) that answers now. */
const answersAtModelServer = (m: Pick<ModelRecord, 'provider' | 'answers_here'>) =>
  m.provider === 'local' && !cannotAnswerHere(m);

/** What to do when only the test models answer, as markdown with command links. */
export const ANSWER_HERE_FIX =
  '[Add a provider key](command:llmSpaces.addProviderKey), start a local model server (Ollama, LM Studio, llama.cpp or vLLM) and [refresh the local models](command:llmSpaces.refreshLocalModels), or [connect to the hosted service](command:llmSpaces.connect). [How to get started](command:llmSpaces.openWalkthrough)';

/** The commands the markdown of this module links to: a tooltip that shows it must trust them. */
export const LINKED_COMMANDS = [
  'llmSpaces.addProviderKey',
  'llmSpaces.refreshLocalModels',
  'llmSpaces.connect',
  'llmSpaces.openWalkthrough',
  'llmSpaces.copySpaceEndpoint',
];

/**
 * What would let this model answer here, as markdown with a command link: its provider's key, or a
 * server; or the hosted service, which answers for every chat model (`hostedToo`) but embeds nothing.
 */
export function answerHereFix(m: Pick<ModelRecord, 'provider'>, hostedToo = true): string {
  const hosted = providerName(m.provider);
  if (hosted)
    return `[Add your ${hosted.label} key](command:llmSpaces.addProviderKey) (${keyVariableOf(hosted)} for the standalone service)${hostedToo ? ', or [connect to the hosted service](command:llmSpaces.connect)' : ''}.`;
  if (m.provider === 'local')
    return 'Start the model server that serves it, then [refresh the local models](command:llmSpaces.refreshLocalModels).';
  return ANSWER_HERE_FIX;
}

export function flagsOf(m: ModelRecord): string[] {
  return [
    m.is_chat ? 'chat' : 'completion',
    m.is_open_source && 'open source',
    m.is_gdpr && 'GDPR',
    m.is_rag && 'RAG',
    m.is_ft && 'fine-tuned',
    m.is_test_model && 'test model',
  ].filter((f): f is string => typeof f === 'string');
}

/** The markdown of a model's tooltip (codicons allowed). */
export function modelMarkdown(m: ModelRecord, today?: string): string {
  const dep = deprecationOf(m, today);
  const lines = [
    `**${m.namespace}**${m.api_target && m.api_target !== m.model ? ` (\`${m.api_target}\`)` : ''}`,
    '',
    m.description,
    '',
    `- $(credit-card) ${priceLine(m)}`,
    // A longer prompt costs more at some providers: the whole request, from the tier's length on.
    ...(m.long_prompt_prices ?? []).map(
      ({ above, ...prices }) =>
        `- $(credit-card) from ${(above + 1).toLocaleString('en-US')} prompt tokens: ${priceLine({
          ...m,
          prompt_token_cost: prices.prompt_token_cost ?? m.prompt_token_cost,
          completion_token_cost: prices.completion_token_cost ?? m.completion_token_cost,
        })}, the whole request`,
    ),
    `- $(symbol-ruler) context window ${m.context_window.toLocaleString('en-US')} tokens`,
    // A cut-off nobody gave is left out rather than written as "unknown".
    ...(m.until ? [`- $(calendar) training data until ${dayLabel(m.until)}`] : []),
    `- $(check-all) ${
      capabilitiesOf(m)
        .map((c) => CAPABILITY_WORDS[c].label)
        .join(' · ') || 'no extra capabilities'
    }`,
    `- $(tag) ${flagsOf(m).join(' · ')}`,
    // What a code completion tool needs (a suffix), which its price and capabilities do not say.
    ...(fillsInMiddle(m) ? ['- $(code) fills in the middle of code, for autocomplete through a Space'] : []),
  ];
  if (m.served_by && !m.is_test_model && m.offered_to_key !== false)
    lines.push(`- $(server) answered by ${m.served_by}`);
  // A retired model can answer nowhere: how to make it answer here would be advice to no end.
  if (cannotAnswerHere(m) && dep?.kind !== 'retired' && m.offered_to_key === false)
    lines.push(
      '',
      `$(debug-disconnect) **Not offered to your key:** ${m.not_offered_because ? `${m.not_offered_because}.` : `${m.served_by ?? 'its provider'} does not list it among the models your key can use. It may be retired, or not open to your account.`}`,
    );
  else if (cannotAnswerHere(m) && dep?.kind !== 'retired')
    lines.push('', `$(debug-disconnect) **Cannot answer here:** no key or server here reaches it. ${answerHereFix(m)}`);
  if (dep?.kind === 'retired') lines.push('', `$(error) **Retired on ${dep.date}: no longer served.**`);
  if (dep?.kind === 'soon') lines.push('', `$(warning) Deprecated: stops being served on ${dep.date}.`);
  if (m.url) lines.push('', `[More information](${m.url})`);
  return lines.join('\n');
}
