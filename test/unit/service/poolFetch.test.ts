// The pooled fetch the provider packages are given keeps the standard fetch's contract where the AI SDK
// reads it: the answer's status, headers and body (a stream piece by piece as it comes, anything else
// whole); a network error as a TypeError with its cause; an abort as the signal's reason, before the
// answer or in its body; a status without a body.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { poolFetch } from '../../../src/service/providers/poolFetch';

describe('the pooled fetch of the provider packages', function () {
  let server: Server;
  let base: string;
  const seen: Array<{ method?: string; headers: Record<string, unknown>; body: string }> = [];
  let release = () => {};

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, headers: req.headers, body });
        if (req.url === '/empty') return res.writeHead(204).end();
        if (req.url === '/hang') return;
        if (req.url === '/half') return res.writeHead(200, { 'content-type': 'application/json' }).write('{"id":');
        if (req.url === '/stream') {
          res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: {"n":1}\n\n');
          // The rest only once the client says it read the first piece.
          release = () => res.end('data: [DONE]\n\n');
          return;
        }
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7', 'set-cookie': ['a=1', 'b=2'] });
        res.write('{"error":');
        setTimeout(() => res.end('{"message":"slow down"}}'), 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends the method, headers and body, and answers with the status, headers and the whole body', async () => {
    const answer = await poolFetch(`${base}/v1/chat`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer sk-x' }),
      body: '{"model":"m"}',
    });
    assert.equal(answer.status, 429);
    assert.equal(answer.ok, false);
    assert.equal(answer.headers.get('retry-after'), '7');
    assert.deepEqual(answer.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.deepEqual(await answer.json(), { error: { message: 'slow down' } });
    const last = seen.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.equal(last.headers.authorization, 'Bearer sk-x');
    assert.equal(last.body, '{"model":"m"}');
  });

  it('hands on a stream piece by piece, before the server has ended it', async () => {
    const answer = await poolFetch(`${base}/stream`, { method: 'POST', body: '{}' });
    assert.equal(answer.headers.get('content-type'), 'text/event-stream');
    const reader = answer.body!.getReader();
    const decoder = new TextDecoder();
    assert.equal(decoder.decode((await reader.read()).value), 'data: {"n":1}\n\n');
    release();
    let rest = '';
    for (let piece = await reader.read(); !piece.done; piece = await reader.read()) rest += decoder.decode(piece.value);
    assert.equal(rest, 'data: [DONE]\n\n');
  });

  it('answers a status without a body with none', async () => {
    const answer = await poolFetch(`${base}/empty`, { method: 'DELETE' });
    assert.equal(answer.status, 204);
    assert.equal(answer.body, null);
  });

  it('rejects a network error as the standard fetch does, with its cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(poolFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.equal(error.message, 'fetch failed');
      assert.equal((error.cause as { code?: string }).code, 'ECONNREFUSED');
      return true;
    });
  });

  for (const [when, where] of [
    ['before the answer', '/hang'],
    ['while the body is coming', '/half'],
  ])
    it(`rejects with the signal's reason when it is aborted ${when}`, async () => {
      const stop = new AbortController();
      const pending = poolFetch(`${base}${where}`, { method: 'POST', body: '{}', signal: stop.signal });
      const reason = new Error('given up');
      setTimeout(() => stop.abort(reason), 50);
      await assert.rejects(pending, (error: unknown) => error === reason);
    });
});
