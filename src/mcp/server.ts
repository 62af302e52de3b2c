// The LLM Spaces tools as a Model Context Protocol server over stdio, for any MCP client (VS Code's
// agents register it through the extension; another agent or editor can run it too):
//   node dist/mcp.js      with LLM_SPACES_URL and LLM_SPACES_TOKEN in the environment
// It talks to the same service with the same token as the extension, and never prints the token:
// stdout carries only JSON-RPC messages, stderr only what went wrong, in words.
import { createInterface } from 'node:readline';
import { LlmSpacesClient } from '../api/client';
import { isMissingEndpoint } from '../api/errors';
import type { Space } from '../api/schemas';
import { countTokens } from '../service/tokenizer';
import {
  ToolInputError,
  TOOL_SPECS,
  checkBudget,
  estimateCost,
  explainRoute,
  findModels,
  type ToolData,
} from '../tools/spaceTools';

const VERSION = '0.2.0';
/** The protocol revision this server speaks; a client asking for another gets this one (the spec's rule). */
const PROTOCOL = '2025-06-18';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Request {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown>;
}

/** Switching the chat's Space only means something inside VS Code; the other four tools are offered. */
const TOOLS = TOOL_SPECS.filter((s) => s.name !== 'llmSpaces_useSpace');

function toolData(client: LlmSpacesClient): ToolData {
  const unlessMissing = async <T>(call: Promise<T>): Promise<T | undefined> => {
    try {
      return await call;
    } catch (error) {
      if (isMissingEndpoint(error)) return undefined;
      throw error;
    }
  };
  return {
    spaces: async () => {
      const all: Space[] = [];
      for (let page = 1; ; page++) {
        const list = await client.listSpaces({ page, size: 100 });
        all.push(...list.items);
        if (page >= list.pages || list.items.length === 0) return all;
      }
    },
    detail: (id) => client.getSpace(id),
    models: () => client.listModels(),
    organization: () => unlessMissing(client.getOrganization()),
    route: (id, prompt, maxTokens) => unlessMissing(client.previewRoute(id, { prompt, max_tokens: maxTokens })),
    countTokens,
  };
}

export async function call(
  data: ToolData,
  name: string,
  args: unknown,
): Promise<{ content: Array<{ type: 'text'; text: string }>; isError: boolean }> {
  const answers: Record<string, () => Promise<string>> = {
    llmSpaces_estimateCost: () => estimateCost(data, args),
    llmSpaces_explainRoute: () => explainRoute(data, args),
    llmSpaces_findModels: () => findModels(data, args),
    llmSpaces_checkBudget: () => checkBudget(data),
  };
  const answer = answers[name];
  if (!answer) return { content: [{ type: 'text', text: `There is no tool "${name}".` }], isError: true };
  try {
    return { content: [{ type: 'text', text: await answer() }], isError: false };
  } catch (error) {
    const text = error instanceof ToolInputError ? error.message : `The tool failed: ${(error as Error).message}`;
    return { content: [{ type: 'text', text }], isError: true };
  }
}

async function handle(data: ToolData, request: Request): Promise<Json | undefined> {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: PROTOCOL,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'llm-spaces', title: 'LLM Spaces', version: VERSION },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return {
        tools: TOOLS.map((s) => ({
          name: s.name,
          title: s.displayName,
          description: s.modelDescription,
          inputSchema: s.inputSchema as unknown as Json,
        })),
      };
    case 'tools/call': {
      const params = request.params ?? {};
      return (await call(data, String(params.name), params.arguments ?? {})) as unknown as Json;
    }
    default:
      throw Object.assign(new Error(`Unknown method ${request.method}`), { code: -32601 });
  }
}

function main(): void {
  const url = process.env.LLM_SPACES_URL;
  const token = process.env.LLM_SPACES_TOKEN;
  if (!url || !token) {
    process.stderr.write('LLM Spaces MCP server: set LLM_SPACES_URL and LLM_SPACES_TOKEN.\n');
    process.exit(2);
  }
  const client = new LlmSpacesClient({ baseUrl: url, token: () => token });
  const data = toolData(client);
  const send = (message: Json) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let request: Request;
    try {
      request = JSON.parse(line) as Request;
    } catch {
      return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const reply = request.id !== undefined && request.id !== null;
    handle(data, request).then(
      (result) => reply && send({ jsonrpc: '2.0', id: request.id!, result: result ?? {} }),
      (error: Error & { code?: number }) => {
        // Messages of the client's typed errors never carry the token (the transport scrubs it).
        if (reply)
          send({ jsonrpc: '2.0', id: request.id!, error: { code: error.code ?? -32603, message: error.message } });
      },
    );
  });
  lines.on('close', () => void client.close().then(() => process.exit(0)));
}

if (require.main === module) main();
