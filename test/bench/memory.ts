// A benchmarked service's memory, read from outside so that it runs as it ships: its RSS from /proc,
// and its live heap (what a full collection leaves) over the inspector protocol of a service started
// with `--inspect` on a port the benchmark chose. RSS alone cannot tell memory kept from a heap
// growing to its working size; the live heap can (an idle-looking service with --inspect and no
// session attached ran as fast as without, measured side by side on 2026-11-28).
import { readFileSync } from 'node:fs';
import { freePort } from './processes';

export interface MemoryPoint {
  rssMB: number;
  liveHeapMB: number;
}

/** An inspector port for a service about to start, and the environment that opens it. */
export async function inspectable(): Promise<{ port: number; env: Record<string, string> }> {
  const port = await freePort();
  return { port, env: { NODE_OPTIONS: `--inspect=127.0.0.1:${port}` } };
}

const rssMB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The process's RSS as it is (read first: the collection below may hand memory back), then its live heap. */
export async function memoryAt(pid: number, inspectorPort: number): Promise<MemoryPoint> {
  const rss = rssMB(pid);
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  const answers = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = message.id === undefined ? undefined : answers.get(message.id);
    if (!waiting) return;
    if (message.error) waiting.reject(new Error(`the inspector refused: ${message.error.message}`));
    else waiting.resolve(message.result);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', () => reject(new Error(`no inspector at port ${inspectorPort}`)));
  });
  let next = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      answers.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('HeapProfiler.collectGarbage');
    const used = (await send('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    })) as { result: { value: number } };
    return { rssMB: rss, liveHeapMB: used.result.value / 2 ** 20 };
  } finally {
    socket.close();
  }
}
