// Anthropic's clearing of old tool results (`clear_tool_uses_20250919` in `context_management`, which
// Claude Code sends) and of old thinking (`clear_thinking_20251015`), done on the engine's messages
// before the request is routed, so it applies to whichever model answers. Once the prompt passes the
// trigger (100,000 input tokens unless told), the results of all but the last `keep` tool uses (3
// unless told) are replaced by a placeholder (keeping the tools a tool search's result loaded), leaving
// those of `exclude_tools`; with
// `clear_tool_inputs`, the calls' arguments too. With `clear_at_least`, nothing is cleared unless
// that many tokens would be. The client keeps its whole history: it sends it again each turn, and the
// same edit is made again.
import type { z } from 'zod';
import type { AnthropicContextManagement } from '../../api/schemas';
import { messageText, textOf, type ChatMessage } from './request';

type Edit = z.output<typeof AnthropicContextManagement>['edits'][number];
type ClearToolUses = Extract<Edit, { type: 'clear_tool_uses_20250919' }>;
type ClearThinking = Extract<Edit, { type: 'clear_thinking_20251015' }>;

/** What takes a cleared tool result's place, so the model knows there was one. */
export const CLEARED_RESULT = '[This tool result was cleared to save context.]';

/** The messages with the edits made; `count` gives the tokens of texts (the prompt's tokenizer). */
export function editContext(messages: ChatMessage[], edits: Edit[], count: (texts: string[]) => number): ChatMessage[] {
  let edited = messages;
  for (const edit of edits)
    if (edit.type === 'clear_tool_uses_20250919') edited = clearToolUses(edited, edit, count);
    else if (edit.type === 'clear_thinking_20251015') edited = clearThinking(edited, edit);
  // compact_20260112 is done once the request is routed, by a model of the Space (chat/compaction.ts).
  return edited;
}

/**
 * clear_thinking_20251015: the thinking of all but the last `keep` assistant turns that have some (one
 * unless told; `all` keeps every one) is left out of what is sent.
 */
function clearThinking(messages: ChatMessage[], edit: ClearThinking): ChatMessage[] {
  if (edit.keep === 'all') return messages;
  const thinkingTurns = messages.flatMap((m, at) => (m.role === 'assistant' && m.thinking?.length ? [at] : []));
  const cleared = new Set(thinkingTurns.slice(0, Math.max(0, thinkingTurns.length - (edit.keep?.value ?? 1))));
  if (cleared.size === 0) return messages;
  return messages.map((m, at) => (cleared.has(at) && m.role === 'assistant' ? { ...m, thinking: undefined } : m));
}

function clearToolUses(
  messages: ChatMessage[],
  edit: ClearToolUses,
  count: (texts: string[]) => number,
): ChatMessage[] {
  const uses = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
  const trigger = edit.trigger ?? { type: 'input_tokens', value: 100_000 };
  const reached =
    trigger.type === 'tool_uses' ? uses.length > trigger.value : count(messages.map(messageText)) > trigger.value;
  if (!reached) return messages;
  const kept = new Set(uses.slice(Math.max(0, uses.length - (edit.keep?.value ?? 3))).map((u) => u.id));
  const excluded = new Set(edit.exclude_tools ?? []);
  const cleared = new Map(uses.filter((u) => !kept.has(u.id) && !excluded.has(u.function.name)).map((u) => [u.id, u]));
  if (cleared.size === 0) return messages;
  const inputs = edit.clear_tool_inputs ?? false;
  const clearsInput = (name: string) => (Array.isArray(inputs) ? inputs.includes(name) : inputs);
  const before: string[] = [];
  const after: string[] = [];
  const edited = messages.map((m): ChatMessage => {
    if (m.role === 'tool' && cleared.has(m.tool_call_id)) {
      before.push(textOf(m.content));
      after.push(CLEARED_RESULT);
      // The tools a tool search's result loaded (its tool_reference parts) stay loaded: later turns call them.
      const loaded = Array.isArray(m.content) ? m.content.filter((part) => part.type === 'tool_reference') : [];
      return { ...m, content: loaded.length ? [{ type: 'text', text: CLEARED_RESULT }, ...loaded] : CLEARED_RESULT };
    }
    if (m.role !== 'assistant' || !m.tool_calls?.some((c) => cleared.has(c.id) && clearsInput(c.function.name)))
      return m;
    const calls = m.tool_calls.map((c) => {
      if (!cleared.has(c.id) || !clearsInput(c.function.name)) return c;
      before.push(c.function.arguments);
      after.push('{}');
      return { ...c, function: { ...c.function, arguments: '{}' } };
    });
    return { ...m, tool_calls: calls };
  });
  if (edit.clear_at_least && count(before) - count(after) < edit.clear_at_least.value) return messages;
  return edited;
}
