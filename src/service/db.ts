// The service's database: one SQLite file through node:sqlite, in WAL mode with synchronous=FULL, so a
// commit is on disk when COMMIT returns and the engine's own log does recovery after a crash.
//
// Writes: `transaction(fn)` runs `fn` inside the batch that is open (or opens one) under a savepoint of
// its own, so a request that throws rolls back only its part. The batch commits once the event loop has
// run every request that arrived with it: writes that arrive together share one COMMIT and one fsync
// (group commit). The promise resolves only after that COMMIT; a failed COMMIT rejects every request of
// the batch with a StorageError, and nothing of it is ever visible.
//
// Reads outside a transaction go to a second connection, which sees only committed data: a write is
// visible to others only once it is durable.
//
// The request log is written by a connection of its own on a thread of its own (ledgerThread.ts), a
// Database opened with `openSharing`: the same group commit, off the event loop's thread.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { acquireLock, releaseLock, writeLock } from './folderLock';
import { StorageError, storageCause } from './storageError';

export { DataFolderLockedError } from './folderLock';

export type Params = Record<string, string | number | boolean | null | undefined | Uint8Array>;
export type Row = Record<string, unknown>;

export const DB_FILE = 'llm-spaces.sqlite';

/** One SQLite connection with its prepared statements. */
class Connection {
  private readonly statements = new Map<string, StatementSync>();

  constructor(readonly db: DatabaseSync) {}

  statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // Domain functions pass one parameter object to statements that use only part of it.
      statement.setAllowUnknownNamedParameters(true);
      if (this.statements.size >= 500) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<T>(sql: string, params: Params): T[] {
    return this.statement(sql).all(bindable(params)) as T[];
  }

