// The gateway comparison: one OpenAI chat completion sent to the same fake model server by three
// ways, on this machine in the same run:
//   - the built-in service, through a Space with the user's OpenAI key (the provider's wire format by
//     the AI SDK, routed, logged and billed durably: each answer waits for the COMMIT, with its fsync,
//     of its log entry on the service's writer thread);
//   - Portkey's open-source gateway (`@portkey-ai/gateway`, which keeps no durable log);
//   - a bare Node proxy (bareProxy.ts: node:http and an undici pool, nothing else), the least a gateway
//     written in Node spends;
//   - the model server called directly (the baseline).
// Throughput at 10 and 50 connections against a server that answers at once, and the latency each
// gateway adds (p50, p99 over the direct call) at fixed rates of 100 and 500 requests a second, evenly
// spaced (paced.ts), against a server that answers in 50 ms, as a provider's model would. Then the
// service's memory across 100,000 proxied requests and 100,000 more. Medians of several runs; each run
// alternates them.
import path from 'node:path';
import { startService, type RunningService } from '../unit/support/service';
import { load } from './load';
import { inspectable, memoryAt, type MemoryPoint } from './memory';
import { paced, pacedSyncs, type SyncFigures } from './paced';
import { started } from './processes';
import { BENCH_RATE_LIMIT } from './serviceBench';
import { median } from './stats';

const ROOT = path.resolve(__dirname, '../../..');
/**
 * The model the server answers at once, and the one it answers after SLOW_MS (a provider's pace): two
 * models of OpenAI's catalogue that go through Chat Completions, within a new Space's cost cap, with
 * no retirement day (GPT-4o mini and GPT-4.1 nano, measured until 2026-11-29, retire or retired).
 */
const FAST = 'gpt-oss-20b';
const SLOW = 'gpt-oss-120b';
const SLOW_MS = 50;
const KEY = 'sk-bench-0123456789abcdef';
const MESSAGES = [{ role: 'user', content: 'What is the answer?' }];

interface Target {
  name: 'service' | 'portkey' | 'bare' | 'direct';
  url: string;
  headers: Record<string, string>;
  body: (model: string) => string;
}

const modelServer = () =>
  started(
    (port) => [path.join(ROOT, 'out/test/bench/fakeModelServer.js'), String(port), SLOW, String(SLOW_MS)],
    /listening/,
    '/v1',
  );

const portkey = () =>
  started(
    (port) => [
      path.join(ROOT, 'node_modules/@portkey-ai/gateway/build/start-server.js'),
      `--port=${port}`,
      '--headless',
    ],
    /running at/,
    '',
    { ...process.env, NODE_ENV: 'production' },
  );

const bareProxy = (serverUrl: string) =>
  started((port) => [path.join(ROOT, 'out/test/bench/bareProxy.js'), String(port), serverUrl], /listening/);

/** A Space whose key sends the benchmark's requests, with both models of the server active. */
async function gatewayService(
  serverUrl: string,
): Promise<{ service: RunningService; key: string; inspectorPort: number }> {
  const inspector = await inspectable();
  const service = await startService({
    orgs: [{ name: 'Bench org', rateLimit: BENCH_RATE_LIMIT }],
    env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: serverUrl, ...inspector.env },
  });
  const client = service.client();
  const space = await client.createSpace({ name: 'Gateway bench' });
  const models = await client.getSpaceModels(space.id);
  for (const s of models.base_model_settings) {
    const want = s.namespace === `openai/${FAST}` || s.namespace === `openai/${SLOW}`;
    if (s.active !== want) await client.toggleModel(space.id, s.id, want);
  }
  return { service, key: space.created_key!, inspectorPort: inspector.port };
}

/** Latency percentiles in ms: of a target's answers, or added over the direct call. */
interface Percentiles {
  p50: number;
  p99: number;
}

interface AddedAtRate extends Record<'service' | 'portkey' | 'bare', Percentiles> {
  rate: number;
  /** The service's p99 added in each run, over the direct call of the same run: how often the goal held. */
  serviceP99s: number[];
}

export interface GatewayFigures {
  throughput: Array<{
    connections: number;
    service: number;
    portkey: number;
    bare: number;
    direct: number;
    errors: number;
  }>;
  added: Array<AddedAtRate>;
  /** The disk's own fsync at 100 a second, as the log commits (paced.ts): medians of the runs, and the slowest. */
  disk: SyncFigures;
  /** Warm, after `requests` proxied requests, and after as many more (memory kept shows in both steps). */
  memory: { before: MemoryPoint; after: MemoryPoint; again: MemoryPoint; requests: number; seconds: number };
}

/** Latency percentiles at a fixed rate, requests evenly spaced. */
async function atRate(target: Target, rate: number, seconds: number): Promise<Percentiles> {
  const result = await paced(target.url, { headers: target.headers, body: target.body(SLOW), rate, seconds });
  if (result.errors > 0) throw new Error(`${target.name}: ${result.errors} failed`);
  return { p50: result.p50, p99: result.p99 };
}

/**
 * `runs` of each figure (their median is shown), `seconds` of load each, `pacedSeconds` at each fixed
 * rate (at 100 requests a second, 8 s give 800 latencies, of which the p99 is the eighth slowest).
 */
