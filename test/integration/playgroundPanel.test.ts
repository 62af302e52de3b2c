// The playground panel's protocol in the real extension host: messages go through the same handler a
// webview's messages reach, and every effect is checked on the real service.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { BandAnswer, PlaygroundContext, ReplyInfo, SpaceBrief, Turn } from '../../src/shared/protocol/playground';
import type { PlaygroundPanel } from '../../src/webviews/playground/playgroundPanel';
import { pdfBase64 } from '../unit/support/pdf';
import { callWebview, extension, reportsDuring, serviceClient, waitFor } from './support';

/** The sample file in the workspace the test host opened. */
const cart = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src', 'cart.ts');

/** Collects the drafts the panel posts to its page (the text put into its prompt box). */
const collectDrafts = (panel: PlaygroundPanel, drafts: unknown[]) =>
  panel.channel.onDidPost(
    (m) => m.type === 'event' && (m.event as { type?: string }).type === 'draft' && drafts.push(m.event),
  );

/** The conversation the panel made for a send that asked for one (its 'conversation' event), if any. */
const madeConversation = (events: unknown[]) =>
  (events as Array<{ type: string; conversation?: { id: string; name: string } }>).find(
    (event) => event.type === 'conversation',
  )?.conversation;

describe('playground panel', () => {
  let panel: PlaygroundPanel;
  let appId: string;

  before(async () => {
    const api = await extension();
    const client = await serviceClient(api);
    appId = (await client.listSpaces({ search: 'My first Space' })).items.find((s) => !s.sandbox_of)!.id;
    await vscode.commands.executeCommand('llmSpaces.openPlayground', appId);
    panel = api.webviews.playgrounds.at(-1)!;
  });
  after(() => panel?.dispose());

  it('lists the Spaces and the catalogue, and describes a Space', async () => {
    const context = await callWebview<PlaygroundContext>(panel.channel, 'context', {});
    assert.ok(context.ok, context.error?.message);
    assert.ok(context.result.spaces.some((s) => s.id === appId));
    const echo = context.result.models.find((m) => m.namespace === 'test/echo');
    assert.ok(echo && echo.promptCost > 0, 'prices come with the models, for the estimate');
    const space = await callWebview<SpaceBrief>(panel.channel, 'space', { appId });
    assert.ok(space.result.canChat);
    assert.ok(space.result.activeModels.includes('test/echo'));
  });

  it("sends the page the catalogue again when it is read anew (a key added), not when the Models view's filter changes", async () => {
    const api = await extension();
    const lists: unknown[] = [];
    const listening = panel.channel.onDidPost(
      (m) => m.type === 'event' && (m.event as { type?: string }).type === 'models' && lists.push(m.event),
    );
    const filter = { ...api.catalogue.filter };
    try {
      // The filter first: a list it sent would come before the reload's, which waits for the service.
      api.catalogue.setFilter({ text: 'gpt' });
      api.catalogue.reload();
      await waitFor(async () => lists.length > 0 || undefined, 'the catalogue read again');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(lists.length, 1, 'one list, for the reload');
      const [event] = lists as Array<{ models: Array<{ namespace: string }> }>;
      assert.ok(
        event!.models.some((m) => m.namespace === 'test/echo'),
        'the whole chat catalogue, not the filtered view',
      );
    } finally {
      listening.dispose();
      api.catalogue.setFilter(filter);
    }
  });
  it('gives the cost band before sending, earlier turns counted, and the bill falls in it (a test model exactly at the expected cost)', async () => {
    const first = { app_id: appId, model: 'test/echo', prompt: 'What will this cost?', max_tokens: 64 };
    const bandOf = async (body: typeof first & { conversation_id?: string }) => {
      const answer = await callWebview<BandAnswer>(panel.channel, 'costBand', { body });
      assert.ok(answer.ok && answer.result.band, answer.error?.message ?? 'a band');
      return answer.result.band;
    };
    const firstBand = await bandOf(first);
    const sentFirst = await callWebview<ReplyInfo>(panel.channel, 'send', {
      body: first,
      newConversation: 'Band test',
    });
    assert.equal(sentFirst.result.costs.total_tokens, firstBand.expected);
    const body = { ...first, conversation_id: madeConversation(sentFirst.events)!.id };
    const second = await bandOf(body);
    assert.ok(second.prompt_tokens > firstBand.prompt_tokens, 'the earlier turn is counted in what is sent');
    const billed = (await callWebview<ReplyInfo>(panel.channel, 'send', { body })).result.costs.total_tokens;
    assert.ok(second.min <= billed && billed <= second.max, `${billed} within ${second.min}–${second.max}`);
    assert.equal(billed, second.expected);
  });

  it('counts the attached files in the cost band as the service would send them, and refuses a PDF it cannot read in words', async () => {
    const bandAnswer = async (files?: string[]) => {
      const body = { app_id: appId, model: 'test/echo', prompt: 'What do these say?', max_tokens: 64, files };
      const answer = await callWebview<BandAnswer>(panel.channel, 'costBand', { body });
      assert.ok(answer.ok, answer.error?.message);
      return answer.result;
    };
    const band = async (files?: string[]) => {
      const answer = await bandAnswer(files);
      assert.ok(answer.band, 'a band');
      assert.equal(answer.refused, undefined);
      return answer.band.prompt_tokens;
    };
    const alone = await band();
    const text = Buffer.from(Array(40).fill('Spaces route each request.').join('\n')).toString('base64');
    assert.ok((await band([`data:text/plain;base64,${text}`])) - alone > 150, 'a text file counts as its text');
    // A one-page PDF: at least its page as an image (765 tokens by OpenAI's rule for US Letter).
    const withPdf = await band([`data:application/pdf;base64,${pdfBase64(['The plan.'])}`]);
    assert.ok(withPdf - alone >= 765, `a PDF: ${alone} then ${withPdf}`);
    // A PDF the service cannot read is refused in its words, which need no field's name.
    const broken = Buffer.from('%PDF-1.4\nnot a document\n%%EOF\n').toString('base64');
    // Said before sending, in place of a band.
    assert.deepEqual(await bandAnswer([`data:application/pdf;base64,${broken}`]), {
      band: null,
      refused: 'This PDF cannot be read: it is not a valid PDF',
      refusedFile: 0,
    });
    const sent = await callWebview<ReplyInfo>(panel.channel, 'send', {
      body: {
        app_id: appId,
        model: 'test/echo',
        prompt: 'And this?',
        files: [`data:application/pdf;base64,${broken}`],
      },
    });
    assert.equal(
      sent.error?.message,
      'Playground: the service refused the input (This PDF cannot be read: it is not a valid PDF).',
    );
  });

  it('asks before a send that would pass the soft spending limit, and refuses one past the hard limit, naming the limit and the spend', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const org = (await api.organization.refresh())!;
    const soft = org.spending_limit_soft!;
    const hard = org.spending_limit_hard!;
    const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    // What costly replies would have added to the spend the extension knows of.
    const spendUpTo = (total: number) =>
      api.organization.recordReply({
        usage: zero,
        costs: { ...zero, total_tokens: total - api.organization.organization!.total_tokens_cost },
        savings: zero,
      });
    const body = { app_id: appId, model: 'test/echo', prompt: 'Within the budget?' };
    const requests = async () => (await client.getOrganization()).num_requests;
    // What the turn is told before its first piece, and, last, whether a piece came.
    const stages = (events: unknown[]) =>
      (events as Array<{ type: string; stage?: string }>)
        .filter((event) => event.type === 'stage' || event.type === 'delta')
        .map((event) => event.stage ?? event.type);
    try {
      spendUpTo(soft - 1e-9);
      const asked: string[] = [];
      panel.askBudget = async (message) => (asked.push(message), false);
      const before = await requests();
      const conversations = async () => (await client.listConversations(appId)).map((c) => c.name);
      const named = (await conversations()).length;
      const declined = await callWebview(panel.channel, 'send', { body, newConversation: 'Within the budget?' });
      assert.equal(declined.ok, false);
      assert.match(declined.error!.message, /Not sent/);
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /soft spending limit of \$20\.00, with \$20\.00 spent this cycle/);
      assert.equal(await requests(), before, 'nothing reached the service');
      assert.deepEqual(stages(declined.events), ['asking'], 'the turn says it waits for the answer, not for tokens');
      // The conversation the first prompt asked for is made only for a send that goes.
      assert.equal(madeConversation(declined.events), undefined);
      assert.equal((await conversations()).length, named, 'no empty conversation behind a send not sent');
      panel.askBudget = async () => true;
      const sent = await callWebview<ReplyInfo>(panel.channel, 'send', { body, newConversation: 'Within the budget?' });
      assert.ok(sent.ok, sent.error?.message);
      assert.deepEqual([...new Set(stages(sent.events))], ['asking', 'sent', 'delta']);
      const made = madeConversation(sent.events)!;
      assert.equal((await conversations())[0], 'Within the budget?');
      assert.equal((await client.getConversation(appId, made.id, true)).requests!.at(-1)!.id, sent.result.id);
      spendUpTo(hard - 1e-9);
      panel.askBudget = async (message) => (asked.push(message), true);
      const refused = await callWebview(panel.channel, 'send', { body });
      assert.equal(refused.ok, false);
      assert.match(refused.error!.message, /hard spending limit of \$50\.00, with \$50\.00 spent this cycle/);
      assert.equal(asked.length, 1, 'past the hard limit nobody is asked');
      assert.deepEqual(stages(refused.events), []);
    } finally {
      await api.organization.refresh();
    }
  });

  it('streams a reply from a test model, with its cost as the service logged it', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const sent = await callWebview<ReplyInfo>(panel.channel, 'send', {
      body: { app_id: appId, model: 'test/echo', prompt: 'Hello **world**, stream me.' },
      newConversation: 'Streaming test',
    });
    assert.ok(sent.ok, sent.error?.message);
    const conversation = madeConversation(sent.events)!;
    assert.equal(conversation.name, 'Streaming test');
    const deltas = sent.events.filter(
      (e): e is { type: 'delta'; content: string } => (e as { type: string }).type === 'delta',
    );
    assert.ok(deltas.length > 1, `the reply came in pieces (${deltas.length})`);
    assert.equal(deltas.map((d) => d.content).join(''), 'Hello **world**, stream me.');
    assert.equal(sent.result.content, 'Hello **world**, stream me.');
    assert.equal(sent.result.namespace, 'test/echo');
    assert.ok(sent.result.usage.total_tokens > 0 && sent.result.costs.total_tokens > 0);
    const logged = (await client.getConversation(appId, conversation.id, true)).requests!.at(-1)!;
    assert.equal(logged.id, sent.result.id);
    assert.equal(logged.cost, sent.result.costs.total_tokens);
    // The next turn threads onto this one; loading the conversation brings both back in order.
    const second = await callWebview<ReplyInfo>(panel.channel, 'send', {
      body: {
        app_id: appId,
        model: 'test/echo',
        prompt: 'And again.',
        conversation_id: conversation.id,
        parent_request_id: sent.result.id,
      },
    });
    assert.ok(second.ok, second.error?.message);
    const loaded = await callWebview<{ turns: Turn[]; notice: string | null }>(panel.channel, 'loadConversation', {
      appId,
      conversationId: conversation.id,
    });
    assert.deepEqual(
      loaded.result.turns.map((t) => [t.prompt, t.reply?.content]),
      [
        ['Hello **world**, stream me.', 'Hello **world**, stream me.'],
        ['And again.', 'And again.'],
      ],
    );
    assert.equal(loaded.result.notice, null);
    const renamed = await callWebview(panel.channel, 'renameConversation', {
      appId,
      conversationId: conversation.id,
      name: 'Renamed in the panel',
    });
    assert.ok(renamed.ok);
    assert.equal((await client.getConversation(appId, conversation.id)).name, 'Renamed in the panel');
  });

  it('says why earlier turns cannot be shown when the Space keeps no text', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const before = (await client.getSpace(appId)).main.app.policies?.privacy_level ?? 1;
    await api.spaces.update({ id: appId, policies: { privacy_level: 2 } });
    try {
      const sent = await callWebview<ReplyInfo>(panel.channel, 'send', {
        body: { app_id: appId, model: 'test/echo', prompt: 'Not kept.' },
        newConversation: 'Private',
      });
      assert.ok(sent.ok, sent.error?.message);
      const conversation = madeConversation(sent.events)!;
      const loaded = await callWebview<{ turns: Turn[]; notice: string | null }>(panel.channel, 'loadConversation', {
        appId,
        conversationId: conversation.id,
      });
      assert.deepEqual(loaded.result.turns, []);
      assert.match(loaded.result.notice ?? '', /privacy level keeps no prompt or reply text/);
    } finally {
      await api.spaces.update({ id: appId, policies: { privacy_level: before } });
    }
  });

  it('stops a streaming reply, and the service logs it as stopped', async () => {
    const client = await serviceClient(await extension());
    const before = (await client.getOrganization()).num_requests;
    const prompt = 'word '.repeat(400);
    let stopped = false;
    const sent = await callWebview<ReplyInfo>(
      panel.channel,
      'send',
      { body: { app_id: appId, model: 'test/echo', prompt } },
      (posted) => {
        if (!stopped && posted.type === 'event' && (posted.event as { type: string }).type === 'delta') {
          stopped = true;
          void panel.channel.receive({
            type: 'call',
            id: 999_999,
            method: 'stop',
            params: { callId: (posted.event as { callId: number }).callId },
          });
        }
      },
    );
    assert.equal(sent.ok, false);
    assert.equal(sent.error?.cancelled, true);
    const streamed = sent.events.filter((e) => (e as { type: string }).type === 'delta').length;
    assert.ok(streamed < 400, `stopped early (${streamed} pieces)`);
    // The service notices the client left on its next piece, and counts the request then.
    await waitFor(
      async () => (await client.getOrganization()).num_requests === before + 1,
      'the stopped request to be counted',
    );
  });

  it("returns the service's 422 and the form checks as field errors, and sends nothing invalid", async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const before = (await client.getOrganization()).num_requests;
    const unknown = await callWebview(panel.channel, 'send', {
      body: { app_id: appId, model: 'nobody/no-such-model', prompt: 'hi' },
    });
    assert.equal(unknown.ok, false);
    assert.match(unknown.error!.fields.model ?? '', /Unknown model/);
    const local = await callWebview(panel.channel, 'send', {
      body: { app_id: appId, prompt: 'hi', temperature: 1.5, max_tokens: 0 },
    });
    assert.deepEqual(Object.keys(local.error!.fields).sort(), ['max_tokens', 'temperature']);
    const malformed = await callWebview(panel.channel, 'send', { body: { app_id: 'not-a-uuid', prompt: 42 } });
    assert.deepEqual(Object.keys(malformed.error!.fields).sort(), ['app_id', 'prompt']);
    const unknownMethod = await callWebview(panel.channel, 'deleteEverything', {});
    assert.match(unknownMethod.error!.message, /Unknown request/);
    assert.equal(
      (await client.getOrganization()).num_requests,
      before,
      'only the unknown model reached the playground, and failed before a model ran',
    );
  });

  it('sends the selection as a fenced block, wrapped in a saved prompt, to the playground', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const template = (await client.listPrompts('all')).find((p) => p.title === 'Explain this code')!;
    const doc = await vscode.workspace.openTextDocument(cart());
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(8, 0, 11, 1);
    const drafts: unknown[] = [];
    const sub = collectDrafts(panel, drafts);
    await vscode.commands.executeCommand('llmSpaces.sendSelectionToPlayground', template.id);
    await waitFor(() => drafts.length > 0, 'the draft to reach the panel');
    sub.dispose();
    const draft = drafts[0] as { type: string; prompt: string };
    assert.equal(draft.type, 'draft');
    const fenced =
      '```typescript src/cart.ts\nexport function total(items: Item[], discount = 0): number {\n  const sum = items.reduce((acc, item) => acc + item.price * item.quantity, 0);\n  return Math.round(sum * (1 - discount) * 100) / 100;\n}\n```';
    assert.equal(draft.prompt, template.prompt.replace('{{prompt}}', fenced));
  });

  it("sends the selection from the editor's context menu, which passes the file's URI, after asking which prompt", async () => {
    const doc = await vscode.workspace.openTextDocument(cart());
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(8, 0, 8, 27);
    const drafts: unknown[] = [];
    const sub = collectDrafts(panel, drafts);
    // The test and the extension share the vscode API object: the pick is answered as a user would.
    const window = vscode.window as { showQuickPick: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showQuickPick;
    let asked = 0;
    window.showQuickPick = async (items: unknown) => {
      asked++;
      return ((await items) as Array<{ template: string }>)[0];
    };
    try {
      const reports = await reportsDuring(await extension(), () =>
        vscode.commands.executeCommand('llmSpaces.sendSelectionToPlayground', doc.uri),
      );
      assert.deepEqual(reports, [], 'no error');
    } finally {
      window.showQuickPick = original;
      sub.dispose();
    }
    assert.equal(asked, 1, 'asked which prompt to wrap the code in');
    await waitFor(() => drafts.length > 0, 'the draft to reach the panel');
    assert.equal(
      (drafts[0] as { prompt: string }).prompt,
      '```typescript src/cart.ts\nexport function total(items\n```',
    );
  });

  it('inserts a code block at the cursor of the last text editor', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'before\n', language: 'typescript' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const inserted = await callWebview(panel.channel, 'codeAction', { action: 'insert', code: 'const x = 1;' });
    assert.ok(inserted.ok, inserted.error?.message);
    assert.equal(doc.getText(), 'before\nconst x = 1;');
    const replaced = await callWebview(panel.channel, 'codeAction', { action: 'replace', code: 'after' });
    assert.ok(replaced.ok);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('inserts at the cursor of a file hidden behind the playground in the same editor group, and shows the file', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'one\ntwo\n', language: 'typescript' });
    // The file opens in the playground's own group, then the playground comes to the front of that
    // group: the file's editor is no longer visible.
    const group = panel.panel.viewColumn ?? vscode.ViewColumn.One;
    const editor = await vscode.window.showTextDocument(doc, group);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    panel.panel.reveal(group);
    await waitFor(
      () => !vscode.window.visibleTextEditors.some((e) => e.document === doc),
      'the file to be hidden behind the playground',
    );
    const inserted = await callWebview(panel.channel, 'codeAction', { action: 'insert', code: 'inserted\n' });
    assert.ok(inserted.ok, inserted.error?.message);
    assert.equal(doc.getText(), 'one\ninserted\ntwo\n');
    await waitFor(
      () => vscode.window.visibleTextEditors.some((e) => e.document === doc),
      'the file to be shown beside the playground',
    );
    assert.ok(panel.panel.visible, 'the playground stays in view');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('refuses to attach a file from outside the workspace by a dropped uri', async () => {
    const outside = await callWebview(panel.channel, 'attachUris', {
      kind: 'files',
      uris: [vscode.Uri.file('/etc/hostname').toString()],
    });
    assert.equal(outside.ok, false);
    assert.match(outside.error!.message, /not in the workspace/);
    const inside = await callWebview<Array<{ name: string; dataUrl: string }>>(panel.channel, 'attachUris', {
      kind: 'files',
      uris: [cart().toString()],
    });
    assert.ok(inside.ok, inside.error?.message);
    assert.match(inside.result[0]!.dataUrl, /^data:text\/plain;base64,/);
  });
});
