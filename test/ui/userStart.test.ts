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
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'failed-npm-start.png') });
    }
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
    // Its fade-in over before the screenshot: another toast (the chat's offer) may come in with it.
    await page
      .locator('.notification-toast.notification-fade-in-done', { hasText: 'Nothing answers at http://127.0.0.1:9.' })
      .waitFor({ timeout: 10_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, '30-npm-start-error-toast.png') });
  });

  it("says what the walkthrough's Refresh Local Models found, in a toast", async () => {
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'LLM Spaces: Connect to Service…');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Built-in local service' }).click();
    // Back on the built-in service once the status bar shows this cycle's spend again.
    await page
      .locator('.statusbar-item[id$="llmSpaces.usage"]', { hasText: /\$[\d.]+ \/ \$/ })
      .waitFor({ timeout: 60_000 });
    await runCommand(page, 'LLM Spaces: Get Started');
    const step = page.locator('.getting-started-step', { hasText: 'Choose where models come from' }).first();
    await step.click();
    await step.locator('.button-link, a, .monaco-button', { hasText: 'Refresh Local Models' }).first().click();
    // None runs here, unless this machine has one: either way the answer is said, not only the step ticked.
    const toast = page.locator('.notification-toast', {
      hasText: /No model server answers on this computer|Their models answer here at no cost/,
    });
    await toast.first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(ARTIFACTS, '32-walkthrough-refresh-said.png') });
  });
});
