// Test models make no model request: they answer from the prompt (testReplies.ts), streamed in small
// pieces at the pace the service was started with, and test/echo asks for a tool call on request.
import { createHash } from 'node:crypto';
import type { ModelRecord, ToolCall } from '../../../api/schemas';
import { tokenPieces, truncateTokens } from '../../tokenizer';
import type { Reply } from '../request';
import type { Generation, ModelReach } from './reach';
import { testModelReply } from './testReplies';

export class TestModels implements ModelReach {
  /** `streamDelayMs`: the pause between streamed pieces, to behave like a real model. */
  constructor(private readonly streamDelayMs: number) {}

  /** Their pace is the service's own setting. */
  readonly measured = false;

  reaches(model: ModelRecord): boolean {
    return model.is_test_model;
  }

  async generate(g: Generation): Promise<Reply> {
    const asked = g.model.model === 'echo' ? echoToolCall(g) : null;
    if (asked) return { text: '', finishReason: 'tool_calls', toolCalls: [asked] };
    const reply = testModelReply({ model: g.model.model, prompt: g.prompt, images: g.images, files: g.files });
    // Asked for JSON, a test model's reply is the one field of an object (a schema it cannot follow:
    // routing leaves it out, chat/routing.ts).
    const full = g.tools.responseFormat ? JSON.stringify({ text: reply }) : reply;
    const cut = truncateTokens(full, g.maxTokens);
    if (g.onDelta) await this.streamPieces(cut.text, g.onDelta, g.signal);
    return { text: cut.text, finishReason: cut.truncated ? 'length' : 'stop' };
  }

  private async streamPieces(text: string, onDelta: (text: string) => void, signal: AbortSignal): Promise<void> {
    for (const piece of tokenPieces(text, 4)) {
      if (signal.aborted) throw new Error('cancelled');
      onDelta(piece);
      if (this.streamDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.streamDelayMs));
    }
  }
}

/**
 * test/echo's tool call (conventions.md): with tools given and the last user message reading
 * `call <tool name> <JSON arguments>`, it asks for exactly that call.
 */
function echoToolCall(g: Generation): ToolCall | null {
  const tools = g.tools.tools ?? [];
  if (tools.length === 0 || g.messages.at(-1)?.role !== 'user') return null;
  const match = /^call\s+(\S+)\s*([\s\S]*)$/.exec(g.prompt.trim());
  if (!match || !tools.some((t) => t.function.name === match[1])) return null;
  let args: unknown;
  try {
    args = JSON.parse(match[2]!.trim() || '{}');
  } catch {
    return null;
  }
  const id = `call_${createHash('sha256').update(g.prompt).digest('hex').slice(0, 16)}`;
  return { id, type: 'function', function: { name: match[1]!, arguments: JSON.stringify(args) } };
}
