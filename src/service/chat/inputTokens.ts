// How many input tokens a request would count here, with the Space's instructions included, as the
// service counts before sending (its tokenizer): Anthropic's POST /v1/messages/count_tokens and OpenAI's
// POST /v1/responses/input_tokens.
import type { z } from 'zod';
import type { AnthropicCountBody, ResponsesCountBody } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { messagesRequest } from './messagesRequest';
import { prepareSending } from './prepare';
import { McpSession } from './remoteMcp';
import type { Body } from './request';
import { responsesRequest } from './responsesRequest';

/** How long a count waits for the request's MCP servers to list their tools. */
const LISTING_MS = 30_000;

export async function countMessageTokens(db: Database, caller: Caller, body: z.output<typeof AnthropicCountBody>) {
  // A request for compaction is counted as the conversation it would sum up, as Anthropic counts it.
  const asked = messagesRequest(caller, { ...body, compaction: undefined, max_tokens: body.max_tokens ?? 1 });
  const prepared = await prepareSending(db, caller, await withServersTools(asked));
  return { input_tokens: prepared.promptTokens };
}

/** The request with its remote MCP servers' tools among its own, as the model would be offered them. */
async function withServersTools(body: Body): Promise<Body> {
  const completion = body.completion;
  if (!completion?.mcpServers?.length) return body;
  const session = await McpSession.open(completion.mcpServers, AbortSignal.timeout(LISTING_MS));
  try {
    return { ...body, completion: { ...completion, tools: [...(completion.tools ?? []), ...session.functions] } };
  } finally {
    await session.close();
  }
}

/**
 * A continued response's earlier input and output count too, as the model would read them. No reply
 * is asked for, so the length of one (a token, as for Anthropic's) never refuses the count on price.
 */
export async function countResponseTokens(db: Database, caller: Caller, body: z.output<typeof ResponsesCountBody>) {
  const prepared = await prepareSending(db, caller, responsesRequest(caller, { ...body, max_output_tokens: 1 }, db));
  return { object: 'response.input_tokens' as const, input_tokens: prepared.promptTokens };
}
