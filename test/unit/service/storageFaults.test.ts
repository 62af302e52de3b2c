// Real storage faults, not mocks: a small tmpfs filled until writes fail, then freed; the data folder
// mounted read-only under a stopped service, started on, then made writable under the running one; a
// WAL torn in the middle of a transaction. Each checks what was acknowledged against what is there
// after a restart, and that a refused write is never visible. Mounting needs root (CI runs as root);
// elsewhere these tests are skipped with the reason printed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { raw } from '../support/http';
import { cannotMount, fill, mountTmpfs, unmount } from '../support/faults';
import { startService, type RunningService } from '../support/service';

const BIG = 'x'.repeat(150_000);

async function create(service: RunningService, title: string, prompt = BIG) {
  return raw(service.url, 'POST', '/v1/prompts', {
    token: service.token,
    body: { prompt, title, description: 'fault test' },
  });
}

async function titles(service: RunningService): Promise<Set<string>> {
  const res = await raw(service.url, 'GET', '/v1/prompts?show=org', { token: service.token });
  assert.equal(res.status, 200, `reads keep working: ${res.text}`);
  return new Set((res.json as Array<{ title: string }>).map((p) => p.title));
}

describe('service storage under real faults', function () {
  this.timeout(120_000);
  let reason: string | undefined;

  before(() => {
    reason = cannotMount();
    if (reason) console.log(`      (skipping the mount tests: ${reason})`);
  });

  it('a full disk: writes are refused with 503 "the disk is full", nothing of them is visible, and all comes back once there is room', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(6 * 1024);
    try {
      const service = await startService({ dataDir: dir });
      const acknowledged: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await create(service, `before-${i}`);
        assert.equal(res.status, 200, res.text);
        acknowledged.push(`before-${i}`);
      }
      const fillers = fill(dir);
      const refused: string[] = [];
      let detail = '';
      for (let i = 0; i < 40 && refused.length === 0; i++) {
        const res = await create(service, `full-${i}`);
        if (res.status === 200) acknowledged.push(`full-${i}`);
        else {
          assert.equal(res.status, 503, res.text);
          detail = (res.json as { detail: string }).detail;
          refused.push(`full-${i}`);
        }
      }
      assert.ok(refused.length > 0, 'the full disk refused a write');
      assert.match(detail, /the disk is full/);
      let seen = await titles(service);
      assert.deepEqual(
        refused.filter((t) => seen.has(t)),
        [],
        'a refused write is not visible',
      );
      assert.deepEqual(
        acknowledged.filter((t) => !seen.has(t)),
        [],
        'acknowledged writes are readable',
      );

      for (const f of fillers) rmSync(f);
      const after = await create(service, 'after-freeing');
      assert.equal(after.status, 200, `writes work again once there is room: ${after.text}`);
      acknowledged.push('after-freeing');

      await service.stop('SIGKILL');
      const restarted = await startService({ dataDir: dir, orgs: [], token: service.token });
      seen = await titles(restarted);
      assert.deepEqual(
        acknowledged.filter((t) => !seen.has(t)),
        [],
        'every acknowledged write survives the restart',
      );
      assert.deepEqual(
        refused.filter((t) => seen.has(t)),
        [],
        'no refused write appears after the restart',
      );
      await restarted.stop();
    } finally {
      unmount(dir);
    }
  });

  it('a full disk: a chat whose log entry cannot be written is refused with 503, and neither its log row nor its conversation is visible', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(6 * 1024);
    try {
      const service = await startService({ dataDir: dir });
      const space = await service.client().createSpace({ name: 'Full disk' });
      const acknowledged: string[] = [];
      const refused: string[] = [];
      const chat = async (conversation: string) => {
        const res = await raw(service.url, 'POST', '/v1/playground/chat', {
          token: service.token,
          body: { app_id: space.id, model: 'test/echo', prompt: BIG, conversation_id: conversation },
        });
        if (res.status === 200) acknowledged.push(conversation);
        else {
          assert.equal(res.status, 503, res.text);
          assert.match((res.json as { detail: string }).detail, /the disk is full/);
          refused.push(conversation);
        }
        return res.status;
      };
      assert.equal(await chat(randomUUID()), 200);
      const fillers = fill(dir);
      for (let i = 0; i < 40 && refused.length === 0; i++) await chat(randomUUID());
      assert.ok(refused.length > 0, 'the full disk refused a chat');
      const logged = async (target: RunningService, conversation: string) => {
        const res = await raw(target.url, 'POST', `/v1/apps/${space.id}/conversations/${conversation}`, {
          token: target.token,
          body: { include_requests: true },
        });
        return res.status === 200 ? ((res.json as { requests?: unknown[] }).requests?.length ?? 0) : 0;
      };
      for (const c of refused) assert.equal(await logged(service, c), 0, 'a refused chat is not visible');
      for (const c of acknowledged) assert.equal(await logged(service, c), 1, 'an answered chat is logged');

      for (const f of fillers) rmSync(f);
      assert.equal(await chat(randomUUID()), 200, 'chats work again once there is room');
      await service.stop('SIGKILL');
      const restarted = await startService({ dataDir: dir, orgs: [], token: service.token });
      for (const c of acknowledged) assert.equal(await logged(restarted, c), 1, 'an answered chat survives the kill');
      for (const c of refused) assert.equal(await logged(restarted, c), 0, 'no refused chat appears after the restart');
      await restarted.stop();
    } finally {
      unmount(dir);
    }
  });

  it('a full disk: a Responses answer whose items cannot be kept is still given and logged, and a later reference to it is refused in words', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(6 * 1024);
    try {
      const service = await startService({ dataDir: dir });
      const space = await service.client().createSpace({ name: 'Kept answers' });
      const respond = (body: Record<string, unknown>) =>
        raw(service.url, 'POST', '/v1/responses', { token: space.created_key!, body: { model: 'test/echo', ...body } });
      const requests = async () =>
        ((await raw(service.url, 'GET', '/v1/orgs/self', { token: service.token })).json as { num_requests: number })
          .num_requests;
      // The log entry names only the last question; what the Space keeps is the whole input: an earlier
      // turn larger than the room left on the disk.
      const input = [
        { role: 'assistant', content: 'x'.repeat(1_500_000) },
        { role: 'user', content: 'And the answer?' },
      ];
      const kept = await respond({ input });
      assert.equal(kept.status, 200, kept.text);
      const fillers = fill(dir);
      // Room for the log entry, none for the kept input.
      const largest = fillers.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));
      truncateSync(largest, statSync(largest).size - 256 * 1024);
      const before = await requests();
      const answered = await respond({ input });
      assert.equal(answered.status, 200, `the answer is given: ${answered.text}`);
      assert.equal(await requests(), before + 1, 'and logged');
      assert.match(service.output(), /the disk is full/, 'the service says why it kept nothing');
      const { id, output } = answered.json as { id: string; output: Array<{ id: string }> };
      const referenced = await respond({ input: [{ type: 'item_reference', id: output[0]!.id }] });
      assert.equal(referenced.status, 422, referenced.text);
      assert.match(referenced.text, /an item this Space does not keep/);
      const continuing = await respond({ previous_response_id: id, input: 'Go on.' });
      assert.equal(continuing.status, 422, continuing.text);
      assert.match(continuing.text, /a response this Space does not keep/);

      for (const f of fillers) rmSync(f);
      const first = (kept.json as { output: Array<{ id: string }> }).output[0]!.id;
      const again = await respond({ input: [{ type: 'item_reference', id: first }] });
      assert.equal(again.status, 200, `what was kept before the disk filled is still kept: ${again.text}`);
      await service.stop();
    } finally {
      unmount(dir);
    }
  });

  it('a full disk: a Responses answer whose turn cannot be added to its conversation is refused with 503, and the conversation holds nothing of it', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(6 * 1024);
    try {
      const service = await startService({ dataDir: dir });
      const token = (await service.client().createSpace({ name: 'Conversations' })).created_key!;
      const conversation = (await raw(service.url, 'POST', '/v1/conversations', { token, body: {} })).json as {
        id: string;
      };
      const respond = (input: unknown[]) =>
        raw(service.url, 'POST', '/v1/responses', {
          token,
          body: { model: 'test/echo', conversation: conversation.id, input },
        });
      const items = async () =>
        (
          (await raw(service.url, 'GET', `/v1/conversations/${conversation.id}/items?limit=100`, { token })).json as {
            data: unknown[];
          }
        ).data.length;
      assert.equal((await respond([{ role: 'user', content: 'First.' }])).status, 200);
      assert.equal(await items(), 2);
      const fillers = fill(dir);
      // Room for the log entry (it names the last question only), none for the turn's large earlier item.
      const largest = fillers.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));
      truncateSync(largest, statSync(largest).size - 256 * 1024);
      const refused = await respond([
        { role: 'assistant', content: 'x'.repeat(1_500_000) },
        { role: 'user', content: 'And the answer?' },
      ]);
      assert.equal(refused.status, 503, refused.text);
      assert.match(refused.text, /disk is full/);
      assert.equal(await items(), 2, 'nothing of the refused turn is in the conversation');

      for (const f of fillers) rmSync(f);
      assert.equal((await respond([{ role: 'user', content: 'Again.' }])).status, 200);
      assert.equal(await items(), 4);
      await service.stop();
    } finally {
      unmount(dir);
    }
  });

  it('a full disk: a background response that cannot be kept is refused with 503 before it runs, and nothing of it is logged', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(6 * 1024);
    try {
      const service = await startService({ dataDir: dir });
      const token = (await service.client().createSpace({ name: 'Background' })).created_key!;
      const respond = () =>
        raw(service.url, 'POST', '/v1/responses', {
          token,
          body: { model: 'test/echo', input: 'Later.', background: true },
        });
      const requests = async () =>
        ((await raw(service.url, 'GET', '/v1/orgs/self', { token: service.token })).json as { num_requests: number })
          .num_requests;
      const fillers = fill(dir);
      const before = await requests();
      const refused = await respond();
      assert.equal(refused.status, 503, refused.text);
      assert.match(refused.text, /disk is full/);
      for (const f of fillers) rmSync(f);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await requests(), before, 'it never ran: nothing was logged or billed');

      const accepted = await respond();
      assert.equal(accepted.status, 200, accepted.text);
      const { id } = accepted.json as { id: string };
      const read = await raw(service.url, 'GET', `/v1/responses/${id}`, { token });
      assert.equal(read.status, 200, `acknowledged, it can be read back: ${read.text}`);
      await service.stop();
    } finally {
      unmount(dir);
    }
  });

  it('a full disk at start: the service starts, answers reads, and refuses writes in words', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(6 * 1024);
    try {
      const first = await startService({ dataDir: dir });
      assert.equal((await create(first, 'kept', 'small')).status, 200);
      await first.stop('SIGKILL');
      const fillers = fill(dir);
      const second = await startService({ dataDir: dir, orgs: [], token: first.token });
      assert.ok((await titles(second)).has('kept'));
      const refused = await create(second, 'refused');
      assert.equal(refused.status, 503, refused.text);
      assert.match((refused.json as { detail: string }).detail, /the disk is full/);
      for (const f of fillers) rmSync(f);
      assert.equal((await create(second, 'later', 'small')).status, 200);
      const seen = await titles(second);
      assert.ok(seen.has('later') && !seen.has('refused'));
      await second.stop();
    } finally {
      unmount(dir);
    }
  });

  it('a data folder made read-only after a clean stop opens for reading, and says in words why writes are refused', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(8 * 1024);
    try {
      const first = await startService({ dataDir: dir });
      for (let i = 0; i < 3; i++) assert.equal((await create(first, `clean-${i}`, 'small')).status, 200);
      assert.equal(await first.stop('SIGTERM'), 0, 'a clean stop');
      execFileSync('mount', ['-o', 'remount,ro', dir]);
      const second = await startService({ dataDir: dir, orgs: [], token: first.token });
      const seen = await titles(second);
      assert.ok(
        ['clean-0', 'clean-1', 'clean-2'].every((t) => seen.has(t)),
        [...seen].join(),
      );
      const refused = await create(second, 'refused', 'small');
      assert.equal(refused.status, 503, refused.text);
      assert.match((refused.json as { detail: string }).detail, /read-only/);
      await second.stop('SIGKILL');
    } finally {
      unmount(dir);
    }
  });

  it('a read-only data folder: the service starts and answers reads, refuses writes in words, and writes once the folder is writable again', async function () {
    if (reason) this.skip();
    const dir = mountTmpfs(8 * 1024);
    try {
      const first = await startService({ dataDir: dir });
      for (let i = 0; i < 3; i++) assert.equal((await create(first, `kept-${i}`, 'small')).status, 200);
      await first.stop('SIGKILL');
      execFileSync('mount', ['-o', 'remount,ro', dir]);
      const second = await startService({ dataDir: dir, orgs: [], token: first.token });
      const seen = await titles(second);
      assert.ok(['kept-0', 'kept-1', 'kept-2'].every((t) => seen.has(t)));
      const refused = await create(second, 'refused', 'small');
      assert.equal(refused.status, 503, refused.text);
      assert.match((refused.json as { detail: string }).detail, /read-only/);
      execFileSync('mount', ['-o', 'remount,rw', dir]);
      const later = await create(second, 'later', 'small');
      assert.equal(later.status, 200, `writes work once the folder is writable: ${later.text}`);
      await second.stop('SIGKILL');
      const third = await startService({ dataDir: dir, orgs: [], token: first.token });
      const after = await titles(third);
      assert.ok(after.has('later') && after.has('kept-2') && !after.has('refused'));
      await third.stop();
    } finally {
      unmount(dir);
    }
  });
});

