// VS Code's own chat in the workbench: the Spaces are language models VS Code knows, listed with
// their context size in "Chat: Manage Language Models". Sending from the chat view's picker needs a
// GitHub Copilot sign-in in this build (its picker offers only "Sign in to use Copilot…"), so replies
// are tested through the language model API in the host suite (test/integration/chat.test.ts).
import assert from 'node:assert/strict';
import { openWorkbench, runCommand, type Workbench } from './workbench';

describe("VS Code's chat with LLM Spaces (playwright)", function () {
  this.timeout(240_000);
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench();
  });
  after(async () => {
    await wb?.close();
  });

  it("lists each Space among VS Code's language models, with its context size", async () => {
    const { page } = wb;
    await page.locator('.activitybar .action-item a[aria-label^="LLM Spaces"]').click();
    const client = await wb.service();
    const spaces = (await client.listSpaces()).items.filter((s) => !s.sandbox_of);
    await runCommand(page, 'Chat: Manage Language Models');
    const rows = page.locator('.monaco-modal-editor-block .models-model-row');
    for (const space of spaces) await rows.filter({ hasText: space.name! }).first().waitFor({ timeout: 60_000 });
    const mine = rows.filter({ hasText: 'My first Space' }).filter({ hasNotText: 'Current' }).first();
    const label = await mine.locator('xpath=..').getAttribute('aria-label');
    assert.match(label ?? '', /^My first Space from LLM Spaces\. Context size: \d+K tokens\./);
    await rows.filter({ hasText: 'Current Space (My first Space)' }).waitFor();
    await wb.screenshot('20-chat-language-models');
    await page.keyboard.press('Escape');
  });
});
