// The data folder's lock file: who holds the folder and where it listens; and the leases of the
// windows that use the service (one file per extension host, named by its pid, holding when that
// process started). Shared by the service and the extension (which uses it to find a service another
// window started), so it imports nothing heavy.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';

/** The folder of the windows' leases, in the data folder. */
export const LEASES_DIR = 'clients';

export interface LockInfo {
  pid: number;
  /** When that process started (processStart): tells it from a later one given the same pid. */
  since?: string;
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

/**
 * When a process started, as the system records it, or undefined where that cannot be read (on
 * Windows, or once the process is gone). With its pid it names one process: after a crash or a
 * reboot, the pid of the service or of a window is soon another process's, which must not be taken
 * for it (a folder refused as in use, a stop sent to a stranger).
 */
export function processStart(pid: number): string | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Its 22nd field, in clock ticks since the boot; the command name (the 2nd) may hold spaces.
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      return ticks && `${bootId()}:${ticks}`;
    }
    if (process.platform === 'darwin') return psStart(pid);
  } catch {
    // Gone, or not readable: only the pid can be checked.
  }
  return undefined;
}

/**
 * A process's start as `ps` prints it (to the second), the same in every window and service whatever
 * their language and time zone: a difference would take a running service for a stale one.
 */
export function psStart(pid: number): string | undefined {
  const env = { LC_ALL: 'C', TZ: 'UTC' };
  return (
    execFileSync('/bin/ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, env }).trim() ||
    undefined
  );
}

let boot: string | undefined;
const bootId = () => (boot ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());

/** Whether the process that wrote a lock or a lease still runs: its pid is alive, and started when it said. */
export function stillRuns(owner: { pid: number; since?: string }): boolean {
  if (!isAlive(owner.pid)) return false;
  if (!owner.since) return true;
  const since = processStart(owner.pid);
  return since === undefined || since === owner.since;
}

let own: string | undefined;
/** When this process started: what a window writes in its lease, and the service in its lock. */
export const ownStart = () => (own ??= processStart(process.pid) ?? '');

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
    const file = path.join(dir, String(pid));
    const alive = Number.isInteger(pid) && pid > 0 && stillRuns({ pid, since: readText(file) });
    if (!alive) rmSync(file, { force: true });
    return alive;
  });
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}
