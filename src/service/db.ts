// SQLite through sql.js (WASM, no native build). The database lives in memory. A write is acknowledged
// only once it is on disk: its transaction appended to the journal and fsynced (journal.ts). Now and
// then the whole image is written to one file (fsynced, renamed into place) and the journal emptied.
// Writes that arrive while a flush is under way share the next flush (group commit).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import initSqlJs, { type Database as SqlJsDatabase, type SqlValue } from 'sql.js';
import { JOURNAL_FILE, appendJournal, clearJournal, entryLine, readJournal, syncFolder, writeSynced, type Statement } from './journal';
import { LOCK_FILE, isAlive, readLock, type LockInfo } from './lockFile';
import { migrate } from './migrations';

export type Params = Record<string, string | number | boolean | null | undefined | Uint8Array>;
export type Row = Record<string, SqlValue>;

export const DB_FILE = 'llm-spaces.sqlite';
/** The image is rewritten once the journal is this large (LLM_SPACES_COMPACT_BYTES overrides, for tests). */
const COMPACT_BYTES = Number(process.env.LLM_SPACES_COMPACT_BYTES) || 8 * 2 ** 20;

export class DataFolderLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `Another LLM Spaces service (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}) is already using the data folder ${dataDir}. ` +
        'Stop it first, or use a different --data folder.',
    );
    this.name = 'DataFolderLockedError';
  }
}

export class Database {
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private dirty = false;
  private closed = false;
  private writes = 0;
  /** Statements of the transaction under way; null outside a transaction. */
  private statements: Statement[] | null = null;
  /** Committed transactions not yet in the journal file. */
  private pending: string[] = [];
  private seq = 0;
  private journalBytes = 0;
  /** The next flush writes the image (none yet, or a journal to rewrite). */
  private compactNext = true;

  private constructor(
    private db: SqlJsDatabase,
    readonly dataDir: string,
    private readonly lockPath: string,
  ) {}

  /** Opens (or creates) the database of a data folder, taking the folder's lock first. */
  static async open(dataDir: string): Promise<Database> {
    const dir = path.resolve(dataDir);
    const lockPath = acquireLock(dir);
    try {
      const SQL = await initSqlJs({ locateFile: (file: string) => wasmPath(file) });
      const file = path.join(dir, DB_FILE);
      const db = new SQL.Database(existsSync(file) ? readFileSync(file) : undefined);
      const database = new Database(db, dir, lockPath);
      database.configure();
      const replayed = database.replay();
      const applied = database.transaction(() => migrate(database));
      database.compactNext = !existsSync(file) || replayed;
      if (applied > 0 || database.compactNext) await database.persist();
      return database;
    } catch (error) {
      releaseLock(lockPath);
      throw error;
    }
  }

  /** Records the URL the service listens on in the lock file, so other clients can find it. */
  advertise(url: string): void {
    writeLock(this.lockPath, { pid: process.pid, url, startedAt: new Date().toISOString() });
  }

  all<T = Row>(sql: string, params: Params = {}): T[] {
    const statement = this.db.prepare(sql);
    try {
      statement.bind(bindable(params));
      const rows: T[] = [];
      while (statement.step()) rows.push(statement.getAsObject() as T);
      return rows;
    } finally {
      statement.free();
    }
  }

  get<T = Row>(sql: string, params: Params = {}): T | undefined {
    return this.all<T>(sql, params)[0];
  }

  run(sql: string, params: Params = {}): number {
    this.db.run(sql, bindable(params));
    this.record([sql, params]);
    return this.db.getRowsModified();
  }

  exec(sql: string): void {
    this.db.exec(sql);
    this.record([sql, {}]);
  }

  /** A statement for the journal: part of the transaction under way, or a transaction of its own. */
  private record(statement: Statement): void {
    if (this.statements) this.statements.push(statement);
    else {
      this.pending.push(entryLine({ seq: ++this.seq, statements: [statement] }));
      this.dirty = true;
    }
  }

