// Server-sent events on a hijacked reply: the head is written with the first event (so an error before
// any event can still answer with its own status), each event is one `data:` line.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** The size in bytes each event with a delta is padded to a multiple of, when obfuscated. */
const PADDED_TO = 64;
/** What the padding adds beside its characters: `,"obfuscation":""`. */
const PADDING_FIELD = ',"obfuscation":""'.length;

/**
 * An event padded with random characters in its `obfuscation` field to a multiple of 64 bytes, so
 * that the sizes of a stream's events do not tell the tokens' lengths (OpenAI's stream obfuscation).
 */
function obfuscated(data: Record<string, unknown>): Record<string, unknown> {
  const size = Buffer.byteLength(JSON.stringify(data)) + PADDING_FIELD;
  const length = PADDED_TO - (size % PADDED_TO);
  return { ...data, obfuscation: randomBytes(length).toString('base64url').slice(0, length) };
}

/** Whether an event carries a piece of a reply: a chunk of a chat or text completion, or a `delta` event. */
const isDelta = (data: Record<string, unknown>) =>
  data.object === 'chat.completion.chunk' || data.object === 'text_completion' || typeof data.delta === 'string';

export class EventStream {
  /** Whether events with a delta are padded (OpenAI's `stream_options.include_obfuscation`). */
  obfuscate = false;

  constructor(private readonly reply: FastifyReply) {}

  /** Whether anything was sent yet (after that, an error can only be an event). */
  get started(): boolean {
    return this.reply.raw.headersSent;
  }

  /** One event: a string as it is (`[DONE]`), anything else as JSON. */
  send(data: unknown): void {
    this.head();
    this.reply.raw.write(`data: ${typeof data === 'string' ? data : JSON.stringify(this.padded(data))}\n\n`);
  }

  /** One named event (`event: <name>`), as Anthropic's stream has them. */
  sendNamed(name: string, data: unknown): void {
    this.head();
    this.reply.raw.write(`event: ${name}\ndata: ${JSON.stringify(this.padded(data))}\n\n`);
  }

  private padded(data: unknown): unknown {
    return this.obfuscate && typeof data === 'object' && data !== null && isDelta(data as Record<string, unknown>)
      ? obfuscated(data as Record<string, unknown>)
      : data;
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
