// Anthropic's message threads as the service holds them (chat/threads.ts), on a clock the test turns:
// a reply continued while another request continues it, a thread past its five minutes, one of another
// Space, and the most the threads may hold together. The SDK's use of them over HTTP is in
// anthropicClient.test.ts.
import assert from 'node:assert/strict';
import { MessageThreads, THREAD_HELD_MS } from '../../../src/service/chat/threads';
import type { Caller } from '../../../src/service/domain/caller';
import { Problem } from '../../../src/service/problem';

const SPACE = '00000000-0000-4000-8000-000000000001';
const caller: Caller = { orgId: 'org-1', appId: SPACE, identity: 'key' };
const request = (thread: Record<string, unknown>, content = 'Hi') => ({
  model: 'test/echo',
  max_tokens: 100,
  thread,
  messages: [{ role: 'user', content }],
});
const reply = (text: string) => ({ role: 'assistant' as const, content: [{ type: 'text', text }] });

/** The error code a refusal gives Anthropic's clients, or the refusal's own words when it has none. */
function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof Problem, String(error));
    return String(error.details?.error_code ?? error.message);
  }
  return assert.fail('not refused');
}

describe("Anthropic's message threads as the service holds them", () => {
  let now: number;
  let threads: MessageThreads;
  beforeEach(() => {
    now = 1_000_000;
    threads = new MessageThreads(() => now);
  });

  /** A thread created and answered: the id of its reply. */
  function created(text = 'Hello', id = `msg_${text}`): string {
    const { turn } = threads.read(caller, request({ type: 'create' }, text));
    threads.keep(turn!, id, reply('Hello there'));
    return id;
  }

  it('gives a continue the conversation held before its own messages, with the system prompt and tools it was created with', () => {
    const { turn } = threads.read(caller, {
      ...request({ type: 'create' }),
      system: 'Be brief.',
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
    });
    threads.keep(turn!, 'msg_1', reply('Hello there'));
    const { given } = threads.read(caller, request({ type: 'continue', previous_message_id: 'msg_1' }, 'Again'));
    assert.equal(given.system, 'Be brief.');
    assert.deepEqual(
      given.tools?.map((t) => ('name' in t ? t.name : t.type)),
      ['lookup'],
    );
    assert.deepEqual(
      given.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    // After a pause or a compaction the turn goes on from the reply, with no new message.
    const goesOn = threads.read(caller, {
      ...request({ type: 'continue', previous_message_id: 'msg_1' }),
      messages: [],
    });
    assert.equal(goesOn.given.messages.length, 2);
  });

  it('refuses a continue of a reply another request is continuing, and of one continued already', () => {
    const id = created();
    const next = () => threads.read(caller, request({ type: 'continue', previous_message_id: id }, 'Next'));
    const { turn } = next();
    const release = threads.hold(turn!);
    assert.equal(refusal(next), 'thread_continue_in_flight');
    // A continue that failed frees the reply for another.
    release();
    const again = next();
    const releaseAgain = threads.hold(again.turn!);
    threads.keep(again.turn!, 'msg_next', reply('Next'));
    releaseAgain();
    assert.equal(refusal(next), 'thread_already_continued');
    assert.equal(
      threads.read(caller, request({ type: 'continue', previous_message_id: 'msg_next' })).given.messages.length,
      5,
    );
  });

  it('forgets a thread five minutes after its last reply, and holds none of another Space or organization', () => {
    const id = created();
    const continued = () => threads.read(caller, request({ type: 'continue', previous_message_id: id }));
    now += THREAD_HELD_MS - 1;
    assert.equal(continued().given.messages.length, 3);
    now += 1;
    assert.equal(refusal(continued), 'thread_not_found');
    const other = created('Other');
    for (const who of [
      { ...caller, appId: '00000000-0000-4000-8000-000000000002' },
      { ...caller, orgId: 'org-2' },
    ])
      assert.equal(
        refusal(() => threads.read(who, request({ type: 'continue', previous_message_id: other }))),
        'thread_not_found',
      );
  });

  it('drops the oldest threads when those held would pass 32 MiB together', () => {
    // Each conversation about 12 MiB: the third makes the first go.
    const big = (n: number) => `${n}${'x'.repeat(12 * 1024 * 1024)}`;
    const ids = [1, 2, 3].map((n) => created(big(n), `msg_${n}`));
    const continues = (id: string) => () =>
      threads.read(caller, request({ type: 'continue', previous_message_id: id }));
    assert.equal(refusal(continues(ids[0]!)), 'thread_not_found');
    for (const id of ids.slice(1)) assert.equal(continues(id)().given.messages.length, 3);
  });

  it('refuses a thread with context edits, and a continue whose system prompt or tools differ from its own', () => {
    assert.equal(
      refusal(() =>
        threads.read(caller, {
          ...request({ type: 'create' }),
          context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
        }),
      ),
      'thread_unsupported_request',
    );
    const tools = [{ name: 'lookup', input_schema: { type: 'object' } }];
    const { turn } = threads.read(caller, { ...request({ type: 'create' }), system: 'Be brief.', tools });
    threads.keep(turn!, 'msg_1', reply('Hello there'));
    const continuing = (fields: Record<string, unknown>) => () =>
      threads.read(caller, { ...request({ type: 'continue', previous_message_id: 'msg_1' }), ...fields });
    assert.equal(refusal(continuing({ system: 'Other.' })), 'thread_fingerprint_mismatch');
    assert.equal(refusal(continuing({ tools: [] })), 'thread_fingerprint_mismatch');
    assert.throws(
      continuing({ system: 'Other.', tools: [] }),
      /other system prompt and tools than this continue sends \(system, tools\)/,
    );
    // Sent again unchanged, they are the thread's own.
    const { given } = continuing({ system: 'Be brief.', tools })();
    assert.equal(given.system, 'Be brief.');
    assert.equal(given.messages.length, 3);
  });
});
