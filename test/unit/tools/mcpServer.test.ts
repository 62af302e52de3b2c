// The bundled MCP server over stdio against the real service: the handshake, tools/list with the same
// tools and schemas as VS Code's, tools/call of each, and no token in anything it prints.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { TOOL_SPECS } from '../../../src/tools/spaceTools';
import { removeDir, SERVICE, startService, type RunningService } from '../support/service';

const MCP = path.join(path.dirname(SERVICE), 'mcp.js');

describe('MCP server (stdio)', function () {
  this.timeout(30_000);
  let service: RunningService;
  let server: ChildProcessWithoutNullStreams;
  let printed = '';
  const waiting = new Map<
    number,
    (message: { result?: Record<string, unknown>; error?: { message: string } }) => void
  >();
  let nextId = 1;
  const rpc = (method: string, params?: unknown) =>
    new Promise<{ result?: Record<string, unknown>; error?: { message: string } }>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const text = (answer: { result?: Record<string, unknown> }) =>
    (answer.result!.content as Array<{ text: string }>)[0]!.text;

  before(async () => {
    service = await startService();
    await service.client().createSpace({ name: 'Agent Space' });
    server = spawn(process.execPath, [MCP], {
      env: { ...process.env, LLM_SPACES_URL: service.url, LLM_SPACES_TOKEN: service.token },
    });
    server.stderr.on('data', (d: Buffer) => (printed += d.toString()));
    createInterface({ input: server.stdout }).on('line', (line) => {
      printed += `${line}\n`;
      const message = JSON.parse(line) as { id: number; result?: Record<string, unknown>; error?: { message: string } };
      waiting.get(message.id)?.(message);
    });
  });
  after(async () => {
    server.stdin.end();
    await service.stop();
    removeDir(service.dataDir);
    assert.ok(!printed.includes(service.token), 'the token is never printed');
  });

  it('answers the handshake and lists the tools with the schemas VS Code gets', async () => {
    const init = await rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
    });
    assert.equal((init.result!.serverInfo as { name: string }).name, 'llm-spaces');
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const list = await rpc('tools/list');
    const tools = list.result!.tools as Array<{ name: string; inputSchema: unknown }>;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['llmSpaces_estimateCost', 'llmSpaces_explainRoute', 'llmSpaces_findModels', 'llmSpaces_checkBudget'],
    );
    for (const tool of tools)
      assert.deepEqual(tool.inputSchema, TOOL_SPECS.find((s) => s.name === tool.name)!.inputSchema);
  });

  it('calls each tool against the service', async () => {
    const found = text(
      await rpc('tools/call', {
        name: 'llmSpaces_findModels',
        arguments: { capabilities: ['vision'], maxInputPrice: 1, limit: 3 },
      }),
    );
    assert.match(found, /cheapest first/);
    const vision = new Set(
      (await service.client().listModels()).filter((m) => m.supports_vision).map((m) => m.namespace),
    );
    for (const line of found.split('\n').slice(1)) assert.ok(vision.has(line.slice(2, line.indexOf(':'))), line);
    assert.match(
      text(await rpc('tools/call', { name: 'llmSpaces_checkBudget', arguments: {} })),
      /has spent \$[0-9.]+ this billing cycle/,
    );
    const cost = text(
      await rpc('tools/call', {
        name: 'llmSpaces_estimateCost',
        arguments: { space: 'agent space', prompt: 'Summarize this file.', maxTokens: 200 },
      }),
    );
    assert.match(
      cost,
      /minimum \$[0-9.e-]+ \(.+\), expected \$[0-9.e-]+ \(.+, the model the Space picks for this prompt now\), maximum/,
    );
    const route = text(
      await rpc('tools/call', { name: 'llmSpaces_explainRoute', arguments: { space: 'Agent Space', prompt: 'hi' } }),
    );
    assert.match(route, /It would pick \S+: the best score/);
  });

  it('tells the model what was wrong with its input, and refuses an unknown tool or method', async () => {
    const missing = await rpc('tools/call', { name: 'llmSpaces_estimateCost', arguments: { space: 'Agent Space' } });
    assert.equal(missing.result!.isError, true);
    assert.match(text(missing), /"prompt" is required/);
    const nowhere = await rpc('tools/call', {
      name: 'llmSpaces_estimateCost',
      arguments: { space: 'No such Space', prompt: 'x' },
    });
    assert.match(text(nowhere), /There is no Space "No such Space"/);
    assert.equal(
      (await rpc('tools/call', { name: 'llmSpaces_useSpace', arguments: { space: 'x' } })).result!.isError,
      true,
      'switching the chat is for VS Code only',
    );
    assert.match((await rpc('resources/list')).error!.message, /Unknown method/);
  });
});

describe('language model tools in package.json', () => {
  it('are the tools of spaceTools.ts, with the same names, descriptions and schemas', () => {
    const pkg = JSON.parse(readFileSync(path.join(path.dirname(SERVICE), '..', 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<Record<string, unknown>> };
    };
    const contributed = pkg.contributes.languageModelTools.map(
      ({ name, toolReferenceName, displayName, userDescription, modelDescription, inputSchema }) => ({
        name,
        toolReferenceName,
        displayName,
        userDescription,
        modelDescription,
        inputSchema,
      }),
    );
    assert.deepEqual(
      contributed,
      TOOL_SPECS.map(({ name, toolReferenceName, displayName, userDescription, modelDescription, inputSchema }) => ({
        name,
        toolReferenceName,
        displayName,
        userDescription,
        modelDescription,
        inputSchema,
      })),
    );
  });
});
