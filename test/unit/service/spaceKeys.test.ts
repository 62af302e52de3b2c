// What a Space key may do, endpoint by endpoint (the README's table): act on its own Space (another
// Space of the organization answers 404), read the organization's catalogue, prompts and usage (never
// the integration tokens), and nothing else (403). Every route of the service has a case here.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ROUTES } from '../../../src/service/http/routes';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

interface Ids {
  app: string;
  conversation: string;
  assistant: string;
  version: string;
  model: string;
  prompt: string;
  /** A response the Space keeps. */
  response: string;
  /** One of its OpenAI conversations (the Conversations API), and that conversation's first item. */
  openAiConversation: string;
  openAiItem: string;
}

interface Case {
  method: string;
  route: string;
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** What a Space key gets: its own Space only, read access, or 403. */
  key: 'own Space' | 'read' | 'refused';
  /** What its own Space answers, where it is not a success: found, and refused for what it is. */
  found?: number;
}

const CASES: Case[] = [
  {
    method: 'PUT',
    route: '/v1/apps/update',
    path: () => '/v1/apps/update',
    body: (i) => ({ id: i.app, name: 'by a key' }),
    key: 'refused',
  },
  {
    method: 'PUT',
    route: '/v1/orgs/integrations',
    path: () => '/v1/orgs/integrations',
    body: () => ({ metrics: null }),
    key: 'refused',
  },
  {
    method: 'POST',
    route: '/v1/prompts',
    path: () => '/v1/prompts',
    body: () => ({ prompt: 'p', title: 'by a key', description: 'd' }),
    key: 'refused',
  },
  { method: 'GET', route: '/v1/prompts', path: () => '/v1/prompts?show=all', key: 'read' },
  { method: 'GET', route: '/v1/internal/models', path: () => '/v1/internal/models', key: 'read' },
  {
    method: 'GET',
    route: '/v1/internal/embedding-models',
    path: () => '/v1/internal/embedding-models',
    key: 'read',
  },
  {
    method: 'PUT',
    route: '/v1/apps/:app_id/conversations/:conversation_id',
    path: (i) => `/v1/apps/${i.app}/conversations/${i.conversation}`,
    body: () => ({ name: 'renamed by the key' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/playground/chat',
    path: () => '/v1/playground/chat',
    body: (i) => ({ app_id: i.app, prompt: 'hi', model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/route',
    path: (i) => `/v1/apps/${i.app}/route`,
    body: () => ({ prompt: 'hi' }),
    key: 'own Space',
  },
  { method: 'POST', route: '/v1/models/refresh', path: () => '/v1/models/refresh', body: () => ({}), key: 'refused' },
  { method: 'GET', route: '/v1/providers', path: () => '/v1/providers', key: 'refused' },
  { method: 'GET', route: '/v1/models', path: () => '/v1/models', key: 'read' },
  // Its own Space, by the name a tool gives as the model.
  { method: 'GET', route: '/v1/models/:model', path: () => '/v1/models/Keyed%20Space', key: 'read' },
  {
    method: 'POST',
    route: '/v1/messages',
    path: () => '/v1/messages',
    body: (i) => ({ app_id: i.app, model: 'test/echo', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/messages/count_tokens',
    path: () => '/v1/messages/count_tokens',
    body: (i) => ({ app_id: i.app, model: 'test/echo', messages: [{ role: 'user', content: 'hi' }] }),
    key: 'own Space',
  },
  {
    method: 'PUT',
    route: '/v1/providers/:provider/key',
    path: () => '/v1/providers/mistral/key',
    body: () => ({ key: 'sk-space-key-must-not-set-this' }),
    key: 'refused',
  },
  { method: 'DELETE', route: '/v1/providers/:provider/key', path: () => '/v1/providers/mistral/key', key: 'refused' },
  {
    method: 'PUT',
    route: '/v1/providers/azure/deployments/:deployment',
    path: () => '/v1/providers/azure/deployments/prod-gpt5',
    body: () => ({ model: 'openai/gpt-5.4' }),
    key: 'refused',
  },
  {
    method: 'DELETE',
    route: '/v1/providers/azure/deployments/:deployment',
    path: () => '/v1/providers/azure/deployments/prod-gpt5',
    key: 'refused',
  },
  {
    method: 'POST',
    route: '/v1/providers/:provider/check',
    path: () => '/v1/providers/mistral/check',
    body: () => ({}),
    key: 'refused',
  },
  {
    method: 'POST',
    route: '/v1/chat/completions',
    path: () => '/v1/chat/completions',
    body: (i) => ({ app_id: i.app, messages: [{ role: 'user', content: 'hi' }], model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/completions',
    path: () => '/v1/completions',
    body: (i) => ({ app_id: i.app, prompt: 'hi', model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/fim/completions',
    path: () => '/v1/fim/completions',
    body: (i) => ({ app_id: i.app, prompt: 'hi', suffix: '!', model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/embeddings',
    path: () => '/v1/embeddings',
    body: (i) => ({ app_id: i.app, input: 'hi', model: 'test/embed' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/responses',
    path: () => '/v1/responses',
    body: (i) => ({ app_id: i.app, input: 'hi', model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/responses/input_tokens',
    path: () => '/v1/responses/input_tokens',
    body: (i) => ({ app_id: i.app, input: 'hi', model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/responses/compact',
    path: () => '/v1/responses/compact',
    body: (i) => ({ app_id: i.app, input: 'hi', model: 'test/echo' }),
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/responses/:response_id',
    path: (i) => `/v1/responses/${i.response}`,
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/responses/:response_id/input_items',
    path: (i) => `/v1/responses/${i.response}/input_items`,
    key: 'own Space',
  },
  {
    // The kept response was not asked for in the background: found, and not cancelled.
    method: 'POST',
    route: '/v1/responses/:response_id/cancel',
    path: (i) => `/v1/responses/${i.response}/cancel`,
    key: 'own Space',
    found: 400,
  },
  {
    method: 'DELETE',
    route: '/v1/responses/:response_id',
    path: (i) => `/v1/responses/${i.response}`,
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/conversations',
    path: () => '/v1/conversations',
    body: (i) => ({ app_id: i.app }),
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/conversations/:conversation_id',
    path: (i) => `/v1/conversations/${i.openAiConversation}`,
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/conversations/:conversation_id',
    path: (i) => `/v1/conversations/${i.openAiConversation}`,
    body: () => ({ metadata: { topic: 'keys' } }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/conversations/:conversation_id/items',
    path: (i) => `/v1/conversations/${i.openAiConversation}/items`,
    body: () => ({ items: [{ role: 'user', content: 'more' }] }),
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/conversations/:conversation_id/items',
    path: (i) => `/v1/conversations/${i.openAiConversation}/items`,
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/conversations/:conversation_id/items/:item_id',
    path: (i) => `/v1/conversations/${i.openAiConversation}/items/${i.openAiItem}`,
    key: 'own Space',
  },
  {
    method: 'DELETE',
    route: '/v1/conversations/:conversation_id/items/:item_id',
    path: (i) => `/v1/conversations/${i.openAiConversation}/items/${i.openAiItem}`,
    key: 'own Space',
  },
  {
    method: 'DELETE',
    route: '/v1/conversations/:conversation_id',
    path: (i) => `/v1/conversations/${i.openAiConversation}`,
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id/assistants/:assistant_id/versions/:version_id',
    path: (i) => `/v1/apps/${i.app}/assistants/${i.assistant}/versions/${i.version}`,
    key: 'own Space',
  },
  { method: 'POST', route: '/v1/apps/', path: () => '/v1/apps/', body: () => ({}), key: 'read' },
  {
    method: 'POST',
    route: '/v1/apps/create',
    path: () => '/v1/apps/create',
    body: () => ({ name: 'made by a key' }),
    key: 'refused',
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/regenerate-key',
    path: (i) => `/v1/apps/${i.app}/regenerate-key`,
    body: () => ({}),
    key: 'refused',
  },
  { method: 'GET', route: '/v1/apps/:app_id', path: (i) => `/v1/apps/${i.app}`, key: 'own Space' },
  { method: 'GET', route: '/v1/apps/:app_id/models', path: (i) => `/v1/apps/${i.app}/models`, key: 'own Space' },
  {
    method: 'PUT',
    route: '/v1/apps/:app_id/models/:model_id/toggle',
    path: (i) => `/v1/apps/${i.app}/models/${i.model}/toggle?enable=false`,
    key: 'refused',
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id/conversations',
    path: (i) => `/v1/apps/${i.app}/conversations`,
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/conversations/create',
    path: (i) => `/v1/apps/${i.app}/conversations/create`,
    body: () => ({ name: 'by the key' }),
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/conversations/:conversation_id',
    path: (i) => `/v1/apps/${i.app}/conversations/${i.conversation}`,
    body: () => ({}),
    key: 'own Space',
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id/assistants',
    path: (i) => `/v1/apps/${i.app}/assistants`,
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/assistants',
    path: (i) => `/v1/apps/${i.app}/assistants`,
    body: () => ({ name: 'by a key' }),
    key: 'refused',
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id/assistants/:assistant_id',
    path: (i) => `/v1/apps/${i.app}/assistants/${i.assistant}`,
    key: 'own Space',
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/assistants/:assistant_id/versions',
    path: (i) => `/v1/apps/${i.app}/assistants/${i.assistant}/versions`,
    body: () => ({ instructions: 'x' }),
    key: 'refused',
  },
  {
    method: 'PUT',
    route: '/v1/prompts/:prompt_id',
    path: (i) => `/v1/prompts/${i.prompt}`,
    body: () => ({ title: 'changed by a key' }),
    key: 'refused',
  },
  { method: 'DELETE', route: '/v1/prompts/:prompt_id', path: (i) => `/v1/prompts/${i.prompt}`, key: 'refused' },
  { method: 'GET', route: '/v1/orgs/self', path: () => '/v1/orgs/self', key: 'read' },
];

describe('what a Space key may do, per endpoint', function () {
  this.timeout(60_000);
  let service: RunningService;
  let key: string;
  let own: Ids;
  let other: Ids;

  /** A Space with a conversation and an assistant version, made with the organization's token. */
  async function spaceWithContent(name: string): Promise<{ ids: Ids; key: string }> {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await raw(service.url, method, path, { token: service.token, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
      return res.json as Record<string, unknown>;
    };
    const created = await call('POST', '/v1/apps/create', { name });
    const app = created.id as string;
    const conversation = (await call('POST', `/v1/apps/${app}/conversations/create`, { name: 'first' })).id as string;
    const assistant = (await call('POST', `/v1/apps/${app}/assistants`, { name: 'helper' })).id as string;
    const version = (
      await call('POST', `/v1/apps/${app}/assistants/${assistant}/versions`, { instructions: 'be brief' })
    ).id as string;
    const models = (await call('GET', `/v1/apps/${app}/models`)) as {
      base_model_settings: Array<{ model: { id: string } }>;
    };
    const prompt = (await call('POST', '/v1/prompts', { prompt: 'p', title: `${name} prompt`, description: 'd' }))
      .id as string;
    const response = (await call('POST', '/v1/responses', { app_id: app, model: 'test/echo', input: 'kept' }))
      .id as string;
    const openAiConversation = (
      await call('POST', '/v1/conversations', { app_id: app, items: [{ role: 'user', content: 'first' }] })
    ).id as string;
    const items = (await call('GET', `/v1/conversations/${openAiConversation}/items`)) as {
      data: Array<{ id: string }>;
    };
    return {
      ids: {
        app,
        conversation,
        assistant,
        version,
        model: models.base_model_settings[0]!.model.id,
        prompt,
        response,
        openAiConversation,
        openAiItem: items.data[0]!.id,
      },
      key: created.created_key as string,
    };
  }

  before(async () => {
    service = await startService();
    const a = await spaceWithContent('Keyed Space');
    own = a.ids;
    key = a.key;
    other = (await spaceWithContent('Other Space')).ids;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  it('has a case for every route of the service', () => {
    assert.deepEqual(
      CASES.map((c) => `${c.method} ${c.route}`).sort(),
      ROUTES.map((r) => `${r.method} ${r.url}`).sort(),
    );
  });

  for (const c of CASES) {
    it(`${c.method} ${c.route}: ${c.key === 'refused' ? '403 for a Space key' : c.key === 'read' ? 'readable with a Space key' : 'its own Space only'}`, async () => {
      const res = await raw(service.url, c.method, c.path(own), { token: key, body: c.body?.(own) });
      if (c.key === 'refused') {
        assert.equal(res.status, 403, res.text);
        assert.match((res.json as { detail: string }).detail, /Space key/);
        return;
      }
      if (c.found) assert.equal(res.status, c.found, res.text);
      else assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${res.text}`);
      if (c.key === 'own Space') {
        const elsewhere = await raw(service.url, c.method, c.path(other), { token: key, body: c.body?.(other) });
        assert.equal(elsewhere.status, 404, `another Space of the organization is not found: ${elsewhere.text}`);
      }
    });
  }

  it('sees its own Space only in the list, and the organization without its integration tokens', async () => {
    await raw(service.url, 'PUT', '/v1/orgs/integrations', {
      token: service.token,
      body: { metrics: { id: 'm', token: 'metrics-secret-token', endpoint: 'https://metrics.example' } },
    });
    const list = (await raw(service.url, 'POST', '/v1/apps/', { token: key, body: {} })).json as {
      items: Array<{ id: string }>;
    };
    assert.deepEqual(
      list.items.map((s) => s.id),
      [own.app],
    );
    const org = await raw(service.url, 'GET', '/v1/orgs/self', { token: key });
    assert.ok(!org.text.includes('metrics-secret-token'), 'no integration token for a Space key');
    const full = await raw(service.url, 'GET', '/v1/orgs/self', { token: service.token });
    assert.ok(full.text.includes('metrics-secret-token'), 'the organization token reads it');
  });

  it('a refused write leaves nothing behind', async () => {
    const before = (await raw(service.url, 'GET', '/v1/prompts?show=org', { token: service.token })).json as unknown[];
    const res = await raw(service.url, 'POST', '/v1/prompts', {
      token: key,
      body: { prompt: 'p', title: `refused ${randomUUID()}`, description: 'd' },
    });
    assert.equal(res.status, 403);
    const after = (await raw(service.url, 'GET', '/v1/prompts?show=org', { token: service.token })).json as unknown[];
    assert.equal(after.length, before.length);
  });

  it('a regenerated key replaces the old one at once, and is shown only in that answer', async () => {
    const client = service.client();
    const created = await client.createSpace({ name: 'Rekeyed' });
    const before = await client.getSpace(created.id);
    const renewed = await client.regenerateSpaceKey(created.id);
    assert.notEqual(renewed.created_key, created.created_key);
    assert.equal(renewed.key_end, renewed.created_key.slice(-4));
    assert.equal(
      (await raw(service.url, 'GET', `/v1/apps/${created.id}`, { token: created.created_key })).status,
      401,
      'the old key stops working',
    );
    assert.equal((await raw(service.url, 'GET', `/v1/apps/${created.id}`, { token: renewed.created_key })).status, 200);
    const detail = await raw(service.url, 'GET', `/v1/apps/${created.id}`, { token: service.token });
    assert.ok(!detail.text.includes(renewed.created_key), 'the key is never answered again');
    // A new key is not a change to the Space's settings: when it was modified and its sandbox's state stay.
    const after = await client.getSpace(created.id);
    assert.equal(after.main.app.modified_on, before.main.app.modified_on);
    assert.equal(after.sandbox_status, before.sandbox_status);
  });
});
