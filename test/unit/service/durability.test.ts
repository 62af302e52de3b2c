// Persistence: data survives restarts; kill -9 in the middle of a burst loses no acknowledged write, nor
// a chat's log entry (written on the writer thread); a second service on the same folder refuses to
// start; SIGTERM lets requests in flight finish, and answers one that comes then with 503.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'undici';
import { isAlive } from '../../../src/service/lockFile';
import { raw } from '../support/http';
import { SERVICE, removeDir, startService, tempDir } from '../support/service';

const run = promisify(execFile);

describe('service durability', function () {
  this.timeout(60_000);

  it('keeps every write across a clean restart, and SIGTERM exits 0 and releases the lock', async () => {
    const first = await startService();
    const client = first.client();
    const prompt = await client.createPrompt({ prompt: 'kept', title: 'Survivor', description: 'survives restarts' });
    const appId = (await client.listSpaces()).items[0]!.id;
    await client.updateSpace({ id: appId, name: 'Renamed before restart' });
    assert.equal(await first.stop('SIGTERM'), 0);
    assert.ok(!existsSync(path.join(first.dataDir, 'service.lock')), 'lock released');

    const second = await startService({ dataDir: first.dataDir, orgs: [], token: first.token });
    const again = second.client();
    assert.ok((await again.listPrompts('org')).some((p) => p.id === prompt.id));
    assert.equal((await again.getSpace(appId)).main.app.name, 'Renamed before restart');
    await second.stop();
    removeDir(first.dataDir);
  });

  it('loses no acknowledged write when killed with SIGKILL in the middle of a burst, and the database opens again', async () => {
    const service = await startService();
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (n: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const res = await raw(service.url, 'POST', '/v1/prompts', {
            token: service.token,
            body: { prompt: `burst ${n}-${i}`, title: `b${n}-${i}`, description: 'burst' },
          });
          if (res.status === 200) acknowledged.push((res.json as { id: string }).id);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, n) => writer(n));
    await new Promise((resolve) => setTimeout(resolve, 700));
    killed = true;
    service.child.kill('SIGKILL');
    await Promise.all(writers);
    assert.ok(acknowledged.length > 20, `only ${acknowledged.length} writes were acknowledged before the kill`);

    const restarted = await startService({ dataDir: service.dataDir, orgs: [], token: service.token });
    const stored = new Set((await restarted.client().listPrompts('org')).map((p) => p.id));
    const lost = acknowledged.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes were lost`);
    await restarted.stop();
    removeDir(service.dataDir);
  });

  it('loses no acknowledged chat when killed with SIGKILL in the middle of a burst: each answered chat is in its conversation', async () => {
    const service = await startService();
    const space = await service.client().createSpace({ name: 'Chat burst' });
    const conversations = Array.from({ length: 8 }, () => randomUUID());
    const acknowledged = new Map<string, string[]>(conversations.map((c) => [c, []]));
    let killed = false;
    const writer = async (conversation: string) => {
      while (!killed) {
        try {
          const res = await raw(service.url, 'POST', '/v1/playground/chat', {
            token: service.token,
            body: { app_id: space.id, model: 'test/echo', prompt: 'burst', conversation_id: conversation },
          });
          if (res.status === 200) acknowledged.get(conversation)!.push((res.json as { id: string }).id);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = conversations.map(writer);
    await new Promise((resolve) => setTimeout(resolve, 700));
    killed = true;
    service.child.kill('SIGKILL');
    await Promise.all(writers);
    const total = [...acknowledged.values()].reduce((n, ids) => n + ids.length, 0);
    assert.ok(total > 20, `only ${total} chats were acknowledged before the kill`);

    const restarted = await startService({ dataDir: service.dataDir, orgs: [], token: service.token });
    const lost: string[] = [];
    for (const [conversation, ids] of acknowledged) {
      if (ids.length === 0) continue;
      const stored = await restarted.client().getConversation(space.id, conversation, true);
      const logged = new Set((stored.requests ?? []).map((r) => r.id));
      lost.push(...ids.filter((id) => !logged.has(id)));
    }
    assert.deepEqual(lost, [], `${lost.length} of ${total} acknowledged chats were lost`);
    await restarted.stop();
    removeDir(service.dataDir);
  });

  it('keeps serving once the process that started it and read its output is gone, and then stops cleanly', async () => {
    // As the extension starts it: detached, its output piped to a window that may close first.
    const dataDir = tempDir();
    const token = `lls_${randomUUID().replace(/-/g, '')}`;
    const starter = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ${JSON.stringify([SERVICE, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir, '--discover', 'off', '--token', token])}, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      child.stdout.on('data', (d) => {
        const url = /listening on (\\S+)/.exec(String(d));
        if (url) { console.log(JSON.stringify({ pid: child.pid, url: url[1] })); process.exit(0); }
      });`;
    const { stdout } = await run(process.execPath, ['-e', starter]);
    const { pid, url } = JSON.parse(stdout) as { pid: number; url: string };
    const alive = () => isAlive(pid);
    try {
      const res = await raw(url, 'GET', '/v1/prompts?show=org', { token });
      assert.equal(res.status, 200, res.text);
      // Its notice of the stop goes to a pipe nobody reads any more.
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 100 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(!alive(), 'the service stopped');
      assert.ok(!existsSync(path.join(dataDir, 'service.lock')), 'it released the lock, as a clean stop does');
      assert.ok(!existsSync(path.join(dataDir, 'llm-spaces.sqlite-wal')), 'it closed its database');
    } finally {
      if (alive()) process.kill(pid, 'SIGKILL');
      removeDir(dataDir);
    }
  });

  it('carries out a stop asked for while it starts (the lock names it, it does not listen yet) once it has started', async () => {
    // A window that finds the lock may stop the service at once (a new token, a newer build).
    const dataDir = tempDir();
    const child = spawn(process.execPath, [SERVICE, 'serve', '--port', '0', '--data', dataDir, '--discover', 'off'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );
    try {
      const lock = path.join(dataDir, 'service.lock');
      for (let i = 0; i < 2000 && !existsSync(lock); i++) await new Promise((resolve) => setTimeout(resolve, 2));
      assert.ok(existsSync(lock), `the lock was never taken:\n${out}`);
      assert.ok(!/listening on/.test(out), 'asked before it listens');
      child.kill('SIGTERM');
      assert.deepEqual(await exited, [0, null], `a clean stop, not an end by the signal:\n${out}`);
      assert.match(out, /listening on[\s\S]*SIGTERM: finishing requests in flight/);
      assert.ok(!existsSync(lock), 'it released the lock, as a clean stop does');
    } finally {
      child.kill('SIGKILL');
      removeDir(dataDir);
    }
  });

  it('refuses a second service, and an `org create`, on a data folder in use', async () => {
    const service = await startService();
    const second = run(process.execPath, [SERVICE, 'serve', '--port', '0', '--data', service.dataDir]);
    await assert.rejects(second, (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /already using the data folder/);
      assert.ok(error.stderr.includes(service.url), 'names where the running service listens');
      return true;
    });
    await assert.rejects(
      run(process.execPath, [SERVICE, 'org', 'create', '--name', 'x', '--data', service.dataDir]),
      /already using the data folder/,
    );
    await service.stop();
    removeDir(service.dataDir);
  });

  it('finishes a streaming reply in flight when told to stop', async () => {
    const service = await startService({ streamDelayMs: 20 });
    const appId = (await service.client().listSpaces()).items[0]!.id;
    const chunks: string[] = [];
    let done = false;
    const reading = (async () => {
      for await (const event of service
        .client()
        .chatStream({ app_id: appId, prompt: 'word '.repeat(200), model: 'test/echo' })) {
        if (event.type === 'delta') chunks.push(event.content);
        else done = true;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exit = service.stop('SIGTERM');
    await reading;
    assert.ok(done, 'the stream reached its end');
    assert.equal(chunks.join(''), 'word '.repeat(200));
    assert.equal(await exit, 0);
    removeDir(service.dataDir);
  });

  it('answers a request that comes while it stops with 503, in words', async () => {
    const service = await startService({ streamDelayMs: 20 });
    const appId = (await service.client().listSpaces()).items[0]!.id;
    const authorization = `Bearer ${service.token}`;
    // Both on one connection: the second is read once the reply in flight (over a second) has ended.
    const connection = new Client(service.url, { pipelining: 2 });
    const streaming = connection.request({
      path: '/v1/playground/chat',
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: appId, prompt: 'word '.repeat(200), model: 'test/echo', stream: true }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exit = service.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const late = connection.request({ path: '/v1/apps/', method: 'GET', headers: { authorization } });
    const first = await streaming;
    assert.equal(first.statusCode, 200);
    assert.match(await first.body.text(), /data: \[DONE\]\n\n$/);
    const second = await late;
    assert.equal(second.statusCode, 503);
    assert.deepEqual(await second.body.json(), { detail: 'The service is shutting down.' });
    await connection.close();
    assert.equal(await exit, 0);
    removeDir(service.dataDir);
  });

  it('prints the usage and exits 2 on a bad command line', async () => {
    const dir = tempDir();
    await assert.rejects(
      run(process.execPath, [SERVICE, 'serve', '--data', dir, '--port', 'eighty']),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 2);
        assert.match(error.stderr, /--port must be a whole number/);
        assert.match(error.stderr, /Usage:/);
        return true;
      },
    );
    removeDir(dir);
  });

  it('exits at once on a Node older than 22.13, saying which Node it needs', async function () {
    // The machine's own Node (Debian 12 has 20), found on PATH past the pinned runtime.
    const older = (process.env.PATH ?? '')
      .split(path.delimiter)
      .map((dir) => path.join(dir, 'node'))
      .find(
        (file) =>
          existsSync(file) &&
          file !== process.execPath &&
          !/node_modules|\.tools/.test(file) &&
          /^v(1\d|2[01]|22\.([0-9]|1[0-2]))\./.test(execFileSync(file, ['--version']).toString()),
      );
    if (!older) {
      console.log('      (no Node older than 22.13 on this machine: nothing to run the check with)');
      this.skip();
    }
    const dir = tempDir();
    await assert.rejects(run(older, [SERVICE, 'serve', '--data', dir]), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /needs Node\.js 22\.13 or later/);
      return true;
    });
    removeDir(dir);
  });
});