export async function gatewayComparison(
  runs = 5,
  seconds = 4,
  pacedSeconds = 8,
  requests = 100_000,
): Promise<GatewayFigures> {
  const server = await modelServer();
  const gateway = await portkey();
  const bare = await bareProxy(server.url);
  const { service, key, inspectorPort } = await gatewayService(server.url);
  const json = { 'content-type': 'application/json' };
  const targets: Target[] = [
    {
      name: 'service',
      url: `${service.url}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${key}` },
      body: (model) => JSON.stringify({ model: `openai/${model}`, messages: MESSAGES }),
    },
    {
      name: 'portkey',
      url: `${gateway.url}/v1/chat/completions`,
      headers: {
        ...json,
        authorization: `Bearer ${KEY}`,
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': server.url,
      },
      body: (model) => JSON.stringify({ model, messages: MESSAGES }),
    },
    {
      name: 'bare',
      url: `${bare.url}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${KEY}` },
      body: (model) => JSON.stringify({ model, messages: MESSAGES }),
    },
    {
      name: 'direct',
      url: `${server.url}/chat/completions`,
      headers: { ...json, authorization: `Bearer ${KEY}` },
      body: (model) => JSON.stringify({ model, messages: MESSAGES }),
    },
  ];
  try {
    // Each answers before it is measured, warmed alike at the most connections measured: its code
    // compiled, its pools grown (the first run at 50 connections was a sixth slower than the next).
    for (const t of targets) {
      const warm = await load(t.url, {
        method: 'POST',
        headers: t.headers,
        body: t.body(FAST),
        connections: 50,
        amount: 10_000,
      });
      if (warm.errors > 0) throw new Error(`${t.name} failed ${warm.errors} of its warm-up requests`);
    }
    const throughput: GatewayFigures['throughput'] = [];
    for (const connections of [10, 50]) {
      const rps: Record<Target['name'], number[]> = { service: [], portkey: [], bare: [], direct: [] };
      let errors = 0;
      for (let r = 0; r < runs; r++)
        for (const t of targets) {
          const figures = await load(t.url, {
            method: 'POST',
            headers: t.headers,
            body: t.body(FAST),
            connections,
            seconds,
          });
          rps[t.name].push(figures.requestsPerSecond);
          errors += figures.errors;
        }
      throughput.push({
        connections,
        service: median(rps.service),
        portkey: median(rps.portkey),
        bare: median(rps.bare),
        direct: median(rps.direct),
        errors,
      });
    }
    const added: GatewayFigures['added'] = [];
    const syncs: SyncFigures[] = [];
    for (const rate of [100, 500]) {
      const at: Record<Target['name'], Percentiles[]> = {
        service: [],
        portkey: [],
        bare: [],
        direct: [],
      };
      for (let r = 0; r < runs; r++) {
        for (const t of targets) at[t.name].push(await atRate(t, rate, pacedSeconds));
        // What each request at this rate waits for on this disk, in the same run: a stall of its fsync
        // holds up every request due during it, and a handful of those is the p99 of 800.
        if (rate === 100) syncs.push(await pacedSyncs(service.dataDir, rate, pacedSeconds));
      }
      const mid = (name: Target['name'], p: 'p50' | 'p99') => median(at[name].map((x) => x[p]));
      const over = (name: 'service' | 'portkey' | 'bare') => ({
        p50: mid(name, 'p50') - mid('direct', 'p50'),
        p99: mid(name, 'p99') - mid('direct', 'p99'),
      });
      const serviceP99s = at.service.map((x, r) => x.p99 - at.direct[r]!.p99);
      added.push({ rate, service: over('service'), portkey: over('portkey'), bare: over('bare'), serviceP99s });
    }
    // Memory across 100,000 proxied requests, each logged, from the service as it is under that load:
    // after the paced runs its heap has shrunk, and growing back to its working size at 50
    // connections (about 100 MB of RSS) is not memory kept. Then 100,000 more: memory kept grows in
    // both steps alike, a heap reaching its working size in the first only; and the live heap, what
    // a full collection leaves, grows only by what is kept.
    const target = targets[0]!;
    const burst = async (amount: number) => {
      const result = await load(target.url, {
        method: 'POST',
        headers: target.headers,
        body: target.body(FAST),
        connections: 50,
        amount,
      });
      if (result.errors > 0) throw new Error(`${result.errors} of ${amount} proxied requests failed`);
    };
    const at = () => memoryAt(service.child.pid!, inspectorPort);
    await burst(10_000);
    const before = await at();
    const start = Date.now();
    await burst(requests);
    const spentSeconds = (Date.now() - start) / 1000;
    const after = await at();
    await burst(requests);
    const memory = { before, after, again: await at(), requests, seconds: spentSeconds };
    const disk = {
      p50: median(syncs.map((s) => s.p50)),
      p99: median(syncs.map((s) => s.p99)),
      slowest: Math.max(...syncs.map((s) => s.slowest)),
    };
    return { throughput, added, disk, memory };
  } finally {
    await service.stop();
    gateway.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
    server.child.kill('SIGTERM');
  }
}
