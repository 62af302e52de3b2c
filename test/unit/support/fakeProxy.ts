// A fake HTTP proxy that tunnels (CONNECT), as a company's proxy does, recording what it was asked.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface FakeProxy {
  url: string;
  /** The tunnels asked for (host:port), and the headers each came with. */
  tunnels: Array<{ target: string; headers: IncomingHttpHeaders }>;
  close: () => Promise<void>;
}

/**
 * A proxy that tunnels to `<name>.proxied.test:<port>` as to that port on this computer (no one else
 * can resolve those names), refuses `refused.proxied.test` and every other host with 403.
 */
export async function startProxy(): Promise<FakeProxy> {
  const tunnels: FakeProxy['tunnels'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket) => {
    const target = request.url ?? '';
    tunnels.push({ target, headers: request.headers });
    sockets.add(client);
    const port = /^(?!refused\.)[a-z0-9-]+\.proxied\.test:(\d+)$/.exec(target)?.[1];
    if (!port) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    for (const s of [client, upstream]) s.on('error', () => undefined).on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
