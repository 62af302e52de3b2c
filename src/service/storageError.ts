// A write the disk refused, in words a user can act on. SQLite reports a full disk as SQLITE_FULL, but
// a read-only or failing disk mostly as a generic I/O error, so the folder itself is asked: a small
// file is written and synced there, and the system's error code names the cause.
import { closeSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export class StorageError extends Error {
  constructor(
    /** Why the write failed, as a phrase: "the disk is full". */
    readonly reason: string,
    override readonly cause?: unknown,
  ) {
    super(`The change was not saved: ${reason}.`);
    this.name = 'StorageError';
  }
}

const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_READONLY = 8;
const SQLITE_CANTOPEN = 14;

const BY_ERRNO: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the data folder is on a read-only disk',
  EACCES: 'the data folder is not writable',
  EPERM: 'the data folder is not writable',
  EIO: 'the disk reported an I/O error',
};

/** The cause of a storage failure in words, or undefined when `error` is not one. */
export function storageCause(error: unknown, dir: string): string | undefined {
  const errno = (error as NodeJS.ErrnoException).code;
  if (errno && errno in BY_ERRNO) return BY_ERRNO[errno];
  const primary = (Number((error as { errcode?: number }).errcode) || 0) & 0xff;
  if (![SQLITE_IOERR, SQLITE_FULL, SQLITE_READONLY, SQLITE_CANTOPEN].includes(primary)) return undefined;
  return (
    probeFolder(dir) ??
    (primary === SQLITE_FULL ? BY_ERRNO.ENOSPC : primary === SQLITE_READONLY ? BY_ERRNO.EACCES : BY_ERRNO.EIO)
  );
}

/** Writes and syncs a page in `dir`; the error code of the first step that fails, in words. */
function probeFolder(dir: string): string | undefined {
  const file = path.join(dir, `.write-probe-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'w');
    writeSync(fd, Buffer.alloc(4096));
    fsyncSync(fd);
    return undefined;
  } catch (error) {
    return BY_ERRNO[(error as NodeJS.ErrnoException).code ?? ''];
  } finally {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(file);
    } catch {
      // nothing was created
    }
  }
}
