// The request log's writer thread. Every answered or failed request writes its log entry
// (chat/logEntry.ts), and each commit waits for the disk (synchronous=FULL): on the event loop's thread
// those commits, and the WAL checkpoints SQLite runs inside some of them, held every other request up,
// about a quarter of the service's time under load (test/bench). The thread has a connection of its own
// to the same database (Database.openSharing) and the same group commit; a request is answered only
// once the thread says its entry is on disk, and an entry the disk refused is rolled back there and
// fails the request with the same StorageError the service's own connection would give.
//
// When there is no thread (a folder that cannot be written at start, a test bundle without the worker
// file) or it stopped, the entries are written on the service's own connection, as before.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database } from './db';
import { writeEntry, type LogEntry } from './chat/logEntry';
import { observed } from './observability';
import { StorageError } from './storageError';

/** The worker's file, beside this bundle (dist/service.js and dist/ledgerWorker.js). */
const WORKER_FILE = path.join(__dirname, 'ledgerWorker.js');

/** An entry's outcome, by its number. */
export interface Outcome {
  id: number;
  error?: { storage: boolean; message: string };
}

/** What the thread answers: ready (or why not) once, then the outcomes of the entries of each commit. */
export type WorkerAnswer = { ready: true } | { ready: false; why: string } | { outcomes: Outcome[] };

/**
 * What the thread is sent: the entries that finished in one turn of the event loop, together (a
 * message costs more than the entry it carries), or that it is to end.
 */
export type WorkerOrder = { entries: Array<{ id: number; entry: LogEntry }> } | { close: true };

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

class LedgerThread {
  private readonly pending = new Map<number, Pending>();
  /** Entries of this turn of the event loop, sent together after it. */
  private outgoing: Array<{ id: number; entry: LogEntry }> = [];
  private next = 0;
  /** False once the thread stopped: entries go to the service's own connection again. */
  running = true;

  constructor(private readonly worker: Worker) {
    worker.on('message', (answer: WorkerAnswer) => {
      if (!('outcomes' in answer)) return;
      for (const { id, error } of answer.outcomes) {
        const waiting = this.pending.get(id);
        this.pending.delete(id);
        if (!error) waiting?.resolve();
        else waiting?.reject(error.storage ? new StorageError(error.message) : new Error(error.message));
      }
    });
    worker.on('exit', () => this.stopped());
    worker.on('error', () => this.stopped());
  }

  write(entry: LogEntry): Promise<void> {
    const id = ++this.next;
    if (this.outgoing.length === 0) setImmediate(() => this.send());
    this.outgoing.push({ id, entry });
    return new Promise<void>((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private send(): void {
    const order: WorkerOrder = { entries: this.outgoing };
    this.outgoing = [];
    if (this.running && order.entries.length) this.worker.postMessage(order);
  }

  /** Lets the thread commit what it was sent, then ends it (at once, if it has not ended in 10 s). */
  async close(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.send();
    this.worker.postMessage({ close: true } satisfies WorkerOrder);
    const late = setTimeout(() => void this.worker.terminate(), 10_000);
    await exited;
    clearTimeout(late);
  }

  /** Entries sent to a thread that stopped are not known to be written: they fail, none is lost silently. */
  private stopped(): void {
    this.running = false;
    for (const waiting of this.pending.values())
      waiting.reject(new StorageError('the request log\u2019s writer stopped'));
    this.pending.clear();
  }
}

const threads = new WeakMap<Database, LedgerThread>();

/**
 * Starts the writer thread for the database's folder; resolves once its connection is open, or with
 * why it did not start on a folder that can be written. Without it (the folder cannot be written, no
 * worker file), entries are written on the service's connection. Tests bundled elsewhere name the
 * worker file of dist/.
 */
export async function startLedgerThread(db: Database, workerFile = WORKER_FILE): Promise<string | undefined> {
  // A folder read-only at start: its connection would be read-only too (see Database.openSharing).
  if (!db.writable) return undefined;
  if (!existsSync(workerFile)) return `${path.basename(workerFile)} is missing`;
  const worker = new Worker(workerFile, {
    workerData: { dataDir: db.dataDir },
    // It keeps nothing between commits but the entries in flight: left to V8's defaults its heap grew
    // to 77 MB of garbage over 400,000 requests (measured); a small young generation keeps it near 20.
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const ready = await new Promise<WorkerAnswer>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (error) => resolve({ ready: false, why: error.message }));
    worker.once('exit', () => resolve({ ready: false, why: 'it exited' }));
  });
  if (!('ready' in ready) || !ready.ready) {
    await worker.terminate();
    return 'ready' in ready && !ready.ready ? ready.why : 'it did not say it was ready';
  }
  const thread = new LedgerThread(worker);
  threads.set(db, thread);
  db.onClose(() => thread.close());
  return undefined;
}

/**
 * Writes a request's log entry: on the writer thread if it runs, else on the service's connection.
 * Once it is on disk, a request goes to the organization's observability integrations too.
 */
export async function record(db: Database, entry: LogEntry): Promise<void> {
  const thread = threads.get(db);
  await (thread?.running ? thread.write(entry) : db.transaction(() => writeEntry(db, entry)));
  if ('request' in entry) observed(db, entry.request);
}
