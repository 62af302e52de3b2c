// Drives the real VS Code workbench (VS Code's server from code-server's package) in Chromium with the extension loaded, for UI tests.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { LlmSpacesClient } from '../../src/api/client';
import { readLock } from '../../src/service/lockFile';
import {
  ROOT,
  launchBrowser,
  remoteUri,
  serviceDataDir,
  startCodeServer,
  workbenchUrl,
  type CodeServer,
} from '../host/codeServer';

const run = promisify(execFile);
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'ui');

export interface Workbench {
  page: Page;
  server: CodeServer;
  browser: Browser;
  /** A token of the organization the extension uses, minted for the tests (typed into sign-in by one). */
  token: string;
  /** A client with its own token of the organization the extension uses, for checks on the service. */
  service: () => Promise<LlmSpacesClient>;
  screenshot: (name: string) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * Starts code-server with the extension (from the working tree, or installed from a .vsix when
 * LLM_SPACES_VSIX is set) and opens the workbench on a copy of the sample workspace.
 */
export async function openWorkbench(): Promise<Workbench> {
  const server = await startCodeServer();
  const workspace = path.join(server.tmp, 'workspace');
  cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  const vsix = process.env.LLM_SPACES_VSIX;
  const extensionId = 'llm-spaces.llm-spaces';
  const payload: Array<[string, string]> = [['skipWelcome', 'true']];
  if (vsix) {
    await server.installExtension(vsix);
    if (!readdirSync(server.extensionsDir).some((d) => d.startsWith(`${extensionId}-`)))
      throw new Error(`${vsix} did not install into ${server.extensionsDir}`);
  } else {
    payload.unshift(['extensionDevelopmentPath', remoteUri(server, ROOT)]);
  }
  // Before the extension starts its built-in service, mint a token of our own in the same data folder.
  const dataDir = serviceDataDir(server);
  mkdirSync(dataDir, { recursive: true });
  const { stdout } = await run(process.execPath, [
    path.join(ROOT, 'dist/service.js'),
    'token',
    'create',
    '--data',
    dataDir,
  ]);
  const token = (JSON.parse(stdout) as { token: string }).token;
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(workbenchUrl(server, workspace, payload));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The extension's contributions are in once its container is in the activity bar.
  await page.locator('.activitybar .action-item a[aria-label^="LLM Spaces"]').waitFor({ timeout: 120_000 });
  mkdirSync(ARTIFACTS, { recursive: true });
  let client: LlmSpacesClient | undefined;
  return {
    page,
    server,
    browser,
    token,
    service: async () => {
      // A window reload may start a new service (the old window was the last to use the old one).
      const current = readLock(dataDir);
      if (client && current?.url === client.baseUrl) return client;
      await client?.close();
      client = undefined;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const lock = readLock(dataDir);
        if (lock?.url) return (client = new LlmSpacesClient({ baseUrl: lock.url, token: () => token }));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('The extension did not start its built-in service.');
    },
    screenshot: async (name) => {
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    close: async () => {
      await client?.close();
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * Runs a command from the command palette by its title. On a busy machine the palette can open before
 * the extension's commands are registered; then it is closed and opened again.
 */
/**
 * Runs a command that asks with a quick pick, and picks the row with `row`. A page still opening (Get
 * Started) can take the focus and close the pick: then it is asked again.
 */
export async function runCommandAndPick(page: Page, title: string, row: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, title);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().click({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

export async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    try {
      // An editor that is still opening can take the focus back and close the palette: try again.
      await input.waitFor({ timeout: 5_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 4) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await page.keyboard.press('Enter');
}

/** The labels of the rows of one view (by its title) in the side bar. */
export function rowsOf(page: Page, viewTitle: string) {
  return page.locator(`.pane:has(.pane-header[aria-label^="${viewTitle}"]) .monaco-list-row .label-name`);
}

/** The whole rows of one view (label and description), for what a row says beside its label. */
export function fullRowsOf(page: Page, viewTitle: string) {
  return page.locator(`.pane:has(.pane-header[aria-label^="${viewTitle}"]) .monaco-list-row`);
}

/** Filters the Models view by text (the catalogue is too long to find a row by scrolling); '' clears it. */
export async function filterModels(page: Page, text: string): Promise<void> {
  if (text === '') return runCommand(page, 'LLM Spaces: Clear Model Filter');
  await runCommand(page, 'LLM Spaces: Filter Models by Text…');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Filter models' }).waitFor();
  await page.locator('.quick-input-widget input').fill(text);
  await page.keyboard.press('Enter');
}

/** A notification with this text, looked up in the notification center (then cleared). */
export async function notification(page: Page, text: string): Promise<void> {
  await runCommand(page, 'Notifications: Show Notifications');
  await page
    .locator('.notifications-center .notification-list-item', { hasText: text })
    .first()
    .waitFor({ timeout: 30_000 });
  await runCommand(page, 'Notifications: Clear All Notifications');
}

/** The content frame of the webview panel in the active editor group. */
export const webview = (page: Page): FrameLocator =>
  page.locator('iframe.webview.ready').last().contentFrame().frameLocator('#active-frame');

/** Picks a model in a webview's model field (the playground's, the comparison's) by typing its name. */
export async function chooseModel(frame: FrameLocator, namespace: string): Promise<void> {
  await frame
    .locator(`[data-path="model"] vscode-option[value="${namespace}"]`)
    .waitFor({ state: 'attached', timeout: 60_000 });
  const input = frame.locator('[data-path="model"] input');
  await input.click();
  await input.fill(namespace);
  // Typing filters the options; ArrowDown makes the first match active, Enter picks it.
  await input.press('ArrowDown');
  await input.press('Enter');
}
