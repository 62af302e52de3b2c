// A conversation's summary, as POST /v1/responses/compact gives it (chat/compaction.ts): a `compaction`
// item whose `encrypted_content` the client keeps and sends back in place of the turns it sums up, as
// OpenAI's clients do. OpenAI encrypts its own, which only OpenAI reads; this service's is the summary a
// model of the Space wrote of what the client itself sent, so it is not encrypted again, only marked as
// this service's, and goes to any model as a message of the user's.
import { z } from 'zod';
import { invalid } from '../problem';

const MARK = 'llm-spaces.compaction.1.';

const Sealed = z.strictObject({ summary: z.string(), model: z.string().min(1) });

/** The summary, and the model that wrote it, as the opaque text of a compaction item. */
export function sealCompaction(summary: string, model: string): string {
  return MARK + Buffer.from(JSON.stringify({ summary, model })).toString('base64url');
}

/** The summary a compaction item carries; refused in words when it is another service's, or not this service's. */
export function openCompaction(sealed: string, loc: Array<string | number>): string {
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
  return opened.data.summary;
}

/** The summary as the model is given it, where the turns it sums up were. */
export const summaryMessage = (summary: string) =>
  `A summary of the conversation so far, written when it was compacted:\n\n${summary}`;
