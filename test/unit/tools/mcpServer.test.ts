// The LLM Spaces MCP server against the real service, driven by the official MCP client SDK
// (@modelcontextprotocol/client): over stdio (dist/mcp.js) and over Streamable HTTP (the built-in
// service's /mcp), with the 2025 handshake (`initialize`, what most clients speak today) and with the
// per-request protocol of 2026-07-28. Each: the tools with their schemas and read-only marks, a call of
// each tool with its structured content, bad arguments refused by their bounds; over HTTP, no token no
// tools; and nowhere the token in what the server prints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TOOL_SPECS } from '../../../src/tools/spaceTools';
import { removeDir, SERVICE, startService, type RunningService } from '../support/service';

const MCP = path.join(path.dirname(SERVICE), 'mcp.js');
const MCP_TOOLS = ['llmSpaces_estimateCost', 'llmSpaces_explainRoute', 'llmSpaces_findModels', 'llmSpaces_checkBudget'];

describe('MCP server (official client SDK)', function () {
  this.timeout(60_000);
  let service: RunningService;
  let printed = '';

  before(async () => {
    service = await startService();
    await service.client().createSpace({ name: 'Agent Space' });
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    assert.ok(!printed.includes(service.token), 'the token is never printed');
    assert.ok(!service.output().includes(service.token), 'the service never logs the token');
  });

  const transports: Record<string, () => Transport> = {
    stdio: () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MCP],
        env: {
          ...(process.env as Record<string, string>),
          LLM_SPACES_URL: service.url,
          LLM_SPACES_TOKEN: service.token,
        },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (d: Buffer) => (printed += d.toString()));
      return transport;
    },
    'Streamable HTTP': () =>
      new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${service.token}` } },
      }),
  };

  for (const [way, transport] of Object.entries(transports))
    for (const era of ['legacy', 'auto'] as const)
      describe(`over ${way}, ${era === 'legacy' ? 'with the 2025 handshake' : 'with the 2026-07-28 protocol'}`, () => {
        let client: Client;
        before(async () => {
          client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: era } });
          await client.connect(transport());
        });
        after(() => client.close());

        it('lists the four tools with the schemas VS Code gets, an output schema, and marked read-only', async () => {
          assert.equal(client.getServerVersion()?.name, 'llm-spaces');
          const { tools } = await client.listTools();
          assert.deepEqual(
            tools.map((t) => t.name),
            MCP_TOOLS,
          );
          for (const tool of tools) {
            const spec = TOOL_SPECS.find((s) => s.name === tool.name)!;
            assert.deepEqual(tool.inputSchema.properties ?? {}, spec.inputSchema.properties, tool.name);
            assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
            assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
          }
        });

        it('calls each tool against the service, in sentences and as structured content', async () => {
          const found = await client.callTool({
            name: 'llmSpaces_findModels',
            arguments: { capabilities: ['vision'], maxInputPrice: 1, limit: 3 },
          });
          assert.notEqual(found.isError, true);
          const models = (found.structuredContent as { models: Array<{ model: string; capabilities: string[] }> })
            .models;
          assert.ok(models.length > 0 && models.length <= 3, String(models.length));
          const vision = new Set(
            (await service.client().listModels()).filter((m) => m.supports_vision).map((m) => m.namespace),
          );
          for (const m of models) assert.ok(vision.has(m.model) && m.capabilities.includes('vision'), m.model);
          assert.match((found.content as Array<{ text: string }>)[0]!.text, /cheapest first/);

          const budget = await client.callTool({ name: 'llmSpaces_checkBudget', arguments: {} });
          assert.equal((budget.structuredContent as { shared: boolean }).shared, true);
          assert.match((budget.content as Array<{ text: string }>)[0]!.text, /has spent \$[0-9.]+ this billing cycle/);

          const cost = await client.callTool({
            name: 'llmSpaces_estimateCost',
            arguments: { space: 'agent space', prompt: 'Summarize this file.', maxTokens: 200 },
          });
          const band = cost.structuredContent as { space: string; maxTokens: number; minimum: { cost: number } };
          assert.equal(band.space, 'Agent Space');
          assert.equal(band.maxTokens, 200);
          assert.ok(band.minimum.cost >= 0);

          const route = await client.callTool({
            name: 'llmSpaces_explainRoute',
            arguments: { space: 'Agent Space', prompt: 'hi' },
          });
          const chosen = (route.structuredContent as { chosen: string | null }).chosen;
          assert.ok(chosen, 'a model is chosen');
          assert.match((route.content as Array<{ text: string }>)[0]!.text, new RegExp(`It would pick ${chosen}`));
        });

        it('refuses arguments out of their bounds or of the wrong type, and says which', async () => {
          for (const [name, args, words] of [
            ['llmSpaces_findModels', { maxInputPrice: -1 }, /maxInputPrice/],
            ['llmSpaces_findModels', { limit: 0 }, /limit/],
            ['llmSpaces_estimateCost', { prompt: 3 }, /prompt/],
            ['llmSpaces_estimateCost', { space: 'Agent Space' }, /prompt/],
          ] as const) {
            const answer = await client.callTool({ name, arguments: args }).catch((error: Error) => ({
              isError: true,
              content: [{ type: 'text', text: error.message }],
            }));
            assert.equal(answer.isError, true, `${name} ${JSON.stringify(args)}`);
            assert.match((answer.content as Array<{ text: string }>)[0]!.text, words);
          }
          const nowhere = await client.callTool({
            name: 'llmSpaces_estimateCost',
            arguments: { space: 'No such Space', prompt: 'x' },
          });
          assert.equal(nowhere.isError, true);
          assert.match((nowhere.content as Array<{ text: string }>)[0]!.text, /There is no Space "No such Space"/);
          await assert.rejects(
            client.callTool({ name: 'llmSpaces_useSpace', arguments: { space: 'x' } }).then((r) => {
              if (r.isError) throw new Error('refused');
            }),
            'switching the chat is for VS Code only',
          );
        });
      });

  it('refuses /mcp without a token, and a page of another origin', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await assert.rejects(
      client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`))),
      /Not authenticated/,
    );
    const foreign = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${service.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'https://evil.example',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
      }),
    });
    assert.equal(foreign.status, 403);
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
