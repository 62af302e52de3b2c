// The LLM Spaces tools as a Model Context Protocol server, on the official TypeScript SDK: one
// factory serves both the stdio server (server.ts) and the built-in service's /mcp over Streamable
// HTTP (service/http/mcpRoute.ts), for clients of the 2025 handshake (`initialize`) and of the
// per-request protocol alike. Each tool declares its input and output schemas (the SDK checks the
// input, bounds included, before the tool runs), answers in sentences and as structured content, and
// is marked read-only: none changes anything.
import { McpServer, fromJsonSchema, type CallToolResult } from '@modelcontextprotocol/server';
import type { LlmSpacesClient } from '../api/client';
import { isMissingEndpoint } from '../api/errors';
import type { Space } from '../api/schemas';
import {
  ToolInputError,
  TOOL_SPECS,
  checkBudget,
  estimateCost,
  explainRoute,
  findModels,
  type ToolAnswer,
  type ToolData,
} from '../tools/spaceTools';
import { MCP_SERVER_VERSION } from './version';

type Answer = (data: ToolData, input: unknown) => Promise<ToolAnswer>;

/** Switching the chat's Space only means something inside VS Code; the other four tools are offered. */
const ANSWERS: Record<string, Answer> = {
  llmSpaces_estimateCost: estimateCost,
  llmSpaces_explainRoute: explainRoute,
  llmSpaces_findModels: findModels,
  llmSpaces_checkBudget: (data) => checkBudget(data),
};

/** What the tools read, through a client of the service with the caller's token. */
export function toolData(client: LlmSpacesClient, countTokens: (text: string) => number): ToolData {
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

/** A server with the four tools over `data`; a fresh one per connection (stdio) or request (HTTP). */
export function spacesMcpServer(data: ToolData): McpServer {
  const server = new McpServer(
    { name: 'llm-spaces', title: 'LLM Spaces', version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools for LLM Spaces: what a prompt would cost in a Space, which model it would pick and why, models by price and capability, and the spending against the limits.',
    },
  );
  for (const spec of TOOL_SPECS) {
    const answer = ANSWERS[spec.name];
    if (!answer || !('outputSchema' in spec)) continue;
    server.registerTool(
      spec.name,
      {
        title: spec.displayName,
        description: spec.modelDescription,
        inputSchema: fromJsonSchema(spec.inputSchema as never),
        outputSchema: fromJsonSchema(spec.outputSchema as never),
        annotations: { title: spec.displayName, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      async (input: unknown): Promise<CallToolResult> => {
        try {
          const { text, data: structured } = await answer(data, input ?? {});
          return { content: [{ type: 'text', text }], structuredContent: structured };
        } catch (error) {
          // A wrong input is told to the model, which can call again; messages of the client's typed
          // errors never carry the token (the transport scrubs it).
          const text = error instanceof ToolInputError ? error.message : `The tool failed: ${(error as Error).message}`;
          return { content: [{ type: 'text', text }], isError: true };
        }
      },
    );
  }
  return server;
}
