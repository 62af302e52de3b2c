// Carries a data folder written by the sql.js versions (up to 0.1.0) over to node:sqlite. Those kept a
// SQLite image, `llm-spaces.sqlite` (still a valid SQLite file), plus `llm-spaces.journal`: one JSON
// line `[seq, [[sql, params], ...]]` per transaction committed after the image was written, the image
// remembering in its table `journal_state` the last seq it holds. The entries past that seq are
// applied here once; the journal is then renamed aside, never deleted.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Database, Params } from './db';

export const LEGACY_JOURNAL = 'llm-spaces.journal';

type Statement = [sql: string, params: Params];

export interface LegacyImport {
  applied: number;
  /** Entries the image could not take (a constraint failed), skipped and reported. */
  skipped: string[];
  /** A damaged line stopped the reading; the journal is kept beside the database. */
  damagedAtLine: number | null;
}

/** Bytes survived a journal line as `{"$bytes": base64}`. */
const decode = (_key: string, value: unknown) =>
  value && typeof value === 'object' && '$bytes' in value
    ? new Uint8Array(Buffer.from(String((value as { $bytes: string }).$bytes), 'base64'))
    : value;

/** Applies a legacy journal, if the folder has one; undefined when there is nothing to carry over. */
export function importLegacyJournal(db: Database): LegacyImport | undefined {
  const file = path.join(db.dataDir, LEGACY_JOURNAL);
  if (!existsSync(file)) {
    dropJournalState(db);
    return undefined;
  }
  const result: LegacyImport = { applied: 0, skipped: [], damagedAtLine: null };
  db.transactionNow(() => {
    const hasState = db.get("SELECT 1 AS x FROM sqlite_master WHERE name = 'journal_state'") !== undefined;
    const imageSeq = hasState ? (db.get<{ seq: number }>('SELECT seq FROM journal_state')?.seq ?? 0) : 0;
    let last = imageSeq;
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const [i, line] of lines.entries()) {
      if (line === '') continue;
      let entry: [number, Statement[]];
      try {
        entry = JSON.parse(line, decode) as [number, Statement[]];
      } catch {
        // A last line cut short by a crash was never acknowledged; one in the middle is damage.
        if (lines.slice(i + 1).some((l) => l !== '')) result.damagedAtLine = i + 1;
        break;
      }
      const [seq, statements] = entry;
      if (seq <= imageSeq) continue;
      db.exec('SAVEPOINT legacy');
      try {
        for (const [sql, params] of statements) db.run(sql, params);
        db.exec('RELEASE legacy');
        result.applied++;
      } catch (error) {
        db.exec('ROLLBACK TO legacy; RELEASE legacy;');
        result.skipped.push(`transaction ${seq}: ${(error as Error).message}`);
      }
      last = Math.max(last, seq);
    }
    // Recorded in the same commit: a crash before the rename below replays nothing twice.
    db.exec('CREATE TABLE IF NOT EXISTS journal_state (seq INTEGER NOT NULL)');
    db.run('DELETE FROM journal_state');
    db.run('INSERT INTO journal_state (seq) VALUES ($seq)', { seq: last });
  });
  renameSync(file, `${file}.imported${result.damagedAtLine ? '-damaged' : ''}`);
  dropJournalState(db);
  return result;
}

function dropJournalState(db: Database): void {
  if (db.get("SELECT 1 AS x FROM sqlite_master WHERE name = 'journal_state'"))
    db.transactionNow(() => db.exec('DROP TABLE journal_state'));
}
