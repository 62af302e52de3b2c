// What the service reads for every request and seldom changes (the catalogue, a Space's row and its
// models), kept parsed in memory until it changes. The database counts each change to those tables
// (the `config_version` row, kept by triggers: migrations.ts), so a chat's own writes to the request
// log keep nothing from being reused. The count is read from committed data, once per commit; inside a
// transaction what was kept is reused only while the transaction has changed none of it, as the writer
// must see its own uncommitted rows.
import type { Database } from '../db';

/** Kept answers per database, and the change count they were read at. */
interface Kept {
  version: number;
  entries: Map<string, unknown>;
}

/** Enough for every Space of a large organization; past it the answers are read again. */
const MAX_ENTRIES = 10_000;

const kept = new WeakMap<Database, Kept>();
const counted = new WeakMap<Database, { commit: number; version: number }>();

/**
 * The change count of the configuration tables. Before the migration that makes it has run (the
 * migrations that seed the first Space) and in a read-only folder of an older version, each commit
 * counts as a change.
 */
function configVersion(db: Database): number {
  const last = counted.get(db);
  if (last?.commit === db.version) return last.version;
  const version = countNow(db) ?? -1 - db.version;
  counted.set(db, { commit: db.version, version });
  return version;
}

/** The change count as the connection in use sees it (a transaction: with its own writes), if kept. */
function countNow(db: Database): number | undefined {
  try {
    return db.get<{ version: number }>('SELECT version FROM config_version')?.version;
  } catch {
    return undefined;
  }
}

/** `read()`'s answer for `key`, kept until the configuration changes. */
export function keptUntilChanged<T>(db: Database, key: string, read: () => T): T {
  if (db.inTransaction) {
    // A transaction that changed none of it (a chat's log) sees what was kept; one that did reads anew.
    const entry = kept.get(db);
    return entry && entry.entries.has(key) && countNow(db) === entry.version ? (entry.entries.get(key) as T) : read();
  }
  const version = configVersion(db);
  let entry = kept.get(db);
  if (!entry || entry.version !== version || entry.entries.size >= MAX_ENTRIES)
    kept.set(db, (entry = { version, entries: new Map() }));
  if (entry.entries.has(key)) return entry.entries.get(key) as T;
  const value = read();
  entry.entries.set(key, value);
  return value;
}
