// A list the catalogue is built from that its maintainers publish online, newer than the copy this
// build ships (the price list: priceList.ts; models.dev's capabilities: capabilities.ts): read once the
// service answers and then once a day, asked again with its ETag (an unchanged list is not sent
// again), and kept in the data folder for a start without a network; a kept list older than the
// shipped copy is not used. Nothing is sent but the request for the file.
//
// Each list is another service's answer, read tolerantly by its own `check`; one that cannot be used
// leaves the list in place, and the log says why and which list stands.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { networkWords } from '../../shared/networkWords';
import { throughProxy } from './proxy';
import { replaceFile } from '../folderLock';
import { storageCause } from '../storageError';

/** How often the lists are read again while the service runs. */
export const LISTS_EVERY_MS = 24 * 60 * 60_000;
/** How long reading a list may take. */
const FETCH_TIMEOUT_MS = 30_000;
/** A larger answer is not one of these lists (the price list is about 0.5 MB, models.dev's a few). */
const MAX_BYTES = 64 * 1024 * 1024;

/** What one list is, and how this version reads it. */
export interface ListKind<T> {
  /** What it is, for the log: "price list". */
  what: string;
  /** The file it is kept in, in the data folder. */
  file: string;
  /** The copy this build ships: its name and version, and its day (YYYY-MM-DD). */
  shipped: { label: string; day: string };
  /** The list in an answer, with how many of its entries were left out; why it is not one, in words. */
  check: (data: unknown) => { list: T; leftOut: number } | string;
  /** Puts it in place of the one in use; why not, in words, when the catalogue could not be built with it. */
  adopt: (list: T) => Promise<string | undefined>;
}

export interface OnlineListOptions {
  /** Where the list is read from; undefined reads none (the shipped copy stands). */
  url: string | undefined;
  /** The data folder. */
  folder: string;
  log: (line: string) => void;
}

/** A list read from the network, as it is kept in the data folder. */
interface Kept {
  url: string;
  /** The day it was read (YYYY-MM-DD). */
  read: string;
  etag?: string;
  data: unknown;
}

/** A list read online, whatever it holds. */
export interface ReadOnline {
  describe(): string;
  useKept(): Promise<void>;
  refresh(today: string): Promise<boolean>;
}

export class OnlineList<T> implements ReadOnline {
  /** The list read in use, without its data. */
  private inUse: Omit<Kept, 'data'> | undefined;

  constructor(
    private readonly kind: ListKind<T>,
    private readonly options: OnlineListOptions,
  ) {}

  /** Where it comes from, in words for the log. */
  describe(): string {
    return this.inUse
      ? `the ${this.kind.what} read from ${hostOf(this.inUse.url)} on ${this.inUse.read}`
      : this.kind.shipped.label;
  }

  /** Puts the list read last in place of the shipped copy, if there is one newer than it. */
  async useKept(): Promise<void> {
    const file = path.join(this.options.folder, this.kind.file);
    if (!this.options.url || !existsSync(file)) return;
    let kept: Kept;
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as Kept;
    } catch (error) {
      this.options.log(
        `The ${this.kind.what} kept in ${this.kind.file} could not be read (${(error as Error).message}); the shipped one stands.`,
      );
      return;
    }
    if (typeof kept?.read !== 'string' || kept.read < this.kind.shipped.day) return;
    const problem = await this.adopt(kept.data);
    if (typeof problem === 'string')
      this.options.log(`The ${this.kind.what} kept in ${this.kind.file} is not used: ${problem}.`);
    else this.inUse = { url: kept.url, read: kept.read, etag: kept.etag };
  }

  /**
   * Reads the list again; true when the one in use changed. A list that cannot be read or used leaves
   * the one in place, and says why in the log.
   */
  async refresh(today: string): Promise<boolean> {
    const url = this.options.url;
    if (!url) return false;
    let answer: { data: unknown; etag?: string } | 'unchanged';
    try {
      answer = await fetchJson(url, this.inUse?.url === url ? this.inUse.etag : undefined);
    } catch (error) {
      this.options.log(
        `The current ${this.kind.what} could not be read from ${hostOf(url)}: ${(error as Error).message}. ${this.stands()}`,
      );
      return false;
    }
    if (answer === 'unchanged') return false;
    const adopted = await this.adopt(answer.data);
    if (typeof adopted === 'string') {
      this.options.log(`The ${this.kind.what} read from ${hostOf(url)} is not used: ${adopted}. ${this.stands()}`);
      return false;
    }
    // What of it this version reads, which is what a later start reads again.
    const kept: Kept = { url, read: today, etag: answer.etag, data: adopted.list };
    try {
      replaceFile(path.join(this.options.folder, this.kind.file), JSON.stringify(kept));
    } catch (error) {
      this.options.log(
        `The ${this.kind.what} read is used but not kept for the next start: ${storageCause(error, this.options.folder) ?? (error as Error).message}.`,
      );
    }
    this.inUse = { url, read: today, etag: answer.etag };
    return true;
  }

  private stands(): string {
    return this.inUse ? `The one read on ${this.inUse.read} stands.` : 'The shipped one stands.';
  }

  /** Puts what this version reads of `data` in place; why not, in words. */
  private async adopt(data: unknown): Promise<{ list: T } | string> {
    const checked = this.kind.check(data);
    if (typeof checked === 'string') return checked;
    const problem = await this.kind.adopt(checked.list);
    if (problem) return problem;
    if (checked.leftOut)
      this.options.log(
        `The ${this.kind.what} read leaves out ${checked.leftOut} ${checked.leftOut === 1 ? 'entry' : 'entries'} of a shape this version does not know.`,
      );
    return { list: checked.list };
  }
}

/**
 * Reads each list again every `everyMs`, calling `changed` once when any changed. Returns the stop.
 */
export function keepListsFresh(
  lists: readonly ReadOnline[],
  everyMs: number,
  today: () => string,
  changed: () => void,
): () => void {
  const timer = setInterval(() => void refreshLists(lists, today()).then((c) => c && changed()), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Reads each list again; true when any changed. */
export async function refreshLists(lists: readonly ReadOnline[], today: string): Promise<boolean> {
  const changed = await Promise.all(lists.map((list) => list.refresh(today)));
  return changed.some(Boolean);
}

async function fetchJson(
  url: string,
  etag: string | undefined,
): Promise<{ data: unknown; etag?: string } | 'unchanged'> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new Error(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
    const cause = (error as { cause?: { message?: unknown } }).cause?.message;
    const words = networkWords(error, typeof cause === 'string' ? cause : '');
    throw new Error(words ? throughProxy(url, words) : 'it could not be reached');
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
  try {
    return {
      data: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      etag: response.headers.get('etag') ?? undefined,
    };
  } catch {
    throw new Error('its answer is not JSON');
  }
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export type Entry = Record<string, unknown>;
export const isEntry = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);
