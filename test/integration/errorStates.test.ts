// Error states: the built-in service dying, a remote service that refuses the token (401), rate limits
// (429) and a remote service that is gone. Each gives the right message and nothing crashes.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionState } from '../../src/connection/connection';
import { isAlive, readLock } from '../../src/service/lockFile';
import { startFaultServer, type FaultServer } from '../unit/support/faultServer';
import { extension, messagesDuring, reportsDuring, waitFor } from './support';

const config = () => vscode.workspace.getConfiguration('llmSpaces');

describe('error states', () => {
  let fault: FaultServer | undefined;

  afterEach(async () => {
    await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
    await fault?.close();
    fault = undefined;
    const api = await extension();
    await waitFor(
      async () => (await api.connection.client()) && api.connection.mode === 'local',
      'back on the built-in service',
    );
  });

  it('restarts the built-in service when it dies, and the views say so meanwhile', async () => {
    const api = await extension();
    await api.connection.client();
    const dir = path.join(api.connection.localDataDir);
    const before = readLock(dir)!;
    const states: ConnectionState['kind'][] = [];
    const sub = api.connection.onDidChangeState((s) => states.push(s.kind));
    process.kill(before.pid, 'SIGKILL');
    await waitFor(() => !isAlive(before.pid), 'the service to die');
    await waitFor(async () => {
      const roots = await api.views.spaces.getChildren();
      return roots.length > 0 && api.connection.state.kind === 'ready';
    }, 'the Spaces view to load again');
    sub.dispose();
    const after = readLock(dir)!;
    assert.notEqual(after.pid, before.pid, 'a new service process');
    assert.ok(isAlive(after.pid));
    assert.ok(states.includes('unreachable') || states.includes('connecting'), `states seen: ${states.join(', ')}`);
  });

  it('sends a call again when the connection is renewed under it, and choosing the service in use renews nothing', async () => {
    const api = await extension();
    await api.connection.call((client) => client.listSpaces());
    const states: ConnectionState['kind'][] = [];
    const sub = api.connection.onDidChangeState((s) => states.push(s.kind));
    await config().update('serviceUrl', '', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('llmSpaces.connect', '');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(states.length, 0, `the connection in use was renewed: ${states.join(', ')}`);
    // A renewal (a token stored, another window restarting the service) lands between taking the
    // client and sending: a POST that never went out goes out on the new connection.
    let renewed = false;
    const report = await api.connection.call(async (client) => {
      if (!renewed) {
        renewed = true;
        await api.connection.reset();
      }
      return client.refreshModelServers();
    });
    sub.dispose();
    assert.ok(Array.isArray(report.servers));
    assert.ok(!states.includes('unreachable'), `the states were ${states.join(', ')}`);
  });

  it('a 401 from a remote service signs out and offers Sign In', async () => {
    const api = await extension();
    await api.connection.client();
    const localUrl = api.connection.url!;
    const token = (await api.connection.remoteToken())!;
    fault = await startFaultServer(localUrl);
    await config().update('serviceUrl', fault.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('llmSpaces.signIn', token);
    await waitFor(() => api.connection.mode === 'remote', 'remote mode');
    assert.ok((await api.views.prompts.getChildren()).length > 0, 'works while the token is accepted');
    fault.script.push({
      match: 'POST /v1/prompts',
      kind: 'status',
      status: 401,
      body: { detail: 'Invalid token' },
      headers: { 'www-authenticate': 'Bearer' },
    });
    const reports = await reportsDuring(api, () =>
      vscode.commands.executeCommand('llmSpaces.createPrompt', { title: 'x', description: 'y' }),
    );
    assert.equal(api.connection.state.kind, 'signed-out');
    assert.ok(reports[0]!.actions.includes('Sign In'), JSON.stringify(reports));
    assert.ok(!JSON.stringify(reports).includes(token), 'the token is never in a message');
    await vscode.commands.executeCommand('llmSpaces.signOut');
    assert.equal(await api.connection.remoteToken(), undefined);
    const roots = await api.views.spaces.getChildren();
    assert.deepEqual(roots, []);
    assert.equal(api.connection.state.kind, 'signed-out');
  });

  it('signs out only someone signed in, and says so in each case', async () => {
    const api = await extension();
    await api.connection.client();
    const localToken = await api.connection.remoteToken();
    assert.deepEqual(await messagesDuring(() => vscode.commands.executeCommand('llmSpaces.signOut')), [
      'The built-in service needs no sign-in, so there is nothing to sign out of.',
    ]);
    assert.ok((await api.connection.remoteToken()) === localToken, 'the built-in service keeps its token');
    fault = await startFaultServer(api.connection.url!);
    await config().update('serviceUrl', fault.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('llmSpaces.signIn', localToken);
    assert.deepEqual(await messagesDuring(() => vscode.commands.executeCommand('llmSpaces.signOut')), [
      `Signed out of ${fault.url}.`,
    ]);
    assert.deepEqual(await messagesDuring(() => vscode.commands.executeCommand('llmSpaces.signOut')), [
      `You were not signed in to ${fault.url}.`,
    ]);
  });

  it('a 429 says when to retry, and a vanished remote service offers Retry', async () => {
    const api = await extension();
    await api.connection.client();
    const token = (await api.connection.remoteToken())!;
    fault = await startFaultServer(api.connection.url!);
    await config().update('serviceUrl', fault.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('llmSpaces.signIn', token);
    fault.script.push({
      match: 'POST /v1/prompts',
      kind: 'status',
      status: 429,
      body: { detail: 'Rate limit of 200 requests per minute exceeded' },
      headers: { 'retry-after': '90' },
    });
    const limited = await reportsDuring(api, () =>
      vscode.commands.executeCommand('llmSpaces.createPrompt', { title: 'x', description: 'y' }),
    );
    assert.match(limited[0]!.message, /rate limit is reached\. Try again after/);
    assert.ok(limited[0]!.actions.includes('Retry'));
    await fault.close();
    fault = undefined;
    const gone = await reportsDuring(api, () =>
      vscode.commands.executeCommand('llmSpaces.createPrompt', { title: 'x', description: 'y' }),
    );
    assert.match(gone[0]!.message, /cannot be reached; nothing answers at its address \(a wrong URL/);
    assert.doesNotMatch(gone[0]!.message, /ECONN|UND_ERR|The service could not/);
    assert.ok(gone[0]!.actions.includes('Retry') && gone[0]!.actions.includes('Show Log'));
    assert.equal(api.connection.state.kind, 'unreachable');
    await api.views.prompts.getChildren();
    assert.match(api.views.prompts.view.message ?? '', /cannot be reached/);
  });
});

describe('a remote service with only the endpoints of the interface', () => {
  let fault: FaultServer | undefined;

  after(async () => {
    await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
    await fault?.close();
  });

  it('lets the user add Spaces by id when there is no list endpoint, and remembers them', async () => {
    const api = await extension();
    await api.connection.client();
    const token = (await api.connection.remoteToken())!;
    const spaceId = (
      (await api.views.spaces.getChildren()).find((n) => n.kind === 'space') as { space: { id: string } }
    ).space.id;
    fault = await startFaultServer(api.connection.url!);
    // This service has neither the list of Spaces nor GET /v1/apps/{id}: every such request answers 405.
    const notAllowed = { kind: 'status', status: 405, body: { detail: 'Method Not Allowed' }, sticky: true } as const;
    fault.script.push({ ...notAllowed, match: 'POST /v1/apps/?' }, { ...notAllowed, match: `GET /v1/apps/${spaceId}` });
    await config().update('serviceUrl', fault.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('llmSpaces.signIn', token);
    assert.deepEqual(await api.views.spaces.getChildren(), []);
    assert.ok(api.spaces.listUnavailable);
    fault.seen.length = 0;
    await vscode.commands.executeCommand('llmSpaces.addSpaceById', spaceId);
    // The Space is read with an update that changes nothing, after the refused GET.
    const spaceRequests = fault.seen
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => r.includes(`/v1/apps/${spaceId}`) || r === 'PUT /v1/apps/update');
    assert.deepEqual(spaceRequests.slice(0, 2), [`GET /v1/apps/${spaceId}`, 'PUT /v1/apps/update']);
    const roots = await api.views.spaces.getChildren();
    assert.deepEqual(
      roots.map((n) => (n.kind === 'space' ? n.space.id : '')),
      [spaceId],
    );
  });
});
