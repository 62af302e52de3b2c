// VS Code's chat in a fresh profile, as a new user meets it: the chat lists the Spaces but runs its
// small tasks (titles, summaries) on GitHub Copilot's utility model by default, and so asks for a
// Copilot sign-in before it sends. The extension says so once a Space can answer, and sets VS Code's
// setting on request. The chat's own agent still asks for a sign-in in this code-server build, which
// has no Copilot extension; `@spaces` answers without one, and its replies are sent here.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { notification, openWorkbench, runCommand, type Workbench } from './workbench';

/** How many times VS Code's extension hosts have started this extension, as their logs say. */
function activations(userDataDir: string): number {
  const logs = path.join(userDataDir, 'logs');
  const hosts = (existsSync(logs) ? readdirSync(logs) : []).flatMap((stamp) =>
    readdirSync(path.join(logs, stamp))
      .filter((dir) => dir.startsWith('exthost'))
      .map((dir) => path.join(logs, stamp, dir, 'remoteexthost.log')),
  );
  return hosts.filter(
    (log) => existsSync(log) && readFileSync(log, 'utf8').includes('_doActivateExtension llm-spaces.llm-spaces'),
  ).length;
}

describe("VS Code's chat in a fresh profile (playwright)", function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.screenshot('failed-chat-setup');
  });
  after(async () => {
    await wb?.close();
  });

  it("says why the chat asks for a Copilot sign-in, and runs its small tasks on the chat's model on request", async () => {
    const { page } = wb;
    await wb.service();
    // The offer, made once a Space can answer (toasts are hidden by the test driver: the center has it).
    await notification(page, 'asks for a Copilot sign-in before it sends');
    await runCommand(page, "LLM Spaces: Use the Chat's Model for Its Small Tasks");
    // VS Code writes the user's settings file a moment later.
    const file = path.join(wb.server.userDataDir, 'User', 'settings.json');
    const setting = () => {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)['chat.byokUtilityModelDefault'];
      } catch {
        return undefined;
      }
    };
    const deadline = Date.now() + 30_000;
    while (setting() !== 'mainAgent' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await wb.screenshot('08a-chat-setting-made');
    assert.equal(setting(), 'mainAgent');
  });

  it('sends a message to a Space with @spaces, with no Copilot sign-in, and goes on with the conversation', async () => {
    const { page } = wb;
    const client = await wb.service();
    // What the organization counted: each message that reached the service.
    const logged = async () => (await client.getOrganization()).num_requests;
    const before = await logged();
    await runCommand(page, 'Chat: Open Chat');
    const input = page.locator('.interactive-input-part .monaco-editor').first();
    await input.click();
    await page.keyboard.type('@spaces Hello from the chat');
    await page.keyboard.press('Enter');
    const replies = page.locator('.interactive-item-container.interactive-response');
    const receipt = /— Routed to test\/\w+: .* · \$[\d.]+ · \d+ tokens/;
    await replies.filter({ hasText: receipt }).first().waitFor({ timeout: 60_000 });
    assert.equal(
      await page.locator('.monaco-dialog-box', { hasText: 'Sign in to use GitHub Copilot' }).count(),
      0,
      'no Copilot sign-in was asked for',
    );
    await wb.screenshot('08b-chat-sent');
    // The participant stays chosen: the next message goes to the Space with the first turn before it.
    await input.click();
    await page.keyboard.type('And again');
    await page.keyboard.press('Enter');
    await replies.nth(1).filter({ hasText: receipt }).waitFor({ timeout: 60_000 });
    const deadline = Date.now() + 10_000;
    while ((await logged()) < before + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(await logged(), before + 2, 'both messages reached the service');
  });

  it('answers the first @spaces message of a window reloaded, with the Space VS Code remembers in its picker', async () => {
    const { page } = wb;
    // VS Code shows the model its picker had in the last window before the extension has listed any,
    // and refused a message sent to it until then ("Language model unavailable"): the extension now
    // lists the Spaces as it starts.
    const before = activations(wb.server.userDataDir);
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const deadline = Date.now() + 60_000;
    while (activations(wb.server.userDataDir) <= before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    await runCommand(page, 'Chat: New Chat');
    const input = page.locator('.interactive-input-part').first();
    await input
      .getByText(/Current Space/)
      .first()
      .waitFor({ timeout: 30_000 });
    await input.locator('.monaco-editor').first().click();
    await page.keyboard.type('@spaces The first message of this window');
    await page.keyboard.press('Enter');
    const reply = page.locator('.interactive-item-container.interactive-response').first();
    await reply.filter({ hasText: /— Routed to test\/\w+: |Language model unavailable/ }).waitFor({ timeout: 60_000 });
    await wb.screenshot('08c-chat-first-message-after-reload');
    assert.doesNotMatch(await reply.innerText(), /Language model unavailable/);
  });
});
