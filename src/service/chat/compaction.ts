// Compaction of a Responses conversation through a Space, as OpenAI's API offers it: standalone
// (POST /v1/responses/compact, responses.compact), given as its items or as the kept response it ended
// with; or server-side (`context_management` on POST /v1/responses), when the conversation passes its
// threshold, before the reply, which goes on from the summary. A model of the Space sums it up, routed,
// logged and billed like any chat. The model reads the conversation as a transcript (any model can,
// whatever tools its turns called) and writes the summary; the answer (http/responsesAnswer.ts) gives a
// `compaction` item carrying the summary and the user's messages (compactedSummary.ts), which stands
// for the items before it; the standalone answer gives those messages before it too. The summary goes
// to any model of the Space then, where OpenAI's own compaction goes only to OpenAI's.
// Anthropic's compaction on POST /v1/messages the same way: asked by `compaction` (the summary alone)
// or by the `compact_20260112` edit of `context_management` (past its trigger, the summary first, then
// the reply, unless it pauses after it); its answer (http/anthropicAnswer.ts) gives a `compaction`
// block with the summary as it was written, which stands for every block before it
// (chat/messagesRequest.ts).
import type { z } from 'zod';
import type {
  AnthropicMessagesBody,
  ChatCompletion,
  ResponsesBody,
  ResponsesCompactBody,
  ResponsesItem,
} from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { Problem, invalid } from '../problem';
import { isUsers, openCompaction, summaryMessage, type UserMessage } from './compactedSummary';
import { messagesRequest } from './messagesRequest';
import { promptOf, requestedSpace, textOf, type Body, type ChatMessage, type Prepared } from './request';
import type { Completed } from './run';
import { conversationOf, responsesRequest } from './responsesRequest';

type Item = z.output<typeof ResponsesItem>;
type CompactionItem = Extract<Item, { type: 'compaction' }>;
/** How much of the model's context window a conversation may fill before it is compacted, when no threshold is given. */
const DEFAULT_THRESHOLD = 0.8;

/** What the model is asked to write. */
const INSTRUCTIONS = `You are compacting a conversation between a user and an AI assistant, so that the work can go on in a smaller context. The conversation follows as a transcript. Write a summary another assistant can take the work up from: what the user wants and asked for, what was decided and why, what was done (files, commands, tools called and what they gave), what is left to do, and anything the user asked to keep in mind. Keep names, paths, numbers and code that matter exactly as they were. Write only the summary.`;

export function compactionRequest(
  caller: Caller,
  /** With the conversation a Responses request names, for server-side compaction (serverCompaction). */
  given: z.output<typeof ResponsesCompactBody> & Pick<z.output<typeof ResponsesBody>, 'conversation'>,
  db: Database,
): Body {
  const appId = requestedSpace(caller, given.app_id);
  const { earlier, input, window, messages } = conversationOf(db, caller, appId, {
    ...given,
    input: given.input ?? [],
  });
  if (earlier.length + input.length === 0)
    throw invalid(
      ['body', 'input'],
      'must give the conversation to compact, or previous_response_id the response it ended with',
    );
  return summingRequest(appId, given.model ?? null, messages, ['body', 'input'], {
    kept: keptOf(window),
    promptCacheKey: given.prompt_cache_key ?? undefined,
  });
}

/**
 * The request that has a model of the Space sum the messages up, as a transcript, by the service's prompt
 * or the `instructions` that replace it; answered whole.
 */
function summingRequest(
  appId: string,
  model: string | null,
  messages: readonly ChatMessage[],
  loc: Array<string | number>,
  how: { kept: UserMessage[]; promptCacheKey?: string; instructions?: string },
): Body {
  const transcript = transcriptOf(messages);
  if (!transcript) throw invalid(loc, 'has nothing to sum up: no message, tool call or result');
  const asked: ChatMessage[] = [
    { role: 'system', content: how.instructions ?? INSTRUCTIONS },
    { role: 'user', content: transcript },
  ];
  return {
    app_id: appId,
    prompt: promptOf(asked),
    model,
    temperature: null,
    max_tokens: null,
    stream: false,
    compaction: { kept: how.kept },
    completion: { messages: asked, promptCacheKey: how.promptCacheKey },
  };
}

