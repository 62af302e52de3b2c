// Requests at a fixed rate, evenly spaced (open loop): one every 1000/rate ms whether or not earlier ones
// have answered, each on a free connection of a pool, and the latency of every one from the moment it
// was due. autocannon's `overallRate` is not that: each connection sends its share of a second back to
// back when the second starts, so a gateway is measured on bursts, not on the rate.
//
// The disk's own pace too: a small write and its fsync at the same rate, as each logged request waits
// for one (its log entry's COMMIT), so the table can show what the disk alone gives the tail.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Pool } from 'undici';
import { percentile } from './stats';

export interface PacedFigures {
  p50: number;
  p99: number;
  errors: number;
}

/** Starts `one(due)` every 1000/rate ms for `seconds`, without waiting for earlier ones; then waits for all. */
async function atPace(rate: number, seconds: number, one: (due: number) => Promise<void>): Promise<void> {
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  const running: Array<Promise<void>> = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(one(due));
  }
  await Promise.all(running);
}

/** From when it was due, or from when it went out if that was a little earlier (the timer's grain). */
const since = (due: number) => Math.min(due, performance.now());

export async function paced(
  url: string,
  options: { headers: Record<string, string>; body: string; rate: number; seconds: number },
): Promise<PacedFigures> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 256, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  await atPace(options.rate, options.seconds, async (due) => {
    const from = since(due);
    try {
      const answer = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: options.headers,
        body: options.body,
      });
      await answer.body.text();
      if (answer.statusCode !== 200) errors++;
      else latencies.push(performance.now() - from);
    } catch {
      errors++;
    }
  });
  await pool.close();
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

export interface SyncFigures {
  p50: number;
  p99: number;
  slowest: number;
}

/** Pages of the probe's file: as a WAL, written from its start again once it is checkpointed (1,000 pages). */
const PROBE_PAGES = 1000;

/**
 * A 4 KB write and its fsync at `rate` a second in a file of `dir` (on the service's data folder's
 * disk), as the request log commits: one at a time, those due while one is under way sharing the next
 * (group commit), into a file of its full size already (as SQLite reuses its WAL). How long each
 * waited, from when it was due.
 */
export async function pacedSyncs(dir: string, rate: number, seconds: number): Promise<SyncFigures> {
  const file = await open(path.join(dir, 'fsync-probe'), 'w');
  const page = Buffer.alloc(4096, 1);
  await file.write(Buffer.alloc(page.length * PROBE_PAGES));
  await file.sync();
  const latencies: number[] = [];
  let offset = 0;
  /** When each write due since the last commit began was due; null while none is under way. */
  let batch: number[] | null = null;
  const commit = async (): Promise<void> => {
    const froms = batch!;
    batch = [];
    await file.write(page, 0, page.length, offset);
    offset = (offset + page.length) % (page.length * PROBE_PAGES);
    await file.sync();
    const now = performance.now();
    for (const from of froms) latencies.push(now - from);
    if (batch.length) return commit();
    batch = null;
  };
  try {
    await atPace(rate, seconds, async (due) => {
      if (batch) return void batch.push(since(due));
      batch = [since(due)];
      return commit();
    });
  } finally {
    await file.close();
  }
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), slowest: Math.max(...latencies) };
}
