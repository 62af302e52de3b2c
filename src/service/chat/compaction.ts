// Compaction of a Responses conversation through a Space, as OpenAI's API offers it: standalone
// (POST /v1/responses/compact, responses.compact), given as its items or as the kept response it ended
// with; or server-side (`context_management` on POST /v1/responses), when the conversation passes its
// threshold, before the reply, which goes on from the summary. A model of the Space sums it up, routed,
// logged and billed like any chat. The model reads the conversation as a transcript (any model can,
// whatever tools its turns called) and writes the summary; the answer (http/responsesAnswer.ts) gives a
// `compaction` item carrying the summary and the user's messages (compactedSummary.ts), which stands
// for the items before it; the standalone answer gives those messages before it too. The summary goes
// to any model of the Space then, where OpenAI's own compaction goes only to OpenAI's.
import type { z } from 'zod';
import type { ResponsesBody, ResponsesCompactBody, ResponsesItem } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { invalid } from '../problem';
import { isUsers, openCompaction, type UserMessage } from './compactedSummary';
import { promptOf, requestedSpace, textOf, type Body, type ChatMessage, type Prepared } from './request';
import { conversationOf, responsesRequest } from './responsesRequest';

type Item = z.output<typeof ResponsesItem>;
type CompactionItem = Extract<Item, { type: 'compaction' }>;
/** How much of the model's context window a conversation may fill before it is compacted, when no threshold is given. */
const DEFAULT_THRESHOLD = 0.8;

/** What the model is asked to write. */
const INSTRUCTIONS = `You are compacting a conversation between a user and an AI assistant, so that the work can go on in a smaller context. The conversation follows as a transcript. Write a summary another assistant can take the work up from: what the user wants and asked for, what was decided and why, what was done (files, commands, tools called and what they gave), what is left to do, and anything the user asked to keep in mind. Keep names, paths, numbers and code that matter exactly as they were. Write only the summary.`;

export function compactionRequest(caller: Caller, given: z.output<typeof ResponsesCompactBody>, db: Database): Body {
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
  const transcript = transcriptOf(messages);
  if (!transcript) throw invalid(['body', 'input'], 'has nothing to sum up: no message, tool call or result');
  const asked: ChatMessage[] = [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: transcript },
  ];
  return {
    app_id: appId,
    prompt: promptOf(asked),
    model: given.model ?? null,
    temperature: null,
    max_tokens: null,
    // Answered whole: OpenAI's compaction has no stream.
    stream: false,
    compaction: { kept: keptOf(window) },
    completion: { messages: asked, promptCacheKey: given.prompt_cache_key },
  };
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

/** The request that sums up a Responses request's conversation, for server-side compaction. */
export function serverCompaction(caller: Caller, body: Body, db: Database): Body {
  const r = body.responses!;
  return compactionRequest(
    caller,
    {
      model: r.model,
      instructions: r.instructions,
      app_id: body.app_id,
      previous_response_id: r.previous_response_id,
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
  const words = `The conversation (${prepared.promptTokens.toLocaleString('en-US')} tokens) passed its compaction threshold (${how.threshold.toLocaleString('en-US')}), so ${how.model} summed it up first; the reply goes on from the summary, which the first output item carries.`;
  return {
    ...body,
    prompt: promptOf(messages),
    completion: { ...body.completion, messages },
    responses: { ...r, compacted: item },
    warnings: [...(body.warnings ?? []), words],
  };
}

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
