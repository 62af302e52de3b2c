// The workbench as `npm start` opens it for a person (no smoke-test driver, the extension installed from
// the working tree): an error shows as a notification toast, not only as a dot on the bell.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../host/codeServer';
import { startUserWorkbench, type StartedWorkbench } from '../host/startWorkbench';
import { ARTIFACTS, runCommand } from './workbench';

describe("The workbench of 'npm start' (playwright)", function () {
  this.timeout(180_000);
  let home: string;
  let started: StartedWorkbench;
  let browser: Browser;
  let page: Page;

  before(async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'llm-spaces-start-'));
    started = await startUserWorkbench(home);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(started.url);
    await page.locator('.activitybar .action-item a[aria-label^="LLM Spaces"]').waitFor({ timeout: 120_000 });
  });
  after(async () => {
    await browser?.close();
    await started?.server.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('loads the extension without the test driver and shows an error as a toast', async () => {
    await runCommand(page, 'LLM Spaces: Connect to Service…');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Remote service…' }).click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Remote service URL' }).waitFor();
    await page.locator('.quick-input-widget input').fill('http://127.0.0.1:9');
    await page.keyboard.press('Enter');
    const toast = page.locator('.notification-toast', { hasText: 'Nothing answers at http://127.0.0.1:9.' });
    await toast.waitFor({ timeout: 30_000 });
    assert.ok(await toast.isVisible());
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, '30-npm-start-error-toast.png') });
  });
});
