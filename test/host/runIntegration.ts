// Runs the mocha suite of test/integration inside a real VS Code extension host (LLM_SPACES_HOST: the
// current VS Code, or `minimum` for the engines.vscode floor), with the
// extension loaded from this folder (or, with --vsix, installed from a package), and exits with the
// suite's exit code. Desktop users with a VS Code binary can use runDesktop.ts instead.
import '../calendar';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import {
  ROOT,
  launchBrowser,
  remoteUri,
  serviceDataDir,
  startCodeServer,
  vscodeVersion,
  workbenchUrl,
} from './codeServer';

const WATCHDOG_MS = Number(process.env.HOST_TEST_TIMEOUT_MS ?? 10 * 60_000);

async function main(): Promise<number> {
  const server = await startCodeServer();
  console.log(
    `Extension-host suite in VS Code ${vscodeVersion(server.host)} (the ${server.host.name} host), Node ${execFileSync(server.host.node, ['--version']).toString().trim()}`,
  );
  const workspace = path.join(server.tmp, 'workspace');
  mkdirSync(workspace, { recursive: true });
  cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  // The suite sends more requests a minute than a person does: raise the limit of the organization the
  // extension's built-in service will use, before the extension starts it.
  const dataDir = serviceDataDir(server);
  mkdirSync(dataDir, { recursive: true });
  execFileSync(server.host.node, [
    path.join(ROOT, 'dist/service.js'),
    'org',
    'limit',
    '--rate-limit',
    '100000',
    '--data',
    dataDir,
  ]);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const exit = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
        const line = format(...(args as [unknown, ...unknown[]]));
        // The workbench's own chat and agent services log their state on every editor change.
        if (/^\[(ChatModelSelection|AgentHost)\]/.test(line)) return;
        (type === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
      });
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    const url = workbenchUrl(server, workspace, [
      ['extensionDevelopmentPath', remoteUri(server, ROOT)],
      // LLM_SPACES_HOST_SUITE runs another entry in the host, e.g. the benchmarks' (bench/host/index.js).
      [
        'extensionTestsPath',
        remoteUri(server, path.join(ROOT, 'out/test', process.env.LLM_SPACES_HOST_SUITE ?? 'integration/index.js')),
      ],
      ['skipWelcome', 'true'],
    ]);
    await page.goto(url);
    const watchdog = new Promise<number>((resolve) =>
      setTimeout(() => {
        console.error(`The extension-host suite did not finish within ${WATCHDOG_MS / 1000} s.`);
        resolve(1);
      }, WATCHDOG_MS).unref(),
    );
    return await Promise.race([exit, watchdog]);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
