// Benchmarks of the local service and the typed client, on Node against real HTTP: the client
// against raw undici listing 1,000 models, and the service's throughput and p99 latency against Prism
// mocking the service's own /openapi.json, on this machine in the same run.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { openDataFolder } from '../../src/service/dataFolder';
import { insertCatalogueModel } from '../../src/service/domain/models';
import { startService, tempDir, type RunningService } from '../unit/support/service';
import { load, type LoadFigures as Load } from './load';
import { started } from './processes';
import { median } from './stats';
import { syntheticModels } from './synthetic';

/** High enough that no benchmark run meets the per-minute rate limit. */
export const BENCH_RATE_LIMIT = 2_000_000_000;

/** A service whose catalogue has `total` models (the 34 seeded plus synthetic ones). */
export async function serviceWithModels(total: number): Promise<RunningService> {
  const dataDir = tempDir('llm-spaces-bench-');
  // Opening a fresh data folder runs the migrations and seeds the catalogue; the service starts after.
  const db = openDataFolder(dataDir);
  const seeded = db.all<{ n: number }>('SELECT COUNT(*) AS n FROM models')[0]!.n;
  db.transactionNow(() => {
    for (const m of syntheticModels(total - seeded)) insertCatalogueModel(db, m, { quality: 50, latencyMs: 500 });
  });
  await db.close();
  return startService({ dataDir, orgs: [{ name: 'Bench org', rateLimit: BENCH_RATE_LIMIT }] });
}

/**
 * Median milliseconds per listing, typed client and raw undici interleaved over several rounds. With
 * `conditional` the client revalidates with If-None-Match (as the extension does); without it every
 * answer is transferred and validated.
 */
export async function clientOverhead(
  service: RunningService,
  conditional: boolean,
  rounds = 7,
  perRound = 20,
): Promise<{ clientMs: number; rawMs: number; ratio: number; models: number }> {
  const client = service.client({ token: () => service.token, conditionalRequests: conditional });
  const url = `${service.url}/v1/internal/models`;
  const headers = { authorization: `Bearer ${service.token}` };
  const raw = async () => {
    const res = await request(url, { headers });
    return (await res.body.json()) as unknown[];
  };
  const models = (await client.listModels()).length;
  await raw();
  const clientTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let start = performance.now();
    for (let i = 0; i < perRound; i++) await client.listModels();
    clientTimes.push((performance.now() - start) / perRound);
    start = performance.now();
    for (let i = 0; i < perRound; i++) await raw();
    rawTimes.push((performance.now() - start) / perRound);
  }
  const clientMs = median(clientTimes);
  const rawMs = median(rawTimes);
  return { clientMs, rawMs, ratio: clientMs / rawMs, models };
}

export function startPrism(specFile: string): Promise<{ url: string; child: ChildProcess }> {
  const cli = path.resolve(__dirname, '../../../node_modules/@stoplight/prism-cli/dist/index.js');
  return started((port) => [cli, 'mock', '-h', '127.0.0.1', '-p', String(port), specFile], /Prism is listening/);
}

export interface Throughput {
  endpoint: string;
  ours: Load;
  prism: Load;
  ratio: number;
}

/** Prism mocking the service's own /openapi.json, for the figures measured against it. */
export async function prismFor(service: RunningService): Promise<{ url: string; stop: () => void }> {
  const spec = await (await request(`${service.url}/openapi.json`)).body.text();
  const specFile = path.join(service.dataDir, 'openapi.json');
  writeFileSync(specFile, spec);
  const prism = await startPrism(specFile);
  return { url: prism.url, stop: () => prism.child.kill('SIGTERM') };
}

/** Each read endpoint under the same load on our service and on Prism, alternating, median of `runs`. */
export async function throughputAgainstPrism(
  service: RunningService,
  prismUrl: string,
  runs = 3,
  seconds = 4,
): Promise<Throughput[]> {
  const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
  const cases: Array<{ endpoint: string; path: string }> = [
    { endpoint: 'GET /v1/internal/models', path: '/v1/internal/models' },
    { endpoint: 'GET /v1/prompts', path: '/v1/prompts' },
  ];
  const results: Throughput[] = [];
  for (const c of cases) {
    const ours: Load[] = [];
    const theirs: Load[] = [];
    for (let r = 0; r < runs; r++) {
      ours.push(await load(service.url + c.path, { headers, connections: 10, seconds }));
      theirs.push(await load(prismUrl + c.path, { headers, connections: 10, seconds }));
    }
    const mid = (xs: Load[]): Load => ({
      requestsPerSecond: median(xs.map((x) => x.requestsPerSecond)),
      p99Ms: median(xs.map((x) => x.p99Ms)),
      errors: xs.reduce((n, x) => n + x.errors, 0),
    });
    const o = mid(ours);
    const p = mid(theirs);
    results.push({ endpoint: c.endpoint, ours: o, prism: p, ratio: o.requestsPerSecond / p.requestsPerSecond });
  }
  return results;
}

/** Files of this repository an agent has read into its conversation (the service's largest). */
const AGENT_FILES = [
  'src/service/http/routes.ts',
  'src/service/domain/spaces.ts',
  'src/service/db.ts',
  'src/service/chat/reach/hostedProviders.ts',
  'src/service/cli.ts',
  'src/service/modelServers.ts',
  'src/service/domain/models.ts',
  'src/service/http/app.ts',
];

/**
 * An agent's next turn: its whole conversation (a system prompt, then each file it read as a tool
 * result) sent again with one new question, to test/echo through /v1/chat/completions, against a
 * conversation of the same size that was never sent (every text tagged with the run). Milliseconds to
 * the answer, median of `runs`, the two interleaved; and the prompt's tokens.
 */
export async function agentTurns(
  service: RunningService,
  runs = 15,
): Promise<{ seenMs: number; newMs: number; tokens: number }> {
  const root = path.resolve(__dirname, '../../..');
  const files = AGENT_FILES.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
  const conversation = (session: string) => [
    { role: 'system', content: `${session}: you are a coding agent working in this repository.` },
    ...files.flatMap(({ file, text }, i) => [
      { role: 'user', content: `${session}: read ${file}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `call_${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"${file}"}` } },
        ],
      },
      { role: 'tool', tool_call_id: `call_${i}`, content: `${session}: ${file}\n${text}` },
    ]),
  ];
  const space = (await service.client().listSpaces()).items[0]!;
  const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
  const turn = async (messages: unknown[]) => {
    const start = performance.now();
    const res = await request(`${service.url}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ app_id: space.id, model: 'test/echo', messages, max_tokens: 16 }),
    });
    const answer = (await res.body.json()) as { usage?: { prompt_tokens: number } };
    if (res.statusCode !== 200)
      throw new Error(`the agent's turn answered ${res.statusCode}: ${JSON.stringify(answer)}`);
    return { ms: performance.now() - start, tokens: answer.usage!.prompt_tokens };
  };
  const same = conversation('Session A');
  await turn([...same, { role: 'user', content: 'What does the service do?' }]);
  const seen: number[] = [];
  const fresh: number[] = [];
  let tokens = 0;
  for (let r = 0; r < runs; r++) {
    const question = { role: 'user', content: `Question ${r}: what does the service do?` };
    const again = await turn([...same, question]);
    seen.push(again.ms);
    tokens = again.tokens;
    fresh.push((await turn([...conversation(`Session ${r}`), question])).ms);
  }
  return { seenMs: median(seen), newMs: median(fresh), tokens };
}
