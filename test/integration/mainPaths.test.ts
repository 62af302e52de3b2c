// The extension's main paths against both services it must work with: the built-in one, and a fake of
// the hosted service as it really answers (hosted wire names, fields no client knows, a catalogue with
// an unreadable record, an update that insists on description/weights/policies, integrations read as
// prom/loki). Sign in, the three views, a Space's detail and update, the organization and its
// integrations, a chat. Also: Connect checks a URL before switching to it.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { OrganizationData } from '../../src/shared/protocol/organization';
import type { BandAnswer, ReplyInfo } from '../../src/shared/protocol/playground';
import type { SpaceEditorData } from '../../src/shared/protocol/spaceSettings';
import type { ModelNode } from '../../src/views/modelsTree';
import type { SpaceNode } from '../../src/views/spaceNodes';
import { startHostedFake, type HostedFake } from '../unit/support/hostedFake';
import { callWebview, extension, reportsDuring, serviceClient, waitFor } from './support';

const config = () => vscode.workspace.getConfiguration('llmSpaces');

async function backToBuiltIn(): Promise<void> {
  const api = await extension();
  await vscode.commands.executeCommand('llmSpaces.connect', '');
  await waitFor(
    async () =>
      api.connection.mode === 'local' && (await api.connection.client()) && api.connection.state.kind !== 'connecting',
    'back on the built-in service',
  );
}

