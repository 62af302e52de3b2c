// The built-in service as a child process of the extension host: one per data folder, shared by every
// window (a window that finds one running connects to it), restarted with backoff when it dies, and
// stopped by the last window that lets go of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_EXEC_ARGV } from '../service/launch';
import { proxyVariables } from '../shared/proxy';
import {
  builtAt,
  isAlive,
  LEASES_DIR,
  liveLeases,
  ownStart,
  readLock,
  stillRuns,
  type LockInfo,
} from '../service/lockFile';

export interface LocalServiceOptions {
  /** Folder of the extension, holding dist/service.js. */
  extensionPath: string;
  /** Where the database lives (the extension's global storage). */
  dataDir: string;
  getToken: () => Thenable<string | undefined>;
  storeToken: (token: string) => Thenable<void>;
  /** Where the service finds model servers: URLs given, and whether to look on the usual local ports. */
  modelServers: () => { upstreams: string[]; discover: boolean };
  retentionDays: () => number;
  /**
   * VS Code's proxy setting, which the service's requests to providers go through (as HTTPS_PROXY and
   * HTTP_PROXY, over the environment's), and the hosts reached without it.
   */
  proxy: () => { url: string; noProxy: string[] };
  /** Whether it reads the current lists of its catalogue online (else the shipped ones stand). */
  updateCatalogue: () => boolean;
  /** The port to listen on; 0 takes a free one. */
  port: () => number;
  log: (message: string) => void;
  /** Called when the service this window started exits on its own (a crash, not a requested stop). */
  onExit: (code: number | null) => void;
}

export interface LocalEndpoint {
  url: string;
  token: string;
  pid: number;
}

export const LOCAL_TOKEN_KEY = 'llmSpaces.localService.token';

export class LocalService {
  private child: ChildProcess | undefined;
  private starting: Promise<LocalEndpoint> | undefined;
  private disposed = false;

  constructor(private readonly options: LocalServiceOptions) {}

