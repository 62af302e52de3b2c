// Who holds a data folder, and which windows use its service: a pid names a process only with when
// that process started, since a pid left in a file is soon another process's.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { processStart, psStart, stillRuns } from '../../../src/service/lockFile';

const exited = (child: ReturnType<typeof spawn>) => new Promise((resolve) => child.once('exit', resolve));

describe('the owner of a lock or a lease', () => {
  it('is told by its pid and its start: the same process always, another process never', async () => {
    const own = processStart(process.pid);
    assert.ok(own, 'this system says when a process started');
    assert.equal(processStart(process.pid), own);
    const other = spawn('sleep', ['30']);
    try {
      const theirs = processStart(other.pid!);
      assert.ok(theirs && theirs !== own);
      assert.ok(stillRuns({ pid: other.pid!, since: theirs }));
      assert.ok(!stillRuns({ pid: other.pid!, since: own }), 'a pid given to another process since');
      assert.ok(stillRuns({ pid: other.pid! }), 'a lock written before starts were recorded: the pid alone');
    } finally {
      other.kill();
      await exited(other);
    }
    assert.equal(processStart(other.pid!), undefined);
    assert.ok(!stillRuns({ pid: other.pid!, since: own }));
    assert.ok(!stillRuns({ pid: other.pid! }));
  });

  it('as ps says it (macOS): the same whatever the time zone and the language of the one who asks', () => {
    const saved = { TZ: process.env.TZ, LC_ALL: process.env.LC_ALL };
    try {
      process.env.TZ = 'UTC';
      process.env.LC_ALL = 'C';
      const first = psStart(process.pid);
      assert.match(first ?? '', /\d\d:\d\d:\d\d/);
      process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: the hour would differ
      process.env.LC_ALL = 'de_DE.UTF-8';
      assert.equal(psStart(process.pid), first);
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });
});
