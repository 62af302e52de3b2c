// Property-based bad input on every endpoint: whatever arrives, the answer is 2xx, or 4xx with a
// `detail`, never 5xx; and a 4xx changes nothing that the endpoint could have changed.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

const RUNS = Number(process.env.FC_RUNS ?? 1000);

describe('service under arbitrary input (fast-check)', function () {
  this.timeout(600_000);
  let service: RunningService;
  let ids: { app: string; conversation: string; assistant: string; version: string; prompt: string; model: string };

  before(async () => {
    service = await startService();
    const client = service.client();
    const app = (await client.listSpaces()).items.find((s) => !s.sandbox_of)!.id;
    const [assistant] = await client.listAssistants(app);
    const [conversation] = await client.listConversations(app);
    const prompt = await client.createPrompt({ prompt: 'p', title: 'property target', description: 'd' });
    const model = (await client.listModels()).find((m) => m.namespace === 'test/lorem')!.id!;
    ids = {
      app,
      conversation: conversation!.id,
      assistant: assistant!.id,
      version: assistant!.versions[0]!.id,
      prompt: prompt.id,
      model,
    };
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  const get = async (path: string, body?: unknown) =>
    (await raw(service.url, body === undefined ? 'GET' : 'POST', path, { token: service.token, body })).json;

  // ---------------------------------------------------------------- generators
  const junk = fc.jsonValue({ maxDepth: 2 });
  /** Mostly a plausible value, sometimes anything at all. */
  const field = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: junk });
  /** Bodies with each field plausible or junk; with `valid`, also wholly valid ones, so success paths run too. */
  const shape = (fields: Record<string, fc.Arbitrary<unknown>>, valid?: fc.Arbitrary<unknown>) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, field(v)])), {
          requiredKeys: [],
        }),
      },
      { weight: 1, arbitrary: junk },
      { weight: valid ? 3 : 0, arbitrary: valid ?? junk },
    );
  const unit = fc.double({ noNaN: true, min: 0, max: 1 });
  const text = (max: number) => fc.string({ maxLength: max });
  const num = fc.oneof(fc.double({ noNaN: true, min: -2, max: 3 }), fc.integer({ min: -5, max: 20 }));
  const idOr = (real: () => string) =>
    fc.oneof(
      fc.constant(null).map(() => real()),
      fc.uuid(),
      text(12),
    );
  // A path segment of an id. `.` and `..` are not ids but steps of the path (a URL resolves them, also
  // as %2E), which would send the request to another endpoint than the one under test.
  const segment = (real: () => string) =>
    idOr(real)
      .filter((s) => s !== '.' && s !== '..')
      .map((s) => encodeURIComponent(String(s)));
  const maybeNull = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });

  interface Endpoint {
    method: string;
    path: fc.Arbitrary<string>;
    body?: fc.Arbitrary<unknown>;
    /** What this endpoint could change; compared before and after every 4xx. */
    observe?: () => Promise<unknown>;
  }

  const endpoints: Record<string, () => Endpoint> = {
    'PUT /v1/apps/update': () => ({
      method: 'PUT',
      path: fc.constant('/v1/apps/update'),
      body: shape(
        {
          id: idOr(() => ids.app),
          name: maybeNull(text(130)),
          description: maybeNull(text(20)),
          weights: shape({ cost: num, latency: num, quality: num }),
          policies: shape({
            privacy_level: num,
            max_cost: num,
            max_switch_model_retries: num,
            max_same_model_retries: num,
            optimize_internal_requests: num,
            prompt_id: idOr(() => ids.prompt),
          }),
          settings: shape({
            temperature: num,
            max_tokens: num,
            instructions: text(20),
            assistant_id: idOr(() => ids.assistant),
            assistant_version_id: idOr(() => ids.version),
          }),
          has_failover_chain: fc.boolean(),
          sandbox_of: idOr(() => ids.app),
          benchmark_model_id: idOr(() => ids.model),
          use_parent_custom_data: fc.boolean(),
        },
        fc.record(
          {
            id: fc.constant(null).map(() => ids.app),
            name: fc.string({ minLength: 1, maxLength: 30 }),
            weights: fc.record({ cost: unit, latency: unit, quality: fc.double({ noNaN: true, min: 0.1, max: 5 }) }),
            policies: fc.record(
              { max_same_model_retries: fc.integer({ min: 0, max: 3 }), privacy_level: fc.constantFrom(1, 2, 3) },
              { requiredKeys: [] },
            ),
            settings: fc.record(
              { temperature: unit, max_tokens: fc.integer({ min: 1, max: 4000 }), instructions: text(30) },
              { requiredKeys: [] },
            ),
            has_failover_chain: fc.boolean(),
          },
          { requiredKeys: ['id'] },
        ),
      ),
      observe: () => get(`/v1/apps/${ids.app}`),
    }),
    'PUT /v1/orgs/integrations': () => ({
      method: 'PUT',
      path: fc.constant('/v1/orgs/integrations'),
      body: shape({
        metrics: maybeNull(shape({ id: text(5), token: text(5), endpoint: text(5) })),
        logs: maybeNull(shape({ id: text(5), token: text(5), endpoint: text(5) })),
      }),
      observe: () => get('/v1/orgs/self'),
    }),
    'POST /v1/prompts': () => ({
      method: 'POST',
      path: fc.constant('/v1/prompts'),
      body: shape({ prompt: text(30), title: text(65), description: text(205) }),
      observe: () => get('/v1/prompts?show=org'),
    }),
    'GET /v1/prompts': () => ({
      method: 'GET',
      path: fc
        .oneof(fc.constantFrom('public', 'org', 'all'), text(8))
        .map((s) => `/v1/prompts?show=${encodeURIComponent(s)}`),
    }),
    'GET /v1/internal/models': () => ({
      method: 'GET',
      path: text(10).map((s) => `/v1/internal/models?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
    }),
    'PUT /v1/apps/{app_id}/conversations/{conversation_id}': () => ({
      method: 'PUT',
      path: fc
        .tuple(
          segment(() => ids.app),
          segment(() => ids.conversation),
        )
        .map(([a, c]) => `/v1/apps/${a}/conversations/${c}`),
      body: shape({
        name: maybeNull(text(210)),
        settings: maybeNull(
          shape({ assistant_id: idOr(() => ids.assistant), assistant_version_id: idOr(() => ids.version) }),
        ),
      }),
      observe: () => get(`/v1/apps/${ids.app}/conversations/${ids.conversation}`, { include_requests: false }),
    }),
    'POST /v1/playground/chat': () => ({
      method: 'POST',
      path: fc.constant('/v1/playground/chat'),
      body: shape(
        {
          prompt: text(40),
          app_id: idOr(() => ids.app),
          model: maybeNull(fc.oneof(fc.constantFrom('test/echo', 'test/lorem', 'openai/gpt-3.5-turbo-0613'), text(10))),
          temperature: maybeNull(num),
          max_tokens: maybeNull(num),
          conversation_id: maybeNull(idOr(() => ids.conversation)),
          parent_request_id: maybeNull(fc.uuid()),
          assistant_id: maybeNull(idOr(() => ids.assistant)),
          assistant_version_id: maybeNull(idOr(() => ids.version)),
          plugins: fc.array(text(5), { maxLength: 2 }),
          images: maybeNull(fc.array(fc.oneof(fc.constant('data:image/png;base64,AAAA'), text(10)), { maxLength: 2 })),
          files: maybeNull(fc.array(fc.oneof(fc.constant('data:text/plain;base64,AAAA'), text(10)), { maxLength: 2 })),
          stream: fc.boolean(),
        },
        fc.record(
          {
            prompt: text(40),
            app_id: fc.constant(null).map(() => ids.app),
            model: maybeNull(fc.constantFrom('test/echo', 'test/lorem')),
            temperature: unit,
            max_tokens: fc.integer({ min: 1, max: 50 }),
            stream: fc.boolean(),
          },
          { requiredKeys: ['prompt', 'app_id'] },
        ),
      ),
      observe: async () => [
        ((await get('/v1/orgs/self')) as { num_requests: number }).num_requests,
        await get(`/v1/apps/${ids.app}/conversations`),
      ],
    }),
    'GET /v1/apps/{app_id}/assistants/{assistant_id}/versions/{version_id}': () => ({
      method: 'GET',
      path: fc
        .tuple(
          segment(() => ids.app),
          segment(() => ids.assistant),
          segment(() => ids.version),
        )
        .map(([a, s, v]) => `/v1/apps/${a}/assistants/${s}/versions/${v}`),
    }),
    'POST /v1/apps/': () => ({
      method: 'POST',
      path: fc
        .tuple(text(5), fc.oneof(num, text(3)), fc.oneof(num, text(3)))
        .map(
          ([s, p, z]) =>
            `/v1/apps/?search=${encodeURIComponent(s)}&page=${encodeURIComponent(String(p))}&size=${encodeURIComponent(String(z))}`,
        ),
      body: fc.oneof(fc.constant({}), junk),
    }),
    'POST /v1/apps/create': () => ({
      method: 'POST',
      path: fc.constant('/v1/apps/create'),
      body: shape({ name: maybeNull(text(125)), description: maybeNull(text(10)), app_logo: maybeNull(text(10)) }),
      observe: async () => ((await get('/v1/apps/?size=1', {})) as { total: number }).total,
    }),
    'GET /v1/apps/{app_id}': () => ({ method: 'GET', path: segment(() => ids.app).map((a) => `/v1/apps/${a}`) }),
    'GET /v1/apps/{app_id}/models': () => ({
      method: 'GET',
      path: segment(() => ids.app).map((a) => `/v1/apps/${a}/models`),
    }),
    'PUT /v1/apps/{app_id}/models/{model_id}/toggle': () => ({
      method: 'PUT',
      path: fc
        .tuple(
          segment(() => ids.app),
          segment(() => ids.model),
          fc.oneof(fc.constantFrom('true', 'false'), text(5)),
        )
        .map(([a, m, e]) => `/v1/apps/${a}/models/${m}/toggle?enable=${encodeURIComponent(e)}`),
      observe: () => get(`/v1/apps/${ids.app}/models`),
    }),
    'GET /v1/apps/{app_id}/conversations': () => ({
      method: 'GET',
      path: segment(() => ids.app).map((a) => `/v1/apps/${a}/conversations`),
    }),
    'POST /v1/apps/{app_id}/conversations/create': () => ({
      method: 'POST',
      path: segment(() => ids.app).map((a) => `/v1/apps/${a}/conversations/create`),
      body: shape({
        name: text(210),
        settings: maybeNull(
          shape({ assistant_id: idOr(() => ids.assistant), assistant_version_id: idOr(() => ids.version) }),
        ),
      }),
      observe: () => get(`/v1/apps/${ids.app}/conversations`),
    }),
    'POST /v1/apps/{app_id}/conversations/{conversation_id}': () => ({
      method: 'POST',
      path: fc
        .tuple(
          segment(() => ids.app),
          segment(() => ids.conversation),
        )
        .map(([a, c]) => `/v1/apps/${a}/conversations/${c}`),
      body: shape({ include_requests: fc.boolean() }),
    }),
    'GET /v1/apps/{app_id}/assistants': () => ({
      method: 'GET',
      path: segment(() => ids.app).map((a) => `/v1/apps/${a}/assistants`),
    }),
    'POST /v1/apps/{app_id}/assistants': () => ({
      method: 'POST',
      path: segment(() => ids.app).map((a) => `/v1/apps/${a}/assistants`),
      body: shape({ name: text(125), description: maybeNull(text(10)) }),
      observe: () => get(`/v1/apps/${ids.app}/assistants`),
    }),
    'GET /v1/apps/{app_id}/assistants/{assistant_id}': () => ({
      method: 'GET',
      path: fc
        .tuple(
          segment(() => ids.app),
          segment(() => ids.assistant),
        )
        .map(([a, s]) => `/v1/apps/${a}/assistants/${s}`),
    }),
    'POST /v1/apps/{app_id}/assistants/{assistant_id}/versions': () => ({
      method: 'POST',
      path: fc
        .tuple(
          segment(() => ids.app),
          segment(() => ids.assistant),
        )
        .map(([a, s]) => `/v1/apps/${a}/assistants/${s}/versions`),
      body: shape({
        persona: maybeNull(text(10)),
        instructions: maybeNull(text(10)),
        temperature: maybeNull(num),
        max_tokens: maybeNull(num),
        model_id: maybeNull(idOr(() => ids.model)),
        published: fc.boolean(),
      }),
      observe: () => get(`/v1/apps/${ids.app}/assistants/${ids.assistant}`),
    }),
    'PUT /v1/prompts/{prompt_id}': () => ({
      method: 'PUT',
      path: segment(() => ids.prompt).map((p) => `/v1/prompts/${p}`),
      body: shape({ prompt: text(30), title: text(65), description: text(205) }),
      observe: () => get('/v1/prompts?show=all'),
    }),
    'DELETE /v1/prompts/{prompt_id}': () => ({
      method: 'DELETE',
      path: segment(() => ids.prompt).map((p) => `/v1/prompts/${p}`),
      observe: () => get('/v1/prompts?show=all'),
    }),
    'GET /v1/orgs/self': () => ({
      method: 'GET',
      path: text(10).map((s) => `/v1/orgs/self?x=${encodeURIComponent(s)}`),
    }),
  };

  for (const [name, make] of Object.entries(endpoints)) {
    it(`${name}: ${RUNS} arbitrary requests, never a 5xx, and a 4xx stores nothing`, async () => {
      const endpoint = make();
      let snapshot = endpoint.observe ? await endpoint.observe() : undefined;
      const seen = { ok: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(endpoint.path, endpoint.body ?? fc.constant(undefined), async (path, body) => {
          const res = await raw(service.url, endpoint.method, path, { token: service.token, body });
          assert.ok(res.status < 500, `${res.status} ${res.text.slice(0, 300)}`);
          seen[res.status >= 400 ? 'refused' : 'ok']++;
          if (res.status >= 400) {
            assert.ok(
              (res.json as { detail?: unknown } | undefined)?.detail !== undefined,
              `a ${res.status} without detail: ${res.text.slice(0, 200)}`,
            );
            if (endpoint.observe) assert.deepEqual(await endpoint.observe(), snapshot, 'a 4xx changed stored data');
          } else if (endpoint.observe) {
            snapshot = await endpoint.observe();
          }
          // A successful delete removes the target; make a new one so later cases have something to hit.
          if (name.startsWith('DELETE') && res.status === 200) {
            ids.prompt = (
              (
                await raw(service.url, 'POST', '/v1/prompts', {
                  token: service.token,
                  body: { prompt: 'p', title: 'again', description: 'd' },
                })
              ).json as { id: string }
            ).id;
            snapshot = await endpoint.observe!();
          }
        }),
        { numRuns: RUNS },
      );
      // Generators that only ever produce refusals (or only successes) would prove little.
      assert.ok(seen.ok > 0, `no request of ${RUNS} succeeded`);
      if (endpoint.body) assert.ok(seen.refused > 0, `no request of ${RUNS} was refused`);
    });
  }
});
