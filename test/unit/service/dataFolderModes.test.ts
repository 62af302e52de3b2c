// The data folder holds every prompt and reply: only its user may read it. A new folder is 0700 and
// what the service writes there 0600; a folder an earlier version left readable by all is closed on start.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeDir, startService, tempDir } from '../support/service';

const mode = (file: string) => statSync(file).mode & 0o777;

describe("the data folder's permissions", function () {
  this.timeout(30_000);

  it('makes a new folder 0700 and its files 0600', async () => {
    const dir = path.join(tempDir(), 'fresh');
    const service = await startService({ dataDir: dir });
    await service.client().createPrompt({ prompt: 'p', title: 'written', description: 'd' });
    try {
      assert.equal(mode(dir).toString(8), '700');
      const files = readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile());
      assert.ok(
        files.some((f) => f.endsWith('.sqlite')),
        files.join(),
      );
      for (const file of files) assert.equal(mode(path.join(dir, file)).toString(8), '600', file);
    } finally {
      await service.stop();
      removeDir(path.dirname(dir));
    }
  });

  it('closes a folder an earlier version left readable by every user of the machine', async () => {
    const dir = tempDir();
    const first = await startService({ dataDir: dir });
    await first.stop();
    chmodSync(dir, 0o755);
    for (const file of readdirSync(dir)) chmodSync(path.join(dir, file), 0o644);
    mkdirSync(path.join(dir, 'kept'), { recursive: true });
    writeFileSync(path.join(dir, 'notes.txt'), 'left by someone');
    chmodSync(path.join(dir, 'notes.txt'), 0o644);
    const second = await startService({ dataDir: dir, orgs: [], token: first.token });
    try {
      assert.equal(mode(dir).toString(8), '700');
      for (const file of readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile()))
        assert.equal(mode(path.join(dir, file)).toString(8), '600', file);
    } finally {
      await second.stop();
      removeDir(dir);
    }
  });
});