  run(sql: string, params: Params): number {
    return Number(this.statement(sql).run(bindable(params)).changes);
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class Database {
  private closed = false;
  private commits = 0;
  /** True while a transaction's function runs: its statements use the writer. */
  private inside = false;
  /** Requests of the batch that is open (BEGIN done, COMMIT not yet). */
  private batch: Waiter[] | null = null;
  private savepoints = 0;
  /** Where the service listens, recorded in the lock file (again when the lock is taken late). */
  private url: string | null = null;
  /** What must stop before the connections close (the writer thread and its connection). */
  private readonly beforeClose: Array<() => Promise<void>> = [];

  private constructor(
    /** Null while the folder cannot be written (read-only, full at start): reads go on, writes retry it. */
    private writerConnection: Connection | null,
    private reader: Connection,
    readonly dataDir: string,
    private lockPath: string | null,
    /** A second writer of a folder this process holds (openSharing): the first one owns the folder. */
    private readonly sharing = false,
  ) {}

  /**
   * Opens (or creates) the database of a data folder, taking the folder's lock first. A folder that
   * holds a database but cannot be written opens for reading; writes then fail with the cause until
   * it can be written again.
   */
  static open(dataDir: string): Database {
    const dir = path.resolve(dataDir);
    const file = path.join(dir, DB_FILE);
    let writable: { writer: Connection; lockPath: string } | undefined;
    try {
      writable = openWriter(dir);
    } catch (error) {
      if (!(error instanceof StorageError) || !existsSync(file)) throw error;
    }
    try {
      return new Database(writable?.writer ?? null, openReader(dir), dir, writable?.lockPath ?? null);
    } catch (error) {
      writable?.writer.close();
      if (writable) releaseLock(writable.lockPath);
      throw wrapStorage(error, dir);
    }
  }

  /**
   * A second connection that writes to the database of a folder this process has opened, for a thread
   * of its own: it takes no lock (the process holds the folder's), reads what it writes, and leaves the
   * journal mode to the first. Throws unless the database is in WAL mode, where its commits wait for
   * no reader.
   */
  static openSharing(dataDir: string): Database {
    const dir = path.resolve(dataDir);
    let connection: Connection | undefined;
    try {
      connection = new Connection(new DatabaseSync(path.join(dir, DB_FILE), { timeout: 5000 }));
      connection.db.exec('PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
      const mode = connection.all<{ journal_mode: string }>('PRAGMA journal_mode', {})[0]?.journal_mode;
      if (mode !== 'wal') throw new Error(`The database is in ${mode} mode, not WAL.`);
      // SQLite opens a file it cannot write read-only without a word; such a connection would share its
      // read-only WAL index with the first connection's, which could then not write again.
      connection.db.exec('BEGIN IMMEDIATE; ROLLBACK;');
    } catch (error) {
      connection?.close();
      throw wrapStorage(error, dir, false) ?? error;
    }
    return new Database(connection, connection, dir, null, true);
  }

  /** Whether the folder could be written when last tried (its writer is open). */
  get writable(): boolean {
    return this.writerConnection !== null;
  }

  /** Runs `stop` (once) before the connections close. */
  onClose(stop: () => Promise<void>): void {
    this.beforeClose.push(stop);
  }

  /** The connection that writes, reopened if the folder could not be written before. */
  private get writer(): Connection {
    if (this.writerConnection) return this.writerConnection;
    // The reader was opened while the folder could not be written (its WAL index read-only, and shared
    // with every connection of this process to the file): it is opened again after the writer.
    this.reader.close();
    try {
      const { writer, lockPath } = openWriter(this.dataDir);
      this.lockPath = lockPath;
      this.writerConnection = writer;
      if (this.url) this.advertise(this.url);
      return writer;
    } finally {
      this.reader = openReader(this.dataDir);
    }
  }

  /** Records the URL the service listens on in the lock file, so other clients can find it. */
  advertise(url: string): void {
    this.url = url;
    if (this.lockPath) writeLock(this.lockPath, { pid: process.pid, url, startedAt: new Date().toISOString() });
  }

  private get connection(): Connection {
    return this.inside ? this.writer : this.reader;
  }

  all<T = Row>(sql: string, params: Params = {}): T[] {
    return this.connection.all<T>(sql, params);
  }

  get<T = Row>(sql: string, params: Params = {}): T | undefined {
    return this.all<T>(sql, params)[0];
  }

  /** A write statement; only inside `transaction` (or `transactionNow`). Returns the rows changed. */
  run(sql: string, params: Params = {}): number {
    this.assertInside();
    return this.writer.run(sql, params);
  }

  exec(sql: string): void {
    this.assertInside();
    this.writer.db.exec(sql);
  }

  private assertInside(): void {
    if (!this.inside) throw new Error('A write outside a transaction.');
  }

  /**
   * Runs `fn` in the open batch, as its own savepoint: when it throws, only its part is rolled back
   * and the error is rethrown. Resolves with its result once the batch's COMMIT is on disk.
   */
  transaction<T>(fn: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The database is closed.'));
    if (!this.batch) {
      try {
        this.writer.db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        return Promise.reject(wrapStorage(error, this.dataDir));
      }
      this.batch = [];
      setImmediate(() => this.commit());
    }
    const name = `s${++this.savepoints}`;
    let result: T;
    this.inside = true;
    try {
      this.writer.db.exec(`SAVEPOINT ${name}`);
      try {
        result = fn();
        this.writer.db.exec(`RELEASE ${name}`);
      } catch (error) {
        this.undo(name);
        throw error;
      }
    } catch (error) {
      return Promise.reject(this.storageFailure(error) ?? error);
    } finally {
      this.inside = false;
    }
    return new Promise<void>((resolve, reject) => this.batch!.push({ resolve, reject })).then(() => result);
  }

  /**
   * Runs `fn` in a transaction of its own and commits at once (start-up, migrations). Throws when it
   * cannot commit; nothing of it stays then.
   */
  transactionNow<T>(fn: () => T): T {
    if (this.batch) throw new Error('transactionNow while a batch is open.');
    this.inside = true;
    try {
      this.writer.db.exec('BEGIN IMMEDIATE');
      const result = fn();
      this.writer.db.exec('COMMIT');
      this.commits++;
      return result;
    } catch (error) {
      if (this.writerConnection?.db.isTransaction) this.writerConnection.db.exec('ROLLBACK');
      throw wrapStorage(error, this.dataDir, false) ?? error;
    } finally {
      this.inside = false;
    }
  }

  /** Rolls a request's savepoint back; if the engine already rolled the whole batch back, fails it. */
  private undo(name: string): void {
    if (!this.writer.db.isTransaction) return;
    try {
      this.writer.db.exec(`ROLLBACK TO ${name}; RELEASE ${name};`);
    } catch {
      // The batch is broken beyond the savepoint: commit() finds it rolled back or fails it.
    }
  }

  /**
   * An I/O failure inside a request's statements (a spilled cache on a full disk) may have rolled the
   * whole batch back: then every request of it fails with the same cause.
   */
  private storageFailure(error: unknown): StorageError | undefined {
    const storage = wrapStorage(error, this.dataDir, false);
    if (!storage) return undefined;
    if (!this.writer.db.isTransaction) this.failBatch(storage);
    return storage;
  }

  private failBatch(error: StorageError): void {
    const waiters = this.batch ?? [];
    this.batch = null;
    for (const w of waiters) w.reject(error);
  }

  private commit(): void {
    const waiters = this.batch;
    if (!waiters) return;
    this.batch = null;
    try {
      this.writer.db.exec('COMMIT');
    } catch (error) {
      try {
        if (this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK');
      } catch {
        // The engine rolls back a transaction it could not commit on the next statement.
      }
      const failure = wrapStorage(error, this.dataDir);
      for (const w of waiters) w.reject(failure);
      return;
    }
    this.commits++;
    for (const w of waiters) w.resolve();
  }

  /** True while a transaction's function runs (its reads see its own uncommitted writes). */
  get inTransaction(): boolean {
    return this.inside;
  }

  /** Changes with every commit: what was read at one version holds until it moves. */
  get version(): number {
    return this.commits;
  }

  /** Waits for the open batch, then closes both connections and releases the folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const stop of this.beforeClose.splice(0)) await stop();
    if (this.batch) await new Promise<void>((resolve) => this.batch!.push({ resolve, reject: () => resolve() }));
    this.closed = true;
    if (this.sharing) return this.writerConnection?.close();
    this.reader.close();
    try {
      // A clean close checkpoints the WAL into the database file, and leaves it in rollback mode so that
      // a folder made read-only afterwards still opens for reading (WAL mode would want its index
      // file, which a read-only folder cannot give); the next writer turns WAL on again.
      try {
        this.writerConnection?.db.exec('PRAGMA journal_mode = DELETE');
      } catch {
        // Busy or not writable: it stays in WAL mode, and closing still checkpoints it.
      }
      this.writerConnection?.close();
    } finally {
      if (this.lockPath) releaseLock(this.lockPath);
    }
  }
}

function openReader(dir: string): Connection {
  return new Connection(new DatabaseSync(path.join(dir, DB_FILE), { readOnly: true, timeout: 5000 }));
}

/** Takes the folder's lock and opens the connection that writes: WAL, synchronous=FULL, foreign keys. */
function openWriter(dir: string): { writer: Connection; lockPath: string } {
  const lockPath = acquireLock(dir);
  let writer: Connection | undefined;
  try {
    writer = new Connection(new DatabaseSync(path.join(dir, DB_FILE), { timeout: 5000 }));
    writer.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
    // Make the WAL and its index exist now: a reader can then open them on a folder gone read-only.
    writer.db.exec('BEGIN IMMEDIATE; COMMIT;');
    return { writer, lockPath };
  } catch (error) {
    writer?.close();
    releaseLock(lockPath);
    throw wrapStorage(error, dir);
  }
}

function wrapStorage(error: unknown, dir: string): StorageError;
function wrapStorage(error: unknown, dir: string, always: false): StorageError | undefined;
function wrapStorage(error: unknown, dir: string, always = true): StorageError | undefined {
  if (error instanceof StorageError) return error;
  const cause = storageCause(error, dir);
  if (cause) return new StorageError(cause, error);
  return always ? new StorageError('the database could not be written', error) : undefined;
}

function bindable(params: Params): Record<string, SQLInputValue> {
  const out: Record<string, SQLInputValue> = {};
  for (const [key, value] of Object.entries(params)) {
    out[key] = value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  return out;
}
