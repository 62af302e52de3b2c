// Starts a real VS Code server (the one inside code-server's npm package) on a free loopback port with
// throwaway data and extension folders, and Debian's Chromium driven by playwright-core to open the
// workbench. Two hosts: the current VS Code (1.139, on Node 24) and the lowest the extension supports
// (1.104, on Node 22, from test/host/vscode-1.104). VS Code's own server-main.js is started rather than
// code-server's CLI because only it takes --enable-smoke-test-driver, without which the workbench
// ignores the payload that loads a development extension and its tests. That driver also hides every
// notification toast, so `npm start` runs without it and links the working tree into the extensions
// folder instead (see linkExtension).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { isAlive, readLock } from '../../src/service/lockFile';

export const ROOT = path.resolve(__dirname, '../../..');

/** The Node versions .ci/setup installed into .tools/ (see .ci/versions). */
function pinnedNode(name: 'PROJECT_NODE' | 'MIN_HOST_NODE'): string {
  const version = new RegExp(`^${name}=(\\S+)`, 'm').exec(readFileSync(path.join(ROOT, '.ci/versions'), 'utf8'))?.[1];
  const binary = path.join(ROOT, '.tools', `node-${version}`, 'bin', 'node');
  if (!existsSync(binary)) throw new Error(`Node ${version} is not installed in .tools: run bash .ci/setup.`);
  return binary;
}

export interface Host {
  name: 'current' | 'minimum';
  /** VS Code's folder inside code-server's package. */
  vscode: string;
  node: string;
}

/** The host named by LLM_SPACES_HOST (default: the current VS Code). */
export function hostFromEnv(): Host {
  if (process.env.LLM_SPACES_HOST === 'minimum') {
    return {
      name: 'minimum',
      vscode: path.join(ROOT, 'test/host/vscode-1.104/node_modules/code-server/lib/vscode'),
      node: pinnedNode('MIN_HOST_NODE'),
    };
  }
  return {
    name: 'current',
    vscode: path.join(ROOT, 'node_modules/code-server/lib/vscode'),
    node: pinnedNode('PROJECT_NODE'),
  };
}

export const vscodeVersion = (host: Host) =>
  (JSON.parse(readFileSync(path.join(host.vscode, 'package.json'), 'utf8')) as { version: string }).version;

export interface CodeServer {
  host: Host;
  port: number;
  base: string;
  tmp: string;
  extensionsDir: string;
  /** The server's user data: extensions' global storage is under User/globalStorage. */
  userDataDir: string;
  process: ChildProcess;
  /** Installs a .vsix into this server's extension folder. */
  installExtension: (vsix: string) => Promise<void>;
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
  host?: Host;
  /** Extra settings, written as the server's machine settings. */
  settings?: Record<string, unknown>;
  log?: (line: string) => void;
  /** A folder to keep data in (default: a new temporary one, removed on stop). */
  home?: string;
  /** Keep `home` when stopping. */
  keep?: boolean;
  port?: number;
  /**
   * The smoke-test driver (default on): the workbench then honours the payload that loads a development
   * extension and its tests, and hides notification toasts. Off for `npm start`, which shows them.
   */
  driver?: boolean;
}

/** Where the extension's built-in service keeps its data on this server. */
export const serviceDataDir = (server: CodeServer) =>
  path.join(server.userDataDir, 'User', 'globalStorage', 'llm-spaces.llm-spaces', 'service');

function serverArgs(host: Host, dirs: { userDataDir: string; serverDataDir: string; extensionsDir: string }): string[] {
  return [
    path.join(host.vscode, 'out', 'server-main.js'),
    '--accept-server-license-terms',
    '--disable-telemetry',
    '--user-data-dir',
    dirs.userDataDir,
    '--server-data-dir',
    dirs.serverDataDir,
    '--extensions-dir',
    dirs.extensionsDir,
  ];
}

