// The MCP server the extension gives VS Code: its definition resolves (the bundled server on VS Code's
// own Node.js, the service's URL and token in its environment only, never on its command line), and
// started as VS Code starts it, the official MCP client lists its tools and a tool call answers from
// the extension's service.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SpacesMcpServers } from '../../src/mcp/definitionProvider';
import { EXTENSION_ID, extension } from './support';

describe("the MCP server VS Code's agents get", function () {
  this.timeout(60_000);

  it('resolves with the token in its environment only, and answers a tool call', async () => {
    const api = await extension();
    await api.connection.client();
    const servers = new SpacesMcpServers(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, api.connection);
    try {
      const [offered] = servers.provideMcpServerDefinitions();
      assert.equal(offered!.label, 'LLM Spaces');
      const resolved = await servers.resolveMcpServerDefinition(offered!);
      const token = await api.connection.remoteToken();
      assert.ok(token, 'signed in to the built-in service');
      assert.equal(resolved.env.LLM_SPACES_TOKEN, token);
      assert.equal(resolved.env.LLM_SPACES_URL, api.connection.url);
      assert.ok(!resolved.args.some((a) => a.includes(token!)), 'the token is not on the command line');

      const client = new Client({ name: 'vscode-test', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: resolved.command,
          args: resolved.args,
          env: Object.fromEntries(
            Object.entries({ ...process.env, ...resolved.env }).filter(
              (entry): entry is [string, string] => typeof entry[1] === 'string',
            ),
          ),
          stderr: 'pipe',
        }),
      );
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'llmSpaces_checkBudget'));
        const budget = await client.callTool({ name: 'llmSpaces_checkBudget', arguments: {} });
        assert.notEqual(budget.isError, true, JSON.stringify(budget.content));
        assert.match((budget.content as Array<{ text: string }>)[0]!.text, /has spent \$[0-9.]+ this billing cycle/);
      } finally {
        await client.close();
      }
    } finally {
      servers.dispose();
    }
  });
});
