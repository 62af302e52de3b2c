// The `fetch` the AI SDK's provider packages are given: the same contract as the global one, sent
// through one undici agent that keeps a pool of open connections per provider's address (through the
// environment's proxy, where it names one: proxy.ts). Node's
// global fetch spends about three times the CPU per request of undici's own request API (measured in
// test/bench; a gateway pays it on every reply), so the request goes through that API and its answer
// is handed back as a standard Response: an event stream as it comes, any other body once read whole.
// A redirect is handed back as it came, not followed: the providers' APIs answer where they are asked.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { outboundAgent } from './proxy';

// No wait of undici's own for an answer's headers (5 minutes by default): each call is bounded by its
// caller's signal (a reply's wait, up to 10 minutes for a whole one; a key check's; a list's), and a
// whole reply still waited for would be cut before its time.
const agent = outboundAgent({ keepAliveTimeout: 30_000, connections: 256, headersTimeout: 0 });

/** Statuses whose answer has no body (a Response refuses one for them). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export const poolFetch: typeof fetch = async (input, init) => {
  const body = init?.body;
  // Anything but a plain JSON or byte body (a form, a stream) goes the standard way.
  if (
    input instanceof Request ||
    (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) ||
    (init?.redirect && init.redirect !== 'follow')
  )
    return fetch(input, init);
  const signal = init?.signal ?? undefined;
  let answer;
  try {
    answer = await request(String(input), {
      method: (init?.method ?? 'GET') as 'GET',
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: body ?? undefined,
      signal,
      dispatcher: agent,
    });
  } catch (error) {
    throw failed(error, signal);
  }
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(answer.headers))
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.push([name, one]);
  const shape = { status: answer.statusCode, statusText: answer.statusText, headers };
  if (NO_BODY.has(answer.statusCode) || init?.method === 'HEAD') {
    answer.body.resume();
    return new Response(null, shape);
  }
  // A stream is handed on as it comes. Any other answer (JSON, an error's text) is read whole first:
  // a Response made of its bytes costs a small part of one fed from a Node stream through a web one.
  if (!String(answer.headers['content-type']).startsWith('text/event-stream')) {
    try {
      return new Response(await answer.body.bytes(), shape);
    } catch (error) {
      throw failed(error, signal);
    }
  }
  return new Response(Readable.toWeb(answer.body) as ReadableStream<Uint8Array>, shape);
};

/** A request that failed as the standard fetch says it: the abort's reason, or a network error. */
function failed(error: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted ? (signal.reason ?? error) : new TypeError('fetch failed', { cause: error });
}
