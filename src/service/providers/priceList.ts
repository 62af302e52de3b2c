// The price list the hosted providers' catalogue is built from (dataset.ts): the one this build ships
// in @pydantic/genai-prices, or a newer one read from where that package publishes its data (its
// REMOTE_DATA_JSON_URL, on GitHub), once at start and then once a day, as the package's own
// auto-update is meant to be used. Models released and prices changed since this build then reach the
// catalogue without a new release. The list read is kept in the data folder (prices.json), so a start
// without a network uses the last one read; one older than the shipped list is not used.
//
// The list is another service's answer, read tolerantly: a provider or model of a shape this version
// does not know is left out (and counted), a kind of price it does not know is dropped, the shipped
// entry stands for a provider the list lacks, and a list that would leave the catalogue with less than
// half its models is not used. Nothing is sent but the request for the file.
import { REMOTE_DATA_JSON_URL, updatePrices, waitForUpdate, type Provider } from '@pydantic/genai-prices';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { networkWords } from '../../shared/networkWords';
import { replaceFile } from '../folderLock';
import { storageCause } from '../storageError';
import { datasetModels, priceListChanged } from './dataset';

/** Where genai-prices publishes its current list. */
export const PRICES_URL = REMOTE_DATA_JSON_URL;
/** How often the list is read again while the service runs. */
export const PRICES_EVERY_MS = 24 * 60 * 60_000;
/** The list as last read, in the data folder. */
export const SAVED_PRICES = 'prices.json';
/** How long reading the list may take. */
const FETCH_TIMEOUT_MS = 30_000;
/** A larger answer is not a price list (the list is about 0.5 MB). */
const MAX_BYTES = 32 * 1024 * 1024;
/** How deep a model's match rule may nest, and how many parts it may have. */
const MAX_MATCH_DEPTH = 16;
const MAX_MATCH_PARTS = 1_000;

/** The list this build ships, taken before anything replaces it. */
const SHIPPED: Promise<Provider[] | null> = waitForUpdate();

let install: (data: Provider[]) => unknown = () => {
  throw new Error('genai-prices took no update');
};
updatePrices(({ setProviderData }) => {
  install = setProviderData;
});

/** A list read from the network, as it is kept in the data folder. */
interface SavedList {
  url: string;
  /** The day it was read (YYYY-MM-DD). */
  read: string;
  etag?: string;
  providers: Provider[];
}

export interface PriceListOptions {
  /** Where the list is read from; undefined reads none (the shipped list stands). */
  url: string | undefined;
  /** The data folder, where the list read is kept. */
  folder: string;
  log: (line: string) => void;
}

export class PriceList {
  private saved: SavedList | undefined;

  constructor(
    private readonly options: PriceListOptions,
    /** The shipped list: its name, and its day (YYYY-MM-DD), before which a list read is older. */
    private readonly shipped: { label: string; day: string },
  ) {}

  /** Where the catalogue's prices come from, in words for the log. */
  describe(): string {
    return this.saved ? `the price list read from ${hostOf(this.saved.url)} on ${this.saved.read}` : this.shipped.label;
  }

  /** Puts the list read last (prices.json) in place of the shipped one, if there is one newer than it. */
  async useSaved(): Promise<void> {
    const file = path.join(this.options.folder, SAVED_PRICES);
    if (!this.options.url || !existsSync(file)) return;
    let saved: SavedList;
    try {
      saved = JSON.parse(readFileSync(file, 'utf8')) as SavedList;
    } catch (error) {
      this.options.log(
        `The price list kept in ${SAVED_PRICES} could not be read (${(error as Error).message}); the shipped one stands.`,
      );
      return;
    }
    if (typeof saved?.read !== 'string' || saved.read < this.shipped.day) return;
    const problem = await this.adopt(saved.providers);
    if (problem) this.options.log(`The price list kept in ${SAVED_PRICES} is not used: ${problem}.`);
    else this.saved = { ...saved, providers: [] };
  }

