// Benchmarks of the service's storage: durable chats against Prism and against the storage floor (the
// same transactions on bare node:sqlite with the same durability and batching), the service's memory
// as the request log grows, and a read's p99 while a write burst runs.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startService, tempDir, type RunningService } from '../unit/support/service';
import { BENCH_RATE_LIMIT } from './serviceBench';
import { load, type LoadFigures } from './load';
import { inspectable, memoryAt, type MemoryPoint } from './memory';
import { median } from './stats';

/**
 * The storage floor: what node:sqlite alone commits, durably (WAL, synchronous=FULL), of the chat's
 * transactions (one request-log row, one counter update), with `clients` writers each waiting for
 * its commit before the next write, so every commit carries one write of each (group commit).
 */
export function storageFloor(clients: number, seconds: number): number {
  const dir = tempDir('llm-spaces-floor-');
  const db = new DatabaseSync(path.join(dir, 'floor.sqlite'));
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
    CREATE TABLE requests (id TEXT PRIMARY KEY, org_id TEXT, app_id TEXT, prompt TEXT, response TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, added_on TEXT);
    CREATE INDEX requests_added ON requests(added_on);
    CREATE TABLE orgs (id TEXT PRIMARY KEY, num_requests INTEGER, total_tokens INTEGER, total_tokens_cost REAL);
    INSERT INTO orgs VALUES ('org', 0, 0, 0);`);
  const insert = db.prepare('INSERT INTO requests VALUES ($id, $org, $app, $prompt, $response, 7, 7, 0.0001, $now)');
  const update = db.prepare(
    "UPDATE orgs SET num_requests = num_requests + 1, total_tokens = total_tokens + 14, total_tokens_cost = total_tokens_cost + 0.0001 WHERE id = 'org'",
  );
  let writes = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    db.exec('BEGIN IMMEDIATE');
    for (let c = 0; c < clients; c++) {
      insert.run({
        id: `r${writes}`,
        org: 'org',
        app: 'app',
        prompt: 'Say hello to the benchmark.',
        response: 'Say hello to the benchmark.',
        now: new Date().toISOString(),
      });
      update.run();
      writes++;
    }
    db.exec('COMMIT');
  }
  db.close();
  return writes / seconds;
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

/**
 * The service's resident memory before `chats` logged chats, after them, and after as many again: the
 * second step shows whether memory follows the request log or levels off.
 */
export async function memoryAcrossChats(
  chats: number,
): Promise<{ before: MemoryPoint; after: MemoryPoint; again: MemoryPoint; seconds: number }> {
  const inspector = await inspectable();
  const service = await startService({
    orgs: [{ name: 'Bench org', rateLimit: BENCH_RATE_LIMIT }],
    env: inspector.env,
  });
  try {
    const space = (await service.client().listSpaces()).items[0]!;
    const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ app_id: space.id, model: 'test/echo', prompt: 'Say hello to the benchmark.' });
    const chat = (amount: number) =>
      load(`${service.url}/v1/playground/chat`, { method: 'POST', headers, body, connections: 50, amount });
    const at = () => memoryAt(service.child.pid!, inspector.port);
    // A warm-up at the same 50 connections, so the figure is the log's growth, not the first
    // requests' allocations nor the heap growing to its working size under that load.
    await chat(10_000);
    const before = await at();
    const started = performance.now();
    await chat(chats);
    const seconds = (performance.now() - started) / 1000;
    const after = await at();
    await chat(chats);
    return { before, after, again: await at(), seconds };
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
