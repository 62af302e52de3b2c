// The built-in service's lifecycle as the extension runs it: started once per data folder, found and
// shared by other windows, handed the upstream setting, and stopped by the last window only.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LlmSpacesClient } from '../../../src/api/client';
import { LocalService, type LocalServiceOptions } from '../../../src/connection/localService';
import { isAlive, liveLeases, readLock, stillRuns } from '../../../src/service/lockFile';
import { startFakeUpstream } from '../support/fakeUpstream';
import { removeDir, tempDir } from '../support/service';

const ROOT = path.resolve(__dirname, '../../../..');

function window(dataDir: string, overrides: Partial<LocalServiceOptions> = {}) {
  let token: string | undefined;
  const exits: Array<number | null> = [];
  const logs: string[] = [];
  const service = new LocalService({
    extensionPath: ROOT,
    dataDir,
    getToken: async () => token,
    storeToken: async (t) => void (token = t),
    modelServers: () => ({ upstreams: [], discover: false }),
    retentionDays: () => 90,
    updateCatalogue: () => false,
    proxy: () => ({ url: '', noProxy: [] }),
    port: () => 0,
    log: (line) => logs.push(line),
    onExit: (code) => exits.push(code),
    ...overrides,
  });
  return { service, exits, logs, token: () => token };
}

const waitDead = async (pid: number) => {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
};

