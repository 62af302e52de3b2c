// A receiver of pushes on a free loopback port, as the observability integrations send them (Loki's
// push API, Prometheus's remote write): each POST to its path is read by `read`, which notes what the
// protocol's reference would refuse in `problems`; it answers the statuses queued in `statuses`, each
// once with `refusal` as its text, then 204, and keeps what it took.
import http from 'node:http';
import { listenLocally } from './localServer';

export interface PushReceiver<T> {
  url: string;
  taken: T[];
  problems: string[];
  statuses: number[];
  close: () => Promise<void>;
}

export async function startPushReceiver<T>(
  path: string,
  read: (req: http.IncomingMessage, body: Buffer, problems: string[]) => T,
  refusal: string,
): Promise<PushReceiver<T>> {
  const taken: T[] = [];
  const problems: string[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== path) problems.push(`${req.method} ${req.url}`);
      let record: T;
      try {
        record = read(req, Buffer.concat(parts), problems);
      } catch (error) {
        problems.push(`the body cannot be read: ${(error as Error).message}`);
        return res.writeHead(400).end('cannot read the body');
      }
      const status = statuses.shift() ?? 204;
      if (status === 204) taken.push(record);
      res.writeHead(status).end(status === 204 ? undefined : refusal);
    });
  });
  const { url, close } = await listenLocally(server);
  return { url: `${url}${path}`, taken, problems, statuses, close };
}
