// The writer thread's side (ledgerThread.ts): its own connection to the service's database, each entry
// written as the service's connection would (the same group commit: entries that arrive together share
// one COMMIT), and the outcome sent back by the entry's number.
import { parentPort, workerData } from 'node:worker_threads';
import { writeEntry, type LogEntry } from './chat/logEntry';
import { Database } from './db';
import type { WorkerAnswer } from './ledgerThread';
import { StorageError } from './storageError';

const port = parentPort!;
const send = (answer: WorkerAnswer) => port.postMessage(answer);

let db: Database;
try {
  db = Database.openSharing((workerData as { dataDir: string }).dataDir);
  send({ ready: true });
} catch (error) {
  send({ ready: false, why: (error as Error).message });
  process.exit(1);
}

/** Entries not yet answered: the thread ends only once each has been. */
const unanswered = new Set<Promise<void>>();

port.on('message', (message: { id: number; entry: LogEntry } | { close: true }) => {
  if ('close' in message) {
    // The thread ends whether or not the connection closed cleanly (the engine recovers from its WAL).
    void Promise.all(unanswered)
      .then(() => db.close())
      .finally(() => process.exit(0));
    return;
  }
  const answered = db
    .transaction(() => writeEntry(db, message.entry))
    .then(
      () => send({ id: message.id }),
      (error: Error) =>
        send({
          id: message.id,
          error: {
            storage: error instanceof StorageError,
            message: error instanceof StorageError ? error.reason : error.message,
          },
        }),
    );
  unanswered.add(answered);
  void answered.then(() => unanswered.delete(answered));
});
