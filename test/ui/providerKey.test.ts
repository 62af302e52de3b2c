// The first run with a provider key, as a user does it: Add Provider Key… from the Command Palette, the
// provider picked, the key typed into a password box, the result told in words; the Models view then
// says the provider has a key and its models answer, and the first Space routes to them. Then a second
// key, DeepSeek's, whose model thinks before it answers: the playground shows its reasoning. Then a web
// search on OpenAI's model, its pages listed under the reply and again when the conversation is opened
// from the Spaces view. A fake of OpenAI's wire format stands in for both (the service is pointed at it
// with OPENAI_BASE_URL and DEEPSEEK_BASE_URL). Last a Gemini key (a fake of the Gemini API, at
// GEMINI_BASE_URL): a Gemini model's Google Search shows Google's Search Suggestions under the reply.
import assert from 'node:assert/strict';
import {
  googleQueries,
  googleResultsPage,
  startGeminiFake,
  startOpenAiFake,
  type ProviderFake,
} from '../unit/support/providerFakes';
import {
  chooseModel,
  filterModels,
  fullRowsOf,
  notification,
  openWorkbench,
  rowsOf,
  runCommand,
  runCommandAndPick,
  webview,
  type Workbench,
} from './workbench';

describe('A provider key on the first run (playwright)', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let openai: ProviderFake;
  let gemini: ProviderFake;

  before(async () => {
    openai = await startOpenAiFake();
    gemini = await startGeminiFake();
    // Its list of models for the key: today's (the fake plays DeepSeek too), without the ones retired long ago.
    openai.listed = ['gpt-5.4-mini', 'gpt-6-luna', 'gpt-4o-mini', 'deepseek-v4-flash', 'deepseek-v4-pro'];
    // The built-in service the extension starts inherits them: OpenAI is reached at the fake, and so
    // is DeepSeek (its API is OpenAI's Chat Completions, which the fake plays with DeepSeek's models).
    process.env.OPENAI_BASE_URL = openai.baseUrl;
    process.env.DEEPSEEK_BASE_URL = openai.baseUrl;
    process.env.GEMINI_BASE_URL = gemini.baseUrl;
    try {
      wb = await openWorkbench();
    } finally {
      delete process.env.OPENAI_BASE_URL;
      delete process.env.DEEPSEEK_BASE_URL;
      delete process.env.GEMINI_BASE_URL;
    }
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.screenshot('failed-provider-key');
  });
  after(async () => {
    await wb?.close();
    await openai?.close();
    await gemini?.close();
  });

  /**
   * Adds a provider's key as a user does (picked by where its keys are got, typed into the box), waits
   * until `tried` says the key was tried and the words that it works, then turns `ns` on in the first Space.
   */
  const addKeyFor = async (ns: string, pick: string, provider: string, key: string, tried: () => boolean) => {
    const { page } = wb;
    await runCommandAndPick(page, 'LLM Spaces: Add Provider Key…', pick);
    await page.locator('.quick-input-widget .quick-input-title', { hasText: `${provider} key` }).waitFor();
    await page.locator('.quick-input-widget input').fill(key);
    await page.keyboard.press('Enter');
    for (const deadline = Date.now() + 30_000; !tried() && Date.now() < deadline;) await page.waitForTimeout(200);
    await page.waitForTimeout(1_000);
    await notification(page, `The ${provider} key works`);
    const client = await wb.service();
    const first = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const setting = (await client.getSpaceModels(first.id)).base_model_settings.find((m) => m.namespace === ns)!;
    if (!setting.active) await client.toggleModel(first.id, setting.id, true);
    return { client, first };
  };

  it('adds an OpenAI key through the command, says it works, and the OpenAI models answer', async () => {
    const { page } = wb;
    await page.locator('.activitybar .action-item a[aria-label^="LLM Spaces"]').click();
    await fullRowsOf(page, 'Models')
      .filter({ hasText: 'OpenAI' })
      .filter({ hasText: 'no key' })
      .first()
      .waitFor({ timeout: 60_000 });
    // The row of OpenAI itself (Azure OpenAI's says "OpenAI" too), told by where its keys are got.
    await runCommandAndPick(page, 'LLM Spaces: Add Provider Key…', 'platform.openai.com');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: /^OpenAI key$/ }).waitFor();
    assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
    await input.fill(openai.key);
    await page.keyboard.press('Enter');
    // The key is tried with a request to the provider; its answer is then told as a notification.
    for (const deadline = Date.now() + 30_000; openai.seen.length === 0 && Date.now() < deadline;)
      await page.waitForTimeout(200);
    await page.waitForTimeout(1_000);
    await notification(page, 'The OpenAI key works');
    // The catalogue is long: the view is filtered down to the model, under each provider that has it
    // (their groups open).
    await filterModels(page, 'gpt-4o-mini');
    const group = fullRowsOf(page, 'Models')
      .filter({ hasText: /^OpenAI/ })
      .filter({ hasText: 'key added' })
      .first();
    await group.waitFor({ timeout: 30_000 });
    await fullRowsOf(page, 'Models')
      .filter({ hasText: 'gpt-4o-mini' })
      .filter({ hasNotText: 'cannot answer here' })
      .first()
      .waitFor();
    await wb.screenshot('31-provider-key-added');

    const client = await wb.service();
    const first = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const active = (await client.getSpace(first.id)).main.base_model_settings
      .filter((m) => m.active)
      .map((m) => m.namespace);
    // OpenAI's current small models, our starters for it.
    assert.deepEqual(active.sort(), ['openai/gpt-5.4-mini', 'openai/gpt-6-luna']);
    const reply = await client.chat({ app_id: first.id, prompt: 'hello from the first run' });
    assert.equal(reply.choices[0]!.message.content, 'echo: hello from the first run');
    assert.deepEqual(openai.problems, []);
    assert.ok(!(await page.content()).includes(openai.key), 'the key is nowhere on the page');
    // A model OpenAI does not list for the key (not open to the account) says so, in words.
    await filterModels(page, 'gpt-5.5');
    const openaiGroup = fullRowsOf(page, 'Models')
      .filter({ hasText: /^OpenAI/ })
      .filter({ hasText: 'key added' })
      .first();
    await openaiGroup.waitFor();
    const unlisted = fullRowsOf(page, 'Models')
      .filter({ hasText: /^gpt-5\.5/ })
      .first();
    await unlisted.filter({ hasText: 'not for your key' }).waitFor({ timeout: 30_000 });
    assert.equal(await unlisted.locator('.label-description').innerText(), 'not for your key');
    // Away from the row (a hovered row makes room for its buttons), its words are shown whole.
    await page.mouse.move(700, 450);
    assert.ok(
      await unlisted.locator('.monaco-icon-label-container').evaluate((el) => el.scrollWidth <= el.clientWidth),
      'the words are shown whole in the side bar, not cut off',
    );
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await wb.screenshot('31a-model-not-offered');
    await filterModels(page, '');
  });

  it("shows a model's reasoning in the playground while it thinks, folded once the reply starts", async () => {
    const { page } = wb;
    const asked = openai.seen.length;
    // DeepSeek's V4 models think unless told not to. As above, the key is tried first (DeepSeek's
    // model, at the fake), then the answer is told.
    const ns = 'deepseek/deepseek-v4-flash';
    await addKeyFor(ns, 'platform.deepseek.com', 'DeepSeek', openai.key, () =>
      openai.seen.slice(asked).some((r) => r.body.model === 'deepseek-v4-flash'),
    );
    await runCommand(page, 'LLM Spaces: Open Playground');
    const frame = webview(page);
    await chooseModel(frame, ns);
    const question = 'Why is the sky blue?';
    await frame.locator('[data-path="prompt"] textarea').fill(question);
    // The model thinks for 3 s after its reasoning, before its answer: the reasoning shows meanwhile.
    openai.thinkingMs = 3_000;
    try {
      await frame.locator('[data-path="prompt"] textarea').press('Control+Enter');
      const live = frame.locator('.turn').last();
      await live.locator('details.thinking[open] .thought', { hasText: `Thinking about: ${question}` }).waitFor();
      assert.equal(await live.locator('details.thinking summary').innerText(), 'Thinking…');
      assert.equal(await live.locator('.meta').innerText(), 'The model thinks before it answers…');
      assert.equal(await live.locator('.reply').innerText(), '', 'no reply yet');
      assert.equal(
        await live
          .locator('.reply')
          .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el, '::after').content),
        'none',
        'no "…" in the reply\'s place under the reasoning',
      );
      await wb.screenshot('32-playground-thinking');
      await frame.locator('.turn .meta .figures').last().waitFor({ timeout: 30_000 });
    } finally {
      openai.thinkingMs = undefined;
    }
    const turn = frame.locator('.turn').last();
    assert.equal(await turn.locator('.reply').innerText(), `echo: ${question}`);
    const thinking = turn.locator('details.thinking');
    assert.equal(await thinking.locator('.thought').textContent(), `Thinking about: ${question}`);
    assert.match(await thinking.locator('summary').innerText(), /^Thought for (less than a second|\d+ s)$/);
    assert.equal(await thinking.getAttribute('open'), null, 'folded once the reply started');
    await wb.screenshot('32b-playground-thought-folded');
    await thinking.locator('summary').click();
    await turn.locator('details.thinking[open] .thought').waitFor();
    await wb.screenshot('32c-playground-thought-unfolded');
    assert.equal(openai.seen.at(-1)!.body.model, 'deepseek-v4-flash');
    assert.deepEqual(openai.problems, []);
    assert.ok(!(await page.content()).includes(openai.key), 'the key is nowhere on the page');
  });

  it('lists the pages a web search found under the reply, and again when the conversation is opened from the Spaces view', async () => {
    const { page } = wb;
    const frame = webview(page);
    await frame.locator('vscode-button', { hasText: 'New Chat' }).click();
    await frame.locator('.turn').first().waitFor({ state: 'detached' });
    // OpenAI's reasoning models search at OpenAI, through its Responses API.
    await chooseModel(frame, 'openai/gpt-5.4-mini');
    const search = frame.locator('[data-path="web_search"]');
    if (!(await search.isVisible())) await frame.locator('vscode-collapsible.options').click();
    await search.click();
    const question = 'What is new in gateways?';
    const prompt = frame.locator('[data-path="prompt"] textarea');
    await prompt.fill(question);
    await prompt.press('Control+Enter');
    await frame.locator('.turn .meta .figures').first().waitFor({ timeout: 30_000 });
    const sent = openai.seen.at(-1)!;
    assert.equal(sent.path, '/v1/responses');
    assert.ok(
      (sent.body.tools as Array<{ type: string }>).some((tool) => tool.type === 'web_search'),
      'asked OpenAI for its web search',
    );
    // The page the fake's answer cites (all of it but "echo: "), as a link under the reply.
    const cited = [{ title: `Page 1 on ${question}`, href: `https://example.com/1?q=${encodeURIComponent(question)}` }];
    const sourcesShown = () =>
      frame
        .locator('.turn nav.sources a')
        .evaluateAll((links) => links.map((a) => ({ title: a.textContent, href: a.getAttribute('href') })));
    await frame.locator('.turn nav.sources').waitFor();
    assert.equal(await frame.locator('.turn nav.sources > span').innerText(), 'Sources');
    assert.deepEqual(await sourcesShown(), cited);
    await wb.screenshot('34-playground-sources');
    await search.click();

    // Another chat, then this one opened from the Spaces view: the pages come back with the reply.
    await frame.locator('vscode-button', { hasText: 'New Chat' }).click();
    await frame.locator('.turn').first().waitFor({ state: 'detached' });
    const spaces = rowsOf(page, 'Spaces');
    const conversation = spaces.filter({ hasText: question }).first();
    if (!(await conversation.isVisible())) {
      if (!(await spaces.filter({ hasText: 'Conversations' }).first().isVisible()))
        await spaces.filter({ hasText: 'My first Space' }).first().click();
      await spaces.filter({ hasText: 'Conversations' }).first().click();
    }
    await conversation.click();
    await frame.locator('.turn nav.sources').waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('.turn').count(), 1);
    assert.equal(await frame.locator('.turn .reply').innerText(), `echo: ${question}`);
    assert.deepEqual(await sourcesShown(), cited);
    const client = await wb.service();
    const first = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const named = (await client.listConversations(first.id)).find((c) => c.name === question)!;
    assert.equal(
      await frame.locator('[data-path="conversation_id"]').evaluate((el) => (el as unknown as { value: string }).value),
      named.id,
      'chosen in the conversation field too',
    );
    await wb.screenshot('34a-conversation-reopened');
    assert.deepEqual(openai.problems, []);
  });
  it("shows Google's Search Suggestions under a Gemini model's searched reply, as Google gives them, and nothing they might run", async () => {
    const { page } = wb;
    const ns = 'google/gemini-3.5-flash';
    const { client, first } = await addKeyFor(
      ns,
      'aistudio.google.com',
      'Google Gemini',
      gemini.key,
      () => gemini.seen.length > 0,
    );
    const frame = webview(page);
    await frame.locator('vscode-button', { hasText: 'New Chat' }).click();
    await chooseModel(frame, ns);
    const search = frame.locator('[data-path="web_search"]');
    if (!(await search.isVisible())) await frame.locator('vscode-collapsible.options').click();
    await search.click();
    // Google's search costs $0.014 a query: with it, a Gemini 3 model may cost more than a new Space's cost
    // cap of $0.020, and the playground says so as the prompt is written, before anything is sent.
    const sentBefore = gemini.seen.length;
    await frame.locator('[data-path="prompt"] textarea').fill('What would a search cost?');
    const refusal = frame.locator('.estimate.warning', {
      hasText: new RegExp(
        `^⚠ ${ns} may cost up to \\$0\\.0\\d+ for this request \\(its prompt, the longest reply its max_tokens allows, and a web search at \\$0\\.014\\), more than this Space's cost cap of \\$0\\.020 a request: raise the Space's cost cap per request in its settings \\(0 means no cap\\), or ask for a shorter reply \\(max_tokens\\)\\. Sending it as it is would be refused\\.$`,
      ),
    });
    await refusal.waitFor();
    await wb.screenshot('35b-playground-search-over-cost-cap');
    // Without the search the same prompt fits the cap: the band comes back, with no warning.
    await search.click();
    await frame.locator('.estimate:not(.warning)', { hasText: / tokens to send · / }).waitFor();
    await client.updateSpace({ id: first.id, policies: { max_cost: 0 } });
    await search.click();
    assert.equal(gemini.seen.length, sentBefore, 'nothing was sent while the prompt was written');
    const ask = async (question: string) => {
      const prompt = frame.locator('[data-path="prompt"] textarea');
      await prompt.fill(question);
      await prompt.press('Control+Enter');
      await frame.locator('.turn .meta .figures').last().waitFor({ timeout: 30_000 });
      assert.deepEqual(gemini.seen.at(-1)!.body.tools, [{ googleSearch: {} }], 'asked Google to search');
      return frame.locator('.turn').last();
    };
    const question = 'What is new in grounding?';
    const turn = await ask(question);
    // Google's chips, one a query, each leading to Google's results for it; under the reply, before its sources.
    const chips = turn.locator('.search-suggestions a.chip');
    await chips.first().waitFor();
    assert.deepEqual(
      await chips.evaluateAll((links) => links.map((a) => ({ text: a.textContent, href: a.getAttribute('href') }))),
      googleQueries(question).map((q) => ({ text: q, href: googleResultsPage(q) })),
    );
    assert.deepEqual(await turn.evaluate((el) => [...el.children].map((child) => child.className)), [
      'prompt markdown',
      'reply markdown',
      'search-suggestions',
      'sources',
      'meta',
    ]);
    // Google's own styles shape them (its chip's rounded border), and reach nothing else on the page.
    assert.equal(
      await chips.first().evaluate((a) => a.ownerDocument.defaultView!.getComputedStyle(a).borderTopLeftRadius),
      '16px',
    );
    assert.equal(
      await turn
        .locator('nav.sources a')
        .first()
        .evaluate((a) => a.ownerDocument.defaultView!.getComputedStyle(a).borderTopLeftRadius),
      '0px',
    );
    // As wide as the reply, as Google asks.
    const widths = await turn.evaluate((el) =>
      ['.reply', '.search-suggestions'].map((sel) => el.querySelector(sel)!.getBoundingClientRect().width),
    );
    assert.ok(widths[1]! >= widths[0]!, `suggestions ${widths[1]} px wide, the reply ${widths[0]} px`);
    await wb.screenshot('35-playground-search-suggestions');
    // A chip asks VS Code to open Google's results page in the browser (VS Code asks first).
    await chips.first().click();
    const opening = page.locator('.monaco-dialog-box', { hasText: 'www.google.com' });
    await opening.waitFor({ timeout: 15_000 });
    await wb.screenshot('35a-search-suggestion-opens');
    await opening.locator('.monaco-button', { hasText: 'Cancel' }).click();

    // Markup that could run or cover the page is not there: no script, no image, no javascript: link,
    // no style of its own.
    const hostile = await ask('Show hostile markup');
    const shown = hostile.locator('.search-suggestions');
    await shown.locator('a.chip').first().waitFor();
    assert.equal(await shown.locator('script, img').count(), 0);
    assert.equal(await shown.locator('#hostile').getAttribute('href'), null);
    assert.equal(await shown.locator('#cover').getAttribute('style'), null);
    assert.equal(
      await hostile.evaluate((el) => (el.ownerDocument.defaultView as unknown as { ranHostile?: string }).ranHostile),
      undefined,
    );
    await search.click();

    // Opened again from the Spaces view, the conversation's replies have their suggestions again.
    await frame.locator('vscode-button', { hasText: 'New Chat' }).click();
    await frame.locator('.turn').first().waitFor({ state: 'detached' });
    const spaces = rowsOf(page, 'Spaces');
    const conversation = spaces.filter({ hasText: question }).first();
    if (!(await conversation.isVisible())) await spaces.filter({ hasText: 'Conversations' }).first().click();
    await conversation.click();
    await frame.locator('.turn .search-suggestions a.chip').first().waitFor({ timeout: 30_000 });
    assert.deepEqual(
      await frame.locator('.turn').first().locator('.search-suggestions a.chip').allTextContents(),
      googleQueries(question),
    );
    assert.equal(await frame.locator('.turn .search-suggestions').count(), 2);
    assert.deepEqual(gemini.problems, []);
    assert.ok(!(await page.content()).includes(gemini.key), 'the key is nowhere on the page');
  });
});