describe('built-in service lifecycle (LocalService)', function () {
  this.timeout(30_000);

  it('starts one service, which a second window finds and shares; the last window stops it', async () => {
    const dir = tempDir();
    const first = window(dir);
    const a = await first.service.ensure();
    assert.ok(isAlive(a.pid));
    const again = await first.service.ensure();
    assert.equal(again.pid, a.pid, 'ensure() is idempotent');
    const client = new LlmSpacesClient({ baseUrl: a.url, token: () => a.token });
    assert.ok((await client.listModels()).length > 0, 'the generated token works');
    await client.close();
    // What the service says reaches the window's log, without the token; the shipped prices were asked for.
    assert.ok(first.logs.some((l) => /^service: Catalogue: \d+ models of hosted providers from @pydantic/.test(l)));
    assert.ok(first.logs.some((l) => /serve .*--prices-url off --capabilities-url off/.test(l)));
    assert.ok(!first.logs.join('\n').includes(a.token), 'the token is not in the log');

    // Another window: same data folder and (shared secret storage) the same token.
    const second = new LocalService({
      extensionPath: ROOT,
      dataDir: dir,
      getToken: async () => first.token(),
      storeToken: async () => undefined,
      modelServers: () => ({ upstreams: [], discover: false }),
      retentionDays: () => 90,
      updateCatalogue: () => false,
      proxy: () => ({ url: '', noProxy: [] }),
      port: () => 0,
      log: () => undefined,
      onExit: () => undefined,
    });
    const b = await second.ensure();
    assert.deepEqual([b.url, b.pid], [a.url, a.pid], 'connects to the running service');

    // A window that is still open holds a lease: closing this one must not stop the service.
    const other = spawn('sleep', ['30']);
    writeFileSync(path.join(dir, 'clients', String(other.pid)), '');
    first.service.dispose();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(isAlive(a.pid), 'still serving the other window');
    other.kill();
    await new Promise((r) => other.once('exit', r));
    second.dispose();
    assert.ok(await waitDead(a.pid), 'the last window stopped it');
    assert.deepEqual(first.exits, [], 'a deliberate stop is not reported as a crash');
    removeDir(dir);
  });

  it('stops a service that was still starting when its only window closed', async () => {
    const dir = tempDir();
    const w = window(dir);
    const starting = w.service.ensure();
    w.service.dispose();
    const a = await starting;
    assert.ok(await waitDead(a.pid), 'nobody is left to stop it later');
    assert.deepEqual(w.exits, [], 'not reported as a crash');
    removeDir(dir);
  });

  it('a service whose windows all ended without letting go of it (a crash) stops by itself', async () => {
    process.env.LLM_SPACES_LEASE_CHECK_MS = '200';
    const dir = tempDir();
    const w = window(dir);
    const other = spawn('sleep', ['30']);
    try {
      const a = await w.service.ensure();
      // The window that holds the only lease is another process, which then crashes.
      writeFileSync(path.join(dir, 'clients', String(other.pid)), '');
      rmSync(path.join(dir, 'clients', String(process.pid)));
      await new Promise((r) => setTimeout(r, 1000));
      assert.ok(isAlive(a.pid), 'serving while a window holds a lease');
      other.kill('SIGKILL');
      assert.ok(await waitDead(a.pid), 'stopped once no live window held a lease');
      assert.ok(!readLock(dir) || !isAlive(readLock(dir)!.pid), 'the folder is let go');
    } finally {
      other.kill();
      delete process.env.LLM_SPACES_LEASE_CHECK_MS;
      w.service.dispose();
      removeDir(dir);
    }
  });

  it('restarts a service of an older build for a newer window, never a newer one for an older window', async () => {
    const dir = tempDir();
    const older = tempDir();
    const first = window(dir);
    const shared = { getToken: async () => first.token(), storeToken: async () => undefined };
    const windows = [first];
    try {
      const a = await first.service.ensure();
      const lock = readLock(dir)!;
      assert.equal(lock.built, statSync(path.join(ROOT, 'dist', 'service.js')).mtimeMs, 'the lock says its build');
      // As if it had been started before an update or a rebuild of the service.
      writeFileSync(path.join(dir, 'service.lock'), JSON.stringify({ ...lock, built: lock.built! - 60_000 }));
      const newer = window(dir, shared);
      windows.push(newer);
      const b = await newer.service.ensure();
      assert.notEqual(b.pid, a.pid, 'restarted from this window\u2019s build');
      assert.ok(!isAlive(a.pid));
      assert.deepEqual(first.exits, [], 'a restart by another window is not reported as a crash');
      const started = first.logs.filter((line) => line.startsWith('Built-in service listening'));
      assert.equal(started.length, 1, 'what the service printed as it stopped did not read as a new start');
      // A window that has not reloaded since the update runs an older file: it connects as it is.
      mkdirSync(path.join(older, 'dist'));
      writeFileSync(path.join(older, 'dist', 'service.js'), '');
      utimesSync(path.join(older, 'dist', 'service.js'), new Date(2000, 0, 1), new Date(2000, 0, 1));
      const stale = window(dir, { ...shared, extensionPath: older });
      windows.push(stale);
      assert.equal((await stale.service.ensure()).pid, b.pid, 'the newer service keeps serving');
      for (const w of windows) w.service.dispose();
      assert.ok(await waitDead(b.pid));
    } finally {
      for (const w of windows) w.service.dispose();
      removeDir(dir);
      removeDir(older);
    }
  });

  it('reports an unexpected exit, and starts a new service over the stale lock', async () => {
    const dir = tempDir();
    const w = window(dir);
    const a = await w.service.ensure();
    process.kill(a.pid, 'SIGKILL');
    for (let i = 0; i < 50 && w.exits.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(w.exits.length, 1);
    const b = await w.service.ensure();
    assert.notEqual(b.pid, a.pid);
    assert.equal(readLock(dir)!.pid, b.pid);
    w.service.dispose();
    assert.ok(await waitDead(b.pid));
    removeDir(dir);
  });

  it('takes a lock and a lease whose pid is now another process\u2019s as left behind: the folder is free, and that process is sent nothing', async () => {
    // After a crash or a reboot, the pid the lock and a lease name is given to some other process.
    const dir = tempDir();
    const stranger = spawn('sleep', ['30']);
    const w = window(dir);
    try {
      const earlier = { pid: stranger.pid!, since: 'a process of an earlier boot' };
      // Of an older build, so that a window would restart it, were it taken for the service.
      writeFileSync(
        path.join(dir, 'service.lock'),
        JSON.stringify({ ...earlier, url: 'http://127.0.0.1:9', startedAt: '2026-01-01T00:00:00.000Z', built: 1 }),
      );
      mkdirSync(path.join(dir, 'clients'));
      writeFileSync(path.join(dir, 'clients', String(stranger.pid)), earlier.since);
      assert.ok(!stillRuns(earlier) && isAlive(stranger.pid!), 'the pid runs, but not the process that wrote them');
      const a = await w.service.ensure();
      assert.notEqual(a.pid, stranger.pid);
      assert.equal(readLock(dir)!.pid, a.pid, 'the new service took the folder');
      assert.deepEqual(
        liveLeases(dir),
        [process.pid],
        'the stranger\u2019s lease is gone, this window\u2019s is there',
      );
      assert.deepEqual(
        w.logs.filter((line) => /restarting|did not stop/.test(line)),
        [],
        'nothing was stopped',
      );
      assert.equal(stranger.exitCode ?? stranger.signalCode, null, 'the other process was sent no signal');
      w.service.dispose();
      assert.ok(await waitDead(a.pid), 'the last window stopped its service');
    } finally {
      w.service.dispose();
      stranger.kill();
      removeDir(dir);
    }
  });

  it('hands the upstream setting to the service as --upstream', async () => {
    const upstream = await startFakeUpstream();
    const dir = tempDir();
    const w = window(dir, { modelServers: () => ({ upstreams: [upstream.url], discover: false }) });
    const endpoint = await w.service.ensure();
    const client = new LlmSpacesClient({ baseUrl: endpoint.url, token: () => endpoint.token });
    const appId = (await client.listSpaces()).items[0]!.id;
    const reply = await client.chat({ app_id: appId, prompt: 'hi', model: 'local/llama3.2' });
    assert.equal(reply.choices[0]!.message.content, 'upstream:llama3.2:hi');
    await client.close();
    w.service.dispose();
    assert.ok(await waitDead(endpoint.pid));
    await upstream.close();
    removeDir(dir);
  });

  it("hands VS Code's proxy setting to the service, which says it goes through it (without its credentials)", async () => {
    const dir = tempDir();
    const w = window(dir, { proxy: () => ({ url: 'http://user:pw-123@127.0.0.1:9', noProxy: ['corp.internal'] }) });
    const endpoint = await w.service.ensure();
    const said = w.logs.join('\n');
    assert.match(
      said,
      /service: Requests to providers go through the proxy http:\/\/…@127\.0\.0\.1:9; directly to corp\.internal, localhost, 127\.0\.0\.1, \[::1\]\./,
    );
    assert.ok(!said.includes('pw-123'), 'no proxy credentials in the log');
    w.service.dispose();
    assert.ok(await waitDead(endpoint.pid));
    removeDir(dir);
  });

  it('a restart while a reply streams: the stream ends with an error event and is logged, the old service exits, and the new one takes the folder', async () => {
    process.env.LLM_SPACES_SHUTDOWN_MS = '1000';
    const dir = tempDir();
    const w = window(dir);
    try {
      const a = await w.service.ensure();
      const client = new LlmSpacesClient({ baseUrl: a.url, token: () => a.token });
      const appId = (await client.listSpaces()).items[0]!.id;
      const conversationId = randomUUID();
      // test/echo repeats the prompt at the default 15 ms a piece: far longer than the shutdown deadline.
      const stream = client.chatStream({
        app_id: appId,
        prompt: 'echo '.repeat(3000),
        model: 'test/echo',
        max_tokens: 4000,
        conversation_id: conversationId,
      });
      const first = await stream.next();
      assert.equal(first.value?.type, 'delta');
      const stopping = w.service.stop();
      await assert.rejects(
        async () => {
          for await (const event of stream) void event;
        },
        (error: Error) => /shut down/.test(error.message),
      );
      await stopping;
      assert.ok(!isAlive(a.pid), 'the old service is gone when stop() returns');
      const b = await w.service.ensure();
      assert.notEqual(b.pid, a.pid);
      assert.equal(readLock(dir)!.pid, b.pid);
      const next = new LlmSpacesClient({ baseUrl: b.url, token: () => b.token });
      const logged = await next.getConversation(appId, conversationId, true);
      const request = (
        logged as { requests?: Array<{ status_code: number; error: string | null; response: string | null }> }
      ).requests?.[0];
      assert.equal(request?.status_code, 502);
      assert.match(request?.error ?? '', /shut down/);
      assert.ok((request?.response ?? '').length > 0, 'the text streamed so far is logged');
      await client.close();
      await next.close();
      w.service.dispose();
      assert.ok(await waitDead(b.pid));
    } finally {
      delete process.env.LLM_SPACES_SHUTDOWN_MS;
      removeDir(dir);
    }
  });

  it('restarts a running service for a window whose secret storage lost its token, and the new token works', async () => {
    const dir = tempDir();
    const first = window(dir);
    const a = await first.service.ensure();
    // A second window with empty secret storage, as a browser's can be after a reload.
    const second = window(dir);
    const b = await second.service.ensure();
    assert.notEqual(b.pid, a.pid, 'the service was restarted with the new token');
    assert.ok(!isAlive(a.pid));
    const client = new LlmSpacesClient({ baseUrl: b.url, token: () => b.token });
    assert.ok((await client.listSpaces()).items.length > 0, 'the new token is accepted');
    const old = new LlmSpacesClient({ baseUrl: b.url, token: () => a.token });
    assert.ok((await old.listSpaces()).items.length > 0, "the first window's token still works too");
    await client.close();
    await old.close();
    first.service.dispose();
    second.service.dispose();
    assert.ok(await waitDead(b.pid));
    removeDir(dir);
  });
});
