// Background responses through the OpenAI SDK, as a script sends a long task: answered `queued` at
// once, run apart from the request, read back until done, cancelled while it runs (and the model
// server's request with it), streamed and picked up again after a broken connection, refused in words
// where it cannot be; one left running by a service that was killed is failed, with why, at the next start.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { removeDir, spaceOf, startService, type RunningService } from '../support/service';

const MODEL = 'local/llama3.2';
/** The fake model server's name of it. */
const SERVED = 'llama3.2';

describe("background responses with the OpenAI SDK's Responses API", function () {
  this.timeout(60_000);
  let upstream: FakeUpstream;
  let service: RunningService;
  let openai: OpenAI;

  before(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ upstream: upstream.url });
    const space = await spaceOf(service, 'Long tasks', ['test/echo', MODEL]);
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: space.key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    await upstream?.close();
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => upstream.slow.clear());

  /** Reads a response back until it is no longer queued or in progress. */
  async function settled(id: string): Promise<OpenAI.Responses.Response> {
    for (let i = 0; i < 200; i++) {
      const read = await openai.responses.retrieve(id);
      if (read.status !== 'queued' && read.status !== 'in_progress') return read;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${id} never finished`);
  }

  it('answers queued at once, runs on without the request, and is read back in progress, then completed', async () => {
    upstream.slow.set(SERVED, 2_000);
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const created = await openai.responses.create({ model: MODEL, input: 'take your time', background: true });
    assert.deepEqual([created.status, created.background, created.output, created.usage], ['queued', true, [], null]);
    // Answered before the model did: it is still running.
    const running = await openai.responses.retrieve(created.id);
    assert.equal(running.status, 'in_progress');
    // Nothing goes on from a response that has not ended.
    await assert.rejects(
      openai.responses.create({ model: MODEL, input: 'and then?', previous_response_id: created.id }),
      (e: InstanceType<typeof OpenAI.APIError>) => e.status === 422 && /still running/.test(e.message),
    );

    const done = await settled(created.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.output_text, `upstream:${SERVED}:take your time`);
    assert.equal(done.background, true);
    assert.ok(done.usage && done.usage.output_tokens > 0);
    assert.equal(
      (await service.client().getOrganization()).num_requests,
      requestsBefore + 1,
      'logged and counted once, as any request',
    );
    // Once done, a request goes on from it.
    const next = await openai.responses.create({ model: 'test/echo', input: 'thanks', previous_response_id: done.id });
    assert.equal(next.output_text, 'thanks');
  });

  it('cancels one still running, and stops its model server request; refuses to cancel one that ended or ran in the foreground', async () => {
    upstream.slow.set(SERVED, 30_000);
    const asked = upstream.received.length;
    const created = await openai.responses.create({ model: MODEL, input: 'a very long task', background: true });
    for (let i = 0; upstream.received.length === asked && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(upstream.received.length, asked + 1, 'the model server was asked');
    const started = Date.now();
    const cancelled = await openai.responses.cancel(created.id);
    assert.ok(Date.now() - started < 5_000, 'the cancel did not wait for the model');
    assert.deepEqual([cancelled.id, cancelled.status], [created.id, 'cancelled']);
    assert.equal((await openai.responses.retrieve(created.id)).status, 'cancelled');
    assert.equal((await openai.responses.cancel(created.id)).status, 'cancelled', 'cancelling again says so');
    assert.equal(upstream.received.length, asked + 1, 'not tried again elsewhere');
    for (let i = 0; !upstream.left.includes(SERVED) && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(upstream.left, [SERVED], "the model server's request was left, not waited for");

    upstream.slow.clear();
    const finished = await settled(
      (await openai.responses.create({ model: MODEL, input: 'quick', background: true })).id,
    );
    await assert.rejects(
      openai.responses.cancel(finished.id),
      (e: InstanceType<typeof OpenAI.APIError>) => e.status === 400 && /has completed/.test(e.message),
    );
    const foreground = await openai.responses.create({ model: 'test/echo', input: 'now' });
    await assert.rejects(
      openai.responses.cancel(foreground.id),
      (e: InstanceType<typeof OpenAI.APIError>) => e.status === 400 && /only a background response/.test(e.message),
    );
    await assert.rejects(
      openai.responses.cancel('resp_nothing'),
      (e: InstanceType<typeof OpenAI.APIError>) => e.status === 404,
    );
  });

  it('holds its conversation until it has run, then adds its turn to it', async () => {
    upstream.slow.set(SERVED, 600);
    const conversation = await openai.conversations.create({});
    const created = await openai.responses.create({
      model: MODEL,
      input: 'in a conversation',
      conversation: conversation.id,
      background: true,
    });
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', input: 'meanwhile', conversation: conversation.id }),
      (e: InstanceType<typeof OpenAI.APIError>) =>
        e.status === 400 && /currently operating on this conversation/.test(e.message),
    );
    assert.equal((await settled(created.id)).status, 'completed');
    const items = await openai.conversations.items.list(conversation.id, { order: 'asc' });
    assert.deepEqual(
      items.data.map((i) => (i.type === 'message' ? i.role : i.type)),
      ['user', 'assistant'],
    );
    const after = await openai.responses.create({ model: 'test/echo', input: 'now', conversation: conversation.id });
    assert.equal(after.status, 'completed');
  });

  it('streams its events, and picks the stream up again after the last event a client saw', async () => {
    upstream.slow.set(SERVED, 500);
    const first = await openai.responses.create({
      model: MODEL,
      input: 'stream me',
      background: true,
      stream: true,
    });
    const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of first) {
      seen.push(event);
      // The client's connection breaks once the response is under way.
      if (event.type === 'response.in_progress') break;
    }
    const id = (seen[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;
    assert.equal((seen[0] as OpenAI.Responses.ResponseCreatedEvent).response.background, true);
    assert.deepEqual(
      seen.map((e) => [e.type, 'response' in e ? e.response.status : undefined]),
      [
        ['response.created', 'queued'],
        ['response.queued', 'queued'],
        ['response.in_progress', 'in_progress'],
      ],
    );
    const last = seen.at(-1)!.sequence_number;
    const again = await openai.responses.retrieve(id, { stream: true, starting_after: last });
    const rest: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of again) rest.push(event);
    assert.deepEqual(
      rest.map((e) => e.sequence_number),
      rest.map((_, i) => last + 1 + i),
      'every event after the last seen, once, in order',
    );
    const text = rest.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
    assert.equal(text, `upstream:${SERVED}:stream me`);
    const completed = rest.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    assert.equal(completed.type, 'response.completed');
    assert.equal((await openai.responses.retrieve(id)).output_text, text);
    // From the start, the whole stream again.
    const whole: string[] = [];
    for await (const event of await openai.responses.retrieve(id, { stream: true })) whole.push(event.type);
    assert.deepEqual(
      whole,
      [...seen, ...rest].map((e) => e.type),
    );

    // Only a streamed background response's events are kept to be streamed again; a foreground one's never.
    const quiet = await openai.responses.create({ model: 'test/echo', input: 'whole', background: true });
    await settled(quiet.id);
    await assert.rejects(
      openai.responses.retrieve(quiet.id, { stream: true }),
      (e: InstanceType<typeof OpenAI.APIError>) => e.status === 422 && /kept only when it was streamed/.test(e.message),
    );
    const foreground = await openai.responses.create({ model: 'test/echo', input: 'now' });
    await assert.rejects(
      openai.responses.retrieve(foreground.id, { stream: true }),
      (e: InstanceType<typeof OpenAI.APIError>) =>
        e.status === 422 && /only a streamed background response/.test(e.message),
    );
  });

  it('refuses in words a background response not kept', async () => {
    const refused = await fetch(`${service.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${openai.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test/echo', input: 'x', background: true, store: false }),
    });
    assert.equal(refused.status, 422);
    assert.match(await refused.text(), /needs the response kept/);
  });

  it('keeps one left running by a service stopped or killed as failed, saying why, at its next start', async () => {
    upstream.slow.set(SERVED, 30_000);
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const created = await openai.responses.create({ model: MODEL, input: 'interrupted', background: true });
      const started = Date.now();
      assert.equal(await service.stop(signal), signal === 'SIGTERM' ? 0 : null, service.output());
      if (signal === 'SIGTERM') {
        assert.ok(Date.now() - started < 10_000, 'a stop does not wait for the model');
        assert.doesNotMatch(service.output(), /Request failed|Error/, 'stopped without an error');
      }
      service = await startService({ upstream: upstream.url, dataDir: service.dataDir });
      openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: openai.apiKey, maxRetries: 0 });
      const read = await openai.responses.retrieve(created.id);
      assert.equal(read.status, 'failed');
      assert.match(read.error?.message ?? '', /stopped before this background response was finished/);
    }
  });
});