for (const target of ['the built-in service', 'a fake of the hosted service'] as const) {
  describe(`main paths against ${target}`, function () {
    const textOf = async (response: vscode.LanguageModelChatResponse) => {
      let text = '';
      for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      return text;
    };
    this.timeout(60_000);
    let hosted: HostedFake | undefined;
    /** A client straight to the built-in service, to check what was saved there. */
    let direct: Awaited<ReturnType<typeof serviceClient>>;

    before(async () => {
      const api = await extension();
      direct = await serviceClient(api);
      if (target === 'the built-in service') return;
      hosted = await startHostedFake(direct.baseUrl, { badModels: 1 });
      const token = (await api.connection.remoteToken())!;
      await vscode.commands.executeCommand('llmSpaces.connect', hosted.url);
      assert.equal(config().get('serviceUrl'), hosted.url);
      await vscode.commands.executeCommand('llmSpaces.signIn', token);
      await waitFor(
        () => api.connection.mode === 'remote' && api.connection.url === hosted!.url,
        'connected to the fake',
      );
    });
    after(async () => {
      if (!hosted) return;
      await backToBuiltIn();
      await hosted.close();
    });

    it('fills the three views; an unreadable model is left out and counted, not a failed view', async () => {
      const api = await extension();
      api.spaces.refresh();
      api.catalogue.reload();
      const spaces = await api.views.spaces.getChildren();
      assert.ok(
        spaces.some((n) => n.kind === 'space'),
        'Spaces listed',
      );
      assert.equal(api.views.spaces.view.message, undefined);
      assert.ok((await api.views.prompts.getChildren()).length > 0, 'prompts listed');
      const models = await api.views.models.getChildren();
      assert.ok(models.filter((n) => n.kind === 'provider').length > 3, 'providers listed');
      const note = models.find((n): n is Extract<ModelNode, { kind: 'unreadable' }> => n.kind === 'unreadable');
      if (hosted) {
        assert.equal(note?.count, 1);
        const item = api.views.models.getTreeItem(note!);
        assert.equal(item.label, '1 model could not be read');
        assert.equal(item.command?.command, 'llmSpaces.showLog');
      } else {
        assert.equal(note, undefined);
      }
      const space = spaces.find((n): n is Extract<SpaceNode, { kind: 'space' }> => n.kind === 'space')!;
      const groups = await api.views.spaces.getChildren(space);
      assert.ok(groups.length > 5, 'a Space opens into its groups');
    });

    it("shows a Space's detail and saves a partial update", async () => {
      const api = await extension();
      const spaceId = (await direct.listSpaces({ search: 'My first Space' })).items.find((s) => !s.sandbox_of)!.id;
      await vscode.commands.executeCommand('llmSpaces.openSpaceSettings', spaceId);
      const editor = await waitFor(() => api.webviews.settings.get(spaceId), 'the settings editor');
      // The form (a real page) loads the Space itself first, as it does for a user.
      await editor.loaded;
      try {
        const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
        assert.ok(loaded.ok, loaded.error?.message);
        const before = loaded.result.view.main.app;
        assert.equal(
          before.identity_id,
          (await direct.getSpace(spaceId)).main.app.identity_id,
          'read in either spelling',
        );
        const name = `Renamed via ${target}`;
        try {
          await callWebview(editor.channel, 'edit', { dirty: true, changes: { name } });
          const saved = await callWebview(editor.channel, 'save', {});
          assert.deepEqual(
            saved.events.map((e) => (e as { type: string }).type),
            ['saved'],
          );
          const after = (await direct.getSpace(spaceId)).main.app;
          assert.equal(after.name, name);
          const weights = (w: typeof after.weights) => ({ cost: w?.cost, latency: w?.latency, quality: w?.quality });
          assert.deepEqual(weights(after.weights), weights(before.weights));
          if (hosted)
            assert.equal(
              hosted.seen.filter((r) => r.path === '/v1/apps/update').length,
              2,
              'refused once for the missing fields, then resent with them',
            );
        } finally {
          await direct.updateSpace({ id: spaceId, name: before.name });
        }
      } finally {
        editor.dispose();
      }
    });

    it('shows the organization and saves an integration in the names the service reads', async () => {
      const api = await extension();
      await vscode.commands.executeCommand('llmSpaces.openOrganization');
      const panel = api.webviews.organization!;
      try {
        const loaded = await callWebview<OrganizationData>(panel.channel, 'load', {});
        assert.ok(loaded.ok, loaded.error?.message);
        assert.equal(loaded.result.org!.org_payment_id, (await direct.getOrganization()).org_payment_id);
        const saved = await callWebview<OrganizationData>(panel.channel, 'saveIntegration', {
          group: 'logs',
          value: { id: 'l-main', token: 'logs-secret-4321', endpoint: 'https://logs.example.com' },
        });
        assert.ok(saved.ok, saved.error?.message);
        assert.equal(saved.result.org!.logs_id, 'l-main');
        assert.equal((await direct.getOrganization()).logs_id, 'l-main', 'saved on the service');
        if (hosted)
          assert.deepEqual(
            Object.keys(hosted.seen.filter((r) => r.path === '/v1/orgs/integrations').at(-1)!.body as object),
            ['loki'],
          );
        await callWebview(panel.channel, 'saveIntegration', { group: 'logs', value: null });
      } finally {
        panel.dispose();
      }
    });

    it("answers in VS Code's chat through a Space created here, with its key where the service needs one", async () => {
      const api = await extension();
      const created = await api.spaces.create({ name: `Chat via ${target}` });
      await config().update(
        'chat.pinnedModels',
        [{ space: created.id, model: 'test/echo' }],
        vscode.ConfigurationTarget.Global,
      );
      try {
        const model = await waitFor(
          async () =>
            (await vscode.lm.selectChatModels({ vendor: 'llm-spaces' })).find(
              (m) => m.id === `space:${created.id}|model:test/echo`,
            ),
          'the pinned model',
        );
        const text = await textOf(
          await model.sendRequest(
            [vscode.LanguageModelChatMessage.User('Through the chat')],
            {},
            new vscode.CancellationTokenSource().token,
          ),
        );
        // The built-in service sends a routing receipt; the hosted one does not, and the line says who answered.
        assert.match(
          text,
          hosted
            ? /^Through the chat\n\n_— Sent to test\/echo, the model asked for \(estimated: the service sent no receipt\)/
            : /^Through the chat\n\n_— Sent to test\/echo, the model asked for/,
        );
        if (hosted) {
          const sent = hosted.seen.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
          // Compared, never printed: a failure message must not show a key.
          assert.ok(
            sent.authorization === `Bearer ${created.created_key}`,
            "the Space's key, kept when the Space was created, was used",
          );
        }
      } finally {
        await config().update('chat.pinnedModels', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('chats, and the spend moves on from the reply before the service is asked again', async () => {
      const api = await extension();
      const spaceId = (await direct.listSpaces({ search: 'My first Space' })).items.find((s) => !s.sandbox_of)!.id;
      await vscode.commands.executeCommand('llmSpaces.openPlayground', spaceId);
      const panel = api.webviews.playgrounds.at(-1)!;
      try {
        const spent = (await api.organization.refresh())!.total_tokens_cost;
        const sent = await callWebview<ReplyInfo>(panel.channel, 'send', {
          body: { app_id: spaceId, model: 'test/echo', prompt: `Hello from ${target}.` },
        });
        assert.ok(sent.ok, sent.error?.message);
        assert.equal(sent.result.content, `Hello from ${target}.`);
        const now = api.organization.organization!.total_tokens_cost;
        assert.ok(
          Math.abs(now - (spent + sent.result.costs.total_tokens)) < 1e-12,
          `${now} is ${spent} plus the reply's cost`,
        );
        assert.match(String(api.usage.item.text), /\$/);
        // The built-in service sends the receipt and the cost band; for the hosted one the extension estimates both, and says so.
        assert.equal(sent.result.routing?.estimated, hosted ? true : undefined);
        assert.ok(sent.result.routing?.candidates.length, 'the receipt names the candidates');
        const routed = await callWebview<ReplyInfo>(panel.channel, 'send', {
          body: { app_id: spaceId, prompt: 'Routed, please.' },
        });
        assert.ok(routed.ok, routed.error?.message);
        assert.ok(
          routed.result.routing!.candidates.some((c) => c.namespace === routed.result.namespace),
          'the model that answered is among the candidates',
        );
        const answer = await callWebview<BandAnswer>(panel.channel, 'costBand', {
          body: { app_id: spaceId, model: 'test/echo', prompt: 'x'.repeat(400), max_tokens: 10 },
        });
        const band = answer.result?.band;
        assert.ok(answer.ok && band, answer.error?.message ?? 'a band');
        assert.equal(band.estimated, hosted ? true : undefined);
        assert.ok(band.min <= band.expected && band.expected <= band.max);
        if (hosted)
          assert.ok(
            hosted.seen.some((r) => r.path.endsWith('/route')),
            'the route preview was asked for, and answered 404',
          );
      } finally {
        panel.dispose();
      }
    });
  });
}

describe('Connect to Service', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    await backToBuiltIn();
  });

  async function tryConnect(url: string) {
    const api = await extension();
    const reports = await reportsDuring(api, () => vscode.commands.executeCommand('llmSpaces.connect', url));
    return { api, reports };
  }

  it('keeps the current connection when nothing answers at the new URL, and says so in one sentence', async () => {
    const { api, reports } = await tryConnect('http://127.0.0.1:9');
    assert.equal(config().get('serviceUrl') || '', '');
    assert.equal(api.connection.mode, 'local');
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.message, 'Connecting failed: Nothing answers at http://127.0.0.1:9.');
  });

  it('keeps the current connection when the URL answers but not with /v1', async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not here</html>');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { api, reports } = await tryConnect(url);
    assert.equal(api.connection.mode, 'local');
    assert.match(reports[0]!.message, /answers, but does not offer the LLM Spaces \/v1 interface\.$/);
    const garbage = await tryConnect('not a url');
    assert.match(garbage.reports[0]!.message, /is not an http or https URL/);
  });
});
