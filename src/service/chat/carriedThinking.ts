// A model's thinking, carried by a client that cannot hold it as the model gave it. OpenAI's Responses
// clients (Codex) keep a reasoning item's `encrypted_content` as it came and send it back with the next
// turn, as they must for a stateless conversation: an Anthropic model's blocks ride in it with their
// signatures, so a tool loop of Codex's on a Claude model keeps its thinking (Anthropic refuses a tool
// loop that lost it), an OpenAI model's reasoning items with OpenAI's encryption of them and the web
// and tool searches it ran between them, a Gemini model's thought signatures with the calls they sign,
// and a MiniMax model's signed blocks of thinking. The providers check what is theirs. The text is the
// model's own thinking, which the reasoning summary shows anyway, so it is not encrypted again, only
// marked as this service's: reasoning another service gave is told apart and left out.
import { z } from 'zod';
import { invalid } from '../problem';
import type { ThinkingBlock } from './request';

const MARK = 'llm-spaces.thinking.1.';

const Blocks = z
  .array(
    z.union([
      z.strictObject({ thinking: z.string(), signature: z.string().min(1) }),
      z.strictObject({ redacted: z.string().min(1) }),
      z.strictObject({
        item: z.string().min(1),
        summary: z.array(z.string()).max(1000),
        encrypted: z.string().min(1),
        model: z.string().min(1),
      }),
      z.strictObject({ call: z.string().min(1), geminiSignature: z.string().min(1), model: z.string().min(1) }),
      z.strictObject({ minimaxThinking: z.string(), signature: z.string().min(1), model: z.string().min(1) }),
      z.strictObject({
        webSearchCall: z.string().min(1),
        result: z.record(z.string(), z.unknown()),
        failed: z.string().optional(),
        model: z.string().min(1),
      }),
      z.strictObject({
        toolSearchCall: z.string().min(1),
        output: z.string().min(1),
        arguments: z.unknown().transform((v) => v ?? {}),
        tools: z.array(z.record(z.string(), z.unknown())).max(1000),
        model: z.string().min(1),
      }),
    ]),
  )
  .min(1)
  .max(1000);

/** The blocks as the opaque text a reasoning item carries. */
export function sealThinking(blocks: ThinkingBlock[]): string {
  return MARK + Buffer.from(JSON.stringify(blocks)).toString('base64url');
}

/**
 * The blocks a reasoning item carries: none when another service gave it; refused in words when it is
 * this service's mark on something it did not write.
 */
export function openThinking(sealed: string, loc: Array<string | number>): ThinkingBlock[] | undefined {
  if (!sealed.startsWith(MARK)) return undefined;
  let blocks: unknown;
  try {
    blocks = JSON.parse(Buffer.from(sealed.slice(MARK.length), 'base64url').toString('utf8'));
  } catch {
    blocks = undefined;
  }
  const read = Blocks.safeParse(blocks);
  if (!read.success) throw invalid(loc, 'is not reasoning this service gave: send it back as it came');
  return read.data;
}