/** The summary a model wrote; none is a failure of the model's. */
export function summaryWritten(c: ChatCompletion): string {
  const summary = c.choices[0]?.message.content ?? '';
  if (!summary.trim())
    throw new Problem(502, `${c.model} wrote no summary of the conversation: compact it again, or with another model.`);
  return summary;
}

/** The user's messages a compaction keeps: those an earlier compaction kept, and those since. */
function keptOf(window: readonly Item[]): UserMessage[] {
  return window.flatMap((item, i) =>
    item.type === 'compaction'
      ? (openCompaction(item.encrypted_content, ['body', 'input', i]).kept ?? [])
      : isUsers(item)
        ? [item]
        : [],
  );
}

/**
 * Server-side compaction (a Responses request's `context_management`): the threshold its conversation
 * passed, when it asks for compaction, passes it (80% of the context window of the model routed to, when
 * it gives none), and holds something new to sum up: a turn other than the user's messages it keeps and
 * the last summary (summed up again each turn, those would give the same back).
 */
export function compactionDue(prepared: Prepared): number | undefined {
  const anthropic = prepared.body.anthropicCompaction;
  if (anthropic) {
    // Anthropic's: past its trigger, with a turn of the model's since the last summary.
    const since = prepared.body.completion?.messages.some((m) => m.role === 'assistant' || m.role === 'tool');
    return !prepared.body.compaction && !anthropic.compacted && since && prepared.promptTokens > anthropic.trigger
      ? anthropic.trigger
      : undefined;
  }
  const r = prepared.body.responses;
  const asked = r?.context_management?.[0];
  if (!asked || prepared.body.compaction || !r.window.some((item) => !isUsers(item) && item.type !== 'compaction'))
    return undefined;
  const threshold = asked.compact_threshold ?? Math.floor(prepared.first.record.context_window * DEFAULT_THRESHOLD);
  return prepared.promptTokens > threshold ? threshold : undefined;
}

/**
 * POST /v1/responses: a request whose input ends with a compaction_trigger (OpenAI's explicit
 * compaction, Codex's remote compaction) has its conversation summed up now, and is answered with the
 * compaction item alone, nothing sampled after it; any other asks for a response.
 */
export function responseOrCompaction(caller: Caller, given: z.output<typeof ResponsesBody>, db: Database): Body {
  const asked = responsesRequest(caller, given, db);
  if (typeof given.input === 'string' || given.input.at(-1)?.type !== 'compaction_trigger') return asked;
  const summing = serverCompaction(caller, asked, db);
  return {
    ...summing,
    stream: asked.stream,
    responses: asked.responses,
    compaction: { ...summing.compaction!, triggered: true },
  };
}

/**
 * POST /v1/messages: a request with `compaction` (Anthropic's, the Anthropic SDK's compactBeforeNextTurn)
 * has its conversation summed up, and is answered with the compaction block alone; any other asks for
 * a reply. What only shapes a reply is refused with it, as Anthropic refuses it.
 */
export function messagesOrCompaction(caller: Caller, given: z.output<typeof AnthropicMessagesBody>): Body {
  const asked = messagesRequest(caller, given);
  if (!given.compaction) return asked;
  const alone = 'gives the summary alone, no reply';
  if (given.context_management)
    throw invalid(['body', 'compaction'], `cannot be sent with context_management: a compaction request ${alone}`);
  const shaping = given.stop_sequences
    ? 'stop_sequences'
    : given.output_config?.format
      ? 'output_config'
      : given.tool_choice?.type === 'any' || given.tool_choice?.type === 'tool'
        ? 'tool_choice'
        : undefined;
  if (shaping) throw invalid(['body', shaping], `shapes a reply, and a request with compaction ${alone}: leave it out`);
  const summing = anthropicSumming(asked, given.compaction.instructions ?? undefined);
  return { ...summing, stream: asked.stream, compaction: { kept: [], triggered: true } };
}

/** The request that sums up an Anthropic request's conversation (as it reads it, from its last summary on). */
function anthropicSumming(body: Body, instructions: string | undefined): Body {
  return summingRequest(body.app_id, body.model ?? null, body.completion?.messages ?? [], ['body', 'messages'], {
    kept: [],
    ...(instructions?.trim() ? { instructions } : {}),
  });
}

