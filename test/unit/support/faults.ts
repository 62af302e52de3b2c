// Real storage faults for the tests, not mocks: a small tmpfs mounted (which needs root; CI runs as
// root), and its disk filled until it refuses more.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './service';

export function mountTmpfs(sizeKb: number): string {
  const dir = tempDir('llm-spaces-fault-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0755`, 'tmpfs', dir]);
  return dir;
}

export function unmount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir]);
  } catch {
    // not mounted
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Why mounting cannot be tested here, or undefined when it can. */
export function cannotMount(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    unmount(mountTmpfs(64));
    return undefined;
  } catch (error) {
    return `mount failed: ${(error as Error).message.split('\n')[0]}`;
  }
}

/** Fills the file system of `dir` until the disk refuses more; returns the filler files. */
export function fill(dir: string): string[] {
  const files: string[] = [];
  const chunk = Buffer.alloc(64 * 1024, 1);
  for (let n = 0; ; n++) {
    const file = path.join(dir, `filler-${n}`);
    const fd = openSync(file, 'w');
    files.push(file);
    try {
      for (let i = 0; i < 64; i++) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
        // The last pages: down to single bytes, so no room is left at all.
        for (const size of [4096, 512, 1]) {
          try {
            for (;;) writeSync(fd, Buffer.alloc(size, 1));
          } catch {
            // full at this size
          }
        }
        closeSync(fd);
        return files;
      }
      throw error;
    } finally {
      try {
        closeSync(fd);
      } catch {
        // closed above
      }
    }
  }
}
