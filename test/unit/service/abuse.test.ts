// The service under abuse, each case found by trying it: errors the HTTP framework raises itself keep
// the {"detail": ...} shape, ids as long as the schemas allow are accepted, text that is not
// well-formed Unicode is refused, lengths count code points, ETags differ per organization, UUIDs match
// in any case, and a reply that breaks off mid-stream is logged and counted like any failure.
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

/** Sends bytes as they are (no client library to fix them up) and returns the answer's status and body. */
function rawHttp(url: string, request: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), body });
    });
  });
}

describe('service under abuse', function () {
  this.timeout(60_000);
  let service: RunningService;
  let upstream: FakeUpstream;
  let appId: string;

  before(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ upstream: upstream.url, orgs: [{ name: 'A' }, { name: 'B' }] });
    appId = (await service.client().listSpaces()).items[0]!.id;
  });
  after(async () => {
    await service.stop();
    await upstream.close();
    removeDir(service.dataDir);
  });

  it('answers a URL with bad percent-encoding, one too long, and a part too long in the {"detail"} shape', async () => {
    const bad = await raw(service.url, 'GET', '/v1/apps/%E0%A4%A', { token: service.token });
    assert.equal(bad.status, 400);
    assert.equal(typeof (bad.json as { detail: unknown }).detail, 'string');
    const longPart = await raw(service.url, 'GET', `/v1/apps/${'a'.repeat(2000)}`, { token: service.token });
    assert.equal(longPart.status, 414, longPart.text);
    assert.match((longPart.json as { detail: string }).detail, /too long/);
    const huge = await rawHttp(service.url, `GET /v1/prompts?q=${'x'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal(huge.status, 431);
    assert.match((JSON.parse(huge.body) as { detail: string }).detail, /too long/);
  });

  it('refuses JSON nested deeper than 64 levels with a 422 at any depth, never a 500, and stores nothing', async () => {
    const before = (await service.client().listPrompts('org')).length;
    for (const depth of [65, 1000, 20_000]) {
      const nested = '['.repeat(depth) + ']'.repeat(depth);
      const prompt = await raw(service.url, 'POST', '/v1/prompts', {
        token: service.token,
        rawBody: `{"prompt":"p","title":"deep","description":${nested}}`,
      });
      assert.equal(prompt.status, 422, `${depth} levels: ${prompt.text.slice(0, 200)}`);
      assert.match(prompt.text, /nested more than 64 levels deep/);
      const chat = await raw(service.url, 'POST', '/v1/chat/completions', {
        token: service.token,
        rawBody: `{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"t","parameters":{"a":${nested}}}}]}`,
      });
      assert.equal(chat.status, 422, `${depth} levels in a tool's parameters`);
    }
    assert.equal((await service.client().listPrompts('org')).length, before);
  });

  it('accepts a conversation id as long as the schema allows (200 characters)', async () => {
    const id = 'c'.repeat(200);
    const res = await raw(service.url, 'PUT', `/v1/apps/${appId}/conversations/${id}`, {
      token: service.token,
      body: { name: 'x' },
    });
    assert.equal(res.status, 404, res.text);
    assert.deepEqual(res.json, { detail: 'Conversation not found' });
  });

  it('refuses text with a lone surrogate with 422, and stores nothing', async () => {
    const res = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      rawBody: '{"prompt":"a\\ud800b","title":"Lone","description":"surrogate"}',
    });
    assert.equal(res.status, 422, res.text);
    const detail = (res.json as { detail: Array<{ loc: string[]; type: string }> }).detail[0]!;
    assert.deepEqual(detail.loc, ['body', 'prompt']);
    assert.equal(detail.type, 'string_unicode');
    const titles = (
      (await raw(service.url, 'GET', '/v1/prompts?show=org', { token: service.token })).json as Array<{ title: string }>
    ).map((p) => p.title);
    assert.ok(!titles.includes('Lone'));
  });

  it('counts title and description lengths in code points', async () => {
    const sixty = '🙂'.repeat(60);
    const ok = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      body: { prompt: 'p', title: sixty, description: '🙂'.repeat(200) },
    });
    assert.equal(ok.status, 200, `60 emoji are 60 characters: ${ok.text}`);
    const over = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      body: { prompt: 'p', title: `${sixty}🙂`, description: 'd' },
    });
    assert.equal(over.status, 422);
    assert.deepEqual((over.json as { detail: Array<{ loc: string[] }> }).detail[0]!.loc, ['body', 'title']);
  });

  it('gives each organization its own ETag: one cannot revalidate another’s answer', async () => {
    const [a, b] = service.orgs;
    // The catalogue may still change just after the start (what the service reads then lands as it
    // comes): an answer that changed between two reads has a new ETag, and the reads are made again.
    for (let attempt = 1; ; attempt++) {
      const first = await raw(service.url, 'GET', '/v1/internal/models', { token: a!.token });
      const second = await raw(service.url, 'GET', '/v1/internal/models', { token: b!.token });
      assert.ok(first.headers.etag && second.headers.etag);
      assert.notEqual(first.headers.etag, second.headers.etag);
      const replay = await raw(service.url, 'GET', '/v1/internal/models', {
        token: b!.token,
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      assert.equal(replay.status, 200);
      const own = await raw(service.url, 'GET', '/v1/internal/models', {
        token: a!.token,
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      if (own.status === 304) break;
      assert.equal(own.status, 200);
      assert.notEqual(own.headers.etag, first.headers.etag, 'answered again only because the answer changed');
      assert.ok(attempt < 5, 'the catalogue settles after the start');
    }
  });

  it('matches UUIDs in paths and bodies whatever their case', async () => {
    const upper = appId.toUpperCase();
    const space = await raw(service.url, 'GET', `/v1/apps/${upper}`, { token: service.token });
    assert.equal(space.status, 200, space.text);
    const update = await raw(service.url, 'PUT', '/v1/apps/update', {
      token: service.token,
      body: { id: upper, description: 'found in upper case' },
    });
    assert.equal(update.status, 200, update.text);
    const conversation = randomUUID().toUpperCase();
    const chat = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: upper, prompt: 'hi', model: 'test/echo', conversation_id: conversation },
    });
    assert.equal(chat.status, 200, chat.text);
    const read = await raw(service.url, 'POST', `/v1/apps/${appId}/conversations/${conversation.toLowerCase()}`, {
      token: service.token,
      body: {},
    });
    assert.equal(read.status, 200, read.text);
  });

  it('logs and counts a streamed reply that breaks off mid-answer, with its error and the text so far, as it does without streaming', async () => {
    upstream.breaking.add('llama3.2');
    // With no failover chain and no switch to another model, the request without streaming fails too, after its retries.
    const update = await raw(service.url, 'PUT', '/v1/apps/update', {
      token: service.token,
      body: { id: appId, has_failover_chain: false, policies: { max_switch_model_retries: 0 } },
    });
    assert.equal(update.status, 200);
    try {
      const client = service.client();
      const before = (await client.getOrganization()).num_requests;
      const streamed = randomUUID();
      await assert.rejects(async () => {
        for await (const event of client.chatStream({
          app_id: appId,
          prompt: 'tell me',
          model: 'local/llama3.2',
          conversation_id: streamed,
        }))
          void event;
      });
      const whole = randomUUID();
      const res = await raw(service.url, 'POST', '/v1/playground/chat', {
        token: service.token,
        body: { app_id: appId, prompt: 'tell me', model: 'local/llama3.2', conversation_id: whole },
      });
      assert.equal(res.status, 502, res.text);
      const logged = async (id: string) =>
        (
          (await client.getConversation(appId, id, true)) as {
            requests: Array<{ status_code: number; error: string | null; response: string | null }>;
          }
        ).requests;
      const [cut] = await logged(streamed);
      const [failed] = await logged(whole);
      assert.equal(cut?.status_code, 502);
      assert.equal(failed?.status_code, 502);
      assert.ok(cut?.error && failed?.error, 'both carry their error');
      assert.equal(cut?.response, 'partial ', 'the text streamed before the break');
      assert.equal((await client.getOrganization()).num_requests, before + 2, 'both are counted');
    } finally {
      upstream.breaking.delete('llama3.2');
    }
  });

  it('answers a prompt of 199,000 characters without a space (the tokenizer once took seconds on such a run)', async () => {
    const prompt = 'x'.repeat(199_000);
    const created = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      body: { prompt, title: 'One long word', description: 'tokenizer' },
    });
    assert.equal(created.status, 200, created.text);
    assert.ok((created.json as { tokens: number }).tokens > 0);
    const chat = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: appId, prompt, model: 'test/echo', max_tokens: 50 },
    });
    assert.equal(chat.status, 200, chat.text.slice(0, 200));
  });

  it('reads a body sent compressed (gzip, deflate, br, zstd), and refuses an unknown encoding, a corrupt one and one that inflates past the limit in words', async () => {
    const titles = async () =>
      (
        (await raw(service.url, 'GET', '/v1/prompts?show=org', { token: service.token })).json as Array<{
          title: string;
          prompt: string;
        }>
      ).map((p) => `${p.title}: ${p.prompt}`);
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: (b) => zlib.gzipSync(b),
      deflate: (b) => zlib.deflateSync(b),
      br: (b) => zlib.brotliCompressSync(b),
      zstd: (b) => zlib.zstdCompressSync(b),
    };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const body = Buffer.from(
        JSON.stringify({ prompt: 'Grüße, 世界 {{prompt}}', title: `Sent ${encoding}`, description: 'd' }),
      );
      const sent = await raw(service.url, 'POST', '/v1/prompts', {
        token: service.token,
        rawBody: encode(body),
        headers: { 'content-encoding': encoding },
      });
      assert.equal(sent.status, 200, `${encoding}: ${sent.text}`);
      assert.ok((await titles()).includes(`Sent ${encoding}: Grüße, 世界 {{prompt}}`), encoding);
    }
    const before = (await titles()).length;

    const unknown = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      rawBody: JSON.stringify({ prompt: 'p', title: 'Compressed oddly', description: 'd' }),
      headers: { 'content-encoding': 'compress' },
    });
    assert.equal(unknown.status, 415, unknown.text);
    assert.match((unknown.json as { detail: string }).detail, /encoded as "compress".*gzip, deflate, br, zstd/);
    assert.equal(unknown.headers['accept-encoding'], 'gzip, deflate, br, zstd');

    // On Anthropic's route the refusal is in Anthropic's shape, as Claude Code reads it.
    const { created_key: key } = await service.client().createSpace({ name: 'Compressed bodies' });
    const corrupt = await raw(service.url, 'POST', '/v1/messages', {
      token: key!,
      rawBody: Buffer.from('not gzip at all'),
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(corrupt.status, 400, corrupt.text);
    const error = (corrupt.json as { error: { type: string; message: string } }).error;
    assert.match(error.message, /could not be decoded as gzip \(incorrect header check\)/);
    assert.equal(error.type, 'invalid_request_error');
    const strange = await raw(service.url, 'POST', '/v1/messages', {
      token: key!,
      rawBody: Buffer.from('{}'),
      headers: { 'content-encoding': 'compress' },
    });
    assert.equal(strange.status, 415, strange.text);
    assert.equal((strange.json as { error: { type: string } }).error.type, 'invalid_request_error');

    const answered = await raw(service.url, 'POST', '/v1/messages', {
      token: key!,
      rawBody: zlib.gzipSync(
        JSON.stringify({ model: 'test/echo', max_tokens: 50, messages: [{ role: 'user', content: 'inflated hello' }] }),
      ),
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(answered.status, 200, answered.text);
    assert.match(JSON.stringify(answered.json), /inflated hello/);

    // 40 MiB of one letter is 40 KB gzipped: refused at the chat's 32 MiB, not read into memory.
    const bomb = zlib.gzipSync(Buffer.alloc(40 * 2 ** 20, 'a'));
    assert.ok(bomb.length < 2 ** 20);
    const inflated = await raw(service.url, 'POST', '/v1/chat/completions', {
      token: key!,
      rawBody: bomb,
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(inflated.status, 413, inflated.text);
    assert.match(
      (inflated.json as { error: { message: string } }).error.message,
      /larger than this endpoint takes \(32 MiB\)/,
    );
    assert.equal((await titles()).length, before);
    assert.equal((await raw(service.url, 'GET', '/v1/prompts', { token: service.token })).status, 200);
  });
});
