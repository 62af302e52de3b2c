// POST /v1/messages/count_tokens: how many input tokens a Messages request would count here, with the
// Space's instructions included, as the service counts before sending (its tokenizer).
import type { z } from 'zod';
import type { AnthropicCountBody } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { messagesRequest } from './messagesRequest';
import { prepareChat } from './prepare';

export function countMessageTokens(db: Database, caller: Caller, body: z.output<typeof AnthropicCountBody>) {
  const prepared = prepareChat(db, caller, messagesRequest(caller, { ...body, max_tokens: body.max_tokens ?? 1 }));
  return { input_tokens: prepared.promptTokens };
}
