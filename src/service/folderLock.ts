// The data folder's lock, as the service takes and releases it (lockFile.ts reads it, for the extension
// too). One service per folder: a second one is refused while the first is alive; a lock left by a
// process that is gone is taken over.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE, builtAt, ownStart, readLock, stillRuns, type LockInfo } from './lockFile';
import { StorageError, storageCause } from './storageError';

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

export function acquireLock(dir: string): string {
  const lockPath = path.join(dir, LOCK_FILE);
  if (!existsSync(dir)) throw new Error(`The data folder ${dir} does not exist.`);
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      closeSync(fd);
      writeLock(lockPath, { pid: process.pid, url: null, startedAt: new Date().toISOString() });
      return lockPath;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw lockFailure(error, dir);
      const holder = readLock(dir);
      if (holder && holder.pid !== process.pid && stillRuns(holder)) throw new DataFolderLockedError(dir, holder);
      // A lock left by a process that no longer runs (a crash, kill -9, even if its pid is now another
      // process's): take it over.
      try {
        unlinkSync(lockPath);
      } catch (unlinkError) {
        throw lockFailure(unlinkError, dir);
      }
    }
  }
  throw new Error(`Could not take the lock of the data folder ${dir}.`);
}

function lockFailure(error: unknown, dir: string): StorageError {
  return new StorageError(
    storageCause(error, dir) ?? `the lock file could not be written (${(error as NodeJS.ErrnoException).code})`,
    error,
  );
}

/** When the running service's file (dist/service.js) was written, which every lock it writes records. */
const BUILT = builtAt(__filename);

export function writeLock(lockPath: string, info: Omit<LockInfo, 'built' | 'since'>): void {
  replaceFile(lockPath, JSON.stringify({ ...info, since: ownStart() || undefined, built: BUILT } satisfies LockInfo));
}

/** Writes `file` whole, for this user only: a reader sees the old text or the new, never a half-written one. */
export function replaceFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    const fd = openSync(temp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never written
    }
    throw error;
  }
}

export function releaseLock(lockPath: string): void {
  const holder = readLock(path.dirname(lockPath));
  try {
    if (holder?.pid === process.pid) unlinkSync(lockPath);
  } catch {
    // A read-only folder keeps the lock file; the next start sees its pid is gone and takes it over.
  }
}
