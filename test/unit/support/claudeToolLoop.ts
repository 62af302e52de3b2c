// Claude Code's tool loop through a Space's Anthropic Messages API, as the tests of Claude on a cloud
// (Bedrock, Vertex AI) run it with the official Anthropic SDK: the ask with thinking and a tool, which a
// fake model calls; then the next turn streamed, the reply sent back whole with the tool's result.
import type Anthropic from '@anthropic-ai/sdk';

export const LOOKUP: Anthropic.Tool = {
  name: 'lookup',
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
};

/** What a fake model answers with a call of LOOKUP. */
export const LOOKUP_ASK = 'call lookup {"q":"gateway routing"}';

export interface ClaudeToolLoop {
  /** The first answer: the thinking, and the call. */
  message: Anthropic.Message;
  call: Anthropic.ToolUseBlock;
  /** The next turn's answer, and its text as it streamed. */
  final: Anthropic.Message;
  pieces: string[];
}

/**
 * Both turns, `thinking` asked in each within `maxTokens`; `then`, a text the user sends after the
 * tool's result.
 */
export async function claudeToolLoop(
  claude: Anthropic,
  {
    model,
    maxTokens,
    thinking,
    then,
  }: { model: string; maxTokens: number; thinking: Anthropic.ThinkingConfigParam; then?: string },
): Promise<ClaudeToolLoop> {
  const tools = [LOOKUP];
  const message = await claude.messages.create({
    model,
    max_tokens: maxTokens,
    system: 'Be brief.',
    thinking,
    tools,
    messages: [{ role: 'user', content: LOOKUP_ASK }],
  });
  const call = message.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
  const stream = claude.messages.stream({
    model,
    max_tokens: maxTokens,
    thinking,
    tools,
    messages: [
      { role: 'user', content: LOOKUP_ASK },
      { role: 'assistant', content: message.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: call.id, content: 'found it' },
          ...(then ? [{ type: 'text' as const, text: then }] : []),
        ],
      },
    ],
  });
  const pieces: string[] = [];
  stream.on('text', (piece) => pieces.push(piece));
  return { message, call, final: await stream.finalMessage(), pieces };
}