  /**
   * Reads the list again; true when the catalogue's prices changed. A list that cannot be read or used
   * leaves the one in place, and says why in the log.
   */
  async refresh(today: string): Promise<boolean> {
    const url = this.options.url;
    if (!url) return false;
    let answer: { providers: unknown; etag?: string } | 'unchanged';
    try {
      answer = await fetchList(url, this.saved?.url === url ? this.saved.etag : undefined);
    } catch (error) {
      this.options.log(
        `The current price list could not be read from ${hostOf(url)}: ${(error as Error).message}. ${this.stands()}`,
      );
      return false;
    }
    if (answer === 'unchanged') return false;
    const problem = await this.adopt(answer.providers);
    if (problem) {
      this.options.log(`The price list read from ${hostOf(url)} is not used: ${problem}. ${this.stands()}`);
      return false;
    }
    const saved: SavedList = { url, read: today, etag: answer.etag, providers: answer.providers as Provider[] };
    try {
      replaceFile(path.join(this.options.folder, SAVED_PRICES), JSON.stringify(saved));
    } catch (error) {
      this.options.log(
        `The price list read is used but not kept for the next start: ${storageCause(error, this.options.folder) ?? (error as Error).message}.`,
      );
    }
    this.saved = { ...saved, providers: [] };
    return true;
  }

