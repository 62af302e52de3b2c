// The data folder's lock file: who holds the folder and where it listens. Shared by the service and
// the extension (which uses it to find a service another window started), so it imports nothing heavy.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';

export interface LockInfo {
  pid: number;
  url: string | null;
  startedAt: string;
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