export async function startCodeServer(options: StartOptions = {}): Promise<CodeServer> {
  const host = options.host ?? hostFromEnv();
  const tmp = options.home ?? mkdtempSync(path.join(os.tmpdir(), 'llm-spaces-host-'));
  const dirs = {
    userDataDir: path.join(tmp, 'user'),
    serverDataDir: path.join(tmp, 'server'),
    extensionsDir: path.join(tmp, 'extensions'),
  };
  const machineSettings = path.join(dirs.userDataDir, 'Machine', 'settings.json');
  mkdirSync(path.dirname(machineSettings), { recursive: true });
  mkdirSync(dirs.extensionsDir, { recursive: true });
  // Auto save off, as in desktop VS Code: the web's default saves a second after each change, and the
  // tests of saving, reverting and hot exit need to decide when a save happens.
  if (!existsSync(machineSettings) || options.settings)
    writeFileSync(
      machineSettings,
      JSON.stringify({
        'telemetry.telemetryLevel': 'off',
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'update.mode': 'none',
        'security.workspace.trust.enabled': false,
        'files.autoSave': 'off',
        // The suites expect the catalogue of the price list shipped, not of the one online that day;
        // VS Code started for a person (npm start, no driver) reads it as the extension does.
        ...(options.driver === false ? {} : { 'llmSpaces.localService.updateCatalogue': false }),
        ...options.settings,
      }),
    );
  if (options.driver === false) linkExtension(dirs.extensionsDir);
  const port = options.port ?? (await freePort());
  const child = spawn(
    host.node,
    [
      ...serverArgs(host, dirs),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      ...(options.driver === false ? [] : ['--enable-smoke-test-driver']),
      '--disable-workspace-trust',
    ],
    {
      env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'data') },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`VS Code's server did not start:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      options.log?.(d.toString().trimEnd());
      if (output.includes('Extension host agent listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`VS Code's server exited with ${code}:\n${output}`)));
  });
  const server: CodeServer = {
    host,
    port,
    base: `http://127.0.0.1:${port}`,
    tmp,
    extensionsDir: dirs.extensionsDir,
    userDataDir: dirs.userDataDir,
    process: child,
    installExtension: async (vsix) => {
      await promisify(execFile)(host.node, [...serverArgs(host, dirs), '--install-extension', path.resolve(vsix)]);
    },
    stop: async () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The built-in service outlives a killed extension host by design (other windows may use it);
      // this server's windows are all gone, so it goes too, and its lock with it (it finishes what it
      // is answering first: up to 5 s).
      const lock = readLock(serviceDataDir(server));
      if (lock && isAlive(lock.pid)) {
        process.kill(lock.pid, 'SIGTERM');
        for (const deadline = Date.now() + 8000; isAlive(lock.pid) && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!options.keep) rmSync(tmp, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * Puts the extension of this working tree among the server's installed extensions, as a link listed in
 * the folder's extensions.json (what the server reads at start), so a workbench without the smoke-test
 * driver loads it. A change to the build shows after Developer: Reload Window.
 */
function linkExtension(extensionsDir: string): void {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = `${id}-${manifest.version}`;
  const link = path.join(extensionsDir, folder);
  if (!existsSync(link)) symlinkSync(ROOT, link, 'dir');
  const listFile = path.join(extensionsDir, 'extensions.json');
  const listed = existsSync(listFile)
    ? (JSON.parse(readFileSync(listFile, 'utf8')) as Array<{ identifier: { id: string } }>)
    : [];
  const entry = {
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, path: link, scheme: 'file' },
    relativeLocation: folder,
  };
  writeFileSync(listFile, JSON.stringify([...listed.filter((e) => e.identifier.id !== id), entry]));
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The workbench URL with a payload that loads the extension (and, optionally, a test suite). */
export function workbenchUrl(server: CodeServer, folder: string, payload: Array<[string, string]>): string {
  return `${server.base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export const remoteUri = (server: CodeServer, absPath: string) => `vscode-remote://127.0.0.1:${server.port}${absPath}`;

export type { Page };