  /** The running service (this window's or another's), started if there is none. */
  ensure(): Promise<LocalEndpoint> {
    this.starting ??= this.connectOrStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** This window's token for the service; `fresh` when it was just made (secret storage had none). */
  private async token(): Promise<{ token: string; fresh: boolean }> {
    const existing = await this.options.getToken();
    if (existing) return { token: existing, fresh: false };
    const token = `lls_${randomBytes(24).toString('base64url')}`;
    await this.options.storeToken(token);
    return { token, fresh: true };
  }

  private async connectOrStart(): Promise<LocalEndpoint> {
    mkdirSync(this.options.dataDir, { recursive: true });
    const { token, fresh } = await this.token();
    for (let attempt = 0; attempt < 3; attempt++) {
      const lock = readLock(this.options.dataDir);
      // A service that runs and says where it listens.
      const live = lock?.url && stillRuns(lock) ? { ...lock, url: lock.url } : undefined;
      const restart = live && attempt === 0 ? this.whyRestart(live, fresh) : undefined;
      if (restart) {
        this.options.log(restart);
        await this.stop();
        continue;
      }
      if (live && (await healthy(live.url))) {
        this.lease();
        if (live.pid !== this.child?.pid)
          this.options.log(`Connected to the built-in service of another window at ${live.url} (pid ${live.pid}).`);
        return { url: live.url, token, pid: live.pid };
      }
      if (lock && !lock.url && stillRuns(lock)) {
        // Another window is starting it right now.
        await delay(300);
        continue;
      }
      try {
        return await this.start(token);
      } catch (error) {
        if (!(error instanceof FolderTaken)) throw error;
      }
    }
    throw new Error('The built-in service did not start.');
  }

  /** Why this window restarts the running service before it connects, if it must. */
  private whyRestart(lock: LockInfo, freshToken: boolean): string | undefined {
    // Started with a token this window no longer has (its secret storage was emptied, as a browser's
    // can be): the service learns a new token only when it starts.
    if (freshToken) return 'This window has no token for the running built-in service: restarting it with a new one.';
    // Started from an older build (before an update or a rebuild, by a window that has not reloaded
    // since). An older window never restarts a newer one.
    if ((lock.built ?? 0) < builtAt(this.script))
      return 'The running built-in service is older than this window\u2019s: restarting it.';
    return undefined;
  }

  /** The service this window runs: dist/service.js of its extension. */
  private get script(): string {
    return path.join(this.options.extensionPath, 'dist', 'service.js');
  }

  private start(token: string): Promise<LocalEndpoint> {
    const args = [
      ...SERVICE_EXEC_ARGV,
      this.script,
      'serve',
      '--port',
      String(this.options.port()),
      '--host',
      '127.0.0.1',
      '--data',
      this.options.dataDir,
      '--retention-days',
      String(this.options.retentionDays()),
      // Should every window end without letting go of it (a crash), it stops by itself.
      '--stop-when-unused',
    ];
    const servers = this.options.modelServers();
    for (const url of servers.upstreams) args.push('--upstream', url);
    args.push('--discover', servers.discover ? 'on' : 'off');
    if (!this.options.updateCatalogue()) args.push('--prices-url', 'off', '--capabilities-url', 'off');
    this.options.log(
      `Starting the built-in service: ${path.basename(process.execPath)} ${args.map((a) => (path.basename(a) === a ? a : path.relative(this.options.extensionPath, a) || a)).join(' ')}`,
    );
    // The token travels in the environment, never on the command line where `ps` would show it.
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        ...proxyVariables(this.options.proxy()),
        ELECTRON_RUN_AS_NODE: '1',
        LLM_SPACES_TOKEN: token,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    let output = '';
    return new Promise<LocalEndpoint>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The built-in service did not start within 20 s.\n${output}`)),
        20_000,
      );
      // What it says goes to the log line by line (where its catalogue came from, a price list that
      // could not be read, a pruning), but for a token it prints once, which this window never has it print.
      let pending = '';
      const said = (d: Buffer | string) => {
        const lines = (pending + d.toString()).split('\n');
        pending = lines.pop()!;
        for (const line of lines)
          if (line.trim() && !/^Token of /.test(line) && !/listening on http/.test(line))
            this.options.log(`service: ${line.trim()}`);
      };
      let printed = '';
      const started = (d: Buffer) => {
        output += d.toString();
        printed += d.toString();
        const match = /listening on (http:\/\/\S+)/.exec(printed);
        if (!match) return;
        // Once: what the service prints later (its stop, a pruning) must not say it started again. The
        // stream keeps flowing, so the service never waits on a full pipe.
        child.stdout!.off('data', started);
        clearTimeout(timer);
        this.lease();
        said(printed);
        this.options.log(
          `Built-in service listening on ${match[1]} (pid ${child.pid}), data in ${this.options.dataDir}.`,
        );
        child.stdout!.on('data', said);
        resolve({ url: match[1]!, token, pid: child.pid! });
      };
      child.stdout!.on('data', started);
      child.stderr!.on('data', (d: Buffer) => {
        // The last of it, for the message if the service exits: it runs for days, and says things.
        output = (output + d.toString()).slice(-8_192);
        this.options.log(`service: ${d.toString().trim()}`);
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (this.child === child) this.child = undefined;
        if (/already using the data folder/.test(output)) return reject(new FolderTaken());
        reject(new Error(`The built-in service exited with code ${code}.\n${output.trim()}`));
        // A clean exit was asked for (another window restarted the service, or this one is restarting
        // it): not a crash. The next call finds the service running now (Connection.call reconnects
        // when its connection is refused).
        if (!this.disposed && code !== 0) this.options.onExit(code);
      });
      // Let the window close while the service keeps serving other windows.
      child.unref();
    });
  }

  /**
   * Stops the service this window is using (e.g. to restart it with another upstream) and returns only
   * once its process is gone, so a new one never meets a lock that is still held. The service gives
   * requests in flight a few seconds; one that does not exit by then is killed.
   */
  async stop(): Promise<void> {
    const lock = readLock(this.options.dataDir);
    if (!lock || !stillRuns(lock)) return;
    process.kill(lock.pid, 'SIGTERM');
    // Waiting asks only whether the pid is alive (on macOS, who started it costs a `ps`); before a kill,
    // that it is still the service's.
    for (let i = 0; i < STOP_WAIT_MS / 100 && isAlive(lock.pid); i++) await delay(100);
    if (!stillRuns(lock)) return;
    this.options.log(`The built-in service (pid ${lock.pid}) did not stop within ${STOP_WAIT_MS / 1000} s: ending it.`);
    process.kill(lock.pid, 'SIGKILL');
    for (let i = 0; i < 50 && isAlive(lock.pid); i++) await delay(100);
  }

  /** Each window holds a lease file; the last one to let go stops the service. */
  private lease(): void {
    // A window closed while the service was starting lets go of it at once: else nobody would stop it.
    if (this.disposed) return this.release();
    const dir = path.join(this.options.dataDir, LEASES_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, String(process.pid)), ownStart());
  }

  dispose(): void {
    this.disposed = true;
    this.release();
  }

  /** Gives this window's lease back, and stops the service if no other window holds one. */
  private release(): void {
    rmSync(path.join(this.options.dataDir, LEASES_DIR, String(process.pid)), { force: true });
    const lock = readLock(this.options.dataDir);
    if (liveLeases(this.options.dataDir).length === 0 && lock && stillRuns(lock)) {
      this.options.log('Last window closed: stopping the built-in service.');
      process.kill(lock.pid, 'SIGTERM');
    }
  }
}

class FolderTaken extends Error {}

/** The service's shutdown deadline for requests in flight (5 s) and a margin to close the database. */
const STOP_WAIT_MS = 10_000;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    await response.text();
    return response.status === 200;
  } catch {
    return false;
  }
}
