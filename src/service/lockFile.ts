// The data folder's lock file: who holds the folder and where it listens; and the leases of the
// windows that use the service (one empty file per extension host, named by its pid). Shared by the
// service and the extension (which uses it to find a service another window started), so it imports
// nothing heavy.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';

/** The folder of the windows' leases, in the data folder. */
export const LEASES_DIR = 'clients';

export interface LockInfo {
  pid: number;
  url: string | null;
  startedAt: string;
  /** When the service's own file was last written (its mtime, ms): a window runs a newer one if it has it. */
  built?: number;
}

/** The mtime of a file in ms, or 0 if it cannot be read. */
export function builtAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pids of the windows that hold a lease on the folder's service; the leases of ended ones are removed. */
export function liveLeases(dataDir: string): number[] {
  const dir = path.join(dataDir, LEASES_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.map(Number).filter((pid) => {
    const alive = Number.isInteger(pid) && pid > 0 && isAlive(pid);
    if (!alive) rmSync(path.join(dir, String(pid)), { force: true });
    return alive;
  });
}
