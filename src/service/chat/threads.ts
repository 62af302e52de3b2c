// Anthropic's message threads (the `thread` field of its Messages API) through a Space. A request with
// `thread: {"type": "create"}` has its conversation, the reply included, held under the reply's id; one
// with `{"type": "continue", "previous_message_id": …}` sends only the messages since that reply, and is
// answered as if it had sent the whole conversation, with the system prompt and tools the thread was
// created with. As at Anthropic, a thread is held in memory only, never on disk, for five minutes after
// its last reply, and each reply is continued once. One no longer held is answered with a 404 whose
// `error_code` is `thread_not_found`, which the Anthropic SDK's thread helper (and its tool runner,
// which runs on a thread unless told otherwise) answers by sending the whole conversation again.
import type { z } from 'zod';
import { AnthropicContinueBody, AnthropicMessage, AnthropicMessagesBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { parseInput, Problem } from '../problem';
import { requestedSpace, type ThreadConversation, type ThreadTurn } from './request';

/** How long a thread is held after its last reply, as Anthropic holds one. */
export const THREAD_HELD_MS = 5 * 60_000;
/**
 * What the threads held may take together, in characters of JSON (the service's heap is capped at
 * 256 MB); the oldest make room for a new one.
 */
const MOST_HELD = 32 * 1024 * 1024;

interface Held {
  owner: ThreadTurn['owner'];
  /** None once the reply was continued: it is kept a while only to say so. */
  conversation?: ThreadConversation;
  expires: number;
  /** A request continuing from it is under way. */
  continuing: boolean;
}

/** A refusal of a thread's request, with the `error_code` Anthropic's clients read in its details. */
const threadProblem = (status: number, code: string, message: string, more: Record<string, unknown> = {}) =>
  new Problem(status, message, {}, { error_code: code, ...more });

const START_AGAIN = 'send the whole conversation again with thread: {"type": "create"}';

const sizeOf = (value: unknown) => JSON.stringify(value ?? null).length;

export class MessageThreads {
  private readonly held = new Map<string, Held>();
  private size = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A request of `POST /v1/messages` read: a continue with its thread's conversation before its own
   * messages, and what of it is to be held with the reply (`turn`, none when it names no thread).
   */
  read(caller: Caller, raw: unknown): { given: z.output<typeof AnthropicMessagesBody>; turn?: ThreadTurn } {
    const given = parseInput(continues(raw) ? AnthropicContinueBody : AnthropicMessagesBody, raw, 'body');
    const thread = given.thread;
    if (!thread) return { given };
    if (given.context_management)
      throw threadProblem(
        400,
        'thread_unsupported_request',
        'A thread cannot be sent with context_management: its edits change the conversation the thread holds. Send the whole conversation without thread.',
        { unsupported: ['context_management'] },
      );
    const owner = { orgId: caller.orgId, appId: requestedSpace(caller, given.app_id) };
    if (thread.type === 'create') {
      const { system, tools, messages } = given;
      return {
        given,
        turn: { owner, conversation: { system, tools, messages, size: sizeOf([system, tools, messages]) } },
      };
    }
    const held = this.found(owner, thread.previous_message_id);
    const changed = (['system', 'tools'] as const).filter(
      (field) => given[field] !== undefined && !sameJson(given[field], held[field]),
    );
    if (changed.length) {
      const named = changed.map((field) => (field === 'system' ? 'system prompt' : 'tools')).join(' and ');
      throw threadProblem(
        400,
        'thread_fingerprint_mismatch',
        `The thread was created with other ${named} than this continue sends (${changed.join(', ')}): a thread keeps those it was created with, so send them unchanged or leave them out, or ${START_AGAIN} to change them.`,
      );
    }
    const messages = [...held.messages, ...given.messages];
    const conversation = { ...held, messages, size: held.size + sizeOf(given.messages) };
    return {
      given: { ...given, system: held.system, tools: held.tools, messages },
      turn: { owner, conversation, previous: thread.previous_message_id },
    };
  }

  /** Marks the reply a turn continues as being continued, until the returned function is called. */
  hold(turn: ThreadTurn): () => void {
    const held = turn.previous === undefined ? undefined : this.held.get(turn.previous);
    if (!held) return () => undefined;
    held.continuing = true;
    return () => (held.continuing = false);
  }

  /**
   * Holds a turn's conversation with its reply (the message as answered, which its id names); the reply
   * it continued is continued from then on. A reply that is not a message a client could send back is
   * not held (the next continue is then told the thread is gone, and the conversation is sent again).
   */
  keep(turn: ThreadTurn, id: string, reply: { role: 'assistant'; content: unknown }): void {
    const message = AnthropicMessage.safeParse(reply);
    if (!message.success) return;
    const before = turn.previous === undefined ? undefined : this.held.get(turn.previous);
    if (before?.conversation) {
      this.size -= before.conversation.size;
      before.conversation = undefined;
    }
    const { conversation } = turn;
    const size = conversation.size + sizeOf(reply);
    this.forget(id);
    if (size > MOST_HELD) return;
    this.makeRoom(size);
    this.held.set(id, {
      owner: turn.owner,
      conversation: { ...conversation, messages: [...conversation.messages, message.data], size },
      expires: this.now() + THREAD_HELD_MS,
      continuing: false,
    });
    this.size += size;
  }

  /** The conversation a continue goes on from, or why it cannot. */
  private found(owner: ThreadTurn['owner'], id: string): ThreadConversation {
    const held = this.held.get(id);
    const live = held && held.expires > this.now() ? held : undefined;
    if (held && !live) this.forget(id);
    if (!live || live.owner.orgId !== owner.orgId || live.owner.appId !== owner.appId)
      throw threadProblem(
        404,
        'thread_not_found',
        `No thread holds the reply ${id} in this Space: a thread is held in memory for five minutes after its last reply, and a restart of the service forgets it. Send the whole conversation again with thread: {"type": "create"}.`,
      );
    if (!live.conversation)
      throw threadProblem(
        400,
        'thread_already_continued',
        `The reply ${id} was continued already, and each reply of a thread is continued once: continue from the thread's latest reply, or ${START_AGAIN}.`,
      );
    if (live.continuing)
      throw threadProblem(
        400,
        'thread_continue_in_flight',
        `Another request is still continuing from the reply ${id}: wait for its reply and continue from that, or ${START_AGAIN}.`,
      );
    return live.conversation;
  }

  /** Drops the threads whose time is over, then the oldest until `size` more fits. */
  private makeRoom(size: number): void {
    const now = this.now();
    for (const [id, held] of this.held)
      if (held.expires <= now || this.size + size > MOST_HELD) this.forget(id);
      else break;
  }

  private forget(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    this.size -= held.conversation?.size ?? 0;
    this.held.delete(id);
  }
}

/** Whether two fields as read are the same, as the thread compares what a continue sends again. */
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether a body (not yet read) continues a thread, which may send no message. */
function continues(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const thread = (raw as { thread?: unknown }).thread;
  return typeof thread === 'object' && thread !== null && (thread as { type?: unknown }).type === 'continue';
}

/** The threads this service holds. */
export const messageThreads = new MessageThreads();
