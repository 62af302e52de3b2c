// The AI SDK's answer, whole or streamed, as the engine's Reply: text, tool calls, thinking and its
// signatures, citations, finish reason, usage and logprobs.
import type {
  LanguageModelV4,
  LanguageModelV4FinishReason,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type { ToolCall } from '../../../../api/schemas';
import {
  type Cited,
  type CitedPage,
  type Reply,
  flatToolName,
  isAnthropicBlock,
  type GeminiSignature,
  type MiniMaxThinking,
  type OpenAiReasoning,
  type ThinkingBlock,
  type ThinkingPiece,
} from '../../request';
import { ReachFailure } from '../reach';
import type { GoogleSearch } from '../../../providers/googleSearch';
import { WebTools, keptByOpenAi, objectOf, type Kept, type TellSearches } from './webTools';
/**
 * A model that stopped with an error before it answered: its provider answered, so this is no sign of
 * an outage (it does not count towards the provider's cooldown), but there is no answer to give.
 */
export class ModelStopped extends ReachFailure {
  constructor(reason: string | undefined) {
    super(`the model stopped with an error before it answered (${reason ?? 'no reason given'})`, 502);
  }
}

/**
 * Why the model stopped, in OpenAI's words: its provider's safety filter (Azure's content filter,
 * Anthropic's refusal, Gemini's safety stop) as `content_filter`. A model that stopped with an error
 * before any text or call (Cohere's `ERROR`, Gemini's malformed function call) did not answer: a
 * failure, retried and failed over as one, rather than an empty answer.
 */
function finishOf(reason: LanguageModelV4FinishReason, toolCalls: ToolCall[], text: string): Reply['finishReason'] {
  if (toolCalls.length > 0 || reason.unified === 'tool-calls') return 'tool_calls';
  if (reason.unified === 'error' && !text) throw new ModelStopped(reason.raw);
  return reason.unified === 'length' ? 'length' : reason.unified === 'content-filter' ? 'content_filter' : 'stop';
}

/** Whether Anthropic paused the turn for the client to send back (the AI SDK reads its pause_turn as a stop). */
const pausedOf = (reason: LanguageModelV4FinishReason): Pick<Reply, 'paused'> =>
  reason.raw === 'pause_turn' ? { paused: true } : {};

/**
 * The provider's own counts: input (with what was read from and written to its cache), output (with
 * the part of it the model reasoned in, and what came of a predicted output, which OpenAI's package
 * hands back in its metadata). Cohere bills its `billed_units`, which leave out the tokens of the
 * prompt template it adds (its package reads the tokens it processed).
 */
function usageOf(usage: LanguageModelV4Usage | undefined, metadata: unknown): Reply['usage'] {
  const billed = (usage?.raw as { billed_units?: { input_tokens?: unknown; output_tokens?: unknown } } | undefined)
    ?.billed_units;
  const billedAs = (count: unknown, read: number | undefined) => (typeof count === 'number' ? count : read);
  const input = billedAs(billed?.input_tokens, usage?.inputTokens.total);
  const output = billedAs(billed?.output_tokens, usage?.outputTokens.total);
  if (input === undefined && output === undefined) return undefined;
  const cacheWrites = usage?.inputTokens.cacheWrite ?? 0;
  // Anthropic's own usage splits its writes by how long they are kept; an hour costs more.
  const hour = (usage?.raw as { cache_creation?: { ephemeral_1h_input_tokens?: unknown } } | undefined)?.cache_creation
    ?.ephemeral_1h_input_tokens;
  return {
    input: input ?? 0,
    output: output ?? 0,
    cachedInput: usage?.inputTokens.cacheRead ?? 0,
    cacheWrites,
    hourCacheWrites: typeof hour === 'number' ? Math.min(Math.max(0, hour), cacheWrites) : 0,
    reasoning: usage?.outputTokens.reasoning ?? 0,
    ...predictionOf(metadata),
  };
}

/** How much of a predicted output the reply kept, as OpenAI's (or Azure's) package reads it. */
function predictionOf(metadata: unknown): Pick<NonNullable<Reply['usage']>, 'prediction'> {
  const said = metadata as
    Record<string, { acceptedPredictionTokens?: unknown; rejectedPredictionTokens?: unknown } | undefined> | undefined;
  const counts = said?.openai ?? said?.azure;
  const accepted = counts?.acceptedPredictionTokens;
  const rejected = counts?.rejectedPredictionTokens;
  if (typeof accepted !== 'number' && typeof rejected !== 'number') return {};
  return {
    prediction: {
      accepted: typeof accepted === 'number' ? accepted : 0,
      rejected: typeof rejected === 'number' ? rejected : 0,
    },
  };
}

/** The token probabilities OpenAI's package hands back in its metadata. */
function logprobsOf(metadata: unknown): Pick<Reply, 'logprobs'> {
  const list = (metadata as { openai?: { logprobs?: unknown } } | undefined)?.openai?.logprobs;
  return Array.isArray(list) ? { logprobs: list } : {};
}

/**
 * Which of the thinking sent back in a conversation goes to the model that `kept` names; and, to a
 * model that runs OpenAI's tool search, the searches a client sent back as their items alone.
 */
export function carriedBack(kept: Kept, runsToolSearch = false): ((b: ThinkingBlock) => boolean) | undefined {
  if (kept === 'anthropic') return isAnthropicBlock;
  if (!kept) return undefined;
  return (b) =>
    !isAnthropicBlock(b) &&
    (b.model === kept.model || (runsToolSearch && 'toolSearchCall' in b && b.model === null)) &&
    (kept.provider === 'google'
      ? 'call' in b
      : kept.provider === 'minimax'
        ? 'minimaxThinking' in b
        : 'item' in b || 'webSearchCall' in b || 'toolSearchCall' in b);
}

/** A MiniMax model's block of thinking with its signature (Anthropic's package says it as Anthropic's), to go back to that model. */
function miniMaxSigned(text: string, metadata: unknown, kept: Kept): MiniMaxThinking | undefined {
  if (kept === 'anthropic' || kept?.provider !== 'minimax') return undefined;
  const { signature } = anthropicSigned(metadata);
  return signature ? { minimaxThinking: text, signature, model: kept.model } : undefined;
}

/** A Gemini model's thought signature on a call it made, as Google's package says it, to go back with the call. */
function geminiSigned(
  call: { toolCallId: string; providerMetadata?: unknown },
  kept: Kept,
): GeminiSignature | undefined {
  if (kept === 'anthropic' || kept?.provider !== 'google') return undefined;
  // Google's package says it under Google's name, or through Vertex AI under Vertex's.
  const metadata = call.providerMetadata as
    Record<'google' | 'googleVertex', { thoughtSignature?: unknown } | undefined> | undefined;
  const said = (metadata?.google ?? metadata?.googleVertex)?.thoughtSignature;
  return typeof said === 'string' && said
    ? { call: call.toolCallId, geminiSignature: said, model: kept.model }
    : undefined;
}

/**
 * An OpenAI reasoning item's id and encrypted reasoning, as OpenAI's package says them of a reasoning
 * part (Azure's package under its own name); none for another provider's.
 */
function openAiItem(metadata: unknown, kept: Kept): { id?: string; encrypted?: string } {
  if (!keptByOpenAi(kept)) return {};
  const said = (metadata as Record<string, { itemId?: unknown; reasoningEncryptedContent?: unknown }> | undefined)?.[
    kept.provider
  ];
  return {
    ...(typeof said?.itemId === 'string' ? { id: said.itemId } : {}),
    ...(typeof said?.reasoningEncryptedContent === 'string' ? { encrypted: said.reasoningEncryptedContent } : {}),
  };
}

/**
 * A whole reply. An Anthropic model's thinking comes as signed blocks; any other model's reasoning
 * (DeepSeek's, Grok's, Gemini's thoughts, an OpenAI model's summary) as text to show, which nobody
 * signed; and, to go back, an OpenAI reasoning model's items as OpenAI encrypted them and a Gemini
 * model's thought signatures with their calls.
 */
export async function whole(
  result: ReturnType<LanguageModelV4['doGenerate']>,
  kept: Kept,
  tellAs: TellSearches,
  google: GoogleSearch | undefined,
): Promise<Reply> {
  const { content, finishReason, usage, providerMetadata, warnings } = await result;
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  const items = new Map<string, OpenAiReasoning>();
  // An OpenAI model's searches are part of its reasoning, in their place; an Anthropic model's stand apart.
  const webTools = new WebTools(
    kept,
    (use) => {
      if ('webSearchCall' in use || 'toolSearchCall' in use) thinking.push(use);
      else if (text) use.after = text.length;
    },
    tellAs,
    google,
  );
  // A Gemini model searched before it answered: its search comes first.
  webTools.grounded(providerMetadata);
  const cited: Cited[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      const from = text.length;
      text += part.text;
      cited.push(...citedOf(part.providerMetadata, from, text.length));
    }
    if ((part.type === 'tool-call' || part.type === 'tool-result') && webTools.took(part)) continue;
    if (part.type === 'tool-call') {
      toolCalls.push(toolCallOf(part));
      const signed = geminiSigned(part, kept);
      if (signed) thinking.push(signed);
    }
    if (part.type === 'reasoning' && kept !== 'anthropic') {
      // Each part of an OpenAI model's summary is a paragraph of its own.
      if (part.text) reasoning += (reasoning ? '\n\n' : '') + part.text;
      const block = miniMaxSigned(part.text, part.providerMetadata, kept);
      if (block) thinking.push(block);
      const { id, encrypted } = openAiItem(part.providerMetadata, kept);
      if (id === undefined || encrypted === undefined) continue;
      let item = items.get(id);
      if (!item) {
        item = { item: id, summary: [], encrypted, model: kept!.model };
        items.set(id, item);
        thinking.push(item);
      }
      if (part.text) item.summary.push(part.text);
    } else if (part.type === 'reasoning') {
      const { redacted, signature } = anthropicSigned(part.providerMetadata);
      if (redacted !== undefined) thinking.push({ redacted });
      else if (signature) thinking.push({ thinking: part.text, signature });
    }
  }
  cited.push(...webTools.groundedCited(text));
  return {
    text,
    finishReason: finishOf(finishReason, toolCalls, text),
    ...pausedOf(finishReason),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(thinking.length ? { thinking } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...webTools.ran(),
    ...(cited.length ? { cited } : {}),
    usage: usageOf(usage, providerMetadata),
    ...logprobsOf(providerMetadata),
    ...notHeldToSchema(warnings),
  };
}

/**
 * What the reply is to say of the client's tools that were asked to be held to their schema (`strict`)
 * and that the provider's package could not ask so of this model (its `unsupported` warnings).
 */
function notHeldToSchema(warnings: readonly SharedV4Warning[] | undefined): Pick<Reply, 'warning'> {
  const loose = (warnings ?? []).flatMap((w) =>
    w.type === 'unsupported' && w.feature === 'strict' ? [/Tool '([^']+)'/.exec(w.details ?? '')?.[1] ?? ''] : [],
  );
  if (!loose.length) return {};
  const named = [...new Set(loose.filter(Boolean))];
  const which = named.length ? `the calls of ${named.join(', ')}` : 'its tool calls';
  return {
    warning: `The model that answered cannot be held to a tool's schema (strict), so ${which} were not checked against it.`,
  };
}

