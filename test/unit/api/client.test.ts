// The typed client against the real service, and against a misbehaving server in front of it.
import assert from 'node:assert/strict';
import { LlmSpacesClient } from '../../../src/api/client';
import {
  ApiError,
  BadResponseError,
  CancelledError,
  ForbiddenError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  StreamError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from '../../../src/api/errors';
import type { RequestLogEntry } from '../../../src/api/transport';
import { startFaultServer, type FaultServer } from '../support/faultServer';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

describe('typed client', function () {
  this.timeout(30_000);
  let service: RunningService;
  let fault: FaultServer;
  let appId: string;
  let log: RequestLogEntry[];
  const errors: unknown[] = [];

  const viaFault = (overrides: Partial<ConstructorParameters<typeof LlmSpacesClient>[0]> = {}) =>
    new LlmSpacesClient({
      baseUrl: fault.url,
      token: () => service.token,
      backoffBaseMs: 5,
      onRequest: (e) => log.push(e),
      ...overrides,
    });

  async function failure(promise: Promise<unknown>): Promise<ApiError> {
    try {
      await promise;
    } catch (error) {
      errors.push(error);
      assert.ok(error instanceof ApiError, `not an ApiError: ${String(error)}`);
      return error;
    }
    assert.fail('expected the call to fail');
  }

  before(async () => {
    service = await startService();
    fault = await startFaultServer(service.url);
    appId = (await service.client().listSpaces()).items[0]!.id;
  });
  beforeEach(() => {
    log = [];
    fault.script.length = 0;
  });
  after(async () => {
    await fault.close();
    await service.stop();
    removeDir(service.dataDir);
  });

  it('raises a typed error for each status of the real service', async () => {
    const client = service.client();
    assert.ok((await failure(service.client({ token: () => 'lls_wrong' }).listModels())) instanceof UnauthorizedError);
    assert.ok((await failure(client.getSpace('00000000-0000-4000-8000-000000000000'))) instanceof NotFoundError);
    const invalid = await failure(client.createPrompt({ prompt: 'p', title: '', description: 'x'.repeat(201) }));
    assert.ok(invalid instanceof ValidationError);
    assert.deepEqual(invalid.fields.sort(), ['description', 'title']);
    assert.equal(invalid.status, 422);
    const publicPrompt = (await client.listPrompts('public'))[0]!;
    assert.ok((await failure(client.deletePrompt(publicPrompt.id))) instanceof ForbiddenError);
  });

  it('maps 405, 500 and 429 from a remote service, and keeps the detail as the message', async () => {
    const client = viaFault({ retries: 0, maxRateLimitWaitMs: 0 });
    fault.script.push({ kind: 'status', status: 405, body: { detail: 'Method Not Allowed' } });
    const notAllowed = await failure(client.listSpaces());
    assert.ok(notAllowed instanceof MethodNotAllowedError);
    assert.equal(notAllowed.message, 'Method Not Allowed');
    fault.script.push({ kind: 'status', status: 500, body: { detail: 'Internal server error' } });
    assert.ok((await failure(client.listModels())) instanceof ServerError);
    fault.script.push({ kind: 'status', status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '7' } });
    const limited = await failure(client.listModels());
    assert.ok(limited instanceof RateLimitError);
    assert.equal(limited.retryAfterSeconds, 7);
  });

  it('waits out a short Retry-After and succeeds', async () => {
    fault.script.push({ kind: 'status', status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const models = await viaFault().listModels();
    assert.ok(models.length > 0);
    assert.ok(Date.now() - started >= 1000);
    assert.deepEqual(
      log.map((e) => e.status),
      [429, 200],
    );
  });

  it('retries GETs on 502/503/504 and network errors with backoff, but never a write', async () => {
    fault.script.push({ kind: 'status', status: 503 }, { kind: 'status', status: 502 }, { kind: 'destroy' });
    const models = await viaFault().listModels();
    assert.ok(models.length > 0);
    assert.deepEqual(
      log.map((e) => e.status),
      [503, 502, undefined, 200],
    );
    log.length = 0;
    fault.script.push({ kind: 'status', status: 503, body: { detail: 'busy' } });
    const write = await failure(viaFault().createPrompt({ prompt: 'p', title: 't', description: 'd' }));
    assert.ok(write instanceof ServerError);
    assert.equal(log.length, 1, 'a POST that changes data is sent once');
  });

  it('gives up after the configured retries with a NetworkError', async () => {
    const client = new LlmSpacesClient({
      baseUrl: 'http://127.0.0.1:9',
      token: () => service.token,
      retries: 2,
      backoffBaseMs: 5,
      onRequest: (e) => log.push(e),
    });
    assert.ok((await failure(client.listModels())) instanceof NetworkError);
    assert.equal(log.length, 3);
  });

  it('says in words why nothing answered, and does not try again on a client closed under a request', async () => {
    const nowhere = new LlmSpacesClient({ baseUrl: 'http://127.0.0.1:9', token: () => service.token, retries: 0 });
    const refused = (await failure(nowhere.listModels())) as NetworkError;
    assert.equal(refused.reason, 'nothing answers at its address (a wrong URL, or the server is down)');
    const client = viaFault();
    void client.close();
    const closed = (await failure(client.listModels())) as NetworkError;
    assert.ok(closed instanceof NetworkError);
    assert.equal(closed.reason, 'the connection was closed before the request was sent');
    assert.equal(log.length, 1, 'one attempt: a closed client cannot answer a retry');
  });

  it('times out a request that never answers, and can be cancelled with an AbortSignal', async () => {
    fault.script.push({ kind: 'hang' });
    const started = Date.now();
    assert.ok((await failure(viaFault({ timeoutMs: 300 }).getOrganization())) instanceof TimeoutError);
    assert.ok(Date.now() - started < 5_000);
    fault.script.push({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    assert.ok((await failure(viaFault().getOrganization(controller.signal))) instanceof CancelledError);
  });

  it('rejects a record that does not match the interface, naming the field', async () => {
    const space = await service.client().getSpace(appId);
    fault.script.push({
      kind: 'status',
      status: 200,
      body: { ...space, main: { ...space.main, app: { ...space.main.app, id: 5 } } },
    });
    const bad = await failure(viaFault().getSpace(appId));
    assert.ok(bad instanceof BadResponseError);
    assert.equal(bad.field, 'main.app.id');
    assert.match(bad.message, /main\.app\.id/);
  });

  it('keeps unknown fields of a newer service and applies the organization defaults', async () => {
    fault.script.push({
      kind: 'status',
      status: 200,
      body: {
        id: '11111111-2222-4333-8444-555555555555',
        org_payment_id: 'cus',
        last_invoice_date: 0,
        org_name: 'n',
        org_creator: 'c',
        shiny_new_field: { a: 1 },
      },
    });
    const org = await viaFault().getOrganization();
    assert.deepEqual(org.shiny_new_field, { a: 1 });
    assert.equal(org.rate_limit, 200);
    assert.equal(org.currency, 'usd');
    assert.equal(org.num_requests, 0);
    assert.equal(org.billing_email, '');
  });

  it('reads the pages a logged reply cites and its search suggestions, passing over what is no page on the web or no text, and none when a service keeps none', async () => {
    const logged = (sources?: unknown, suggestions?: unknown) => ({
      id: '11111111-2222-4333-8444-555555555555',
      app_id: appId,
      prompt: 'p',
      response: 'r',
      added_on: '2026-11-30T12:00:00.000Z',
      ...(sources === undefined ? {} : { sources }),
      ...(suggestions === undefined ? {} : { search_suggestions: suggestions }),
    });
    fault.script.push({
      kind: 'status',
      status: 200,
      body: {
        id: '22222222-2222-4333-8444-555555555555',
        name: 'c',
        deleted_on: null,
        settings: null,
        requests: [
          logged(
            [
              { url: 'https://example.com/a', title: 'A page' },
              { url: 'javascript:alert(1)', title: 'no page' },
              { url: 'https://example.com/b', title: null },
              'https://example.com/c',
              null,
            ],
            '<div class="container">suggested</div>',
          ),
          logged(),
          logged('not a list', 42),
        ],
      },
    });
    const read = await viaFault().getConversation(appId, '22222222-2222-4333-8444-555555555555', true);
    assert.deepEqual(
      read.requests!.map((r) => r.sources),
      [
        [
          { url: 'https://example.com/a', title: 'A page' },
          { url: 'https://example.com/b', title: 'https://example.com/b' },
        ],
        [],
        [],
      ],
    );
    assert.deepEqual(
      read.requests!.map((r) => r.search_suggestions),
      ['<div class="container">suggested</div>', undefined, undefined],
    );
  });

  it('streams a reply as deltas ending in usage and metadata', async () => {
    const events = [];
    for await (const event of viaFault().chatStream({
      app_id: appId,
      prompt: 'one two three four five six seven eight',
      model: 'test/echo',
    }))
      events.push(event);
    const done = events.at(-1)!;
    assert.equal(done.type, 'done');
    assert.equal(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => (e.type === 'delta' ? e.content : ''))
        .join(''),
      'one two three four five six seven eight',
    );
    if (done.type === 'done') {
      assert.equal(done.metadata.model.namespace, 'test/echo');
      assert.ok(done.usage.total_tokens > 0);
    }
  });

  /**
   * Has the fault server answer the next request with the built-in service's own stream of a test
   * model, its events as `build` arranges them around chunks of its own (`chunk` makes one of a delta).
   */
  async function scriptStream(
    build: (chunk: (delta: Record<string, unknown>) => string, events: string[]) => string[],
  ): Promise<void> {
    const real = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: appId, prompt: 'one two three', model: 'test/echo', stream: true },
    });
    const events = real.text.split('\n\n').filter((e) => e.startsWith('data: {'));
    const head = JSON.parse(events[0]!.slice('data: '.length)) as Record<string, unknown>;
    const chunk = (delta: Record<string, unknown>) =>
      `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: null }] })}`;
    fault.script.push({
      kind: 'status',
      status: 200,
      body: `${[...build(chunk, events), 'data: [DONE]'].join('\n\n')}\n\n`,
      headers: { 'content-type': 'text/event-stream' },
    });
  }

  it("hands on a model's reasoning before its text, by either name a service gives it, and skips one it cannot read", async () => {
    // The built-in service's own stream of a test model, with reasoning put before its text: named as
    // the built-in service and DeepSeek name it, as OpenRouter names it, and once as no text at all.
    await scriptStream((thinking, events) => [
      thinking({ reasoning_content: 'First ' }),
      thinking({ reasoning: 'this.' }),
      thinking({ reasoning_content: 7 }),
      ...events,
    ]);
    const seen: string[] = [];
    for await (const event of viaFault().chatStream({ app_id: appId, prompt: 'one two three', model: 'test/echo' }))
      seen.push(event.type === 'done' ? 'done' : `${event.type}:${'content' in event ? event.content : ''}`);
    assert.deepEqual(seen.slice(0, 2), ['thinking:First ', 'thinking:this.']);
    assert.equal(
      seen
        .slice(2, -1)
        .map((e) => e.replace(/^delta:/, ''))
        .join(''),
      'one two three',
    );
    assert.equal(seen.at(-1), 'done');
  });

  it('hands on the pages a reply cites, from its annotations, and Google’s search suggestions, passing over what is no page on the web or no text', async () => {
    // The built-in service's own stream of a test model, with a chunk of annotations before its last,
    // as the service sends a web search's: two pages, a citation of another kind, one of no web address,
    // and annotations that are no list.
    const cite = (url: unknown, title?: unknown) => ({
      type: 'url_citation',
      url_citation: { start_index: 0, end_index: 3, url, title },
    });
    await scriptStream((chunk, events) => [
      ...events.slice(0, -1),
      chunk({
        annotations: [
          cite('https://example.com/a', 'Page A'),
          { type: 'file_citation', file_id: 'file-1' },
          cite('javascript:alert(1)', 'Not a page'),
          cite('https://example.com/b'),
          null,
        ],
      }),
      chunk({ annotations: 'none' }),
      // Google's Search Suggestions (their HTML), and a field of that name that is no text.
      chunk({ search_suggestions: '<div class="container">suggested</div>' }),
      chunk({ search_suggestions: { html: 'not text' } }),
      ...events.slice(-1),
    ]);
    const sources = [];
    const suggestions = [];
    let done = false;
    for await (const event of viaFault().chatStream({ app_id: appId, prompt: 'one two three', model: 'test/echo' })) {
      if (event.type === 'sources') sources.push(...event.pages);
      if (event.type === 'searchSuggestions') suggestions.push(event.html);
      done ||= event.type === 'done';
    }
    assert.ok(done, 'the reply ended with its figures');
    assert.deepEqual(suggestions, ['<div class="container">suggested</div>']);
    assert.deepEqual(sources, [
      { url: 'https://example.com/a', title: 'Page A' },
      { url: 'https://example.com/b', title: 'https://example.com/b' },
    ]);
  });

  it('ends a stream cut mid-way, or ended without [DONE], with a StreamError and never hangs', async () => {
    for (const cut of [
      { kind: 'cut-stream', events: 1 },
      { kind: 'end-stream', events: 1 },
    ] as const) {
      fault.script.push(cut);
      const deltas: string[] = [];
      const error = await failure(
        (async () => {
          for await (const event of viaFault().chatStream({
            app_id: appId,
            prompt: 'a b c d e f g h i j k l m n o p',
            model: 'test/echo',
          }))
            if (event.type === 'delta') deltas.push(event.content);
        })(),
      );
      assert.ok(error instanceof StreamError, `${cut.kind}: ${error.name} ${error.message}`);
      assert.equal(deltas.length, 1, 'the part before the cut was delivered');
    }
  });

  it('reports an error event inside the stream, and a refused stream as a typed error', async () => {
    fault.script.push({
      kind: 'status',
      status: 200,
      body: 'data: {"error": {"detail": "model exploded"}}\n\n',
      headers: { 'content-type': 'text/event-stream' },
    });
    const exploded = await failure(
      (async () => {
        for await (const _ of viaFault().chatStream({ app_id: appId, prompt: 'x' })) void _;
      })(),
    );
    assert.ok(exploded instanceof StreamError);
    assert.equal(exploded.message, 'model exploded');
    const refused = await failure(
      (async () => {
        for await (const _ of service.client().chatStream({ app_id: appId, prompt: 'x', temperature: 2 })) void _;
      })(),
    );
    assert.ok(refused instanceof ValidationError);
    assert.deepEqual(refused.fields, ['temperature']);
  });

  it('never lets the token appear in an error, its message or a log entry', async () => {
    fault.script.push({ kind: 'status', status: 400, body: { detail: `token ${service.token} is odd` } });
    errors.push(await failure(viaFault({ retries: 0 }).listModels()));
    const everything =
      JSON.stringify(log) + errors.map((e) => `${String(e)} ${(e as Error).stack} ${JSON.stringify(e)}`).join('\n');
    assert.ok(errors.length >= 10);
    assert.ok(!everything.includes(service.token), 'the token leaked');
    assert.ok(
      fault.seen.some((s) => s.authorization === `Bearer ${service.token}`),
      'the token was sent as the bearer',
    );
  });
});
