// A conversation's summary, as compaction gives it (chat/compaction.ts): a `compaction` item whose
// `encrypted_content` the client keeps and sends back in place of the turns it sums up, as OpenAI's
// clients do. OpenAI encrypts its own, which only OpenAI reads; this service's is the summary a model of
// the Space wrote of what the client itself sent, with the user's messages it keeps, so it is not
// encrypted again, only marked as this service's, and goes to any model as messages of the user's.
import { z } from 'zod';
import { ResponsesItem } from '../../api/schemas';
import { invalid } from '../problem';

const MARK = 'llm-spaces.compaction.1.';

type Item = z.output<typeof ResponsesItem>;
export type UserMessage = Extract<Item, { role: string }>;

/** A message of the user's, which a compacted conversation keeps as it was. */
export const isUsers = (item: Item): item is UserMessage => 'role' in item && item.role === 'user';

const Sealed = z.strictObject({
  summary: z.string(),
  model: z.string().min(1),
  // Absent from the summaries this service gave before it kept them here: the client sends those
  // messages before the item.
  kept: z.array(ResponsesItem.refine(isUsers)).max(100_000).optional(),
});

export interface Compaction {
  summary: string;
  /** The user's messages the summary keeps as they were; the items before the compaction are not read. */
  kept?: UserMessage[];
}

/** The summary, the model that wrote it and the user's messages kept, as the opaque text of a compaction item. */
export function sealCompaction(summary: string, model: string, kept: readonly UserMessage[]): string {
  return MARK + Buffer.from(JSON.stringify({ summary, model, kept })).toString('base64url');
}

/** What a compaction item carries; refused in words when it is another service's, or not this service's. */
export function openCompaction(sealed: string, loc: Array<string | number>): Compaction {
  if (!sealed.startsWith(MARK))
    throw invalid(
      loc,
      'is a compaction another service made, which only it can read: send the conversation it sums up instead, or compact it through this service (responses.compact)',
    );
  let read: unknown;
  try {
    read = JSON.parse(Buffer.from(sealed.slice(MARK.length), 'base64url').toString('utf8'));
  } catch {
    read = undefined;
  }
  const opened = Sealed.safeParse(read);
  if (!opened.success) throw invalid(loc, 'is not a compaction this service gave: send it back as it came');
  return { summary: opened.data.summary, ...(opened.data.kept ? { kept: opened.data.kept as UserMessage[] } : {}) };
}

/** The summary as the model is given it, where the turns it sums up were. */
export const summaryMessage = (summary: string) =>
  `A summary of the conversation so far, written when it was compacted:\n\n${summary}`;
