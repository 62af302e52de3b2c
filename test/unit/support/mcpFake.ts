// A remote MCP server for the tests of the gateway's MCP connector: the official SDK's server over
// Streamable HTTP on a port of its own, with a dictionary's tools (one that looks a word up, one that
// always fails), behind a bearer token. It notes the authorization each request came with, the methods
// it was asked and the calls it ran, for the tests to check what the service sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createMcpHandler, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface FakeMcpServer {
  url: string;
  /** The Authorization header of each HTTP request, in order. */
  authorizations: Array<string | undefined>;
  /** The tool calls it ran: the tool and its arguments. */
  calls: Array<{ name: string; arguments: unknown }>;
  /** The JSON-RPC methods it was asked, in order (`initialize`, `tools/list`, `tools/call`…). */
  methods: string[];
  close(): Promise<void>;
}

const DEFINITIONS: Record<string, string> = {
  gateway: 'a door every tool goes through',
  space: 'a room of its own',
};

/**
 * With `media`, two tools more: `screenshot`, which gives a picture (this PNG, base64) after a line of
 * text, and `readme`, which gives a text file embedded, a PDF embedded and a link to a file.
 */
export async function startFakeMcpServer(token: string, media?: { png: string; pdf: string }): Promise<FakeMcpServer> {
  const calls: FakeMcpServer['calls'] = [];
  const authorizations: FakeMcpServer['authorizations'] = [];
  const methods: string[] = [];
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'dictionary', version: '1' }, { capabilities: { tools: {} } });
    server.registerTool(
      'lookup',
      { description: 'Looks a word up in the dictionary', inputSchema: z.object({ word: z.string() }) },
      async ({ word }): Promise<CallToolResult> => {
        calls.push({ name: 'lookup', arguments: { word } });
        const meaning = DEFINITIONS[word];
        return meaning
          ? { content: [{ type: 'text', text: `${word}: ${meaning}` }] }
          : { content: [{ type: 'text', text: `No entry for ${word}` }], isError: true };
      },
    );
    server.registerTool(
      'forget',
      { description: 'Forgets a word (never allowed)', inputSchema: z.object({ word: z.string() }) },
      async (input): Promise<CallToolResult> => {
        calls.push({ name: 'forget', arguments: input });
        return { content: [{ type: 'text', text: 'forgotten' }] };
      },
    );
    if (media) {
      server.registerTool('screenshot', { description: 'Shows the screen' }, async (): Promise<CallToolResult> => ({
        content: [
          { type: 'text', text: 'The screen:' },
          { type: 'image', data: media.png, mimeType: 'image/png' },
        ],
      }));
      server.registerTool('readme', { description: 'Reads the project' }, async (): Promise<CallToolResult> => ({
        content: [
          { type: 'resource', resource: { uri: 'file:///README.md', mimeType: 'text/markdown', text: '# Hello' } },
          { type: 'resource', resource: { uri: 'file:///spec.pdf', mimeType: 'application/pdf', blob: media.pdf } },
          { type: 'resource_link', uri: 'file:///guide.md', name: 'guide.md' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
      }));
    }
    return server;
  });
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        const messages: unknown = JSON.parse(body.toString() || 'null');
        for (const m of [messages].flat())
          if (m && typeof m === 'object' && 'method' in m) methods.push(String(m.method));
      }
      const web = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
        ),
        ...(body.length ? { body } : {}),
      });
      void handler.fetch(web).then((response) => {
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        res.writeHead(response.status, headers);
        if (response.body) Readable.fromWeb(response.body as never).pipe(res);
        else res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    calls,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
