// Anthropic's cache diagnostics (`diagnostics.previous_message_id` on its Messages API) through a Space:
// a request that asks them is told why the prompt cache could not reuse the prefix of the request whose
// reply it names: another model served it (which, through a Space's routing, is the most common cause),
// another system prompt, other tools, an earlier message changed rather than messages added, or other
// settings that shape the prompt (`unavailable`, as Anthropic says when it cannot tell). The service
// keeps for each reply of such a request a print of its prompt (hashes and sizes, no text) in memory,
// for an hour (Anthropic's longest cache life), and diagnoses any model of the Space the same way, as
// every provider's prompt cache reuses only an unchanged prefix.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { AnthropicMessagesBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { requestedSpace, type PromptPrint } from './request';

/** How long a reply's print is kept: a prompt cache lives an hour at most. */
export const PRINT_KEPT_MS = 60 * 60_000;
/** The messages the kept prints may count together (16 bytes each), the oldest prints going first. */
const MOST_MESSAGES = 1_000_000;

type Given = z.output<typeof AnthropicMessagesBody>;

/** Why the prompt cache could not reuse the previous request's prefix, in Anthropic's words. */
export type CacheMissReason =
  | {
      type: 'model_changed' | 'system_changed' | 'tools_changed' | 'messages_changed';
      cache_missed_input_tokens: number;
    }
  | { type: 'previous_message_not_found' | 'unavailable' };

interface Kept {
  print: PromptPrint;
  model: string;
  inputTokens: number;
  expires: number;
}

/** JSON of a part of the prompt without its cache breakpoints, which move from turn to turn and shape nothing. */
const jsonOf = (value: unknown) =>
  JSON.stringify(value ?? null, (key, v: unknown) => (key === 'cache_control' ? undefined : v));

const hashOf = (text: string, before = '') =>
  createHash('sha256').update(before).update(text).digest().readUIntBE(0, 6);

/** The print of a request that asked for diagnostics (its `diagnostics`), or undefined when it did not. */
export function promptPrint(caller: Caller, given: Given): PromptPrint | undefined {
  if (!given.diagnostics) return undefined;
  const tools = jsonOf(given.tools);
  const system = jsonOf(given.system);
  const messages: number[] = [];
  const ends: number[] = [];
  let end = tools.length + system.length;
  let chain = '';
  for (const message of given.messages) {
    const json = jsonOf(message);
    const hash = hashOf(json, chain);
    chain = String(hash);
    messages.push(hash);
    end += json.length;
    ends.push(end);
  }
  return {
    owner: { orgId: caller.orgId, appId: requestedSpace(caller, given.app_id) },
    previous: given.diagnostics.previous_message_id ?? null,
    speed: given.speed ?? 'standard',
    tools: hashOf(tools),
    system: hashOf(system),
    other: hashOf(jsonOf([given.thinking, given.tool_choice])),
    messages,
    ends,
    toolsEnd: tools.length,
    systemEnd: tools.length + system.length,
  };
}

export class CacheDiagnostics {
  private readonly kept = new Map<string, Kept>();
  private count = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Why the prompt cache could not reuse the prefix of the request answered by the reply the print
   * names, on `model`; null when nothing stood in its way (or the print names no reply).
   */
  diagnose(print: PromptPrint, model: string): CacheMissReason | null {
    if (print.previous === null) return null;
    const kept = this.kept.get(print.previous);
    const live = kept && kept.expires > this.now() ? kept : undefined;
    if (!live || live.print.owner.orgId !== print.owner.orgId || live.print.owner.appId !== print.owner.appId)
      return { type: 'previous_message_not_found' };
    const before = live.print;
    const total = before.ends.at(-1) ?? before.systemEnd;
    // The input tokens of the previous prompt from a place in it on, in proportion to its characters.
    const missed = (from: number) =>
      total === 0 ? 0 : Math.round((live.inputTokens * Math.max(0, total - from)) / total);
    if (live.model !== model || before.speed !== print.speed)
      return { type: 'model_changed', cache_missed_input_tokens: live.inputTokens };
    if (before.tools !== print.tools) return { type: 'tools_changed', cache_missed_input_tokens: missed(0) };
    if (before.system !== print.system)
      return { type: 'system_changed', cache_missed_input_tokens: missed(before.toolsEnd) };
    if (before.other !== print.other) return { type: 'unavailable' };
    const changed = before.messages.findIndex((hash, i) => print.messages[i] !== hash);
    if (changed === -1) return null;
    return {
      type: 'messages_changed',
      cache_missed_input_tokens: missed(changed === 0 ? before.systemEnd : before.ends[changed - 1]!),
    };
  }

  /** Keeps the print of a request answered by the reply `id` on `model`, which read `inputTokens`. */
  keep(id: string, print: PromptPrint, model: string, inputTokens: number): void {
    this.forget(id);
    const size = print.messages.length;
    if (size > MOST_MESSAGES) return;
    const now = this.now();
    for (const [kept, { expires }] of this.kept)
      if (expires <= now || this.count + size > MOST_MESSAGES) this.forget(kept);
      else break;
    this.kept.set(id, { print, model, inputTokens, expires: now + PRINT_KEPT_MS });
    this.count += size;
  }

  private forget(id: string): void {
    const kept = this.kept.get(id);
    if (!kept) return;
    this.count -= kept.print.messages.length;
    this.kept.delete(id);
  }
}

/** The prints this service keeps. */
export const cacheDiagnostics = new CacheDiagnostics();
