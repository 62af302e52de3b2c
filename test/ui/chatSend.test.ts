// VS Code's chat in a fresh profile, as a new user meets it: the chat lists the Spaces but runs its
// small tasks (titles, summaries) on GitHub Copilot's utility model by default, and so asks for a
// Copilot sign-in before it sends. The extension says so once a Space can answer, and sets VS Code's
// setting on request. (Sending from the chat view's own input still asks for a Copilot sign-in in
// agent mode in this code-server build, so replies are tested through the language model API in the
// host suite.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { notification, openWorkbench, runCommand, type Workbench } from './workbench';

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
});
