// Command line of the built-in service (dist/service.js):
//   serve --data <dir> [--port 8787] [--host 127.0.0.1] [--token <t>] [--upstream <url>]… [--discover on|off] [--stream-delay-ms <n>] [--first-token-timeout-ms 60000] [--compacting-every-ms 30000] [--retention-days 90] [--model-lists-every-ms 21600000] [--prices-url <url>|off] [--capabilities-url <url>|off] [--stop-when-unused]
//   org create --name <n> --data <dir> [--rate-limit <n>]
//   org limit --rate-limit <n> --data <dir>     (the organization of the built-in service's windows)
//   token create --data <dir>
import { todayIso } from '../shared/models';
import { syncCatalogueModels } from './domain/models';
import { DATASET, datasetModels } from './providers/dataset';
import { listProviders } from './providers/endpoints';
import { providerKeys } from './providers/keys';
import { MODEL_LISTS_EVERY_MS, offeredModels } from './providers/offered';
import { CAPABILITIES, CAPABILITIES_URL } from './providers/capabilities';
import { keepListsFresh, LISTS_EVERY_MS, OnlineList, refreshLists, type ReadOnline } from './providers/onlineList';
import { PRICE_LIST, PRICES_URL } from './providers/priceList';
import { useEnvironmentProxy } from './providers/proxy';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDataFolder } from './dataFolder';
import { DataFolderLockedError, type Database } from './db';
import { hasOrganizationToken, issueToken, tokenExists } from './domain/auth';
import { defaultOrganizationId, insertOrganization, setRateLimit } from './domain/orgs';
import { buildApp } from './http/app';
import { closeApp } from './http/lifecycle';
import { refreshModelServers, type ModelServerOptions } from './modelServers';
import { failUnfinished } from './domain/responseItems';
import { startRetention } from './retention';
import { startLedgerThread } from './ledgerThread';
import { liveLeases } from './lockFile';
import { StorageError } from './storageError';

const USAGE = `Usage:
  service serve --data <dir> [--port 8787] [--host 127.0.0.1] [--token <t>] [--upstream <url>]… [--discover on|off] [--stream-delay-ms <n>] [--first-token-timeout-ms 60000] [--compacting-every-ms 30000] [--retention-days 90] [--model-lists-every-ms 21600000] [--prices-url <url>|off] [--capabilities-url <url>|off] [--stop-when-unused]
  service org create --name <name> --data <dir> [--rate-limit <n>]
  service org limit --rate-limit <n> --data <dir>
  service token create --data <dir>

The token may also come from the LLM_SPACES_TOKEN environment variable.
--upstream: an OpenAI-compatible server (may be given more than once). Its models are offered as
  local/<name>; the first one also answers for the catalogue's other models (e.g. a LiteLLM proxy).
--discover: look for Ollama (11434), LM Studio (1234), llama.cpp (8080) and vLLM (8000) on this
  computer at start and on refresh (default on).
--retention-days: how long the request log keeps a request (0 keeps them all).
--model-lists-every-ms: how often the lists of models of the providers with a key are read again
  (default every 6 hours).
--prices-url: where the current price list of hosted models is read from, at start and once a day
  (default genai-prices' list on GitHub); off uses the list this version ships.
--capabilities-url: where the current list of what each model can do is read from, as the price list
  (default models.dev's API); off uses the list this version ships.
--stop-when-unused: stop once no VS Code window uses the service (as the extension
  starts it: a window that crashed, or closed while the service was starting, cannot stop it).
org limit: requests per minute allowed to the organization VS Code's windows use (default 200).`;

