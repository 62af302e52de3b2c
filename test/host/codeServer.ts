// Starts code-server (VS Code 1.100 from npm) on a free loopback port with throwaway user and
// extension folders, and Debian's Chromium driven by playwright-core to open the workbench.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { isAlive, readLock } from '../../src/service/lockFile';

export const ROOT = path.resolve(__dirname, '../../..');
const ENTRY = path.join(ROOT, 'node_modules/code-server/out/node/entry.js');

export interface CodeServer {
  port: number;
  base: string;
  tmp: string;
  extensionsDir: string;
  userDataDir: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  log?: (line: string) => void;
  /** A folder to keep user data in (default: a new temporary one, removed on stop). */
  home?: string;
  /** Keep `home` when stopping. */
  keep?: boolean;
  port?: number;
}

export async function startCodeServer(options: StartOptions = {}): Promise<CodeServer> {
  const tmp = options.home ?? mkdtempSync(path.join(os.tmpdir(), 'llm-spaces-host-'));
  const userDataDir = path.join(tmp, 'user');
  const extensionsDir = path.join(tmp, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  if (!existsSync(settingsFile)) writeFileSync(
    settingsFile,
    JSON.stringify({
      'telemetry.telemetryLevel': 'off',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'update.mode': 'none',
      'security.workspace.trust.enabled': false,
      ...options.settings,
    }),
  );
  const port = options.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [ENTRY, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
    { env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'data') }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      options.log?.(d.toString().trimEnd());
      if (output.includes('HTTP server listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited with ${code}:\n${output}`)));
  });
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    tmp,
    extensionsDir,
    userDataDir,
    process: child,
    stop: async () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The built-in service outlives a killed extension host by design (other windows may use it);
      // a test's server takes its service along.
      const lock = readLock(path.join(userDataDir, 'User', 'globalStorage', 'llm-spaces.llm-spaces', 'service'));
      if (!options.keep && lock && isAlive(lock.pid)) process.kill(lock.pid, 'SIGTERM');
      if (!options.keep) rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** The workbench URL with a payload that loads the extension (and, optionally, a test suite). */
export function workbenchUrl(server: CodeServer, folder: string, payload: Array<[string, string]>): string {
  return `${server.base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export const remoteUri = (server: CodeServer, absPath: string) => `vscode-remote://127.0.0.1:${server.port}${absPath}`;

export type { Page };
