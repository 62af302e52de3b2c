// Every endpoint's success path through the typed client: each answer is parsed by the same schemas.
import assert from 'node:assert/strict';
import { ModelRecord, PromptRecord } from '../../../src/api/schemas';
import type { LlmSpacesClient } from '../../../src/api/client';
import { removeDir, startService, type RunningService } from '../support/service';

describe('service endpoints (success paths)', () => {
  let service: RunningService;
  let client: LlmSpacesClient;
  let appId: string;

  before(async () => {
    service = await startService();
    client = service.client();
    const spaces = await client.listSpaces();
    appId = spaces.items.find((s) => !s.sandbox_of)!.id;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  it('GET /healthz and /openapi.json answer without a token', async () => {
    assert.equal((await client.health()).status, 'ok');
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    assert.equal(doc.openapi, '3.1.0');
    for (const path of [
      '/v1/apps/update',
      '/v1/orgs/integrations',
      '/v1/prompts',
      '/v1/internal/models',
      '/v1/apps/{app_id}/conversations/{conversation_id}',
      '/v1/playground/chat',
      '/v1/apps/{app_id}/assistants/{assistant_id}/versions/{version_id}',
    ]) {
      assert.ok(doc.paths[path], `openapi lists ${path}`);
    }
    assert.ok(doc.paths['/v1/prompts']!.get && doc.paths['/v1/prompts']!.post);
  });

  it('GET /v1/internal/models lists a realistic catalogue ordered by namespace', async () => {
    const models = await client.listModels();
    assert.ok(models.length >= 500, `${models.length} models`);
    assert.ok(new Set(models.map((m) => m.provider)).size >= 10);
    assert.deepEqual(
      models.map((m) => m.namespace),
      [...models.map((m) => m.namespace)].sort(),
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.ok(
      models.filter((m) => m.deprecated_on && m.deprecated_on <= today).length >= 2,
      'two with a past deprecation',
    );
    assert.ok(models.filter((m) => m.is_test_model).length >= 2, 'two test models');
    assert.ok(models.filter((m) => m.cache_read_token_cost !== null).length >= 50, 'cache-read prices');
    for (const m of models) assert.ok(ModelRecord.safeParse(m).success);
  });

  it('POST /v1/prompts creates a prompt with its token count, and GET /v1/prompts lists it by show', async () => {
    const created = await client.createPrompt({
      prompt: 'Explain {{prompt}} like I am five.',
      title: 'ELI5',
      description: 'Simple explanations',
    });
    assert.ok(PromptRecord.safeParse(created).success);
    assert.ok(created.tokens > 5 && created.tokens < 20, `tokens ${created.tokens}`);
    assert.equal(created.published_on, null);
    const own = await client.listPrompts('org');
    assert.equal(own[0]!.id, created.id, 'newest modified first');
    assert.ok(own.every((p) => p.org_id === created.org_id));
    const pub = await client.listPrompts('public');
    assert.ok(pub.length > 0 && pub.every((p) => p.org_id !== created.org_id));
    const all = await client.listPrompts();
    assert.equal(all.length, own.length + pub.length);
  });

  it('PUT and DELETE /v1/prompts/{id} change and remove an own prompt', async () => {
    const created = await client.createPrompt({ prompt: 'a', title: 'To change', description: 'd' });
    const updated = await client.updatePrompt(created.id, {
      prompt: 'a much longer text than before',
      title: 'Changed',
    });
    assert.equal(updated.title, 'Changed');
    assert.equal(updated.description, 'd');
    assert.ok(updated.tokens > created.tokens);
    assert.ok(updated.modified_on > created.modified_on);
    assert.deepEqual(await client.deletePrompt(created.id), { success: true });
    assert.ok(!(await client.listPrompts('org')).some((p) => p.id === created.id));
  });

  it('POST /v1/apps/ lists, searches and pages Spaces; GET /v1/apps/{id} shows a Space with its sandbox', async () => {
    const page = await client.listSpaces({ search: 'first', page: 1, size: 1 });
    assert.equal(page.total, 2);
    assert.equal(page.pages, 2);
    assert.equal(page.items.length, 1);
    const view = await client.getSpace(appId);
    assert.equal(view.main.app.id, appId);
    assert.ok(view.sandbox, 'the seeded Space has a sandbox');
    assert.equal(view.sandbox!.app.sandbox_of, appId);
    assert.ok(['outdated', 'up_to_date'].includes(view.sandbox_status!));
    assert.deepEqual(view.main.current_user_permissions, ['view', 'edit', 'delete', 'manage_keys', 'use_playground']);
  });

  it('POST /v1/apps/create returns the key once, and the key works only for its Space', async () => {
    const created = await client.createSpace({ name: 'Created', description: 'by a test' });
    assert.ok(created.created_key.endsWith(created.key_end));
    const view = await client.getSpace(created.id);
    assert.equal(view.main.app.key_end, created.key_end);
    assert.ok(!JSON.stringify(view).includes(created.created_key), 'the key is never shown again');
    const keyClient = service.client({ token: () => created.created_key });
    const keyView = await keyClient.getSpace(created.id);
    assert.deepEqual(keyView.main.current_user_permissions, ['view', 'use_playground']);
    await assert.rejects(keyClient.getSpace(appId), { kind: 'not-found' });
  });

  it('PUT /v1/apps/update merges fields, leaves omitted ones, and flags the sandbox outdated', async () => {
    const before = await client.getSpace(appId);
    const models = await client.listModels();
    const bench = models.find((m) => m.namespace === 'openai/gpt-4o')!;
    const updated = await client.updateSpace({
      id: appId,
      weights: { cost: 5 },
      policies: { max_cost: 0.5 },
      settings: { temperature: 0.3 },
      benchmark_model_id: bench.id!,
      has_failover_chain: true,
    });
    assert.equal(updated.main.app.weights!.cost, 5);
    assert.equal(updated.main.app.weights!.quality, before.main.app.weights!.quality, 'other weights kept');
    assert.equal(updated.main.app.policies!.max_cost, 0.5);
    assert.equal(updated.main.app.policies!.max_same_model_retries, before.main.app.policies!.max_same_model_retries);
    assert.equal(updated.main.app.settings!.temperature, 0.3);
    assert.equal(updated.main.app.settings!.max_tokens, before.main.app.settings!.max_tokens);
    assert.equal(updated.main.app.name, before.main.app.name);
    assert.equal(updated.main.app.benchmark_model!.namespace, 'openai/gpt-4o');
    assert.equal(updated.sandbox_status, 'outdated');
    const sandbox = await client.updateSpace({ id: updated.sandbox!.app.id, description: 'synced' });
    assert.equal(sandbox.main.app.description, 'synced');
    assert.equal((await client.getSpace(appId)).sandbox_status, 'up_to_date');
  });

  it('PUT /v1/apps/update sets the failover chain order (local extension)', async () => {
    const models = await client.listModels();
    const ids = ['test/lorem', 'test/echo'].map((ns) => models.find((m) => m.namespace === ns)!.id!);
    const updated = await client.updateSpace({ id: appId, failover_model_ids: ids });
    assert.deepEqual(
      updated.main.failover_models.map((m) => m.namespace),
      ['test/lorem', 'test/echo'],
    );
  });

  it('GET /v1/apps/{id}/models and PUT …/toggle turn a model on and off', async () => {
    const before = await client.getSpaceModels(appId);
    const off = before.base_model_settings.find((s) => !s.active && !s.globally_disabled)!;
    const on = await client.toggleModel(appId, off.id, true);
    assert.deepEqual(on, { success: true, model: off.namespace, active: true });
    const after = await client.getSpaceModels(appId);
    assert.equal(after.active_models, before.active_models + 1);
    assert.ok(after.base_model_settings.find((s) => s.id === off.id)!.active);
    await client.toggleModel(appId, off.id, false);
    assert.equal((await client.getSpaceModels(appId)).active_models, before.active_models);
    const retired = before.base_model_settings.find((s) => s.globally_disabled)!;
    await assert.rejects(client.toggleModel(appId, retired.id, true), { kind: 'validation' });
    // A retired model with a successor of its own line names it.
    const opus41 = before.base_model_settings.find((s) => s.namespace === 'anthropic/claude-opus-4-1')!;
    await assert.rejects(
      client.toggleModel(appId, opus41.id, true),
      /anthropic\/claude-opus-4-1 was retired on 5 Aug 2026 and can no longer be enabled: enable anthropic\/claude-opus-4-6 in its place/,
    );
  });

  it('conversations: create, list newest first, rename, change settings, read with requests', async () => {
    const first = await client.createConversation(appId, { name: 'First' });
    const second = await client.createConversation(appId, { name: 'Second' });
    const list = await client.listConversations(appId);
    assert.deepEqual(
      list.slice(0, 2).map((c) => c.id),
      [second.id, first.id],
    );
    const [assistant] = await client.listAssistants(appId);
    const renamed = await client.updateConversation(appId, first.id, {
      name: 'Renamed',
      settings: { assistant_id: assistant!.id, assistant_version_id: assistant!.versions[0]!.id },
    });
    assert.equal(renamed.name, 'Renamed');
    assert.equal(renamed.settings!.assistant_id, assistant!.id);
    const kept = await client.updateConversation(appId, first.id, { name: null });
    assert.equal(kept.name, 'Renamed', 'a null name keeps the stored one');
    await client.chat({ app_id: appId, prompt: 'first turn', model: 'test/echo', conversation_id: first.id });
    const read = await client.getConversation(appId, first.id, true);
    assert.equal(read.requests!.length, 1);
    assert.equal(read.requests![0]!.response, 'first turn');
    assert.equal((await client.getConversation(appId, first.id)).requests, undefined);
  });

  it('assistants: create, add a version, read it with GET …/versions/{version_id}', async () => {
    const assistant = await client.createAssistant(appId, { name: 'Tester', description: 'writes tests' });
    const version = await client.createAssistantVersion(appId, assistant.id, {
      persona: 'careful',
      instructions: 'Write tests.',
      temperature: 0.1,
      max_tokens: 50,
      published: true,
    });
    const read = await client.getAssistantVersion(appId, assistant.id, version.id);
    assert.deepEqual(read, version);
    assert.equal(read.instructions, 'Write tests.');
    const summary = await client.getAssistant(appId, assistant.id);
    assert.deepEqual(
      summary.versions.map((v) => v.id),
      [version.id],
    );
    assert.ok((await client.listAssistants(appId)).some((a) => a.id === assistant.id));
  });

  it('GET /v1/orgs/self and PUT /v1/orgs/integrations: omitted keeps, null clears, object sets', async () => {
    const org = await client.getOrganization();
    assert.equal(org.currency, 'usd');
    assert.equal(org.rate_limit, 1_000_000);
    const set = await client.updateIntegrations({
      metrics: { id: 'm1', token: 'mt', endpoint: 'https://metrics.example' },
      logs: { id: 'l1', token: 'lt', endpoint: 'https://logs.example' },
    });
    assert.equal(set.metrics_id, 'm1');
    assert.equal(set.logs_endpoint, 'https://logs.example');
    const kept = await client.updateIntegrations({ logs: null });
    assert.equal(kept.metrics_token, 'mt', 'omitted group kept');
    assert.equal(kept.logs_id, null, 'null group cleared');
    assert.equal(kept.logs_token, null);
  });

  it('POST /v1/playground/chat answers in the hosted shape and updates the organization counters', async () => {
    const before = await client.getOrganization();
    const reply = await client.chat({ app_id: appId, prompt: 'Say something', model: 'test/echo' });
    assert.equal(reply.object, 'chat.completion');
    assert.equal(reply.choices[0]!.message.content, 'Say something');
    assert.equal(reply.metadata.model.namespace, 'test/echo');
    const after = await client.getOrganization();
    assert.equal(after.num_requests, before.num_requests + 1);
    assert.equal(after.total_tokens, before.total_tokens + reply.usage.total_tokens);
    assert.ok(Math.abs(after.total_tokens_cost - before.total_tokens_cost - reply.metadata.costs.total_tokens) < 1e-12);
  });
});
