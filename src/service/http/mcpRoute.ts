// /mcp: the LLM Spaces tools over MCP's Streamable HTTP (conventions.md), on the official SDK's
// handler (mcp/tools.ts), behind the same bearer tokens as /v1: any MCP client on the machine adds
// the service by URL. The tools read the service through its own API with the caller's token, over
// one loopback connection pool, so they see exactly what that token may see. A browser page of
// another origin is refused (DNS rebinding).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import {
  createMcpHandler,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { Agent } from 'undici';
import { LlmSpacesClient } from '../../api/client';
import { spacesMcpServer, toolData } from '../../mcp/tools';
import { countTokens } from '../tokenizer';

export class McpEndpoint {
  private readonly loopback = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  private readonly handler: McpHttpHandler;

  constructor(logError?: (error: unknown) => void) {
    // The request's client rides along in its authentication, which the SDK hands through untouched.
    this.handler = createMcpHandler(
      ({ authInfo }) => spacesMcpServer(toolData(authInfo!.extra!.client as LlmSpacesClient, countTokens)),
      { onerror: (error) => logError?.(error) },
    );
  }

  async answer(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const web = new Request(`http://${selfAddress(request)}${request.url}`, {
      method: request.method,
      headers: Object.entries(request.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
      ),
    });
    const refused = originValidationResponse(web, localhostAllowedOrigins());
    const token = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const client = new LlmSpacesClient({
      baseUrl: `http://${selfAddress(request)}`,
      token: () => token,
      dispatcher: this.loopback,
      retries: 0,
      conditionalRequests: false,
    });
    try {
      const response =
        refused ??
        (await this.handler.fetch(web, {
          parsedBody: request.body,
          authInfo: { token, clientId: request.caller!.appId ?? request.caller!.orgId, scopes: [], extra: { client } },
        }));
      reply.code(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      return await reply.send(response.body ? Readable.fromWeb(response.body as never) : '');
    } finally {
      void client.close();
    }
  }

  async close(): Promise<void> {
    await this.handler.close();
    await this.loopback.close();
  }
}

/** This service's own address as the request reached it (never the Host header, which the client writes). */
function selfAddress(request: FastifyRequest): string {
  const address = (request.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `${address.includes(':') ? `[${address}]` : address}:${request.socket.localPort}`;
}