/**
 * The pages a block of text cites, as the provider's package passes its citations on: Anthropic's for
 * the block (from its web search or fetch), OpenAI's url_citation annotations by their place in the
 * block.
 */
function citedOf(metadata: unknown, from: number, to: number): Cited[] {
  const said = objectOf(metadata);
  const anthropic = objectOf(said.anthropic).citations;
  const pages = (Array.isArray(anthropic) ? anthropic : []).flatMap((c: Record<string, unknown>): CitedPage[] => {
    if (c?.type === 'web_search_result_location' && typeof c.url === 'string')
      return [
        {
          url: c.url,
          title: typeof c.title === 'string' ? c.title : null,
          ...(typeof c.cited_text === 'string' ? { citedText: c.cited_text } : {}),
          ...(typeof c.encrypted_index === 'string' ? { encryptedIndex: c.encrypted_index } : {}),
        },
      ];
    // A passage of a page the model's web fetch read.
    if (
      c?.type === 'char_location' &&
      typeof c.document_index === 'number' &&
      typeof c.start_char_index === 'number' &&
      typeof c.end_char_index === 'number'
    )
      return [
        {
          documentIndex: c.document_index,
          documentTitle: typeof c.document_title === 'string' ? c.document_title : null,
          citedText: typeof c.cited_text === 'string' ? c.cited_text : '',
          startChar: c.start_char_index,
          endChar: c.end_char_index,
        },
      ];
    return [];
  });
  const openAi = [objectOf(said.openai).annotations, objectOf(said.azure).annotations].flatMap((a) =>
    Array.isArray(a) ? (a as Array<Record<string, unknown>>) : [],
  );
  const annotated = openAi.flatMap((a): Cited[] =>
    a?.type === 'url_citation' &&
    typeof a.url === 'string' &&
    typeof a.start_index === 'number' &&
    typeof a.end_index === 'number' &&
    a.start_index <= a.end_index &&
    from + a.end_index <= to
      ? [
          {
            from: from + a.start_index,
            to: from + a.end_index,
            pages: [{ url: a.url, title: typeof a.title === 'string' ? a.title : null }],
          },
        ]
      : [],
  );
  return [...(pages.length ? [{ from, to, pages }] : []), ...annotated];
}

