// UI tests of the webviews in a real workbench: code sent from the editor to the playground and the
// streamed reply rendered there; an XSS payload in a reply that stays inert; a weight changed and saved
// in the Space settings editor; the organization panel. Screenshots go to test-artifacts/ui.
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startFakeUpstream } from '../unit/support/fakeUpstream';
import { startHostedFake } from '../unit/support/hostedFake';
import {
  chooseModel,
  fullRowsOf,
  openWorkbench,
  rowsOf,
  runCommand,
  runCommandAndPick,
  webview,
  type Workbench,
} from './workbench';

async function closeAllEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await page
    .locator('iframe.webview.ready')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

async function waitUntil(check: () => Promise<boolean>, timeout = 20_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first dollar amount in a text ("$0.00010 / $50.00" → 0.0001). */
const dollars = (text: string) => Number(/\$(-?[\d.]+)/.exec(text)?.[1] ?? NaN);

/** The header of a view of the side bar, by its title (clicking it folds or unfolds the view). */
const paneHeader = (page: Page, title: string) => page.locator(`.pane-header[aria-label^="${title}"]`).first();

/** Shows the LLM Spaces side bar (its activity bar icon hides it when it is showing already). */
async function showSideBar(page: Page): Promise<void> {
  if (!(await paneHeader(page, 'Spaces').isVisible()))
    await page.locator('.activitybar .action-item a[aria-label^="LLM Spaces"]').click();
  await paneHeader(page, 'Spaces').waitFor();
}

/** Folds or unfolds a view of the side bar, and waits until it is so. */
async function setFolded(page: Page, title: string, folded: boolean): Promise<void> {
  const header = paneHeader(page, title);
  const wanted = folded ? 'false' : 'true';
  if ((await header.getAttribute('aria-expanded')) !== wanted) await header.click();
  await page.locator(`.pane-header[aria-label^="${title}"][aria-expanded="${wanted}"]`).first().waitFor();
}

/** Picks an option of a vscode-elements select as a user does: open it, click the option. */
async function choose(select: Locator, label: string | RegExp): Promise<void> {
  await select.click();
  await select.getByRole('option', { name: label, exact: true }).click();
}

describe('LLM Spaces webviews (playwright)', function () {
  this.timeout(240_000);
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench();
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await wb.screenshot(`failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  it('sends the selected code to the playground and renders the streamed reply', async () => {
    const { page } = wb;
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('cart.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'cart.ts' }).first().waitFor();
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+A');
    await runCommand(page, 'LLM Spaces: Send Selection to Playground');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Send the code as is' }).first().waitFor();
    await page.keyboard.press('Enter');

    const frame = webview(page);
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.waitFor({ timeout: 60_000 });
    await frame.locator('.estimate', { hasText: /tokens/ }).waitFor();
    const text = await prompt.inputValue();
    assert.match(text, /^```typescript src\/cart\.ts\n/, 'a fenced block with the language and file name');
    assert.ok(text.includes('export function total'), 'the selected code is the prompt');
    // The conversation is empty, but the prompt box is not: the empty conversation says so.
    assert.equal(
      await frame.locator('.transcript .empty:visible').innerText(),
      'Your prompt is ready below: press Send or Ctrl+Enter to send it.',
    );
    await chooseModel(frame, 'test/echo');
    // The service's cost band for the request as it would be sent, over test/echo and the failover chain.
    const band = frame.locator('.estimate', { hasText: 'tokens to send' }).filter({ hasText: 'at test/echo' });
    await band.waitFor();
    const bandText = await band.innerText();
    const expected = dollars(/expected (\$[\d.]+)/.exec(bandText)?.[1] ?? bandText);
    await wb.screenshot('10-playground-selection');
    const spend = page.locator('.statusbar-item[id$="llmSpaces.usage"]');
    const spentBefore = dollars(await spend.innerText());
    await prompt.press('Control+Enter');

    const figures = frame.locator('.turn .meta .figures').last();
    await figures.waitFor({ timeout: 30_000 });
    // No "saved $0.00": nothing was saved against the Space's benchmark model.
    assert.match(await figures.innerText(), /^test\/echo · \d+ tokens .* · \$[\d.]+ · [\d.]+ s/);
    const code = frame.locator('.turn .reply pre code').last();
    assert.ok((await code.innerText()).includes('export function total'));
    assert.ok(
      (await frame.locator('.turn .reply pre code .hljs-keyword').count()) > 0,
      'the code block is highlighted',
    );
    await frame.locator('.turn .reply .code-actions vscode-button', { hasText: 'Insert at Cursor' }).first().waitFor();
    assert.equal(await frame.locator('.transcript .empty:visible').count(), 0, 'no word of an empty conversation');
    // "Copied." is said for a moment, not until something else is said.
    await frame.locator('.turn .reply .code-actions vscode-button', { hasText: 'Copy' }).first().click();
    const status = frame.locator('#app .status');
    await status.filter({ hasText: 'Copied.' }).waitFor();
    await status.filter({ hasText: 'Copied.' }).waitFor({ state: 'detached', timeout: 6000 });
    // The README's first picture: the reply's end with its figures in view.
    await figures.scrollIntoViewIfNeeded();
    await wb.screenshot('11-playground-reply');
    // The routing receipt: one line under the reply, unfolding to the candidates the Space weighed.
    const receipt = frame.locator('.turn .meta .receipt').last();
    assert.equal(await receipt.locator('summary').innerText(), 'Sent to test/echo, the model asked for');
    await receipt.locator('summary').click();
    await receipt.locator('table[aria-label="Candidates"] td', { hasText: 'test/echo' }).first().waitFor();
    // Unfolded at the foot of the conversation, it scrolls itself into view.
    await frame.locator('.transcript').evaluate(
      (log) =>
        new Promise<void>((resolve, reject) => {
          const details = log.querySelector('.turn:last-child .receipt')!;
          const deadline = Date.now() + 5000;
          const check = () => {
            if (details.getBoundingClientRect().bottom <= log.getBoundingClientRect().bottom + 1) resolve();
            else if (Date.now() > deadline) reject(new Error('the unfolded receipt is below the visible part'));
            else setTimeout(check, 50);
          };
          check();
        }),
    );
    assert.doesNotMatch(
      await receipt.innerText(),
      /max_cost|[0-9a-f]{8}-[0-9a-f]{4}-/,
      'words, not field names or ids',
    );
    await wb.screenshot('11a-playground-receipt');
    await receipt.locator('summary').click();
    // The status bar's spend moves with the reply's own figures, at once, not on the next poll.
    const replyCost = dollars((await figures.innerText()).split(' · ').find((part) => part.startsWith('$'))!);
    assert.equal(replyCost, expected, `a test model bills what the band expected (${bandText})`);
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && dollars(await spend.innerText()) <= spentBefore) await page.waitForTimeout(100);
    // Both sides are shown to two significant digits below a dime.
    const spentAfter = dollars(await spend.innerText());
    assert.ok(
      spentAfter > spentBefore && Math.abs(spentAfter - (spentBefore + replyCost)) <= 0.1 * spentAfter,
      `${await spend.innerText()} after a reply of $${replyCost}`,
    );
  });

  it('renames the conversation from the playground, pre-filled with its own name', async () => {
    const { page } = wb;
    const frame = webview(page);
    const conversation = frame.locator('[data-path="conversation_id"]');
    const before = await conversation.evaluate((el) => (el as unknown as { value: string }).value);
    await frame.locator('vscode-button', { hasText: 'Rename…' }).click();
    const input = frame.locator('.rename vscode-textfield input');
    await input.waitFor();
    // The whole row fits the panel: its Cancel is not cut off at the edge.
    const overflow = await frame
      .locator('.rename')
      .evaluate((row) =>
        [...row.children].map((c) => c.getBoundingClientRect().right - row.ownerDocument.documentElement.clientWidth),
      );
    assert.ok(
      overflow.every((px) => px <= 0),
      `past the panel's edge by ${overflow.join(', ')} px`,
    );
    await wb.screenshot('11b-playground-rename');
    assert.equal(await input.inputValue(), 'Code from src/cart.ts', 'the name of this conversation, not another');
    await input.fill('Cart review');
    await input.press('Enter');
    await frame
      .locator('[data-path="conversation_id"] vscode-option', { hasText: 'Cart review' })
      .waitFor({ state: 'attached' });
    const client = await wb.service();
    const space = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    assert.equal((await client.listConversations(space.id)).find((c) => c.id === before)?.name, 'Cart review');
    await wb.screenshot('11b-playground-renamed');
  });

  it('renders script, event-handler and javascript: payloads in a reply as inert text, and a list as numbered', async () => {
    const { page } = wb;
    const frame = webview(page);
    const payload = [
      '<script>window.__pwned = "script"</script>',
      '<img src=x onerror="window.__pwned = \'img\'">',
      "[click me](javascript:window.__pwned='link')",
      '<a href="javascript:window.__pwned=\'a\'">a link</a>',
      '<svg onload="window.__pwned=\'svg\'"></svg>',
      // A list that goes on from an earlier one (as a model's does after a code block) keeps its numbers.
      '3. third\n4. fourth',
    ].join('\n\n');
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.fill(payload);
    await prompt.press('Control+Enter');
    const reply = frame.locator('.turn .reply').last();
    await frame.locator('.turn .meta .figures').nth(1).waitFor({ timeout: 30_000 });
    const shown = await reply.innerText();
    assert.ok(shown.includes('<script>window.__pwned = "script"</script>'), 'the script tag shows as text');
    assert.ok(shown.includes('onerror='), 'the handler shows as text');
    const dom = await reply.evaluate((el) => ({
      scripts: el.querySelectorAll('script').length,
      images: el.querySelectorAll('img').length,
      svgs: el.querySelectorAll('svg').length,
      handlers: [...el.querySelectorAll('*')].filter((n) => [...n.attributes].some((a) => a.name.startsWith('on')))
        .length,
      jsLinks: [...el.querySelectorAll('a')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? ''))
        .length,
      pwned: (globalThis as unknown as { __pwned?: string }).__pwned ?? null,
    }));
    assert.deepEqual(dom, { scripts: 0, images: 0, svgs: 0, handlers: 0, jsLinks: 0, pwned: null });
    assert.equal(await reply.locator('ol').getAttribute('start'), '3', 'the list begins at 3, as written');
    const link = reply.locator('a', { hasText: 'click me' });
    if (await link.count()) await link.click();
    assert.equal(
      await reply.evaluate(() => (globalThis as unknown as { __pwned?: string }).__pwned ?? null),
      null,
      'clicking the link runs nothing',
    );
    await wb.screenshot('12-playground-xss-inert');
  });

  it('keeps the conversation and the settings after a window reload', async () => {
    const { page } = wb;
    await webview(page).locator('.turn').nth(1).waitFor();
    assert.equal(await webview(page).locator('.turn').count(), 2);
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const frame = webview(page);
    await frame.locator('.turn .meta .figures').nth(1).waitFor({ timeout: 60_000 });
    // The turns come back from the panel's state at once; the model list once the catalogue is read
    // (a thousand models), when the page is drawn again with it.
    await frame
      .locator('[data-path="model"] vscode-option[value="test/echo"]')
      .waitFor({ state: 'attached', timeout: 30_000 });
    await frame.locator('.turn .meta .figures').nth(1).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('.turn').count(), 2);
    // The model's option can be in before the field is given its value (the Spaces are still being read
    // on a busy machine): the value is waited for, then checked.
    const model = () =>
      frame.locator('[data-path="model"]').evaluate((el) => (el as unknown as { value: string }).value);
    for (const deadline = Date.now() + 30_000; (await model()) !== 'test/echo' && Date.now() < deadline;)
      await page.waitForTimeout(200);
    assert.equal(await model(), 'test/echo');
    assert.ok((await frame.locator('.turn .reply').first().innerText()).includes('export function total'));
    await wb.screenshot('12b-playground-after-reload');
  });

  it("picks a model from VS Code's quick pick, with prices and state, the exact name ranked first", async () => {
    const { page } = wb;
    const frame = webview(page);
    await frame.locator('.choose-model').click();
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Choose the model' }).waitFor();
    // With nothing typed: the Space's active models first, each with its price and state.
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'test/echo' }).filter({ hasText: 'active in this Space' }).first().waitFor();
    await input.fill('gpt-4o-mini');
    await rows.first().filter({ hasText: 'openai/gpt-4o-mini' }).waitFor();
    const first = await rows.first().innerText();
    assert.match(first, /\$0\.15 in · \$0\.60 out per M tokens · 128K context/);
    assert.match(first, /cannot answer here/, 'no model server for it in this test');
    assert.ok((await rows.count()) >= 2, 'the fine-tune is offered too, after the exact name');
    await wb.screenshot('12c-model-picker');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await frame.locator('[data-path="prompt"] textarea').fill('How much?');
    await frame.locator('.estimate', { hasText: 'at openai/gpt-4o-mini' }).waitFor();
    assert.equal(
      await frame.locator('[data-path="model"]').evaluate((el) => (el as unknown as { value: string }).value),
      'openai/gpt-4o-mini',
    );
    await wb.screenshot('12d-model-chosen');
  });

  it('checks the temperature as it is typed, and clears the message once it is fixed', async () => {
    const frame = webview(wb.page);
    await frame.locator('vscode-collapsible.options').click();
    const temperature = frame.locator('[data-path="temperature"] input');
    await temperature.fill('3');
    const error = frame.locator('.field:has([data-path="temperature"]) .field-error');
    await error.filter({ hasText: 'must be between 0 and 1' }).waitFor();
    await wb.screenshot('12e-temperature-checked-as-typed');
    await temperature.fill('0.3');
    await error.filter({ hasText: /^$/ }).waitFor({ state: 'attached' });
    assert.equal(await error.innerText(), '');
    await temperature.fill('');
    // The reply the next prompt follows is named by its number and first words, never by its id.
    const replyTo = frame.locator('[data-path="parent_request_id"]');
    const shown = await replyTo
      .locator('vscode-option[selected]')
      .innerText()
      .catch(async () => replyTo.innerText());
    assert.match(shown, /^Reply 2: /);
    assert.doesNotMatch(await replyTo.innerText(), /[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('asks the model to search the web from the playground, and says in words when the model cannot', async () => {
    const frame = webview(wb.page);
    const search = frame.locator('[data-path="web_search"]');
    if (!(await search.isVisible())) await frame.locator('vscode-collapsible.options').click();
    await search.waitFor();
    assert.equal(
      await frame.locator('.field:has([data-path="web_search"]) vscode-label').innerText(),
      'Web search',
      'offered by the built-in service',
    );
    // Its only plugin: no field to name others.
    assert.equal(await frame.locator('[data-path="plugins"]').isVisible(), false);
    await search.click();
    assert.equal(await search.evaluate((el) => (el as unknown as { checked: boolean }).checked), true);
    await chooseModel(frame, 'test/echo');
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.fill('What is new in gateways?');
    const replies = await frame.locator('.turn .meta .figures').count();
    await prompt.press('Control+Enter');
    await frame.locator('.turn .meta .figures').nth(replies).waitFor({ timeout: 30_000 });
    // A test model runs no search: the reply says so, in words, where its warnings go.
    assert.match(
      await frame.locator('.turn').last().locator('.meta .warning:not(.placeholder)').innerText(),
      /^⚠ The web search runs only on Anthropic's models, OpenAI's reasoning models and Gemini models \(.*\), so test\/echo answered without searching\.$/,
    );
    await wb.screenshot('12f-playground-web-search');
    // Left off for the tests after.
    await search.click();
    assert.equal(await search.evaluate((el) => (el as unknown as { checked: boolean }).checked), false);
  });

  it("attaches a file from VS Code's file dialog, shows its size, and sends it with the prompt", async () => {
    const { page } = wb;
    const frame = webview(page);
    const file = path.join(wb.server.tmp, 'workspace', 'README.md');
    await chooseModel(frame, 'test/echo');
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.fill('What does the attached file say?');
    // The cost band counts the prompt, then the file's text with it once attached.
    const band = frame.locator('.estimate', { hasText: 'tokens to send' });
    const tokensToSend = async () =>
      Number(/([\d,]+) tokens to send/.exec(await band.innerText())![1]!.replace(/,/g, ''));
    await band.waitFor();
    const alone = await tokensToSend();
    await frame.locator('vscode-button', { hasText: 'Attach File…' }).click();
    // The dialog opens at a folder, then lists it: typed before that, the path would be replaced.
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
    await input.fill(file);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'README.md' }).first().waitFor();
    await page.keyboard.press('Enter');
    const chip = frame.locator('.chips .chip', { hasText: 'README.md' });
    await chip.waitFor({ timeout: 20_000 });
    const bytes = statSync(file).size;
    assert.ok(bytes < 1024, 'a file of some hundred bytes');
    // Its label (then the button that removes it): the size as it is, not a kilobyte.
    assert.equal((await chip.innerText()).split('\n')[0], `README.md (${bytes} bytes)`);
    const deadline = Date.now() + 10_000;
    while ((await tokensToSend()) === alone && Date.now() < deadline) await page.waitForTimeout(100);
    const withFile = await tokensToSend();
    assert.ok(withFile - alone > bytes / 8, `the band counted ${alone}, then ${withFile} tokens with the file`);
    await prompt.press('Control+Enter');
    const reply = frame.locator('.turn .reply').last();
    await reply.filter({ hasText: '[1 file attached]' }).waitFor({ timeout: 30_000 });
    // The chip goes once the send is taken: it may be drawn a frame after the reply's first text.
    await chip.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    assert.equal(await frame.locator('.chips .chip').count(), 0, 'the sent file is no longer attached');
    // The turn says what went with its prompt.
    const sentWith = frame.locator('.turn').last().locator('.attached');
    assert.equal(await sentWith.innerText(), 'Attached: README.md');
    await sentWith.scrollIntoViewIfNeeded();
    await wb.screenshot('11c-playground-file-sent');
  });

  it('says before sending that an attached PDF cannot be read, where the cost band would be', async () => {
    const { page } = wb;
    const frame = webview(page);
    const file = path.join(wb.server.tmp, 'workspace', 'broken.pdf');
    writeFileSync(file, '%PDF-1.4\nnot a document\n%%EOF\n');
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.fill('What does this PDF say?');
    await frame.locator('.estimate', { hasText: 'tokens to send' }).waitFor();
    await frame.locator('vscode-button', { hasText: 'Attach File…' }).click();
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
    await page.locator('.quick-input-widget input').fill(file);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'broken.pdf' }).first().waitFor();
    await page.keyboard.press('Enter');
    const chip = frame.locator('.chips .chip', { hasText: 'broken.pdf' });
    await chip.waitFor({ timeout: 20_000 });
    const refused = frame.locator('.estimate.warning', {
      hasText: '⚠ broken.pdf: This PDF cannot be read: it is not a valid PDF. Sending it as it is would be refused.',
    });
    await refused.waitFor({ timeout: 20_000 });
    await wb.screenshot('11d-playground-pdf-refused-before-sending');
    // Sent anyway, the Files field says which file the service refused.
    await prompt.press('Control+Enter');
    await frame
      .locator('.field:has([data-path="files"]) .field-error', {
        hasText: 'broken.pdf: This PDF cannot be read: it is not a valid PDF',
      })
      .waitFor({ timeout: 20_000 });
    // The refused turn does not say the file was sent, and its own line names the file.
    const turn = frame.locator('.turn').last();
    assert.equal(await turn.locator('.attached').innerText(), 'Attached: broken.pdf');
    assert.equal(
      await turn.locator('.meta.error').innerText(),
      'Not sent. broken.pdf: This PDF cannot be read: it is not a valid PDF.',
    );
    await wb.screenshot('11e-playground-pdf-refused-turn');
    // Without it, the band again.
    await chip.locator('vscode-button[aria-label="Remove broken.pdf"]').click();
    await frame.locator('.estimate:not(.warning)', { hasText: 'tokens to send' }).waitFor({ timeout: 20_000 });
  });

  it('inserts a code block at the cursor of a file behind the playground in its editor group', async () => {
    const { page } = wb;
    // The file and the playground in one editor group, the file behind the playground.
    await runCommand(page, 'View: Join All Editor Groups');
    const group = page
      .locator('.editor-group-container')
      .filter({ has: page.locator('.tab', { hasText: 'Playground' }) });
    await group.locator('.tab', { hasText: 'cart.ts' }).click();
    await group.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await group.locator('.tab', { hasText: 'Playground' }).click();
    assert.equal(await page.locator('.editor-group-container').count(), 1, 'one editor group');
    assert.equal(await group.locator('.tab').count(), 2, 'the file and the playground share it');
    const frame = webview(page);
    await frame.locator('.turn .code-actions vscode-button', { hasText: 'Insert at Cursor' }).first().click();
    // The file is shown beside the playground (which stays in view) with the code in it, and nothing
    // went wrong on the way.
    const shown = page
      .locator('.editor-group-container')
      .filter({ has: page.locator('.tab.active.dirty', { hasText: 'cart.ts' }) });
    await shown.waitFor();
    assert.ok(
      await group.locator('.tab.active', { hasText: 'Playground' }).isVisible(),
      'the playground is still in view',
    );
    await wb.screenshot('12f-inserted-in-one-group');
    await runCommand(page, 'Notifications: Show Notifications');
    // Only errors count: an information (the chat setting's offer) may stand there.
    assert.equal(
      await page.locator('.notifications-center .notification-list-item:has(.codicon-error)').count(),
      0,
      'no error was shown',
    );
    await runCommand(page, 'Notifications: Clear All Notifications');
    await shown.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+S');
    await page.locator('.tab.dirty', { hasText: 'cart.ts' }).first().waitFor({ state: 'detached' });
    const text = readFileSync(path.join(wb.server.tmp, 'workspace', 'src', 'cart.ts'), 'utf8');
    assert.equal(
      text.split('export function total').length - 1,
      2,
      "the code block was inserted once, after the file's own code",
    );
  });

  it('makes no conversation for a first prompt the service refuses, and one for the prompt sent after it', async () => {
    const { page } = wb;
    const client = await wb.service();
    const appId = (await client.listSpaces({ search: 'My first Space' })).items.find(
      (sp) => sp.name === 'My first Space',
    )!.id;
    const named = async () => (await client.listConversations(appId)).filter((c) => !c.deleted_on).map((c) => c.name);
    const before = await named();
    const frame = webview(page);
    await frame.locator('vscode-button', { hasText: 'New Chat' }).click();
    await frame.locator('.choose-model').click();
    await page.locator('.quick-input-widget input').fill('gpt-4o-mini');
    await page
      .locator('.quick-input-list .monaco-list-row')
      .first()
      .filter({ hasText: 'openai/gpt-4o-mini' })
      .waitFor();
    await page.keyboard.press('Enter');
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.fill('A first prompt nobody can answer');
    await prompt.press('Control+Enter');
    await frame
      .locator('.turn .meta.error', { hasText: 'openai/gpt-4o-mini cannot answer here: add your OpenAI key' })
      .waitFor({ timeout: 30_000 });
    assert.deepEqual(await named(), before, 'no conversation for a refused prompt');
    await chooseModel(frame, 'test/echo');
    await prompt.fill('A first prompt that is answered');
    await prompt.press('Control+Enter');
    await frame.locator('.turn .reply', { hasText: 'A first prompt that is answered' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await named(), ['A first prompt that is answered', ...before]);
  });

  it('changes a routing weight in the Space settings editor and saves it to the service', async () => {
    const { page } = wb;
    await closeAllEditors(page);
    await runCommandAndPick(page, 'LLM Spaces: Open Space Settings', 'My first Space');
    const frame = webview(page);
    const cost = frame.locator('[data-path="weights.cost"] input');
    await cost.waitFor({ timeout: 60_000 });
    const summary = await frame.locator('.views').innerText();
    assert.match(summary, /manage keys, use the playground/, 'permissions in words');
    assert.doesNotMatch(summary, /manage_keys|use_playground/);
    await cost.fill('0.7');
    await frame.locator('.status', { hasText: 'Unsaved changes' }).waitFor();
    await frame.locator('.actions vscode-button', { hasText: 'Save' }).click();
    await frame.locator('.status', { hasText: 'Saved at' }).waitFor({ timeout: 20_000 });
    const client = await wb.service();
    const space = (await client.listSpaces({ search: 'My first Space' })).items.find(
      (s) => s.name === 'My first Space',
    )!;
    assert.equal((await client.getSpace(space.id)).main.app.weights?.cost, 0.7);
    await wb.screenshot('13-space-settings-saved');
  });

  it("saves with Ctrl+S, reverts, asks on close and keeps changes over a reload, all as VS Code's own editor", async () => {
    const { page } = wb;
    const client = await wb.service();
    const space = (await client.listSpaces({ search: 'My first Space' })).items.find(
      (s) => s.name === 'My first Space',
    )!;
    // A window reload may start the built-in service anew: ask whichever is running now.
    const description = async () => (await (await wb.service()).getSpace(space.id)).main.app.description;
    const tab = page.locator('.tabs-container .tab.active');
    const field = () => webview(page).locator('[data-path="description"] textarea');
    const typeDescription = async (text: string) => {
      await field().fill(text);
      await page.locator('.tabs-container .tab.active.dirty').waitFor();
    };
    assert.equal(
      await tab.getAttribute('aria-label').then((l) => l?.startsWith('My first Space')),
      true,
      'the tab is named after the Space',
    );

    // A field is checked as it is typed, and says what is wrong in words.
    const temperature = webview(page).locator('[data-path="settings.temperature"] input');
    const saved = await temperature.inputValue();
    await temperature.fill('3');
    const error = webview(page).locator('.field:has([data-path="settings.temperature"]) .field-error');
    await error.filter({ hasText: /\w/ }).waitFor();
    assert.doesNotMatch(await error.innerText(), /settings\.|Too big|expected/);
    await wb.screenshot('13a-space-settings-checked-as-typed');
    await temperature.fill(saved);
    await error.filter({ hasText: /^$/ }).waitFor({ state: 'attached' });
    // Bad input is refused at its field, never saved as if it were nothing: text where a number goes,
    // an emptied weight, an emptied name, an absurd reply length.
    const fieldError = (path: string) =>
      webview(page).locator(`.field:has([data-path="${path}"]) .field-error`).filter({ hasText: /\w/ });
    await temperature.fill('abc');
    assert.equal(await fieldError('settings.temperature').innerText(), 'must be a number');
    await webview(page).locator('[data-path="weights.latency"] input').fill('');
    assert.equal(await fieldError('weights.latency').innerText(), 'needs a number');
    await webview(page).locator('[data-path="settings.max_tokens"] input').fill('99999999999999999999');
    assert.equal(await fieldError('settings.max_tokens').innerText(), 'is too large');
    await webview(page).locator('[data-path="name"] input').fill('');
    assert.equal(await fieldError('name').innerText(), 'must not be empty');
    await wb.screenshot('13c-space-settings-bad-input');
    await webview(page).locator('.actions vscode-button', { hasText: 'Save' }).click();
    await webview(page).locator('.status', { hasText: 'Not saved: fix the marked fields.' }).waitFor();
    assert.equal((await (await wb.service()).getSpace(space.id)).main.app.name, 'My first Space', 'nothing was saved');
    await runCommand(page, 'File: Revert File');
    await page.locator('.tabs-container .tab.active:not(.dirty)').waitFor();
    // The form loads the Space afresh: wait for it before typing again.
    await waitUntil(
      async () => (await webview(page).locator('[data-path="name"] input').inputValue()) === 'My first Space',
    );
    await webview(page).locator('.field-error').filter({ hasText: /\w/ }).first().waitFor({ state: 'detached' });

    // Ctrl+S from inside the form is VS Code's Save.
    await typeDescription('Saved with Ctrl+S');
    await wb.screenshot('13b-space-settings-dirty');
    await field().press('Control+s');
    await webview(page).locator('.status', { hasText: 'Saved at' }).waitFor({ timeout: 20_000 });
    await page.locator('.tabs-container .tab.active:not(.dirty)').waitFor();
    assert.equal(await description(), 'Saved with Ctrl+S');

    // File: Revert File brings back the saved text.
    await typeDescription('Reverted away');
    await runCommand(page, 'File: Revert File');
    await page.locator('.tabs-container .tab.active:not(.dirty)').waitFor();
    // The form loads the Space afresh.
    await waitUntil(async () => (await field().inputValue()) === 'Saved with Ctrl+S');

    // Closing with unsaved changes: VS Code's own question, Don't Save and then Save.
    const closeAnswering = async (answer: string) => {
      await runCommand(page, 'View: Close Editor');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /My first Space/);
      await wb.screenshot(`13c-space-settings-close-${answer === 'Save' ? 'save' : 'dont-save'}`);
      await dialog.locator('.monaco-button', { hasText: new RegExp(`^${answer}$`) }).click();
      await page
        .locator('iframe.webview.ready')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
    };
    const reopen = async () => {
      await runCommandAndPick(page, 'LLM Spaces: Open Space Settings', 'My first Space');
      await field().waitFor({ timeout: 60_000 });
    };
    await typeDescription('Dropped on close');
    await closeAnswering("Don't Save");
    assert.equal(await description(), 'Saved with Ctrl+S');
    await reopen();
    assert.equal(await field().inputValue(), 'Saved with Ctrl+S', 'nothing left over from the dropped changes');
    await typeDescription('Saved on close');
    await closeAnswering('Save');
    await waitUntil(async () => (await description()) === 'Saved on close');

    // Unsaved changes come back after a window reload (hot exit), still unsaved.
    await reopen();
    await typeDescription('Kept over a reload');
    // VS Code backs up a changed editor a moment after the change; a browser tab cannot wait for
    // anything when it reloads, so the backup has to be there first.
    await page.waitForTimeout(3000);
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.tabs-container .tab.active.dirty').waitFor({ timeout: 60_000 });
    await field().waitFor({ timeout: 60_000 });
    assert.equal(await field().inputValue(), 'Kept over a reload');
    assert.equal(await description(), 'Saved on close', 'still not saved');
    await wb.screenshot('13d-space-settings-after-reload');
    await runCommand(page, 'File: Revert File');
    await page.locator('.tabs-container .tab.active:not(.dirty)').waitFor();
  });

  it('opens the organization panel with usage against the limits and the integrations form', async () => {
    const { page } = wb;
    await closeAllEditors(page);
    await runCommand(page, 'LLM Spaces: Open Organization');
    const frame = webview(page);
    await frame.locator('h2', { hasText: 'Usage this cycle' }).waitFor({ timeout: 60_000 });
    const client = await wb.service();
    const org = await client.getOrganization();
    assert.ok(org.num_requests >= 2, 'the two chats above are counted');
    await frame
      .locator('table[aria-label="Usage figures"] td', { hasText: org.num_requests.toLocaleString('en-US') })
      .first()
      .waitFor();
    assert.equal(await frame.locator('svg.spend rect.bar').count(), 1);
    // What the built-in service does not have is said in words, not left as a dash.
    const said = async (row: string) => frame.locator('tr', { hasText: row }).locator('td').last().innerText();
    assert.equal(await said('Cancels on'), 'Not set to cancel');
    assert.equal(await said('Billing e-mail'), 'None given');
    await frame.locator('fieldset[aria-label="Metrics integration"]').waitFor();
    // What the built-in service does with each group, said under it.
    assert.match(
      await frame.locator('fieldset[aria-label="Logs integration"] .hint').first().innerText(),
      /^The built-in service sends each request it logs here, through Loki's push API/,
    );
    assert.match(
      await frame.locator('fieldset[aria-label="Metrics integration"] .hint').first().innerText(),
      /^The built-in service sends its request counts here every 15 seconds, through Prometheus's remote write/,
    );
    await wb.screenshot('14-organization');
  });

  it('compares three models side by side from the Models view, then promotes one in each of the four ways, each checked on the service', async () => {
    const { page } = wb;
    await closeAllEditors(page);
    await showSideBar(page);
    await rowsOf(page, 'Spaces').filter({ hasText: 'My first Space' }).first().waitFor({ timeout: 60_000 });
    const client = await wb.service();
    // A third model that answers: an Ollama found on this computer.
    const ollama = await startFakeUpstream({
      port: 11434,
      ollama: true,
      models: [{ id: 'llama3.2:latest', context: 131_072 }],
    });
    try {
      await runCommand(page, 'LLM Spaces: Refresh Local Models');
      // The views settle once the refresh has answered (rows move while they redraw).
      await runCommand(page, 'Notifications: Show Notifications');
      await page
        .locator('.notifications-center .notification-list-item', { hasText: 'Found Ollama (port 11434)' })
        .first()
        .waitFor({ timeout: 30_000 });
      await runCommand(page, 'Notifications: Clear All Notifications');
      // Room for the Models view: the other two views folded (unfolded again at the end).
      for (const view of ['Spaces', 'Prompts']) await setFolded(page, view, true);
      for (const provider of ['Test models', 'Local model servers']) {
        const row = fullRowsOf(page, 'Models')
          .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${provider}$`) }) })
          .first();
        if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
        await fullRowsOf(page, 'Models')
          .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${provider}$`) }) })
          .and(page.locator('[aria-expanded="true"]'))
          .first()
          .waitFor();
      }
      const model = (name: string) =>
        fullRowsOf(page, 'Models')
          .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}`) }) })
          .first();
      await model('llama3.2').filter({ hasNotText: 'cannot answer here' }).waitFor({ timeout: 30_000 });
      // Three models selected in the view, compared from their context menu.
      await model('echo').click();
      await model('lorem').click({ modifiers: ['Control'] });
      await model('llama3.2').click({ modifiers: ['Control'] });
      await model('llama3.2').click({ button: 'right' });
      // A menu just opened ignores a click that comes too soon after it (as against a slip of the mouse): clicked until it runs.
      const item = page.getByRole('menuitem', { name: 'Compare Models…' });
      const tab = page.locator('.tab', { hasText: 'Compare Models' });
      await waitUntil(async () => {
        if (await item.isVisible()) await item.click({ timeout: 2000 }).catch(() => undefined);
        return tab.isVisible();
      });

      const frame = webview(page);
      const chips = frame.locator('.chips .chip');
      await chips.nth(2).waitFor({ timeout: 60_000 });
      assert.deepEqual(
        (await chips.allInnerTexts()).map((c) => c.replace(/×$/, '').trim()),
        ['test/echo', 'test/lorem', 'local/llama3.2'],
      );
      // The Space and Max tokens fields side by side, their labels on one line.
      const labelTops = await frame
        .locator('header.toolbar > .field > vscode-label')
        .evaluateAll((labels) => labels.map((l) => Math.round(l.getBoundingClientRect().top)));
      assert.equal(labelTops.length, 2);
      assert.ok(Math.abs(labelTops[0]! - labelTops[1]!) <= 1, `labels at ${labelTops.join(' and ')} px`);
      await frame.locator('[data-path="prompt"] textarea').fill('Which is best for a code review?');
      await frame.locator('.actions vscode-button', { hasText: 'Compare' }).click();
      await frame.locator('.status', { hasText: 'All 3 models answered.' }).waitFor({ timeout: 60_000 });
      const columns = frame.locator('.column');
      assert.equal(await columns.count(), 3);
      for (let i = 0; i < 3; i++) {
        const figures = await columns.nth(i).locator('.meta .figures').innerText();
        assert.match(figures, /^\d[\d,]* tokens \(\d[\d,]* in, \d[\d,]* out\) · \$[\d.]+ · [\d.]+ s/, figures);
      }
      assert.equal(
        await columns.nth(0).locator('.reply').innerText(),
        'Which is best for a code review?',
        'test/echo answered with the prompt',
      );
      assert.match(
        await columns.nth(2).locator('.reply').innerText(),
        /upstream:llama3\.2/,
        'llama3.2 answered through the model server',
      );
      assert.equal(await frame.locator('.column .badge', { hasText: 'cheapest' }).count(), 1);
      await wb.screenshot('16-compare-three-models');

      const first = (await client.listSpaces({ search: 'My first Space' })).items.find(
        (sp) => sp.name === 'My first Space',
      )!;
      const space = () => client.getSpace(first.id);
      // A known failover chain to promote into.
      const ids = Object.fromEntries((await client.listModels()).map((m) => [m.namespace, m.id!]));
      await client.updateSpace({
        id: first.id,
        has_failover_chain: true,
        failover_model_ids: [ids['test/echo']!, ids['test/lorem']!],
      });
      const promote = async (column: number, action: string, detail: string | RegExp | null, expectRow: RegExp) => {
        const controls = columns.nth(column).locator('.promote');
        // The choices open below their select: room for them, as a user scrolls to make it.
        await controls.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await choose(controls.locator('vscode-single-select').first(), action);
        if (detail) await choose(controls.locator('.detail vscode-single-select'), detail);
        await controls.locator('vscode-button', { hasText: 'Show Changes…' }).click();
        const proposal = frame.locator('.proposal');
        await proposal.locator('table.diff').waitFor();
        assert.match(await proposal.locator('table.diff tbody').innerText(), expectRow);
        return proposal;
      };

      // The benchmark model: the diff first, nothing saved until Save to Space.
      const benchmarkBefore = (await space()).main.app.benchmark_model_id;
      let proposal = await promote(1, 'Make it the benchmark model', null, /Benchmark model\s+.+\s+test\/lorem/);
      await wb.screenshot('17-compare-promote-diff');
      assert.equal((await space()).main.app.benchmark_model_id, benchmarkBefore, 'showing the diff saves nothing');
      await proposal.locator('vscode-button', { hasText: 'Save to Space' }).click();
      await frame.locator('.status', { hasText: 'test/lorem is now the benchmark model' }).waitFor();
      const benchmarkId = (await space()).main.app.benchmark_model_id;
      assert.equal((await client.listModels()).find((m) => m.id === benchmarkId)?.namespace, 'test/lorem');
      await frame.locator('.space-line', { hasText: 'Benchmark model: test/lorem' }).waitFor();
      // Compared again, the savings are counted against it, in words.
      await frame.locator('.actions vscode-button', { hasText: 'Compare' }).click();
      await frame.locator('.status', { hasText: 'All 3 models answered.' }).waitFor({ timeout: 60_000 });
      assert.match(
        await columns.nth(0).locator('.saving').innerText(),
        /^(Saves|Costs) \$[\d.]+ (against|more than) test\/lorem$/,
      );
      assert.equal(await columns.nth(1).locator('.saving').innerText(), 'This is the benchmark model.');

      // First in the failover chain.
      proposal = await promote(
        2,
        'Put it in the failover chain',
        /^position 1/,
        /Failover chain\s+test\/echo → test\/lorem\s+local\/llama3\.2 → test\/echo → test\/lorem/,
      );
      await proposal.locator('vscode-button', { hasText: 'Save to Space' }).click();
      await frame
        .locator('.status', { hasText: 'local/llama3.2 is now at position 1 of the failover chain' })
        .waitFor();
      assert.equal((await space()).main.failover_models[0]?.namespace, 'local/llama3.2');

      // The weights, toward cost.
      proposal = await promote(0, 'Shift the weights toward…', 'cost', /Routing weights\s+cost .+\s+cost /);
      const weightsBefore = (await space()).main.app.weights!;
      await proposal.locator('vscode-button', { hasText: 'Save to Space' }).click();
      await frame.locator('.status', { hasText: 'The routing weights now favour cost' }).waitFor();
      const weightsAfter = (await space()).main.app.weights!;
      assert.ok(
        weightsAfter.cost > weightsBefore.cost &&
          weightsAfter.latency < weightsBefore.latency &&
          weightsAfter.quality < weightsBefore.quality,
        JSON.stringify(weightsAfter),
      );

      // The only active model; then the Space is put back as it was, for whoever comes next.
      const activeBefore = (await space()).main.base_model_settings.filter((m) => m.active);
      proposal = await promote(0, 'Make it the only active model', null, /Active models\s+.+\s+test\/echo/);
      await proposal.locator('vscode-button', { hasText: 'Save to Space' }).click();
      await frame.locator('.status', { hasText: 'test/echo is now the only active model' }).waitFor();
      const activeAfter = (await space()).main.base_model_settings.filter((m) => m.active).map((m) => m.namespace);
      assert.deepEqual(activeAfter, ['test/echo']);
      await wb.screenshot('18-compare-promoted');
      for (const m of activeBefore) await client.toggleModel(first.id, m.id, true);

      // The report, in the workspace.
      await frame.locator('.actions vscode-button', { hasText: 'Save Report' }).click();
      await frame.locator('.status', { hasText: /Report saved: llm-spaces-reports\/compare-.*\.md/ }).waitFor();
      await page
        .locator('.tab', { hasText: /^compare-.*\.md/ })
        .first()
        .waitFor();
      await wb.screenshot('19-compare-report');
    } finally {
      await ollama.close();
      await page.keyboard.press('Escape');
      for (const view of ['Spaces', 'Prompts']) await setFolded(page, view, false).catch(() => undefined);
    }
  });

  it('asks before a send past the soft spending limit of a hosted service, and shows its estimated receipt', async () => {
    const { page } = wb;
    await closeAllEditors(page);
    await showSideBar(page);
    await setFolded(page, 'Spaces', false);
    await rowsOf(page, 'Spaces').filter({ hasText: 'My first Space' }).first().waitFor({ timeout: 60_000 });
    const client = await wb.service();
    // The hosted service as it answers, with an organization at its soft spending limit.
    const hosted = await startHostedFake(client.baseUrl, {
      organization: () => ({ total_tokens_cost: 4.99995, spending_limit_soft: 5, spending_limit_hard: 50 }),
    });
    try {
      await runCommand(page, 'LLM Spaces: Connect to Service…');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Remote service…' }).click();
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Remote service URL' }).waitFor();
      await page.locator('.quick-input-widget input').fill(hosted.url);
      await page.keyboard.press('Enter');
      await page
        .locator('.quick-input-widget .quick-input-title', { hasText: `Sign in to ${hosted.url}` })
        .waitFor({ timeout: 30_000 });
      await page.locator('.quick-input-widget input').fill(wb.token);
      await page.keyboard.press('Enter');
      // Signed in to the hosted service: the status bar shows its organization's spend against its limit.
      await page
        .locator('.statusbar-item[id$="llmSpaces.usage"]', { hasText: '$5.00 / $50.00' })
        .waitFor({ timeout: 60_000 });
      await rowsOf(page, 'Spaces').filter({ hasText: 'My first Space' }).first().waitFor({ timeout: 60_000 });
      await runCommand(page, 'LLM Spaces: Open Playground');
      const frame = webview(page);
      const prompt = frame.locator('[data-path="prompt"] textarea');
      await prompt.waitFor({ timeout: 60_000 });
      await chooseModel(frame, 'test/lorem');
      await prompt.fill('x'.repeat(2000));
      // No route preview on the hosted service: the extension's own band, said to be an estimate.
      await frame.locator('.estimate', { hasText: 'estimated from the prices' }).waitFor({ timeout: 20_000 });
      await prompt.press('Control+Enter');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 20_000 });
      const asked = await dialog.innerText();
      assert.match(
        asked,
        /Sending this request \(about \$0\.0000\d+\) would pass the organization's soft spending limit of \$5\.00, with \$5\.00 spent this cycle/,
      );
      // Behind the dialog, the turn says it is not sent yet (not that it waits for tokens).
      await frame
        .locator('.turn .meta', {
          hasText: 'Not sent yet: waiting for your answer, as it would pass the soft spending limit.',
        })
        .waitFor();
      assert.equal(await frame.locator('.turn .reply').last().getAttribute('aria-busy'), 'false', 'nothing under way');
      await wb.screenshot('20-budget-guard');
      const requests = (await client.getOrganization()).num_requests;
      const space = (await client.listSpaces({ search: 'My first Space' })).items.find((s) => !s.sandbox_of)!.id;
      const conversations = async () => (await client.listConversations(space)).map((c) => c.name);
      const before = await conversations();
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await frame
        .locator('.turn .meta.error', { hasText: 'Not sent: it would pass the soft spending limit.' })
        .waitFor();
      assert.equal((await client.getOrganization()).num_requests, requests, 'nothing was sent');
      assert.deepEqual(await conversations(), before, 'no empty conversation behind the send not sent');
      await prompt.fill('Send it anyway, please.');
      await prompt.press('Control+Enter');
      await dialog.waitFor({ timeout: 20_000 });
      await dialog.locator('.monaco-button', { hasText: 'Send Anyway' }).click();
      const receipt = frame.locator('.turn .meta .receipt').last();
      await receipt.waitFor({ timeout: 30_000 });
      // The send that went has its conversation, named after its prompt.
      assert.deepEqual(await conversations(), ['Send it anyway, please', ...before]);
      assert.equal(
        await receipt.locator('summary').innerText(),
        'Sent to test/lorem, the model asked for (estimated: the service sent no receipt)',
      );
      await receipt.locator('summary').click();
      await receipt.locator('.hint', { hasText: "the extension's estimate" }).waitFor();
      await receipt.locator('table').first().scrollIntoViewIfNeeded();
      await wb.screenshot('21-estimated-receipt');
    } finally {
      // The picker can close as the playground's webview takes the focus back (seen in CI, and twice in a
      // row locally): it is opened again then.
      const local = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Built-in local service' });
      let chosen = false;
      for (let attempt = 0; attempt < 4 && !chosen; attempt++) {
        await runCommand(page, 'LLM Spaces: Connect to Service…');
        chosen = await local.click({ timeout: 10_000 }).then(
          () => true,
          () => false,
        );
      }
      await hosted.close();
      assert.ok(chosen, 'the built-in service chosen again');
    }
  });
});
