// Starts the real built-in service (dist/service.js) as a child process on a free loopback port.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LlmSpacesClient, type ClientOptions } from '../../../src/api/client';
import { SERVICE_EXEC_ARGV } from '../../../src/service/launch';

const run = promisify(execFile);
/** dist/service.js of this checkout, found upwards from wherever the bundle that imports this lives. */
export const SERVICE = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'esbuild.mjs')))
      return path.join(dir, 'dist', 'service.js');
  }
  throw new Error(`No checkout above ${__dirname}`);
})();

export interface OrgHandle {
  org_id: string;
  token: string;
}

export interface ServiceOptions {
  dataDir?: string;
  token?: string;
  upstream?: string;
  /** Look for model servers on the usual local ports (off: tests do not depend on what this machine runs). */
  discover?: boolean;
  streamDelayMs?: number;
  /** Organizations to create (with `org create`) before the service starts. */
  orgs?: Array<{ name: string; rateLimit?: number }>;
  /** Rate limit of the default organization's twin created for most suites. */
  rateLimit?: number;
  /** How long a hosted provider may take to its first token (the service's default: 60 s). */
  firstTokenTimeoutMs?: number;
  /** How often the providers' lists of models are read again (the service's default: 6 hours). */
  modelListsEveryMs?: number;
  /** How often a stream says its conversation is still being summed up (the service's default: 30 s). */
  compactingEveryMs?: number;
  /** Where the service reads the current price list (default off: the shipped list, nothing read online). */
  pricesUrl?: string;
  /** Where it reads models.dev's current list (default off, as the price list). */
  capabilitiesUrl?: string;
  /** Environment variables for the service (provider keys and base URLs); this machine's own are never passed. */
  env?: Record<string, string>;
}

/**
 * This process's environment without any provider's key or base URL, nor AWS's or Google Cloud's (a
 * developer's own must not leak in), nor a proxy (a test that wants one names it).
 */
function serviceEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/_(API_KEY|BASE_URL)$/.test(name) &&
        !name.startsWith('AWS_') &&
        !/^(GOOGLE_|CLOUDSDK_)/.test(name) &&
        !/^(https?|no|all)_proxy$/i.test(name),
    ),
  );
  return { ...env, ...extra };
}

export interface RunningService {
  url: string;
  token: string;
  dataDir: string;
  orgs: OrgHandle[];
  child: ChildProcess;
  output: () => string;
  client: (options?: Partial<ClientOptions>) => LlmSpacesClient;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * The folders tests made, removed when the process exits: one whose test failed half-way too. Each
 * test file's bundle has its own copy of this module, so the list and its exit handler are kept once
 * per process, under a global name.
 */
const MADE = Symbol.for('llm-spaces.test-folders');
const made: string[] = ((globalThis as Record<symbol, string[] | undefined>)[MADE] ??= removedAtExit());

function removedAtExit(): string[] {
  const dirs: string[] = [];
  process.once('exit', () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return dirs;
}

export const tempDir = (prefix = 'llm-spaces-test-') => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};

export async function createOrg(dataDir: string, name: string, rateLimit?: number): Promise<OrgHandle> {
  const args = [
    SERVICE,
    'org',
    'create',
    '--name',
    name,
    '--data',
    dataDir,
    ...(rateLimit ? ['--rate-limit', String(rateLimit)] : []),
  ];
  const { stdout } = await run(process.execPath, args);
  return JSON.parse(stdout.trim()) as OrgHandle;
}

/**
 * Starts a service. Unless told otherwise, the suite works as a fresh organization with a rate limit
 * high enough for property tests; `token` is that organization's token.
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const dataDir = options.dataDir ?? tempDir();
  const orgs: OrgHandle[] = [];
  for (const org of options.orgs ?? [{ name: 'Test org', rateLimit: options.rateLimit ?? 1_000_000 }])
    orgs.push(await createOrg(dataDir, org.name, org.rateLimit));
  const args = [
    ...SERVICE_EXEC_ARGV,
    SERVICE,
    'serve',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--data',
    dataDir,
    '--stream-delay-ms',
    String(options.streamDelayMs ?? 0),
  ];
  if (options.token) args.push('--token', options.token);
  if (options.firstTokenTimeoutMs) args.push('--first-token-timeout-ms', String(options.firstTokenTimeoutMs));
  if (options.modelListsEveryMs) args.push('--model-lists-every-ms', String(options.modelListsEveryMs));
  if (options.compactingEveryMs) args.push('--compacting-every-ms', String(options.compactingEveryMs));
  if (options.upstream) args.push('--upstream', options.upstream);
  args.push('--discover', options.discover ? 'on' : 'off');
  args.push('--prices-url', options.pricesUrl ?? 'off', '--capabilities-url', options.capabilitiesUrl ?? 'off');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: serviceEnv(options.env) });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 15_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out}`));
    });
  });
  const token = options.token ?? orgs[0]!.token;
  const clients: LlmSpacesClient[] = [];
  return {
    url,
    token,
    dataDir,
    orgs,
    child,
    output: () => out,
    client: (overrides = {}) => {
      const client = new LlmSpacesClient({ baseUrl: url, token: () => token, ...overrides });
      clients.push(client);
      return client;
    },
    stop: async (signal = 'SIGTERM') => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return exited;
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A new Space whose active models are these and no other: its id and the key that selects it. */
export async function spaceOf(
  service: RunningService,
  name: string,
  active: readonly string[],
): Promise<{ id: string; key: string }> {
  const client = service.client();
  const created = await client.createSpace({ name });
  const models = await client.getSpaceModels(created.id);
  for (const s of models.base_model_settings)
    if (s.active !== active.includes(s.namespace))
      await client.toggleModel(created.id, s.id, active.includes(s.namespace));
  return { id: created.id, key: created.created_key! };
}

/**
 * A new Space whose only active model is test/echo, as the tests of other vendors' clients use one:
 * its id and the key that selects it (the SDKs need nothing else).
 */
export const echoSpace = (service: RunningService, name: string) => spaceOf(service, name, ['test/echo']);
