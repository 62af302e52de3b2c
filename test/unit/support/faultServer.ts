// A server in front of the real service that misbehaves on cue: answers with a scripted status or
// body, hangs, or cuts a streamed reply; anything not scripted is passed through unchanged.
import http from 'node:http';
import { request } from 'undici';
import { listenLocally } from './localServer';

/**
 * `match`, when given, is the start of `METHOD /path` a fault is for; other requests pass it by. A
 * fault answers one request, or every one when `sticky` (an endpoint the server does not have).
 */
export type Fault = { match?: string; sticky?: boolean } & (
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'destroy' }
  /** Pass the streamed reply through, then cut the connection after `events` events. */
  | { kind: 'cut-stream'; events: number }
  /** Pass the streamed reply through, but end it cleanly without [DONE] after `events` events. */
  | { kind: 'end-stream'; events: number }
);

export interface FaultServer {
  url: string;
  script: Fault[];
  seen: Array<{ method: string; path: string; authorization: string | undefined }>;
  close: () => Promise<void>;
}

export async function startFaultServer(target: string): Promise<FaultServer> {
  const script: Fault[] = [];
  const seen: FaultServer['seen'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization });
      const at = script.findIndex((f) => !f.match || `${req.method} ${req.url}`.startsWith(f.match));
      const fault = at >= 0 ? (script[at]!.sticky ? script[at] : script.splice(at, 1)[0]) : undefined;
      if (fault?.kind === 'status') {
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        res.end(
          fault.body === undefined ? '' : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body),
        );
        return;
      }
      if (fault?.kind === 'hang') return;
      if (fault?.kind === 'destroy') return req.socket.destroy();
      void forward(target, req, Buffer.concat(chunks), res, fault);
    });
  });
  return { ...(await listenLocally(server)), script, seen };
}

async function forward(
  target: string,
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
  fault: Fault | undefined,
) {
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
  ) as Record<string, string>;
  const upstream = await request(`${target}${req.url}`, {
    method: req.method as 'GET',
    headers,
    body: body.length ? body : undefined,
  });
  res.writeHead(
    upstream.statusCode,
    Object.fromEntries(
      Object.entries(upstream.headers).filter(
        ([k]) => !['content-length', 'transfer-encoding', 'connection'].includes(k),
      ),
    ) as Record<string, string>,
  );
  let events = 0;
  for await (const chunk of upstream.body) {
    const text = (chunk as Buffer).toString();
    if (fault && (fault.kind === 'cut-stream' || fault.kind === 'end-stream')) {
      for (const event of text.split('\n\n').filter(Boolean)) {
        if (events++ >= fault.events || event.includes('[DONE]')) {
          // destroySoon flushes what was written, then drops the connection without ending the response.
          if (fault.kind === 'cut-stream') res.socket?.destroySoon();
          else res.end();
          upstream.body.destroy();
          return;
        }
        res.write(`${event}\n\n`);
      }
    } else {
      res.write(chunk);
    }
  }
  res.end();
}
