// The same extension-host suite in desktop VS Code through @vscode/test-electron, for machines that
// have a VS Code binary (VSCODE_EXECUTABLE_PATH) or can download one. This machine cannot; CI uses
// runIntegration.ts with code-server instead.
import '../calendar';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ROOT } from './codeServer';

async function main(): Promise<void> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'llm-spaces-desktop-'));
  cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  await runTests({
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: path.join(ROOT, 'out/test/integration/index.js'),
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH,
    version: process.env.VSCODE_EXECUTABLE_PATH ? undefined : '1.104.0',
    launchArgs: [workspace, '--disable-extensions', '--skip-welcome', '--skip-release-notes'],
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
