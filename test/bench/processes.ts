// The benchmarks' servers in child processes: on a free port, ready once they say so.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A port nothing listens on now, for a server about to start. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });

/**
 * A server in a child process on a free port (`args` of that port), ready once `ready` matches what it
 * printed; its URL is the port's, with `under` after it.
 */
export async function started(
  args: (port: number) => string[],
  ready: RegExp,
  under = '',
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const command = args(port);
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!ready.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${command[0]} did not start:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}${under}`, child };
}
