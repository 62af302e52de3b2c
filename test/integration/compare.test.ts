// Compare Models in the real extension host: the panel's calls go through the handler a webview's
// messages reach; replies stream per column, a column stops alone, every promotion is shown as a diff
// and then checked on the service, and the report is a file in the workspace.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CompareResults, CompareSpace, Proposal } from '../../src/shared/protocol/compare';
import type { ReplyInfo } from '../../src/shared/protocol/playground';
import type { ComparePanel } from '../../src/webviews/compare/comparePanel';
import { callWebview, extension, serviceClient } from './support';

/** The streamed text of each call among these events, by call id. */
function textByCall(events: unknown[]): Map<number, string> {
  const texts = new Map<number, string>();
  for (const e of events as Array<{ type: string; callId: number; content: string }>)
    if (e.type === 'delta') texts.set(e.callId, (texts.get(e.callId) ?? '') + e.content);
  return texts;
}

/** The events seen by the call that ended last: every event posted while any of them ran. */
const lastEvents = (calls: Array<{ events: unknown[] }>) =>
  calls.map((c) => c.events).reduce((a, b) => (b.length > a.length ? b : a));

describe('compare models', () => {
  let panel: ComparePanel;
  let appId: string;

  before(async () => {
    const api = await extension();
    const client = await serviceClient(api);
    appId = (await client.createSpace({ name: 'Compare test' })).id;
    api.spaces.refresh();
    await vscode.commands.executeCommand('llmSpaces.compareModels', appId);
    panel = api.webviews.compare!;
    assert.ok(panel, 'the command opened the comparison');
  });
  after(() => panel?.dispose());

  const propose = async (model: string, action: string, extra: { position?: number; toward?: string } = {}) => {
    const asked = await callWebview<Proposal>(panel.channel, 'propose', {
      appId,
      model,
      action,
      position: extra.position ?? null,
      toward: extra.toward ?? null,
    });
    assert.ok(asked.ok, asked.error?.message);
    return asked.result;
  };
  const promote = async (proposal: Proposal) => {
    const saved = await callWebview<CompareResults['promote']>(panel.channel, 'promote', { proposalId: proposal.id });
    assert.ok(saved.ok, saved.error?.message);
    return saved.result;
  };

  it('opens on the Space it was asked from, and describes it', async () => {
    const context = await callWebview<CompareResults['context']>(panel.channel, 'context', {});
    assert.deepEqual(context.result.start, { appId, prompt: '', models: [] });
    const space = await callWebview<CompareSpace>(panel.channel, 'space', { appId });
    assert.equal(space.result.name, 'Compare test');
    assert.ok(
      space.result.active.includes('test/echo') && space.result.active.includes('test/lorem'),
      space.result.active.join(),
    );
    assert.ok(space.result.canEdit);
  });

  it('streams each column on its own, with its figures and the saving against the benchmark model', async () => {
    const prompt = 'Compare this prompt, please.';
    const client = await serviceClient(await extension());
    const before = (await client.getOrganization()).num_requests;
    const [echo, lorem] = await Promise.all(
      ['test/echo', 'test/lorem'].map((model) =>
        callWebview<ReplyInfo>(panel.channel, 'run', { body: { app_id: appId, prompt, model } }),
      ),
    );
    for (const [run, model] of [
      [echo!, 'test/echo'],
      [lorem!, 'test/lorem'],
    ] as const) {
      assert.ok(run.ok, run.error?.message);
      assert.equal(run.result.namespace, model);
      assert.ok(
        run.result.usage.completion_tokens > 0 && run.result.costs.total_tokens > 0 && run.result.latencySeconds >= 0,
      );
    }
    assert.equal(echo!.result.content, prompt);
    assert.notEqual(lorem!.result.content, prompt);
    // Each call's pieces, told apart by its id, add up to its own model's reply.
    const streams = [...textByCall(lastEvents([echo!, lorem!])).values()].sort();
    assert.deepEqual(streams, [echo!.result.content, lorem!.result.content].sort());
    assert.equal((await client.getOrganization()).num_requests, before + 2, 'one request per column');
    // No benchmark model yet: the saving is counted against none, so it is nothing.
    assert.equal(echo!.result.savings.total_tokens, 0);
  });

  it('stops one column and leaves the other running to its end', async () => {
    const prompt = 'word '.repeat(400);
    let stopped = false;
    const [cut, whole] = await Promise.all([
      callWebview<ReplyInfo>(
        panel.channel,
        'run',
        { body: { app_id: appId, prompt, model: 'test/echo' } },
        (posted, id) => {
          // The first piece of this column's reply, not of the other's, which streams alongside.
          const event = posted.type === 'event' ? (posted.event as { type: string; callId: number }) : undefined;
          if (!stopped && event?.type === 'delta' && event.callId === id) {
            stopped = true;
            void panel.channel.receive({ type: 'call', id: 999_998, method: 'stop', params: { callId: id } });
          }
        },
      ),
      callWebview<ReplyInfo>(panel.channel, 'run', {
        body: { app_id: appId, prompt: 'Go on to the end.', model: 'test/lorem' },
      }),
    ]);
    assert.equal(cut!.ok, false);
    assert.equal(cut!.error?.cancelled, true);
    assert.ok(whole!.ok, whole!.error?.message);
    assert.equal(whole!.result.finishReason, 'stop');
  });

  it('checks the spending limits once for the whole comparison, asking before all its requests together pass the soft limit', async () => {
    const api = await extension();
    const org = (await api.organization.refresh())!;
    const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    api.organization.recordReply({
      usage: zero,
      costs: { ...zero, total_tokens: org.spending_limit_soft! - 1e-9 - org.total_tokens_cost },
      savings: zero,
    });
    try {
      const asked: string[] = [];
      panel.guard.ask = async (message) => (asked.push(message), false);
      const bodies = ['test/echo', 'test/lorem', 'test/echo'].map((model) => ({
        app_id: appId,
        prompt: 'Within the budget, all three?',
        model,
      }));
      const refused = await callWebview(panel.channel, 'guard', { bodies });
      assert.equal(refused.ok, false);
      assert.match(refused.error!.message, /^Not sent: it would pass the soft spending limit\.$/);
      assert.equal(asked.length, 1, 'asked once, not once per column');
      assert.match(
        asked[0]!,
        /^Sending these 3 requests \(about \$[\d.]+ together\) would pass the organization's soft spending limit of \$20\.00/,
      );
      panel.guard.ask = async () => true;
      assert.equal((await callWebview(panel.channel, 'guard', { bodies })).ok, true);
    } finally {
      await api.organization.refresh();
    }
  });

  it('makes a model the benchmark after showing the change, and saves it on the service', async () => {
    const client = await serviceClient(await extension());
    const before = (await client.getSpace(appId)).main.app.benchmark_model_id;
    const proposal = await propose('test/lorem', 'benchmark');
    assert.equal(proposal.rows.length, 1);
    assert.equal(proposal.rows[0]!.label, 'Benchmark model');
    assert.equal(proposal.rows[0]!.after, 'test/lorem');
    assert.equal((await client.getSpace(appId)).main.app.benchmark_model_id, before, 'nothing is saved by showing it');
    const saved = await promote(proposal);
    assert.match(saved.message, /test\/lorem is now the benchmark model/);
    const lorem = (await client.listModels()).find((m) => m.namespace === 'test/lorem')!;
    assert.equal((await client.getSpace(appId)).main.app.benchmark_model_id, lorem.id);
    assert.equal(saved.space.benchmark, 'test/lorem');
    const again = await callWebview(panel.channel, 'propose', {
      appId,
      model: 'test/lorem',
      action: 'benchmark',
      position: null,
      toward: null,
    });
    assert.match(again.error!.message, /already the benchmark model/);
  });

  it('puts a model at a chosen position of the failover chain', async () => {
    const client = await serviceClient(await extension());
    const before = (await client.getSpace(appId)).main.failover_models.map((m) => m.namespace);
    const proposal = await propose('test/lorem', 'failover', { position: 1 });
    const chain = proposal.rows.find((r) => r.label === 'Failover chain')!;
    assert.equal(chain.before, before.join(' → ') || 'empty');
    assert.equal(chain.after, ['test/lorem', ...before.filter((m) => m !== 'test/lorem')].join(' → '));
    await promote(proposal);
    const after = await client.getSpace(appId);
    assert.equal(after.main.failover_models[0]?.namespace, 'test/lorem');
    assert.equal(after.main.app.has_failover_chain, true);
  });

  it('shifts the routing weights toward what won', async () => {
    const client = await serviceClient(await extension());
    await client.updateSpace({ id: appId, weights: { cost: 1, latency: 1, quality: 1 } });
    const proposal = await propose('test/echo', 'weights', { toward: 'cost' });
    assert.deepEqual(proposal.rows[0], {
      label: 'Routing weights',
      before: 'cost 1 · latency 1 · quality 1',
      after: 'cost 2 · latency 0.5 · quality 0.5',
    });
    await promote(proposal);
    const weights = (await client.getSpace(appId)).main.app.weights!;
    assert.deepEqual(
      { cost: weights.cost, latency: weights.latency, quality: weights.quality },
      { cost: 2, latency: 0.5, quality: 0.5 },
    );
  });

  it('makes a model the only active one, turning the others off', async () => {
    const client = await serviceClient(await extension());
    const proposal = await propose('test/echo', 'only');
    assert.equal(proposal.rows[0]!.after, 'test/echo');
    assert.match(proposal.note!, /Turned off: .*test\/lorem/);
    await promote(proposal);
    const settings = (await client.getSpace(appId)).main.base_model_settings;
    assert.deepEqual(
      settings.filter((s) => s.active).map((s) => s.namespace),
      ['test/echo'],
    );
  });

  it('refuses to save a diff the Space has moved on from, and saves nothing', async () => {
    const client = await serviceClient(await extension());
    const proposal = await propose('test/echo', 'benchmark');
    // Changed elsewhere after the diff was shown.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.updateSpace({ id: appId, description: 'changed elsewhere' });
    const saved = await callWebview(panel.channel, 'promote', { proposalId: proposal.id });
    assert.equal(saved.ok, false);
    assert.match(saved.error!.message, /changed elsewhere since these changes were shown/);
    const lorem = (await client.listModels()).find((m) => m.namespace === 'test/lorem')!;
    assert.equal(
      (await client.getSpace(appId)).main.app.benchmark_model_id,
      lorem.id,
      'the benchmark is still the one saved before',
    );
  });

  it('writes the comparison as a markdown report in the workspace', async () => {
    const prompt = 'Report on this.';
    const runs = await Promise.all(
      ['test/echo', 'test/lorem'].map((model) =>
        callWebview<ReplyInfo>(panel.channel, 'run', { body: { app_id: appId, prompt, model } }),
      ),
    );
    // The ids the runs had (the page sends them back for the report), found by their streamed text.
    const byCall = textByCall(lastEvents(runs));
    const ids = runs.map((run) => [...byCall].find(([, text]) => text === run.result.content)![0]);
    const written = await callWebview<string>(panel.channel, 'report', { callIds: ids });
    assert.ok(written.ok, written.error?.message);
    assert.match(written.result, /^llm-spaces-reports\/compare-.*\.md$/);
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, written.result);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.match(text, /^# Comparison of 2 models in "Compare test"/);
    assert.match(text, /\| Model \| Tokens \(in \/ out\) \| Cost \| Latency \| Saving against test\/lorem \|/);
    assert.match(text, /\| test\/echo \| \d+ \/ \d+ \| \$[\d.]+ \| [\d.]+ s \| -?\$[\d.]+ \|/);
    assert.ok(text.includes(`## test/echo\n\n${prompt}`));
    assert.ok(text.includes(runs[1]!.result.content));
    await vscode.workspace.fs.delete(uri);
  });
});