  /** Runs `fn` in one transaction: all of it is stored, or (when it throws) none of it. */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    this.statements = [];
    try {
      const result = fn();
      this.db.exec('COMMIT');
      if (this.statements.length > 0) this.pending.push(entryLine({ seq: ++this.seq, statements: this.statements }));
      this.dirty = true;
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.statements = null;
      this.writes++;
    }
  }

  /** Applies the journal's transactions that the image does not hold yet; true when there were any. */
  private replay(): boolean {
    const imageSeq = this.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'journal_state'")!.n ? (this.get<{ seq: number }>('SELECT seq FROM journal_state')?.seq ?? 0) : 0;
    const { entries, torn, lines } = readJournal(path.join(this.dataDir, JOURNAL_FILE), imageSeq);
    for (const entry of entries) {
      this.db.exec('BEGIN IMMEDIATE');
      for (const [sql, params] of entry.statements) this.db.run(sql, bindable(params));
      this.db.exec('COMMIT');
    }
    this.seq = entries.at(-1)?.seq ?? imageSeq;
    return lines > 0 || torn;
  }

  /** Changes with every write transaction: what was read at one version holds until it moves. */
  get version(): number {
    return this.writes;
  }

  /**
   * Resolves once every transaction committed before the call is on disk: exported, written to a
   * temporary file, fsynced, renamed over the database and the folder fsynced.
   */
  persist(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The database is closed.'));
    this.queued ??= (this.flushing ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        const flush = this.writeFile();
        this.flushing = flush;
        void flush
          .finally(() => {
            if (this.flushing === flush) this.flushing = null;
          })
          .catch(() => undefined);
        return flush;
      });
    return this.queued;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.dirty || this.queued || this.flushing) await this.persist().catch(() => undefined);
    this.closed = true;
    this.db.close();
    releaseLock(this.lockPath);
  }

  private configure(): void {
    this.db.exec('PRAGMA foreign_keys = ON;');
  }

  private async writeFile(): Promise<void> {
    this.dirty = false;
    const lines = this.pending.splice(0);
    const journal = path.join(this.dataDir, JOURNAL_FILE);
    if (!this.compactNext && this.journalBytes < COMPACT_BYTES) {
      if (lines.length > 0) this.journalBytes += await appendJournal(journal, lines);
      return;
    }
    await this.writeImage();
    await clearJournal(journal);
    this.journalBytes = 0;
    this.compactNext = false;
  }

  /** The whole database to its file, with the journal position it includes. */
  private async writeImage(): Promise<void> {
    this.db.exec('CREATE TABLE IF NOT EXISTS journal_state (seq INTEGER NOT NULL)');
    this.db.exec('DELETE FROM journal_state');
    this.db.run('INSERT INTO journal_state (seq) VALUES ($seq)', { $seq: this.seq });
    // export() closes and reopens the connection, so per-connection settings are applied again.
    const bytes = this.db.export();
    this.configure();
    const target = path.join(this.dataDir, DB_FILE);
    const temp = `${target}.${process.pid}.tmp`;
    await writeSynced(temp, 'w', bytes);
    await rename(temp, target);
    await syncFolder(this.dataDir);
  }
}

function bindable(params: Params): Record<string, SqlValue> {
  const out: Record<string, SqlValue> = {};
  for (const [key, value] of Object.entries(params)) {
    out[`$${key}`] = value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  return out;
}

function wasmPath(file: string): string {
  const beside = path.join(__dirname, file);
  return existsSync(beside) ? beside : require.resolve(`sql.js/dist/${file}`);
}

function acquireLock(dir: string): string {
  const lockPath = path.join(dir, LOCK_FILE);
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      closeSync(fd);
      writeLock(lockPath, { pid: process.pid, url: null, startedAt: new Date().toISOString() });
      return lockPath;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`The data folder ${dir} does not exist.`);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dir);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataFolderLockedError(dir, holder);
      // A lock left by a process that no longer runs (a crash, kill -9): take it over.
      unlinkSync(lockPath);
    }
  }
  throw new Error(`Could not take the lock of the data folder ${dir}.`);
}

function writeLock(lockPath: string, info: LockInfo): void {
  const temp = `${lockPath}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // rename keeps readers from ever seeing a half-written lock.
  renameSync(temp, lockPath);
}

function releaseLock(lockPath: string): void {
  const holder = readLock(path.dirname(lockPath));
  if (holder?.pid === process.pid) unlinkSync(lockPath);
}
