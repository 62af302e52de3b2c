// How many input tokens a request would count here, with the Space's instructions included, as the
// service counts before sending (its tokenizer): Anthropic's POST /v1/messages/count_tokens and OpenAI's
// POST /v1/responses/input_tokens.
import type { z } from 'zod';
import type { AnthropicCountBody, ResponsesCountBody } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { messagesRequest } from './messagesRequest';
import { prepareSending } from './prepare';
import { responsesRequest } from './responsesRequest';

export async function countMessageTokens(db: Database, caller: Caller, body: z.output<typeof AnthropicCountBody>) {
  const prepared = await prepareSending(
    db,
    caller,
    // A request for compaction is counted as the conversation it would sum up, as Anthropic counts it.
    messagesRequest(caller, { ...body, compaction: undefined, max_tokens: body.max_tokens ?? 1 }),
  );
  return { input_tokens: prepared.promptTokens };
}

/**
 * A continued response's earlier input and output count too, as the model would read them. No reply
 * is asked for, so the length of one (a token, as for Anthropic's) never refuses the count on price.
 */
export async function countResponseTokens(db: Database, caller: Caller, body: z.output<typeof ResponsesCountBody>) {
  const prepared = await prepareSending(db, caller, responsesRequest(caller, { ...body, max_output_tokens: 1 }, db));
  return { object: 'response.input_tokens' as const, input_tokens: prepared.promptTokens };
}
