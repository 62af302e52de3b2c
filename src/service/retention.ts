// The request log's retention: requests older than the period are deleted in the background, in small
// batches, at start and every hour. Each batch is a write like any other (it shares a commit with the
// requests that arrive with it), so the log stops growing without a pause in answering.
import type { Database } from './db';
import { RETENTION_BATCH, pruneRequests } from './domain/requests';

const EVERY_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface Retention {
  /** One pass: deletes every request older than the period; returns how many. */
  runOnce: () => Promise<number>;
  stop: () => void;
}

export function startRetention(db: Database, days: number, log: (line: string) => void): Retention {
  let stopped = false;
  const runOnce = async () => {
    if (days <= 0) return 0;
    const cutoff = new Date(Date.now() - days * DAY_MS).toISOString();
    let total = 0;
    for (;;) {
      const deleted = await db.transaction(() => pruneRequests(db, cutoff));
      total += deleted;
      if (deleted < RETENTION_BATCH || stopped) return total;
      // Let the requests waiting behind this batch run before the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const pass = () => {
    if (stopped) return;
    runOnce().then(
      (n) => n > 0 && log(`Request log: ${n} request(s) older than ${days} days deleted.`),
      (error: unknown) => log(`Request log retention failed, retried in an hour: ${(error as Error).message}`),
    );
  };
  const first = setTimeout(pass, 1000);
  const timer = setInterval(pass, EVERY_MS);
  first.unref();
  timer.unref();
  return {
    runOnce,
    stop: () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
