// Tokens and organizations: no token or a wrong one is 401; another organization's resources are 404
// on every endpoint that takes an id, and nothing of theirs can be changed.
import assert from 'node:assert/strict';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

describe('service authentication and organization isolation', () => {
  let service: RunningService;
  let a: {
    token: string;
    app: string;
    sandbox: string;
    conversation: string;
    assistant: string;
    version: string;
    prompt: string;
  };
  let bToken: string;

  before(async () => {
    service = await startService({
      orgs: [
        { name: 'Org A', rateLimit: 100_000 },
        { name: 'Org B', rateLimit: 100_000 },
      ],
    });
    const client = service.client();
    const spaces = await client.listSpaces();
    const app = spaces.items.find((s) => !s.sandbox_of)!;
    const [assistant] = await client.listAssistants(app.id);
    const conversation = await client.createConversation(app.id, { name: 'secret' });
    const prompt = await client.createPrompt({ prompt: 'secret', title: 'A only', description: 'd' });
    a = {
      token: service.orgs[0]!.token,
      app: app.id,
      sandbox: spaces.items.find((s) => s.sandbox_of)!.id,
      conversation: conversation.id,
      assistant: assistant!.id,
      version: assistant!.versions[0]!.id,
      prompt: prompt.id,
    };
    bToken = service.orgs[1]!.token;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  it('every /v1 endpoint answers 401 with WWW-Authenticate without a token or with a wrong one', async () => {
    const endpoints: Array<[string, string]> = [
      ['PUT', '/v1/apps/update'],
      ['PUT', '/v1/orgs/integrations'],
      ['POST', '/v1/prompts'],
      ['GET', '/v1/prompts'],
      ['GET', '/v1/internal/models'],
      ['PUT', `/v1/apps/${a.app}/conversations/${a.conversation}`],
      ['POST', '/v1/playground/chat'],
      ['GET', `/v1/apps/${a.app}/assistants/${a.assistant}/versions/${a.version}`],
      ['POST', '/v1/apps/'],
      ['GET', '/v1/orgs/self'],
      ['GET', `/v1/apps/${a.app}`],
    ];
    for (const [method, path] of endpoints) {
      for (const token of [undefined, 'lls_wrong', `${a.token}x`]) {
        const res = await raw(service.url, method, path, { token, body: method === 'GET' ? undefined : {} });
        assert.equal(res.status, 401, `${method} ${path} with ${token ? 'a wrong' : 'no'} token`);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.equal(typeof (res.json as { detail: string }).detail, 'string');
      }
    }
  });

  it("organization B gets 404 for each of A's resources, on every endpoint that takes an id", async () => {
    const b = (method: string, path: string, body?: unknown) => raw(service.url, method, path, { token: bToken, body });
    const cases: Array<[string, string, unknown]> = [
      ['GET', `/v1/apps/${a.app}`, undefined],
      ['PUT', '/v1/apps/update', { id: a.app, name: 'stolen' }],
      ['PUT', '/v1/apps/update', { id: a.sandbox, name: 'stolen' }],
      ['GET', `/v1/apps/${a.app}/models`, undefined],
      ['PUT', `/v1/apps/${a.app}/models/${'91f7283b-b04a-5cff-a4ca-08f2208e1cbc'}/toggle?enable=false`, undefined],
      ['GET', `/v1/apps/${a.app}/conversations`, undefined],
      ['POST', `/v1/apps/${a.app}/conversations/create`, { name: 'x' }],
      ['POST', `/v1/apps/${a.app}/conversations/${a.conversation}`, { include_requests: true }],
      ['PUT', `/v1/apps/${a.app}/conversations/${a.conversation}`, { name: 'stolen' }],
      ['GET', `/v1/apps/${a.app}/assistants`, undefined],
      ['POST', `/v1/apps/${a.app}/assistants`, { name: 'x' }],
      ['GET', `/v1/apps/${a.app}/assistants/${a.assistant}`, undefined],
      ['POST', `/v1/apps/${a.app}/assistants/${a.assistant}/versions`, {}],
      ['GET', `/v1/apps/${a.app}/assistants/${a.assistant}/versions/${a.version}`, undefined],
      ['PUT', `/v1/prompts/${a.prompt}`, { title: 'stolen' }],
      ['DELETE', `/v1/prompts/${a.prompt}`, undefined],
      ['POST', '/v1/playground/chat', { app_id: a.app, prompt: 'x', model: 'test/echo' }],
    ];
    for (const [method, path, body] of cases) {
      const res = await b(method, path, body);
      assert.equal(res.status, 404, `${method} ${path} → ${res.status} ${res.text}`);
    }
    const bSpaceId = ((await b('POST', '/v1/apps/', {})).json as { items: Array<{ id: string }> }).items[0]!.id;
    const sneaky = await b('POST', '/v1/playground/chat', {
      app_id: bSpaceId,
      prompt: 'x',
      model: 'test/echo',
      conversation_id: a.conversation,
    });
    assert.equal(sneaky.status, 404, "B cannot write into A's conversation through its own Space");
  });

  it("B's lists, prompts and usage never show A's data, and A's data is unchanged", async () => {
    const b = (method: string, path: string, body?: unknown) => raw(service.url, method, path, { token: bToken, body });
    const spaces = (await b('POST', '/v1/apps/', {})).json as { items: Array<{ id: string; org_id: string }> };
    assert.ok(spaces.items.length > 0 && !spaces.items.some((s) => s.id === a.app));
    const prompts = (await b('GET', '/v1/prompts?show=all')).json as Array<{ id: string }>;
    assert.ok(!prompts.some((p) => p.id === a.prompt));
    const orgB = (await b('GET', '/v1/orgs/self')).json as { id: string; num_requests: number };
    assert.equal(orgB.id, service.orgs[1]!.org_id);
    const view = (await raw(service.url, 'GET', `/v1/apps/${a.app}`, { token: a.token })).json as {
      main: { app: { name: string } };
    };
    assert.equal(view.main.app.name, 'My first Space');
    const conversation = (
      await raw(service.url, 'POST', `/v1/apps/${a.app}/conversations/${a.conversation}`, { token: a.token, body: {} })
    ).json as { name: string };
    assert.equal(conversation.name, 'secret');
  });

  it('public prompts of the service are readable but read-only', async () => {
    const pub = (
      (await raw(service.url, 'GET', '/v1/prompts?show=public', { token: bToken })).json as Array<{ id: string }>
    )[0]!;
    assert.equal(
      (await raw(service.url, 'PUT', `/v1/prompts/${pub.id}`, { token: bToken, body: { title: 'mine now' } })).status,
      403,
    );
    assert.equal((await raw(service.url, 'DELETE', `/v1/prompts/${pub.id}`, { token: bToken })).status, 403);
  });

  it('a Space key cannot edit its Space or create Spaces (403), but can use the playground', async () => {
    const created = (await raw(service.url, 'POST', '/v1/apps/create', { token: a.token, body: { name: 'keyed' } }))
      .json as { id: string; created_key: string };
    const key = created.created_key;
    assert.equal(
      (await raw(service.url, 'PUT', '/v1/apps/update', { token: key, body: { id: created.id, name: 'x' } })).status,
      403,
    );
    assert.equal((await raw(service.url, 'POST', '/v1/apps/create', { token: key, body: {} })).status, 403);
    const chat = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: key,
      body: { app_id: created.id, prompt: 'hi', model: 'test/echo' },
    });
    assert.equal(chat.status, 200);
  });

  it("an Azure deployment added is its organization's own: another sees none and may add one of the same name", async () => {
    const deploy = (token: string, model: string) =>
      raw(service.url, 'PUT', '/v1/providers/azure/deployments/prod-gpt5', { token, body: { model } });
    const models = async (token: string) =>
      (
        (await raw(service.url, 'GET', '/v1/internal/models', { token })).json as Array<{
          namespace: string;
          model: string;
          api_target: string;
          prompt_token_cost: number;
        }>
      ).filter((m) => m.namespace === 'azure/prod-gpt5');
    assert.equal((await deploy(a.token, 'openai/gpt-5.4')).status, 200);
    assert.deepEqual(await models(bToken), []);
    assert.equal(
      (await raw(service.url, 'DELETE', '/v1/providers/azure/deployments/prod-gpt5', { token: bToken })).status,
      404,
    );
    assert.equal((await deploy(bToken, 'openai/gpt-5.4-mini')).status, 200);
    const [ofA] = await models(a.token);
    const [ofB] = await models(bToken);
    assert.ok(ofA && ofB);
    assert.ok(ofA.prompt_token_cost > ofB.prompt_token_cost, 'each priced as the model it runs');
    assert.equal(ofA.api_target, 'prod-gpt5');
  });
});
