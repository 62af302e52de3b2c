// The write-ahead journal of the database: each committed transaction as one JSON line
// `[seq, [[sql, params], ...]]`, appended and fsynced before the write is acknowledged. Writing the
// whole sql.js image on every commit cost time in proportion to the database; the journal costs only
// what changed. The image is rewritten (and the journal emptied) once the journal grows large.
import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Params } from './db';

export const JOURNAL_FILE = 'llm-spaces.journal';

export type Statement = [sql: string, params: Params];
export interface Entry {
  seq: number;
  statements: Statement[];
}

/** Bytes (Uint8Array) survive the JSON line as `{"$bytes": base64}`. */
const encode = (_key: string, value: unknown) => (value instanceof Uint8Array ? { $bytes: Buffer.from(value).toString('base64') } : value);
const decode = (_key: string, value: unknown) =>
  value && typeof value === 'object' && '$bytes' in value ? new Uint8Array(Buffer.from(String((value as { $bytes: string }).$bytes), 'base64')) : value;

export function entryLine(entry: Entry): string {
  return `${JSON.stringify([entry.seq, entry.statements], encode)}\n`;
}

/**
 * The entries after `afterSeq`, in order. A last line cut short by a crash was never acknowledged
 * (its fsync did not finish) and is left out; `torn` says so, and the caller rewrites the journal.
 */
export function readJournal(file: string, afterSeq: number): { entries: Entry[]; torn: boolean; lines: number } {
  if (!existsSync(file)) return { entries: [], torn: false, lines: 0 };
  const lines = readFileSync(file, 'utf8').split('\n');
  const entries: Entry[] = [];
  let torn = false;
  let count = 0;
  for (const [i, line] of lines.entries()) {
    if (line === '') continue;
    let parsed: [number, Statement[]];
    try {
      parsed = JSON.parse(line, decode) as [number, Statement[]];
    } catch (error) {
      if (lines.slice(i + 1).some((l) => l !== '')) throw new Error(`The journal ${file} is damaged at line ${i + 1}: ${(error as Error).message}`);
      torn = true;
      break;
    }
    count++;
    if (parsed[0] > afterSeq) entries.push({ seq: parsed[0], statements: parsed[1] });
  }
  return { entries, torn, lines: count };
}

/** Writes (flag 'w') or appends ('a') `data` and returns once it is on disk. */
export async function writeSynced(file: string, flag: 'w' | 'a', data: string | Uint8Array): Promise<void> {
  const handle = await open(file, flag, 0o600);
  try {
    await handle.writeFile(data);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Makes a folder's entries (a created or renamed file) durable. */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Appends lines and fsyncs them; returns the bytes written. */
export async function appendJournal(file: string, lines: string[]): Promise<number> {
  const text = lines.join('');
  await writeSynced(file, 'a', text);
  return Buffer.byteLength(text);
}

/** Empties the journal once the image holds everything in it (creating it, durably, the first time). */
export async function clearJournal(file: string): Promise<void> {
  const created = !existsSync(file);
  await writeSynced(file, 'w', '');
  if (created) await syncFolder(path.dirname(file));
}
