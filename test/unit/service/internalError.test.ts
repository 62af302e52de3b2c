// An unexpected failure inside the service answers 500 {"detail": "Internal server error"}: no stack,
// no message, nothing of the server's internals; the error goes to the service's own log.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { openDataFolder } from '../../../src/service/dataFolder';
import { buildApp } from '../../../src/service/http/app';
import { raw } from '../support/http';
import { removeDir, tempDir } from '../support/service';

describe('service internal errors', () => {
  it('answers 500 without a stack trace when storage fails', async () => {
    const dir = tempDir();
    const db = openDataFolder(dir);
    const logged: unknown[] = [];
    const app = buildApp({
      db,
      engine: { servers: { upstreams: [], discover: false }, streamDelayMs: 0 },
      logError: (e) => logged.push(e),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const original = db.all.bind(db);
    db.all = () => {
      throw new Error('disk on fire at /srv/secret/path');
    };
    try {
      const res = await raw(url, 'GET', '/v1/orgs/self', { token: 'lls_anything' });
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, { detail: 'Internal server error' });
      assert.ok(!res.text.includes('secret') && !res.text.includes('at '), 'no internals in the answer');
      assert.equal(logged.length, 1, 'the failure is logged by the service');
    } finally {
      db.all = original;
      await app.close();
      await db.close();
      removeDir(dir);
    }
  });
});