/** What Anthropic's package says of a piece of thinking: its signature, or a redacted block's data. */
function anthropicSigned(metadata: unknown): { signature?: string; redacted?: string } {
  const said = (metadata as { anthropic?: { signature?: unknown; redactedData?: unknown } } | undefined)?.anthropic;
  return {
    ...(typeof said?.signature === 'string' ? { signature: said.signature } : {}),
    ...(typeof said?.redactedData === 'string' ? { redacted: said.redactedData } : {}),
  };
}

/**
 * A streamed reply: its text to `onDelta` as it comes, and an Anthropic model's thinking to `onThinking`
 * (text, then the block's signature; a redacted block whole), or any other model's reasoning as text
 * nobody signed; an OpenAI reasoning model's item follows its summary, whole, once it ends, and a Gemini
 * model's thought signature comes with its call. `answering` hears of the first of either, or of a
 * model beginning to reason.
 */
export async function streamed(
  result: ReturnType<LanguageModelV4['doStream']>,
  answering: () => void,
  onDelta: (text: string) => void,
  onThinking: ((piece: ThinkingPiece) => void) | undefined,
  kept: Kept,
  tellAs: TellSearches,
  google: GoogleSearch | undefined,
): Promise<Reply> {
  const { stream } = await result;
  const signed = kept === 'anthropic';
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  /** The thinking block under way, by the stream's id of it. */
  const open = new Map<string, string>();
  /** An OpenAI model's reasoning items, by their id, and the part of a summary each part of the stream is. */
  const items = new Map<string, OpenAiReasoning>();
  const summaryParts = new Map<string, { item: OpenAiReasoning; at: number }>();
  const think = (piece: ThinkingPiece) => {
    answering();
    onThinking?.(piece);
  };
  const webTools = new WebTools(
    kept,
    (use) => {
      if (!('webSearchCall' in use || 'toolSearchCall' in use)) return think({ webTool: use });
      thinking.push(use);
      think({ carried: use });
    },
    tellAs,
    google,
  );
  const cited: Cited[] = [];
  /** Where each block of text began in the reply's text, by the stream's id of it. */
  const textFrom = new Map<string, number>();
  let finish: { reason: LanguageModelV4FinishReason; usage: LanguageModelV4Usage; metadata: unknown } | undefined;
  let warnings: SharedV4Warning[] | undefined;
  for await (const part of stream) {
    if (part.type === 'stream-start') warnings = part.warnings;
    // A model that says it began to reason is answering, however long it reasons before anything else
    // comes (OpenAI's reasoning models say nothing more until they are done, unless asked a summary).
    if (part.type === 'reasoning-start') answering();
    if (part.type === 'text-delta' && part.delta) {
      text += part.delta;
      answering();
      onDelta(part.delta);
    } else if (part.type === 'text-start') textFrom.set(part.id, text.length);
    else if (part.type === 'text-end') {
      // The pages a block cites come with its end. An Anthropic model's blocks end each where it ended them.
      const from = textFrom.get(part.id) ?? text.length;
      const pages = citedOf(part.providerMetadata, from, text.length);
      cited.push(...pages);
      // An OpenAI model's, told as Anthropic's: its text was streamed before the pages it cites came, so
      // they are the whole block's. A Gemini model's come with the stream's end: its block stays open.
      if ((signed || tellAs === 'anthropic') && (pages.length || !google))
        think({ cited: { from, to: text.length, pages: pages.flatMap((c) => c.pages) } });
    } else if (part.type === 'reasoning-start' && kept && !signed) {
      const { id } = openAiItem(part.providerMetadata, kept);
      if (id === undefined) continue;
      const item = items.get(id) ?? { item: id, summary: [], encrypted: '', model: kept.model };
      items.set(id, item);
      summaryParts.set(part.id, { item, at: item.summary.push('') - 1 });
    } else if (part.type === 'reasoning-delta' && !signed) {
      if (part.delta) {
        const slot = summaryParts.get(part.id);
        // Each part of an OpenAI model's summary is a paragraph of its own.
        const delta = slot && slot.item.summary[slot.at] === '' && reasoning ? `\n\n${part.delta}` : part.delta;
        if (slot) slot.item.summary[slot.at] += part.delta;
        reasoning += delta;
        think({ reasoning: delta });
      }
      // A MiniMax model's block: shown as it comes, and whole to go back once its signature came.
      const thought = (open.get(part.id) ?? '') + part.delta;
      const block = miniMaxSigned(thought, part.providerMetadata, kept);
      if (block) {
        open.delete(part.id);
        thinking.push(block);
        think({ carried: block });
      } else if (kept?.provider === 'minimax') open.set(part.id, thought);
    } else if (part.type === 'reasoning-end' && kept && !signed) {
      // The item's encrypted reasoning comes with its end (the ends of its summary's earlier parts lack it).
      const slot = summaryParts.get(part.id);
      const { encrypted } = openAiItem(part.providerMetadata, kept);
      if (!slot || encrypted === undefined || slot.item.encrypted) continue;
      const item = { ...slot.item, summary: slot.item.summary.filter(Boolean), encrypted };
      slot.item.encrypted = encrypted;
      thinking.push(item);
      think({ carried: item });
    } else if (part.type === 'reasoning-start' && signed) {
      const { redacted } = anthropicSigned(part.providerMetadata);
      if (redacted !== undefined) {
        thinking.push({ redacted });
        think({ redacted });
      } else open.set(part.id, '');
    } else if (part.type === 'reasoning-delta' && open.has(part.id)) {
      const { signature } = anthropicSigned(part.providerMetadata);
      if (part.delta) {
        open.set(part.id, open.get(part.id)! + part.delta);
        think({ thinking: part.delta });
      }
      if (signature) {
        thinking.push({ thinking: open.get(part.id)!, signature });
        open.delete(part.id);
        think({ signature });
      }
    } else if ((part.type === 'tool-call' || part.type === 'tool-result') && webTools.took(part)) continue;
    else if (part.type === 'tool-call') {
      toolCalls.push(toolCallOf(part));
      const signed = geminiSigned(part, kept);
      if (!signed) continue;
      thinking.push(signed);
      think({ carried: signed });
    } else if (part.type === 'finish')
      finish = { reason: part.finishReason, usage: part.usage, metadata: part.providerMetadata };
    else if (part.type === 'error') throw part.error;
  }
  if (!finish) throw new ReachFailure('the stream ended before the reply was complete');
  // What a Gemini model's search found comes with the stream's end, after the text it wrote. Told as
  // Anthropic's, the pages the text rests on are cited by its block, still open, before the search.
  webTools.grounded(finish.metadata, () => {
    const grounded = webTools.groundedCited(text);
    cited.push(...grounded);
    if (tellAs === 'anthropic' && grounded.length)
      think({ cited: { from: grounded[0]!.from, to: text.length, pages: grounded.flatMap((c) => c.pages) } });
  });
  return {
    text,
    finishReason: finishOf(finish.reason, toolCalls, text),
    ...pausedOf(finish.reason),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(thinking.length ? { thinking } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...webTools.ran(),
    ...(cited.length ? { cited } : {}),
    usage: usageOf(finish.usage, finish.metadata),
    ...logprobsOf(finish.metadata),
    ...notHeldToSchema(warnings),
  };
}

/**
 * A call the model made, under the name the request gave its tool: a tool of an OpenAI namespace (which
 * OpenAI's package says it is of, Azure's under its own name) by `<namespace>__<name>`.
 */
function toolCallOf(part: LanguageModelV4ToolCall): ToolCall {
  const said = part.providerMetadata?.openai ?? part.providerMetadata?.azure;
  const namespace = (said as { namespace?: unknown } | undefined)?.namespace;
  const name = typeof namespace === 'string' ? flatToolName(namespace, part.toolName) : part.toolName;
  return { id: part.toolCallId, type: 'function', function: { name, arguments: part.input } };
}
