// Server-sent events on a hijacked reply: the head is written with the first event (so an error before
// any event can still answer with its own status), each event is one `data:` line.
import type { FastifyReply } from 'fastify';

export class EventStream {
  constructor(private readonly reply: FastifyReply) {}

  /** Whether anything was sent yet (after that, an error can only be an event). */
  get started(): boolean {
    return this.reply.raw.headersSent;
  }

  /** One event: a string as it is (`[DONE]`), anything else as JSON. */
  send(data: unknown): void {
    this.head();
    this.reply.raw.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  /** One named event (`event: <name>`), as Anthropic's stream has them. */
  sendNamed(name: string, data: unknown): void {
    this.head();
    this.reply.raw.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.head();
    this.reply.raw.end();
  }

  /** Drops the connection without a last event (the client is gone). */
  destroy(): void {
    this.reply.raw.destroy();
  }

  private head(): void {
    const raw = this.reply.raw;
    if (raw.headersSent) return;
    raw.writeHead(200, {
      ...headersOf(this.reply),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
  }
}

/** The headers set on the reply so far (rate limit...), for a reply written by hand. */
export function headersOf(reply: FastifyReply): Record<string, string> {
  return Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)]));
}