describe('service storage after a crash', function () {
  this.timeout(60_000);

  it('a WAL torn in the middle of a transaction: the start succeeds with every earlier commit and nothing of the torn one', async () => {
    const service = await startService();
    const wal = path.join(service.dataDir, 'llm-spaces.sqlite-wal');
    for (let i = 0; i < 5; i++) assert.equal((await create(service, `committed-${i}`, 'y'.repeat(5000))).status, 200);
    const before = statSync(wal).size;
    assert.equal((await create(service, 'torn', 'z'.repeat(40_000))).status, 200);
    const after = statSync(wal).size;
    assert.ok(after > before + 8192, `the last transaction spans several WAL frames (${before} → ${after})`);
    await service.stop('SIGKILL');
    // As if the machine had lost power halfway through writing the last transaction's frames.
    truncateSync(wal, before + Math.floor((after - before) / 2));
    const restarted = await startService({ dataDir: service.dataDir, orgs: [], token: service.token });
    const seen = await titles(restarted);
    assert.ok(
      [0, 1, 2, 3, 4].every((i) => seen.has(`committed-${i}`)),
      'every commit before the torn one',
    );
    assert.ok(!seen.has('torn'), 'nothing of the torn transaction');
    assert.equal((await create(restarted, 'after', 'small')).status, 200);
    await restarted.stop();
    assert.deepEqual(
      readdirSync(service.dataDir).filter((f) => f.endsWith('.tmp')),
      [],
    );
    rmSync(service.dataDir, { recursive: true, force: true });
  });
});
