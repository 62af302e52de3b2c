// Anthropic's cache diagnostics as the service gives them (chat/cacheDiagnostics.ts), on a clock the test
// turns: each reason, the share of the previous prompt's tokens each says was missed, a cache breakpoint
// moved (which changes nothing), and a print of another Space or past its hour. The SDK's use of them
// over HTTP is in anthropicClient.test.ts.
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { AnthropicMessagesBody } from '../../../src/api/schemas';
import { CacheDiagnostics, PRINT_KEPT_MS, promptPrint } from '../../../src/service/chat/cacheDiagnostics';
import type { Caller } from '../../../src/service/domain/caller';

const SPACE = '00000000-0000-4000-8000-000000000001';
const caller: Caller = { orgId: 'org-1', appId: SPACE, identity: 'key' };
const MODEL = 'anthropic/claude-sonnet-4-6';
const TOOLS = [{ name: 'lookup', description: 'Looks a word up.', input_schema: { type: 'object' } }];
const SYSTEM = 'You answer questions about the code base. '.repeat(20);
const FIRST = [
  { role: 'user', content: 'What does the router do?' },
  { role: 'assistant', content: 'It picks a model by the Space weights.' },
  { role: 'user', content: [{ type: 'text', text: 'And when one fails?', cache_control: { type: 'ephemeral' } }] },
];

/** A request's print as the route reads it; `previous` names the reply it is compared with. */
function print(previous: string | null, fields: Record<string, unknown> = {}, caller_ = caller) {
  const given: z.output<typeof AnthropicMessagesBody> = AnthropicMessagesBody.parse({
    model: MODEL,
    max_tokens: 1000,
    system: SYSTEM,
    tools: TOOLS,
    messages: FIRST,
    diagnostics: { previous_message_id: previous },
    ...fields,
  });
  return promptPrint(caller_, given)!;
}

describe("Anthropic's cache diagnostics as the service gives them", () => {
  let now: number;
  let diagnostics: CacheDiagnostics;
  beforeEach(() => {
    now = 1_000_000;
    diagnostics = new CacheDiagnostics(() => now);
    // The first turn opts in with no reply to compare; its prompt read 1,000 tokens.
    const first = print(null);
    assert.equal(diagnostics.diagnose(first, MODEL), null);
    diagnostics.keep('msg_1', first, MODEL, 1000);
  });

  it('keeps a print only for a request that asks for diagnostics', () => {
    const given = AnthropicMessagesBody.parse({ model: MODEL, max_tokens: 10, messages: FIRST });
    assert.equal(promptPrint(caller, given), undefined);
  });

  it('finds nothing in the way when messages were only added, or only a cache breakpoint moved', () => {
    const added = [...FIRST, { role: 'assistant', content: 'It goes to the next in the chain.' }];
    assert.equal(diagnostics.diagnose(print('msg_1', { messages: added }), MODEL), null);
    const moved = [
      ...FIRST.slice(0, 2),
      { role: 'user', content: [{ type: 'text', text: 'And when one fails?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Next.', cache_control: { type: 'ephemeral' } }] },
    ];
    assert.equal(diagnostics.diagnose(print('msg_1', { messages: moved }), MODEL), null);
  });

  it('says another model served it, counting every token of the previous prompt as missed', () => {
    assert.deepEqual(diagnostics.diagnose(print('msg_1'), 'openai/gpt-5.4'), {
      type: 'model_changed',
      cache_missed_input_tokens: 1000,
    });
  });

  it('says the tools, the system prompt or an earlier message changed, with the share of the prompt from there on', () => {
    const tools = diagnostics.diagnose(print('msg_1', { tools: [] }), MODEL);
    assert.deepEqual(tools, { type: 'tools_changed', cache_missed_input_tokens: 1000 });
    // The tools come before the system prompt in the prompt, and are still read from the cache.
    const system = diagnostics.diagnose(print('msg_1', { system: 'Be brief.' }), MODEL);
    assert.equal(system?.type, 'system_changed');
    const missedFromSystem = (system as { cache_missed_input_tokens: number }).cache_missed_input_tokens;
    assert.ok(missedFromSystem > 800 && missedFromSystem < 1000, String(missedFromSystem));
    // The last message changed: only its share is missed.
    const edited = [...FIRST.slice(0, 2), { role: 'user', content: 'And when it times out?' }];
    const message = diagnostics.diagnose(print('msg_1', { messages: edited }), MODEL);
    assert.equal(message?.type, 'messages_changed');
    const missedOfLast = (message as { cache_missed_input_tokens: number }).cache_missed_input_tokens;
    assert.ok(missedOfLast > 0 && missedOfLast < 100, String(missedOfLast));
    // A message left out is a change too.
    assert.equal(
      diagnostics.diagnose(print('msg_1', { messages: FIRST.slice(0, 1) }), MODEL)?.type,
      'messages_changed',
    );
  });

  it('cannot tell when other settings that shape the prompt changed', () => {
    const thinking = print('msg_1', { thinking: { type: 'enabled', budget_tokens: 500 } });
    assert.deepEqual(diagnostics.diagnose(thinking, MODEL), { type: 'unavailable' });
  });

  it('finds no previous request for a reply it never kept, of another Space, or past its hour', () => {
    const notFound = { type: 'previous_message_not_found' };
    assert.deepEqual(diagnostics.diagnose(print('msg_unknown'), MODEL), notFound);
    const otherSpace = { ...caller, appId: '00000000-0000-4000-8000-000000000002' };
    assert.deepEqual(diagnostics.diagnose(print('msg_1', {}, otherSpace), MODEL), notFound);
    now += PRINT_KEPT_MS - 1;
    assert.equal(diagnostics.diagnose(print('msg_1'), MODEL), null);
    now += 1;
    assert.deepEqual(diagnostics.diagnose(print('msg_1'), MODEL), notFound);
  });
});
