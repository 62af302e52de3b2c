// Background responses (the Responses API's `background: true`): each runs apart from the HTTP request
// that asked for it (http/chatRoute.ts), kept as in progress until it ends, and is read back with
// GET /v1/responses/{id}. This holds the ones running in this process, so that a cancel can stop one
// (POST /v1/responses/{id}/cancel, as OpenAI's SDKs send it) and a request cannot go on from one that
// has not ended. One left running when the service stopped is kept as failed at its next start
// (domain/responseItems.ts failUnfinished).
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { Problem } from '../problem';
import { readResponse } from './keptResponses';

/** Why a background response's run was stopped: its client cancelled it. */
export class Cancelled extends Error {}

/** A background response being run. */
export interface BackgroundRun {
  readonly abort: AbortController;
  /** Its answer is being kept: too late to cancel. */
  finishing: boolean;
}

const running = new Map<string, { run: BackgroundRun; done: Promise<void> }>();

/** Runs a background response (by its id) until `work` ends; it may be cancelled meanwhile. */
export function runInBackground(id: string, abort: AbortController, work: (run: BackgroundRun) => Promise<void>): void {
  const run: BackgroundRun = { abort, finishing: false };
  const done = work(run).finally(() => running.delete(id));
  running.set(id, { run, done });
}

/** Whether a background response is still being run here. */
export const stillRunning = (id: string) => running.has(id);

/**
 * Cancels a background response still running: it stops, and is kept and answered as cancelled. One
 * that was not asked for in the background, or has ended otherwise, cannot be cancelled (400, in
 * words); one cancelled already is answered as it is.
 */
export async function cancelResponse(db: Database, caller: Caller, id: string): Promise<Record<string, unknown>> {
  const before = readResponse(db, caller, id, []);
  if (before.background !== true)
    throw new Problem(
      400,
      `The response ${id} was not created with background set to true: only a background response can be cancelled.`,
    );
  const active = running.get(id);
  if (active) {
    if (!active.run.finishing) active.run.abort.abort(new Cancelled('cancelled by its client'));
    await active.done;
  }
  const after = readResponse(db, caller, id, []);
  if (after.status === 'cancelled') return after;
  throw new Problem(
    400,
    `The response ${id} has ${after.status === 'failed' ? 'failed' : 'completed'}: only a response still running can be cancelled.`,
  );
}
