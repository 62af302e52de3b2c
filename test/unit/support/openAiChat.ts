// A hosted model's chat through a Space with the official OpenAI SDK, whole and streamed, as the
// provider tests check it: the fake's echo, the model's thinking as `reasoning_content` (for a model that
// thinks), the provider's own counts (each fake reports 11 tokens in, 3 of them read from the cache where
// its API says so, and 7 out), and the bill at the model's catalogue prices. And a conversation with a later system message.
import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import type { ModelRecord } from '../../../src/api/schemas';

type Message = { content?: string | null; reasoning_content?: string };

/**
 * Asks `model` (by `asked`, the name a client uses) `text` whole, then streamed; returns the whole
 * answer as the client read it (for the tests that look for a key in what was said). `cached`: the
 * tokens its provider says it read from its cache (none where its API does not say).
 */
export async function chatsWholeAndStreamed(
  sdk: OpenAI,
  model: ModelRecord,
  { asked, text, thinks, cached = 3 }: { asked: string; text: string; thinks: boolean; cached?: number },
): Promise<string> {
  const answer = await sdk.chat.completions.create({ model: asked, messages: [{ role: 'user', content: text }] });
  assert.equal(answer.model, model.namespace);
  const message = answer.choices[0]!.message as Message;
  assert.equal(message.content, `echo: ${text}`);
  assert.equal(message.reasoning_content, thinks ? `Thinking about: ${text}` : undefined);
  const usage = answer.usage!;
  assert.deepEqual(
    [usage.prompt_tokens, usage.completion_tokens, usage.prompt_tokens_details?.cached_tokens],
    [11, 7, cached],
  );
  const cost =
    (11 - cached) * model.prompt_token_cost +
    cached * (model.cache_read_token_cost ?? model.prompt_token_cost) +
    7 * model.completion_token_cost;
  const billed = (answer as unknown as { metadata: { costs: { total_tokens: number } } }).metadata.costs.total_tokens;
  assert.ok(Math.abs(billed - cost) < 1e-12, `${billed} vs ${cost}`);

  const stream = await sdk.chat.completions.create({
    model: model.namespace,
    messages: [{ role: 'user', content: 'stream me' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const pieces: string[] = [];
  let thought = '';
  let streamedUsage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as Message | undefined;
    if (delta?.content) pieces.push(delta.content);
    thought += delta?.reasoning_content ?? '';
    if (chunk.usage) streamedUsage = chunk.usage;
  }
  assert.ok(pieces.length > 1, 'arrived in pieces');
  assert.equal(pieces.join(''), 'echo: stream me');
  assert.equal(thought, thinks ? 'Thinking about: stream me' : '');
  assert.equal(streamedUsage?.prompt_tokens, 11);
  return JSON.stringify(answer);
}

/**
 * A conversation with a system message after the user's (Claude Code sends its environment so to a
 * model it does not know), and the one system text an API that takes them only at the start is sent.
 */
export const LATER_SYSTEM = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hi' },
    { role: 'system', content: 'The working folder is /work.' },
    { role: 'user', content: 'where am I?' },
  ] satisfies OpenAI.ChatCompletionMessageParam[],
  joined: 'Be brief.\n\nThe working folder is /work.',
};
