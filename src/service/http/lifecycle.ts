// Stopping the app: new requests get 503, requests in flight get a deadline, and chats still running
// then are stopped with a reason the engine logs.
import type { FastifyInstance } from 'fastify';

export const openChats = new WeakMap<FastifyInstance, Set<AbortController>>();
export const closing = new WeakSet<FastifyInstance>();

/** Why an open chat was stopped. */
export class ShutdownError extends Error {
  constructor() {
    super('the service shut down');
  }
}

/**
 * Stops the app: new requests get 503, requests in flight may finish within `deadlineMs`; chats still
 * running then are stopped (a stream ends with an error event) and logged as failed.
 */
export async function closeApp(app: FastifyInstance, deadlineMs: number): Promise<void> {
  closing.add(app);
  const deadline = setTimeout(() => {
    for (const chat of openChats.get(app) ?? []) chat.abort(new ShutdownError());
    // What is still open a moment later (a client that does not read) is cut.
    setTimeout(() => app.server.closeAllConnections(), 2000).unref();
  }, deadlineMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
    // What is still running answers no HTTP request (a background response): it is stopped, and kept
    // as failed at the next start.
    for (const chat of openChats.get(app) ?? []) chat.abort(new ShutdownError());
  }
}
