// Benchmarks of the service's storage: durable chats against Prism and against the storage floor (the
// same transactions on bare node:sqlite with the same durability and batching), the service's memory
// as the request log grows, a read's p99 while a write burst runs, and how long a commit holds the
// thread with SQLite's checkpoint and with the service's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { WAL_CHECKPOINT_PAGES } from '../../src/service/db';
import { removeDir, startService, tempDir, type RunningService } from '../unit/support/service';
import { BENCH_RATE_LIMIT } from './serviceBench';
import { load, type LoadFigures } from './load';
import { median, percentile } from './stats';

/**
 * The chat's transactions (one request-log row with `prompt` and the same as its answer, one counter
 * update) on bare node:sqlite with the service's durability (WAL, synchronous=FULL), the WAL copied
 * into the file every `pages` pages.
 */
function chatWrites(
  pages: number,
  prompt = 'Say hello to the benchmark.',
): { write: (n: number) => void; commit: () => void; close: () => void } {
  const dir = tempDir('llm-spaces-floor-');
  const db = new DatabaseSync(path.join(dir, 'floor.sqlite'));
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = ${pages};
    CREATE TABLE requests (id TEXT PRIMARY KEY, org_id TEXT, app_id TEXT, prompt TEXT, response TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, added_on TEXT);
    CREATE INDEX requests_added ON requests(added_on);
    CREATE TABLE orgs (id TEXT PRIMARY KEY, num_requests INTEGER, total_tokens INTEGER, total_tokens_cost REAL);
    INSERT INTO orgs VALUES ('org', 0, 0, 0);`);
  const insert = db.prepare('INSERT INTO requests VALUES ($id, $org, $app, $prompt, $response, 7, 7, 0.0001, $now)');
  const update = db.prepare(
    "UPDATE orgs SET num_requests = num_requests + 1, total_tokens = total_tokens + 14, total_tokens_cost = total_tokens_cost + 0.0001 WHERE id = 'org'",
  );
  let open = false;
  return {
    write: (n) => {
      if (!open) db.exec('BEGIN IMMEDIATE');
      open = true;
      insert.run({
        id: `r${n}`,
        org: 'org',
        app: 'app',
        prompt,
        response: prompt,
        now: new Date().toISOString(),
      });
      update.run();
    },
    commit: () => {
      db.exec('COMMIT');
      open = false;
    },
    close: () => {
      db.close();
      removeDir(dir);
    },
  };
}

/**
 * The storage floor: what node:sqlite alone commits of the chat's transactions, durably, with
 * `clients` writers each waiting for its commit before the next write, so every commit carries one
 * write of each (group commit).
 */
export function storageFloor(clients: number, seconds: number): number {
  const floor = chatWrites(WAL_CHECKPOINT_PAGES);
  let writes = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    for (let c = 0; c < clients; c++) floor.write(writes++);
    floor.commit();
  }
  floor.close();
  return writes / seconds;
}

export interface CommitPauses {
  pages: number;
  p50: number;
  p999: number;
  longest: number;
}

/** A selection of code sent to a model: about 2,000 characters. */
const SELECTION =
  'export function total(items: Item[]): number {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\n'.repeat(
    20,
  );

/**
 * How long `commits` commits of one chat's writes each hold the thread, back to back, with the WAL
 * copied every `pages` pages: the copy runs inside the commit that reaches them. The prompt is a code
 * selection, so the log grows by new pages as it does in use (short rows rewrite the same few pages,
 * which leaves a checkpoint little to copy).
 */
function commitPauses(pages: number, commits: number): CommitPauses {
  const writes = chatWrites(pages, SELECTION);
  const took: number[] = [];
  for (let n = 0; n < commits; n++) {
    writes.write(n);
    const start = performance.now();
    writes.commit();
    took.push(performance.now() - start);
  }
  writes.close();
  return { pages, p50: percentile(took, 50), p999: percentile(took, 99.9), longest: Math.max(...took) };
}

/** Commit pauses with SQLite's default checkpoint (1,000 pages) and the service's, alternating; medians of `runs`. */
export function checkpointComparison(runs = 3, commits = 20_000): CommitPauses[] {
  const figures = new Map<number, CommitPauses[]>([
    [1000, []],
    [WAL_CHECKPOINT_PAGES, []],
  ]);
  for (let r = 0; r < runs; r++) for (const [pages, list] of figures) list.push(commitPauses(pages, commits));
  return [...figures].map(([pages, list]) => ({
    pages,
    p50: median(list.map((x) => x.p50)),
    p999: median(list.map((x) => x.p999)),
    longest: median(list.map((x) => x.longest)),
  }));
}

export interface DurableChat {
  connections: number;
  ours: LoadFigures;
  prism: LoadFigures;
  floor: number;
}

/** Durable chats at each connection count: ours, Prism and the floor, alternating, median of `runs`. */
export async function durableChats(
  service: RunningService,
  prismUrl: string,
  connectionCounts: number[],
  runs = 3,
  seconds = 4,
): Promise<DurableChat[]> {
  const space = (await service.client().listSpaces()).items[0]!;
  const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ app_id: space.id, model: 'test/echo', prompt: 'Say hello to the benchmark.' });
  const results: DurableChat[] = [];
  for (const connections of connectionCounts) {
    const ours: LoadFigures[] = [];
    const prism: LoadFigures[] = [];
    const floor: number[] = [];
    for (let r = 0; r < runs; r++) {
      ours.push(
        await load(`${service.url}/v1/playground/chat`, { method: 'POST', headers, body, connections, seconds }),
      );
      prism.push(await load(`${prismUrl}/v1/playground/chat`, { method: 'POST', headers, body, connections, seconds }));
      floor.push(storageFloor(connections, seconds));
    }
    results.push({ connections, ours: middle(ours), prism: middle(prism), floor: median(floor) });
  }
  return results;
}

const middle = (xs: LoadFigures[]): LoadFigures => ({
  requestsPerSecond: median(xs.map((x) => x.requestsPerSecond)),
  p99Ms: median(xs.map((x) => x.p99Ms)),
  errors: xs.reduce((n, x) => n + x.errors, 0),
});

const rssMB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * The service's resident memory before `chats` logged chats, after them, and after as many again: the
 * second step shows whether memory follows the request log or levels off.
 */
export async function memoryAcrossChats(
  chats: number,
): Promise<{ beforeMB: number; afterMB: number; againMB: number; seconds: number }> {
  const service = await startService({ orgs: [{ name: 'Bench org', rateLimit: BENCH_RATE_LIMIT }] });
  try {
    const space = (await service.client().listSpaces()).items[0]!;
    const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ app_id: space.id, model: 'test/echo', prompt: 'Say hello to the benchmark.' });
    // A warm-up, so the figure is the log's growth, not the first requests' allocations.
    await load(`${service.url}/v1/playground/chat`, { method: 'POST', headers, body, connections: 10, amount: 2000 });
    const beforeMB = rssMB(service.child.pid!);
    const started = performance.now();
    await load(`${service.url}/v1/playground/chat`, { method: 'POST', headers, body, connections: 50, amount: chats });
    const seconds = (performance.now() - started) / 1000;
    const afterMB = rssMB(service.child.pid!);
    await load(`${service.url}/v1/playground/chat`, { method: 'POST', headers, body, connections: 50, amount: chats });
    return { beforeMB, afterMB, againMB: rssMB(service.child.pid!), seconds };
  } finally {
    await service.stop();
  }
}

/** p99 of reading a Space alone, and while a burst of chats writes with 50 connections. */
export async function readDuringWrites(
  service: RunningService,
  seconds = 5,
): Promise<{ quietP99: number; burstP99: number; burstWrites: number }> {
  const space = (await service.client().listSpaces()).items[0]!;
  const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
  const read = () => load(`${service.url}/v1/apps/${space.id}`, { headers, connections: 2, seconds });
  const quiet = await read();
  const body = JSON.stringify({ app_id: space.id, model: 'test/echo', prompt: 'Say hello to the benchmark.' });
  const [burst, writes] = await Promise.all([
    read(),
    load(`${service.url}/v1/playground/chat`, { method: 'POST', headers, body, connections: 50, seconds }),
  ]);
  return { quietP99: quiet.p99Ms, burstP99: burst.p99Ms, burstWrites: writes.requestsPerSecond };
}
