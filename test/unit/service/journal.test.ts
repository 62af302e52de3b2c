// The write-ahead journal: writes land in it and are acknowledged after its fsync; a large journal is
// folded into the image; a last line cut short by a crash is ignored, and nothing after it is lost.
import assert from 'node:assert/strict';
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JOURNAL_FILE, readJournal } from '../../../src/service/journal';
import { removeDir, startService, tempDir } from '../support/service';

describe('service journal', function () {
  this.timeout(60_000);

  it('folds a large journal into the image and keeps every write', async () => {
    process.env.LLM_SPACES_COMPACT_BYTES = '4000';
    try {
      const first = await startService();
      const client = first.client();
      const made: string[] = [];
      for (let i = 0; i < 40; i++) made.push((await client.createPrompt({ prompt: `p${i} `.repeat(20), title: `Journal ${i}`, description: 'compaction' })).id);
      const journal = path.join(first.dataDir, JOURNAL_FILE);
      assert.ok(statSync(journal).size < 4000 + 2000, `the journal was emptied along the way (${statSync(journal).size} bytes)`);
      await first.stop('SIGKILL');
      const second = await startService({ dataDir: first.dataDir, orgs: [], token: first.token });
      const ids = new Set((await second.client().listPrompts('org')).map((p) => p.id));
      assert.deepEqual(made.filter((id) => !ids.has(id)), []);
      await second.stop();
      removeDir(first.dataDir);
    } finally {
      delete process.env.LLM_SPACES_COMPACT_BYTES;
    }
  });

  it('ignores a last line cut short by a crash, and keeps the writes made after it', async () => {
    const first = await startService();
    const before = await first.client().createPrompt({ prompt: 'a', title: 'Before the tear', description: 'torn journal' });
    await first.stop('SIGKILL');
    const journal = path.join(first.dataDir, JOURNAL_FILE);
    appendFileSync(journal, '[999999,[["INSERT INTO prompts (id) VALUES');
    const second = await startService({ dataDir: first.dataDir, orgs: [], token: first.token });
    const after = await second.client().createPrompt({ prompt: 'b', title: 'After the tear', description: 'torn journal' });
    await second.stop('SIGKILL');
    const third = await startService({ dataDir: first.dataDir, orgs: [], token: first.token });
    const titles = (await third.client().listPrompts('org')).map((p) => p.id);
    assert.ok(titles.includes(before.id) && titles.includes(after.id));
    await third.stop();
    removeDir(first.dataDir);
  });

  it('refuses a journal damaged before its last line', () => {
    const dir = tempDir();
    const file = path.join(dir, JOURNAL_FILE);
    writeFileSync(file, '[1,[["DELETE FROM x",{}]]]\nnot json\n[2,[["DELETE FROM y",{}]]]\n');
    assert.throws(() => readJournal(file, 0), /damaged at line 2/);
    writeFileSync(file, '[1,[["DELETE FROM x",{}]]]\n[2,[["DELETE FROM y",{"v":{"$bytes":"AQI="}}]]]\n[3,[["INS');
    const read = readJournal(file, 1);
    assert.equal(read.torn, true);
    assert.deepEqual(read.entries.map((e) => e.seq), [2]);
    assert.deepEqual(read.entries[0]!.statements[0]![1], { v: new Uint8Array([1, 2]) });
    removeDir(dir);
  });
});
