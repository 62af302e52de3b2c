// Background responses (the Responses API's `background: true`): each runs apart from the HTTP request
// that asked for it (http/chatRoute.ts), kept as in progress until it ends, and is read back with
// GET /v1/responses/{id}. This holds the ones running in this process, so that a cancel can stop one
// (POST /v1/responses/{id}/cancel, as OpenAI's SDKs send it) and a request cannot go on from one that
// has not ended. One left running when the service stopped is kept as failed at its next start
// (domain/responseItems.ts failUnfinished).
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { invalid, Problem } from '../problem';
import { readResponse } from './keptResponses';

/** Where named events go: a client's stream (http/eventStream.ts), or a background response's replay. */
export interface NamedEvents {
  sendNamed(name: string, data: unknown): void;
}

/** A client's stream of events, as a replay writes to it. */
export interface Follower extends NamedEvents {
  end(): void;
}

/** How long a background response's events are kept to be streamed again once it has ended. */
const REPLAY_KEPT_MS = 10 * 60_000;

/**
 * A streamed background response's events, in order, kept so that a client whose stream broke off can
 * pick it up again (GET /v1/responses/{id}?stream=true&starting_after=N), as OpenAI's background streams
 * can be: each event goes to every client following it, and one that follows late is sent what it missed.
 */
export class Replay implements NamedEvents {
  private readonly sent: Array<{ name: string; data: unknown }> = [];
  private readonly followers = new Set<Follower>();
  private ended = false;

  sendNamed(name: string, data: unknown): void {
    this.sent.push({ name, data });
    for (const follower of this.followers) follower.sendNamed(name, data);
  }

  /** Sends a client the events after the one numbered `after`, then each as it comes, until the end. */
  follow(follower: Follower, after = -1): void {
    for (const event of this.sent)
      if (((event.data as { sequence_number?: number }).sequence_number ?? 0) > after)
        follower.sendNamed(event.name, event.data);
    if (this.ended) follower.end();
    else this.followers.add(follower);
  }

  /** A client that left: nothing more is sent to it (the response runs on). */
  leave(follower: Follower): void {
    this.followers.delete(follower);
  }

  end(): void {
    this.ended = true;
    for (const follower of this.followers) follower.end();
    this.followers.clear();
  }
}

/** The replays of streamed background responses, by response id: while they run, and a while after. */
const replays = new Map<string, Replay>();

/** Keeps a streamed background response's replay while it runs and for a while once it has ended. */
export function keepReplay(id: string, replay: Replay, done: Promise<void>): void {
  replays.set(id, replay);
  void done.finally(() => setTimeout(() => replays.delete(id), REPLAY_KEPT_MS).unref());
}

/**
 * The replay of a background response a client asks to stream again (it must be the caller's to read);
 * refused in words when the response was not streamed, or its events are no longer kept.
 */
export function replayOf(db: Database, caller: Caller, id: string): Replay {
  const kept = readResponse(db, caller, id, []);
  const replay = replays.get(id);
  if (!replay)
    throw invalid(
      ['query', 'stream'],
      kept.background === true
        ? `cannot stream ${id} again: a background response's events are kept only when it was streamed, while it runs and ${REPLAY_KEPT_MS / 60_000} minutes after (not across a restart of the service); read it whole without stream`
        : `cannot stream ${id} again: only a streamed background response can be; read it whole without stream`,
    );
  return replay;
}

/** Why a background response's run was stopped: its client cancelled it. */
export class Cancelled extends Error {}

/** A background response being run. */
export interface BackgroundRun {
  readonly abort: AbortController;
  /** Its answer is being kept: too late to cancel. */
  finishing: boolean;
}

const running = new Map<string, { run: BackgroundRun; done: Promise<void> }>();

/** Runs a background response (by its id) until `work` ends, which the promise tells; it may be cancelled meanwhile. */
export function runInBackground(
  id: string,
  abort: AbortController,
  work: (run: BackgroundRun) => Promise<void>,
): Promise<void> {
  const run: BackgroundRun = { abort, finishing: false };
  const done = work(run).finally(() => running.delete(id));
  running.set(id, { run, done });
  return done;
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