/** The request that sums up a Responses or Anthropic request's conversation, for server-side compaction. */
export function serverCompaction(caller: Caller, body: Body, db: Database): Body {
  if (body.anthropicCompaction) return anthropicSumming(body, body.anthropicCompaction.instructions);
  const r = body.responses!;
  return compactionRequest(
    caller,
    {
      model: r.model,
      instructions: r.instructions,
      app_id: body.app_id,
      previous_response_id: r.previous_response_id,
      conversation: r.conversation,
      input: r.input,
      prompt_cache_key: r.prompt_cache_key,
    },
    db,
  );
}

/**
 * The Responses request with its conversation compacted: its instructions, then the summary in place of
 * the items it sums up; the answer gives the compaction item first, and says what happened.
 */
export function compacted(
  db: Database,
  prepared: Prepared,
  item: CompactionItem,
  how: { threshold: number; model: string },
): Body {
  const { body, caller } = prepared;
  const r = body.responses!;
  const { messages } = conversationOf(db, caller, body.app_id, { instructions: r.instructions, input: [item] });
  return {
    ...body,
    prompt: promptOf(messages),
    completion: { ...body.completion, messages },
    responses: { ...r, compacted: item },
    warnings: [...(body.warnings ?? []), compactedWords(prepared.promptTokens, how.threshold, how.model, 'item')],
  };
}

/**
 * The Anthropic request with its conversation compacted: its system prompt, then the summary in place of
 * the messages it sums up; the answer gives the compaction block first, and says what happened.
 */
export function anthropicCompacted(prepared: Prepared, summed: Completed, threshold: number): Body {
  const { body } = prepared;
  const summary = summaryWritten(summed);
  const sent = body.completion!.messages;
  const firstTurn = sent.findIndex((m) => m.role !== 'system');
  const system = sent.slice(0, firstTurn < 0 ? 0 : firstTurn);
  const messages: ChatMessage[] = [...system, { role: 'user', content: summaryMessage(summary) }];
  const usage = { input_tokens: summed.usage.prompt_tokens, output_tokens: summed.usage.completion_tokens };
  return {
    ...body,
    prompt: promptOf(messages),
    completion: { ...body.completion, messages },
    anthropicCompaction: { ...body.anthropicCompaction!, compacted: { summary, usage } },
    warnings: [...(body.warnings ?? []), compactedWords(prepared.promptTokens, threshold, summed.model, 'block')],
  };
}

/** What a reply says when its conversation was summed up first. */
const compactedWords = (tokens: number, threshold: number, model: string, carrier: 'block' | 'item') =>
  `The conversation (${tokens.toLocaleString('en-US')} tokens) passed its compaction threshold (${threshold.toLocaleString('en-US')}), so ${model} summed it up first; the reply goes on from the summary, which the first ${carrier === 'block' ? 'content block' : 'output item'} carries.`;

/** The conversation as the text the model sums up: each turn under who said it, each tool call and its result. */
function transcriptOf(messages: readonly ChatMessage[]): string {
  const called = new Map<string, string>();
  const turns: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const text = partsText(m.content);
      if (text) turns.push(`Assistant:\n${text}`);
      for (const call of m.tool_calls ?? []) {
        called.set(call.id, call.function.name);
        turns.push(`Assistant called ${call.function.name} with ${call.function.arguments}`);
      }
    } else if (m.role === 'tool') {
      const name = called.get(m.tool_call_id);
      turns.push(`${name ? `Result of ${name}` : 'Tool result'}:\n${partsText(m.content)}`);
    } else turns.push(`${m.role === 'user' ? 'User' : 'Instructions'}:\n${partsText(m.content)}`);
  }
  return turns.join('\n\n');
}

/** A message's text, with a word for each image or file in it. */
function partsText(content: ChatMessage['content']): string {
  if (content === null || typeof content === 'string') return textOf(content);
  return content
    .map((p) => (p.type === 'image_url' ? '[an image]' : p.type === 'file' ? '[a file]' : textOf([p])))
    .join('');
}