  /** Reads the list again every `everyMs`, calling `changed` when the prices changed. Returns the stop. */
  keepFresh(everyMs: number, today: () => string, changed: () => void): () => void {
    const timer = setInterval(() => void this.refresh(today()).then((c) => c && changed()), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private stands(): string {
    return this.saved ? `The one read on ${this.saved.read} stands.` : 'The shipped one stands.';
  }

  /** Puts `data` in place of the list in use; why not, in words, when it cannot be used. */
  private async adopt(data: unknown): Promise<string | undefined> {
    const shipped = (await SHIPPED) ?? [];
    const checked = checkedProviders(data, priceKinds(shipped));
    if (typeof checked === 'string') return checked;
    const byId = new Map(checked.providers.map((p) => [p.id, p]));
    const before = (await waitForUpdate()) ?? shipped;
    const now = new Date().toISOString();
    shippedModels ??= before === shipped ? datasetModels(now).length : undefined;
    let count: number;
    try {
      install([...checked.providers, ...shipped.filter((p) => !byId.has(p.id))]);
      priceListChanged();
      count = datasetModels(now).length;
    } catch (error) {
      install(before);
      priceListChanged();
      return `genai-prices could not read it (${(error as Error).message})`;
    }
    if (shippedModels !== undefined && count < shippedModels / 2) {
      install(before);
      priceListChanged();
      return `it would leave ${count} models of the ${shippedModels} the shipped list gives`;
    }
    if (checked.leftOut)
      this.options.log(
        `The price list read leaves out ${checked.leftOut} ${checked.leftOut === 1 ? 'entry' : 'entries'} of a shape this version does not know.`,
      );
    return undefined;
  }
}

/** How many models the shipped list gives the catalogue, counted before another list is put in its place. */
let shippedModels: number | undefined;

async function fetchList(
  url: string,
  etag: string | undefined,
): Promise<{ providers: unknown; etag?: string } | 'unchanged'> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new Error(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
    throw new Error(networkWords(error) ?? 'it could not be reached');
  }
  if (response.status === 304) return 'unchanged';
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`it answered ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) throw new Error(`its answer is larger than ${MAX_BYTES / 1024 / 1024} MB`);
    chunks.push(chunk);
  }
  let providers: unknown;
  try {
    providers = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error('its answer is not JSON');
  }
  return { providers, etag: response.headers.get('etag') ?? undefined };
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

type Entry = Record<string, unknown>;
const isEntry = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPrice = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The kinds of price the shipped list has: the ones this version's genai-prices knows. */
function priceKinds(shipped: Provider[]): Set<string> {
  const kinds = new Set<string>();
  for (const p of shipped)
    for (const m of p.models)
      for (const prices of Array.isArray(m.prices) ? m.prices.map((c) => c.prices) : [m.prices])
        for (const kind of Object.keys(prices)) kinds.add(kind);
  return kinds;
}

/**
 * The providers of a list as genai-prices reads them, each model of a shape it knows; a list that is
 * not one, in words.
 */
export function checkedProviders(
  data: unknown,
  kinds: ReadonlySet<string>,
): { providers: Provider[]; leftOut: number } | string {
  if (!Array.isArray(data)) return 'it is not a list of providers';
  const providers: Provider[] = [];
  let leftOut = 0;
  for (const p of data) {
    if (
      !isEntry(p) ||
      typeof p.id !== 'string' ||
      typeof p.name !== 'string' ||
      typeof p.api_pattern !== 'string' ||
      !compiles(p.api_pattern) ||
      !Array.isArray(p.models) ||
      (p.model_match !== undefined && !isMatch(p.model_match)) ||
      (p.provider_match !== undefined && !isMatch(p.provider_match))
    ) {
      leftOut++;
      continue;
    }
    const models = [];
    for (const m of p.models) {
      const model = checkedModel(m, kinds);
      if (model) models.push(model);
      else leftOut++;
    }
    const fallbacks = p.fallback_model_providers;
    providers.push({
      ...(p as unknown as Provider),
      models,
      // What reads usage from answers is not used here, and a kind it does not know would be warned of.
      extractors: undefined,
      fallback_model_providers:
        Array.isArray(fallbacks) && fallbacks.every((f) => typeof f === 'string') ? fallbacks : undefined,
    });
  }
  if (!providers.length) return 'it has no provider of a shape this version knows';
  return { providers, leftOut };
}

function checkedModel(m: unknown, kinds: ReadonlySet<string>): Provider['models'][number] | undefined {
  if (!isEntry(m) || typeof m.id !== 'string' || !isMatch(m.match)) return undefined;
  let prices: unknown;
  if (Array.isArray(m.prices)) {
    const conditional = [];
    for (const c of m.prices) {
      const at = isEntry(c) ? checkedPrices(c.prices, kinds) : undefined;
      if (!at || !isEntry(c) || (c.constraint !== undefined && !isConstraint(c.constraint))) return undefined;
      conditional.push({ ...c, prices: at });
    }
    if (!conditional.length) return undefined;
    prices = conditional;
  } else {
    prices = checkedPrices(m.prices, kinds);
    if (!prices) return undefined;
  }
  return {
    ...(m as unknown as Provider['models'][number]),
    prices: prices as Provider['models'][number]['prices'],
    context_window: typeof m.context_window === 'number' ? m.context_window : undefined,
    deprecated: m.deprecated === true ? true : undefined,
  };
}

/** A model's prices, those of a kind this version does not know dropped; undefined when one is not a price. */
function checkedPrices(prices: unknown, kinds: ReadonlySet<string>): Entry | undefined {
  if (!isEntry(prices)) return undefined;
  const kept: Entry = {};
  for (const [kind, price] of Object.entries(prices)) {
    if (!kinds.has(kind) || price === undefined) continue;
    const tiered =
      isEntry(price) &&
      isPrice(price.base) &&
      Array.isArray(price.tiers) &&
      price.tiers.every(
        (t) => isEntry(t) && Number.isSafeInteger(t.start) && (t.start as number) >= 0 && isPrice(t.price),
      );
    if (!isPrice(price) && !tiered) return undefined;
    kept[kind] = price;
  }
  return kept;
}

function isConstraint(c: unknown): boolean {
  if (!isEntry(c)) return false;
  if (c.start_date !== undefined) return typeof c.start_date === 'string' && DAY.test(c.start_date);
  return (
    typeof c.start_time === 'string' &&
    TIME.test(c.start_time) &&
    typeof c.end_time === 'string' &&
    TIME.test(c.end_time)
  );
}

/** A match rule genai-prices knows (`equals`, `starts_with`, … within `or` and `and`), walked without recursion. */
function isMatch(rule: unknown): boolean {
  const stack: Array<[unknown, number]> = [[rule, 0]];
  let parts = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isEntry(node) || depth > MAX_MATCH_DEPTH || ++parts > MAX_MATCH_PARTS) return false;
    const keys = Object.keys(node);
    if (keys.length !== 1) return false;
    const [key] = keys as [string];
    const value = node[key];
    if (key === 'or' || key === 'and') {
      if (!Array.isArray(value) || !value.length) return false;
      for (const child of value) stack.push([child, depth + 1]);
    } else if (key === 'regex') {
      if (typeof value !== 'string' || !compiles(value)) return false;
    } else if (!['equals', 'starts_with', 'ends_with', 'contains'].includes(key) || typeof value !== 'string')
      return false;
  }
  return true;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
