// POST /v1/responses/compact (OpenAI's responses.compact): a Responses conversation, given as its items
// or as the kept response it ended with, summed up by a model of the Space, routed, logged and billed
// like any chat. The model reads the conversation as a transcript (any model can, whatever tools its
// turns called) and writes the summary; the answer (http/responsesAnswer.ts compactionObject) gives
// back the user's messages and one `compaction` item carrying the summary (compactedSummary.ts), which
// the client sends in place of the turns it sums up. The summary goes to any model of the Space then,
// where OpenAI's own compaction goes only to OpenAI's.
import type { z } from 'zod';
import type { ResponsesCompactBody, ResponsesItem } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { invalid } from '../problem';
import { promptOf, requestedSpace, textOf, type Body, type ChatMessage } from './request';
import { conversationOf } from './responsesRequest';

type Item = z.output<typeof ResponsesItem>;

/** What the model is asked to write. */
const INSTRUCTIONS = `You are compacting a conversation between a user and an AI assistant, so that the work can go on in a smaller context. The conversation follows as a transcript. Write a summary another assistant can take the work up from: what the user wants and asked for, what was decided and why, what was done (files, commands, tools called and what they gave), what is left to do, and anything the user asked to keep in mind. Keep names, paths, numbers and code that matter exactly as they were. Write only the summary.`;

export function compactionRequest(caller: Caller, given: z.output<typeof ResponsesCompactBody>, db: Database): Body {
  const appId = requestedSpace(caller, given.app_id);
  const { earlier, input, messages } = conversationOf(db, caller, appId, { ...given, input: given.input ?? [] });
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
    compaction: { kept: [...earlier, ...input].filter(isUsers) },
    completion: { messages: asked, promptCacheKey: given.prompt_cache_key },
  };
}

/** A message of the user's, which the compacted conversation keeps as it was. */
const isUsers = (item: Item): item is Extract<Item, { role: string }> => 'role' in item && item.role === 'user';

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