const options = {
  data: { type: 'string' },
  port: { type: 'string', default: '8787' },
  host: { type: 'string', default: '127.0.0.1' },
  token: { type: 'string' },
  upstream: { type: 'string', multiple: true },
  discover: { type: 'string', default: 'on' },
  'stream-delay-ms': { type: 'string', default: '15' },
  'first-token-timeout-ms': { type: 'string', default: '60000' },
  'compacting-every-ms': { type: 'string', default: '30000' },
  'retention-days': { type: 'string', default: '90' },
  'model-lists-every-ms': { type: 'string', default: String(MODEL_LISTS_EVERY_MS) },
  'prices-url': { type: 'string', default: PRICES_URL },
  'capabilities-url': { type: 'string', default: CAPABILITIES_URL },
  'stop-when-unused': { type: 'boolean', default: false },
  name: { type: 'string' },
  'rate-limit': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

class UsageError extends Error {}

/** How long requests in flight may take once the service is asked to stop. */
const SHUTDOWN_DEADLINE_MS = Number(process.env.LLM_SPACES_SHUTDOWN_MS) || 5000;

/** How often a service started with --stop-when-unused looks for the windows' leases. */
const LEASE_CHECK_MS = Number(process.env.LLM_SPACES_LEASE_CHECK_MS) || 30_000;

function integer(value: string | undefined, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} must be a whole number of at least ${min}.`);
  return n;
}

/** Where a list of the catalogue is read from; undefined for off. */
function listUrl(values: Values, flag: 'prices-url' | 'capabilities-url'): string | undefined {
  const value = values[flag];
  if (value === 'off') return undefined;
  if (!value || !/^https?:\/\//.test(value))
    throw new UsageError(`--${flag} must be an http(s) URL or off (not ${value}).`);
  return value;
}

function dataDir(values: Values): string {
  if (!values.data) throw new UsageError('--data <dir> is required.');
  // The data folder holds every prompt and reply: only this user may read it. What the service
  // creates from here on is created so (the umask), and what an earlier version left open is closed.
  process.umask(0o077);
  mkdirSync(values.data, { recursive: true, mode: 0o700 });
  tightenDataFolder(values.data);
  return values.data;
}

/** The folder 0700 and its files 0600; a folder that cannot be changed (not ours, read-only) stays as it is. */
function tightenDataFolder(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isFile()) chmodSync(path.join(dir, entry.name), 0o600);
  } catch {
    // A read-only folder opens for reading as it is.
  }
}

/** Makes sure the default organization has a token; returns a new one to print once. */
function ensureToken(db: Database, token: string | undefined): string | undefined {
  return db.transactionNow(() => {
    const orgId = defaultOrganizationId(db);
    if (token) {
      if (!tokenExists(db, token)) issueToken(db, orgId, null, token);
      return undefined;
    }
    return hasOrganizationToken(db, orgId) ? undefined : issueToken(db, orgId, null).token;
  });
}

/** The lists the catalogue is built from, each the shipped copy or one read since (onlineList.ts). */
type CatalogueLists = readonly ReadOnline[];

/**
 * The hosted providers' models from the datasets (providers/dataset.ts), with the lists in place (the
 * shipped ones or ones read since: onlineList.ts), written when they changed, each retired on the
 * day its provider's own list of models says (OpenAI's `shutdown_date`, Bedrock's `endOfLifeTime`,
 * read with the key: offered.ts) where it says one, over the shipped table's. Says what it did when
 * `told`, else only when it wrote.
 */
function syncDataset(db: Database, lists: CatalogueLists, told = true): void {
  const today = todayIso();
  const models = datasetModels(new Date().toISOString(), today);
  for (const m of models) m.record.deprecated_on = offeredModels.shutdownOf(m.record) ?? m.record.deprecated_on;
  try {
    const written = db.transactionNow(() => syncCatalogueModels(db, models, DATASET.name, today));
    if (told || written)
      console.log(
        `Catalogue: ${models.length} models of hosted providers from ${lists.map((l) => l.describe()).join(' and ')}${written ? `, ${written} added or updated` : ''}.`,
      );
  } catch (error) {
    // A read-only or full disk: the catalogue stays as it was stored.
    if (!(error instanceof StorageError)) throw error;
    console.error(`The catalogue could not be brought up to date: ${error.reason}.`);
  }
}

/**
 * The catalogue brought up to date again when the day changes, as a service may run for weeks and a
 * model's price changes on a day (a launch price ends).
 */
function syncDatasetEachDay(db: Database, lists: CatalogueLists): NodeJS.Timeout {
  let day = todayIso();
  return setInterval(() => {
    const today = todayIso();
    if (today === day) return;
    day = today;
    syncDataset(db, lists);
  }, 10 * 60_000).unref();
}

async function serve(values: Values): Promise<void> {
  // The window that started the service may close while others go on using it (the extension starts it
  // detached): the reading end of its output is then gone, and a line written there (the next pruning,
  // the notice of a stop) must not end the service before it has closed its database.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const stopOnSignals = catchStopSignals();
  const port = integer(values.port, 'port', 0);
  const retentionDays = integer(values['retention-days'], 'retention-days', 0);
  const listsEveryMs = integer(values['model-lists-every-ms'], 'model-lists-every-ms', 1000);
  const upstreams = values.upstream ?? [];
  const bad = upstreams.find((u) => !/^https?:\/\//.test(u));
  if (bad !== undefined)
    throw new UsageError(`--upstream must be an http(s) URL, e.g. http://127.0.0.1:11434/v1 (not ${bad}).`);
  if (values.discover !== 'on' && values.discover !== 'off') throw new UsageError('--discover must be on or off.');
  const servers = { upstreams, discover: values.discover === 'on' };
  const folder = dataDir(values);
  const db = openDataFolder(folder, (line) => console.log(line));
  let printToken: string | undefined;
  try {
    printToken = ensureToken(db, values.token ?? process.env.LLM_SPACES_TOKEN);
  } catch (error) {
    // A full or read-only disk: serve what is stored; writes answer 503 until the cause is gone.
    if (!(error instanceof StorageError)) throw error;
    console.error(`${error.message} The service starts anyway and answers reads.`);
  }
  const log = (line: string) => console.log(line);
  const proxied = useEnvironmentProxy();
  if (proxied) log(proxied);
  const lists: CatalogueLists = [
    new OnlineList(PRICE_LIST, { url: listUrl(values, 'prices-url'), folder, log }),
    new OnlineList(CAPABILITIES, { url: listUrl(values, 'capabilities-url'), folder, log }),
  ];
  for (const list of lists) await list.useKept();
  syncDataset(db, lists);
  if (db.writable) {
    const failed = db.transactionNow(() => failUnfinished(db));
    if (failed)
      log(
        `${failed === 1 ? 'A background response' : `${failed} background responses`} left running when the service stopped ${failed === 1 ? 'is' : 'are'} kept as failed.`,
      );
  }
  const stopTakingShutdowns = offeredModels.onShutdownsChanged(() => syncDataset(db, lists, false));
  providerKeys.loadEnvironment(process.env);
  const withKeys = listProviders().filter((p) => p.has_key);
  if (withKeys.length) console.log(`Provider keys from the environment: ${withKeys.map((p) => p.label).join(', ')}`);
  // Which models each key reaches, read while the service starts and answers (offered.ts).
  for (const provider of withKeys) void offeredModels.refresh(provider.id);
  const stopListing = offeredModels.keepFresh(listsEveryMs);
  const app = buildApp({
    db,
    engine: {
      servers,
      streamDelayMs: integer(values['stream-delay-ms'], 'stream-delay-ms', 0),
      firstTokenTimeoutMs: integer(values['first-token-timeout-ms'], 'first-token-timeout-ms', 1),
      compactingEveryMs: integer(values['compacting-every-ms'], 'compacting-every-ms', 1),
    },
    logError: (error) =>
      console.error('Request failed:', error instanceof Error ? (error.stack ?? error.message) : error),
  });
  await findModelServers(db, servers);
  const noThread = await startLedgerThread(db);
  if (noThread)
    console.error(`The request log is written on the main thread: its writer thread did not start (${noThread}).`);
  let address: string;
  try {
    address = await app.listen({ port, host: values.host });
  } catch (error) {
    await db.close();
    throw error;
  }
  const url = address.replace('[::1]', 'localhost');
  try {
    db.advertise(url);
  } catch (error) {
    console.error(`The lock file could not record the URL: ${(error as Error).message}`);
  }
  const retention = startRetention(db, retentionDays, (line) => console.log(line));
  const dailyDataset = syncDatasetEachDay(db, lists);
  // The current lists are read once the service answers, then once a day.
  void refreshLists(lists, todayIso()).then((changed) => changed && syncDataset(db, lists));
  const stopLists = keepListsFresh(lists, LISTS_EVERY_MS, todayIso, () => syncDataset(db, lists));
  console.log(`LLM Spaces service listening on ${url}`);
  if (printToken) console.log(`Token of the default organization (shown once, stored only hashed): ${printToken}`);
  if (upstreams[0]) console.log(`Catalogue models other than test and local ones are served by ${upstreams[0]}`);

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${why}: finishing requests in flight (at most ${SHUTDOWN_DEADLINE_MS / 1000} s)…`);
    retention.stop();
    clearInterval(dailyDataset);
    stopLists();
    stopListing();
    stopTakingShutdowns();
    await closeApp(app, SHUTDOWN_DEADLINE_MS);
    await db.close();
    process.exit(0);
  };
  stopOnSignals((why) => void stop(why));
  if (values['stop-when-unused'])
    stopWhenUnused(folder, () => void stop('No VS Code window uses this service any more'));
}

/**
 * Handles SIGINT and SIGTERM from the first moment: a window may ask for a stop as soon as the lock
 * names this process, before the service listens, and the signal's default action would end it before
 * its database is closed. Returns the function that hands over the stop; one asked for meanwhile is
 * carried out then.
 */
function catchStopSignals(): (stop: (why: string) => void) => void {
  let asked: string | undefined;
  let handler: ((why: string) => void) | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => (handler ? handler(signal) : (asked ??= signal)));
  return (stop) => {
    handler = stop;
    if (asked) stop(asked);
  };
}

/**
 * Calls `stop` once no window holds a lease on the folder (lockFile.ts) at two checks in a row: the
 * windows that used the service ended without letting go of it (the last one stops it as it closes).
 * The first check comes a whole interval after the start, by when the window that started it holds one.
 */
function stopWhenUnused(folder: string, stop: () => void): void {
  let unused = 0;
  const timer = setInterval(() => {
    unused = liveLeases(folder).length === 0 ? unused + 1 : 0;
    if (unused < 2) return;
    clearInterval(timer);
    stop();
  }, LEASE_CHECK_MS);
  timer.unref();
}

/** Asks for model servers before the first request, so the first model list already has their models. */
async function findModelServers(db: Database, servers: ModelServerOptions): Promise<void> {
  try {
    const reports = await refreshModelServers(db, servers);
    for (const r of reports) {
      if (r.answered)
        console.log(
          `Model server ${r.name} at ${r.baseUrl}: ${r.models.length} models (${r.models.join(', ') || 'none'})`,
        );
      else if (servers.upstreams.some((u) => r.baseUrl.startsWith(u.replace(/\/+$/, ''))))
        console.log(`Model server at ${r.baseUrl} did not answer: ${r.problem}`);
    }
    if (!reports.some((r) => r.answered))
      console.log(
        'No model server found: only the test models answer. Start Ollama, LM Studio, llama.cpp or vLLM and refresh the models.',
      );
  } catch (error) {
    // A full disk: the models found cannot be recorded; the service still answers what is stored.
    if (!(error instanceof StorageError)) throw error;
    console.error(`${error.message} The models of local model servers are not offered.`);
  }
}

async function withDatabase(values: Values, fn: (db: Database) => unknown): Promise<void> {
  const db = openDataFolder(dataDir(values));
  try {
    console.log(JSON.stringify(db.transactionNow(() => fn(db))));
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const command = positionals.join(' ');
  if (values.help || command === '') {
    console.log(USAGE);
    return;
  }
  switch (command) {
    case 'serve':
      return serve(values);
    case 'org create': {
      if (!values.name) throw new UsageError('--name <name> is required.');
      const rateLimit = values['rate-limit'] === undefined ? undefined : integer(values['rate-limit'], 'rate-limit', 1);
      return withDatabase(values, (db) => {
        const orgId = insertOrganization(db, {
          name: values.name!,
          creator: 'cli',
          isDefault: false,
          seedContent: true,
          rateLimit,
        });
        return { org_id: orgId, token: issueToken(db, orgId, null).token };
      });
    }
    case 'org limit': {
      if (values['rate-limit'] === undefined) throw new UsageError('--rate-limit <n> is required.');
      const rateLimit = integer(values['rate-limit'], 'rate-limit', 1);
      return withDatabase(values, (db) => {
        const orgId = defaultOrganizationId(db);
        setRateLimit(db, orgId, rateLimit);
        return { org_id: orgId, rate_limit: rateLimit };
      });
    }
    case 'token create':
      return withDatabase(values, (db) => {
        const orgId = defaultOrganizationId(db);
        return { org_id: orgId, token: issueToken(db, orgId, null).token };
      });
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else if (error instanceof DataFolderLockedError || error instanceof StorageError) console.error(error.message);
  else if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    console.error(`${(error as Error).message}\n\n${USAGE}`);
  else console.error(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
});
