// The LLM Spaces tools as a Model Context Protocol server over stdio, for any MCP client (VS Code's
// agents register it through the extension; another agent or editor can run it too):
//   node dist/mcp.js      with LLM_SPACES_URL and LLM_SPACES_TOKEN in the environment
// It talks to the same service with the same token as the extension, and never prints the token:
// stdout carries only the protocol's messages, stderr only what went wrong, in words. The tools and
// the protocol are the official SDK's (tools.ts); the built-in service also serves them at /mcp.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { LlmSpacesClient } from '../api/client';
import { countTokens } from '../service/tokenizer';
import { spacesMcpServer, toolData } from './tools';

function main(): void {
  const url = process.env.LLM_SPACES_URL;
  const token = process.env.LLM_SPACES_TOKEN;
  if (!url || !token) {
    process.stderr.write('LLM Spaces MCP server: set LLM_SPACES_URL and LLM_SPACES_TOKEN.\n');
    process.exit(2);
  }
  const client = new LlmSpacesClient({ baseUrl: url, token: () => token });
  const data = toolData(client, countTokens);
  serveStdio(() => spacesMcpServer(data), {
    onerror: (error) => process.stderr.write(`LLM Spaces MCP server: ${error.message}\n`),
  });
  process.stdin.on('end', () => void client.close().then(() => process.exit(0)));
}

if (require.main === module) main();
