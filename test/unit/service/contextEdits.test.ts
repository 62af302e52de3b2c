// Anthropic's clearing of old tool results and old thinking (context_management), as the service does it.
import assert from 'node:assert/strict';
import { CLEARED_RESULT, editContext } from '../../../src/service/chat/contextEdits';
import type { ChatMessage } from '../../../src/service/chat/request';

/** A conversation of `n` tool uses, each a call of `tools[i % tools.length]` and its result of 100 words. */
function conversation(n: number, tools = ['read']): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Fix the bug.' }];
  for (let i = 0; i < n; i++) {
    const id = `call_${i}`;
    const name = tools[i % tools.length]!;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: `{"path":"src/file${i}.ts"}` } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: `result ${i} `.repeat(100) });
  }
  return messages;
}

/** One token a word: enough to compare counts. */
const words = (texts: string[]) => texts.join(' ').split(/\s+/).filter(Boolean).length;
const results = (messages: ChatMessage[]) => messages.filter((m) => m.role === 'tool').map((m) => m.content);
const args = (messages: ChatMessage[]) =>
  messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.arguments) : []));

describe('context editing: clearing old tool results', () => {
  it('clears all but the last three results once the prompt passes the trigger, and nothing below it', () => {
    const sent = conversation(5);
    const edit = { type: 'clear_tool_uses_20250919' as const, trigger: { type: 'input_tokens' as const, value: 400 } };
    const edited = editContext(sent, [edit], words);
    assert.deepEqual(results(edited).slice(0, 2), [CLEARED_RESULT, CLEARED_RESULT]);
    assert.deepEqual(results(edited).slice(2), results(sent).slice(2));
    assert.deepEqual(args(edited), args(sent), 'the calls stay as they were');
    assert.equal(sent[2]!.content, 'result 0 '.repeat(100), 'what the client sent is not changed');
    assert.equal(editContext(sent, [{ ...edit, trigger: { type: 'input_tokens', value: 10_000 } }], words), sent);
  });

  it('keeps as many as asked, leaves the excluded tools, and clears inputs when asked, all or by tool', () => {
    const sent = conversation(6, ['read', 'bash']);
    const base = { type: 'clear_tool_uses_20250919' as const, trigger: { type: 'tool_uses' as const, value: 2 } };
    const kept = editContext(
      sent,
      [{ ...base, keep: { type: 'tool_uses', value: 1 }, exclude_tools: ['bash'] }],
      words,
    );
    // read is used by calls 0, 2 and 4, bash by 1, 3 and 5; the last use (5) is kept.
    assert.deepEqual(
      results(kept).map((r) => r === CLEARED_RESULT),
      [true, false, true, false, true, false],
    );
    const inputs = editContext(sent, [{ ...base, clear_tool_inputs: true }], words);
    assert.deepEqual(args(inputs).slice(0, 3), ['{}', '{}', '{}']);
    assert.deepEqual(args(inputs).slice(3), args(sent).slice(3));
    const onlyBash = editContext(sent, [{ ...base, clear_tool_inputs: ['bash'] }], words);
    assert.deepEqual(args(onlyBash).slice(0, 3), [args(sent)[0], '{}', args(sent)[2]]);
  });

  it("keeps the tools a cleared tool search's result loaded, so the calls of them later still have them", () => {
    const sent = conversation(5);
    const loaded = { type: 'tool_reference', tool_name: 'mcp__weather__forecast' };
    sent[2] = { role: 'tool', tool_call_id: 'call_0', content: [{ type: 'text', text: 'Found 1 tool.' }, loaded] };
    const edit = { type: 'clear_tool_uses_20250919' as const, trigger: { type: 'tool_uses' as const, value: 0 } };
    const edited = editContext(sent, [edit], words);
    assert.deepEqual(results(edited).slice(0, 2), [[{ type: 'text', text: CLEARED_RESULT }, loaded], CLEARED_RESULT]);
  });

  it('clears nothing unless it frees at least clear_at_least tokens', () => {
    const sent = conversation(4);
    const edit = {
      type: 'clear_tool_uses_20250919' as const,
      trigger: { type: 'tool_uses' as const, value: 0 },
    };
    // One result is cleared (of four, three kept): 200 words for 9.
    assert.equal(editContext(sent, [{ ...edit, clear_at_least: { type: 'input_tokens', value: 500 } }], words), sent);
    const cleared = editContext(sent, [{ ...edit, clear_at_least: { type: 'input_tokens', value: 150 } }], words);
    assert.equal(results(cleared)[0], CLEARED_RESULT);
  });

  it('clears the thinking of all but the last turns that have some (one unless told), or keeps it all', () => {
    const sent = conversation(4).map((m, at): ChatMessage =>
      m.role === 'assistant' && at !== 3 ? { ...m, thinking: [{ thinking: `thought ${at}`, signature: `s${at}` }] } : m,
    );
    const kept = (messages: ChatMessage[]) =>
      messages.flatMap((m) =>
        m.role === 'assistant' && m.thinking ? m.thinking.map((b) => ('thinking' in b ? b.thinking : '')) : [],
      );
    assert.deepEqual(kept(sent), ['thought 1', 'thought 5', 'thought 7']);
    assert.equal(editContext(sent, [{ type: 'clear_thinking_20251015', keep: 'all' }], words), sent);
    assert.deepEqual(kept(editContext(sent, [{ type: 'clear_thinking_20251015' }], words)), ['thought 7']);
    const two = { type: 'clear_thinking_20251015' as const, keep: { type: 'thinking_turns' as const, value: 2 } };
    assert.deepEqual(kept(editContext(sent, [two], words)), ['thought 5', 'thought 7']);
    // Nothing else moves.
    assert.deepEqual(results(editContext(sent, [two], words)), results(sent));
  });
});
