// How the built-in service's process is started, shared by the extension and the tests so that both
// run it alike. It imports nothing, so the extension's activation bundle can take it.

/**
 * V8 sizes the heap from the machine's memory: on a 24 GB machine the service's old space grew to
 * 250 MB of garbage under a burst of chats before a full collection. The service needs far less, so
 * its heap is capped well above what it uses (a 20 MB attachment, a 10,000-model catalogue).
 */
export const SERVICE_EXEC_ARGV = ['--max-old-space-size=256'];
