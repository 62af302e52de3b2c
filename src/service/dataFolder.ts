// Opens a data folder for the service: the database, a sql.js-era folder carried over, migrations run.
// Kept apart from db.ts so the engine's facade knows nothing of the schema (no import circle between
// the database, the migrations and the domain modules that the migrations seed with).
import { Database } from './db';
import { importLegacyJournal } from './legacyJournal';
import { migrate, pendingMigrations } from './migrations';

export function openDataFolder(dataDir: string, report: (line: string) => void = () => undefined): Database {
  const db = Database.open(dataDir);
  try {
    const legacy = importLegacyJournal(db);
    if (legacy) {
      report(`Carried the data folder over to the new database: ${legacy.applied} journal transaction(s) applied.`);
      for (const skipped of legacy.skipped) report(`Skipped ${skipped}`);
      if (legacy.damagedAtLine)
        report(
          `The old journal is damaged at line ${legacy.damagedAtLine}; what came before was kept, and the journal was kept beside the database.`,
        );
    }
    // A folder that cannot be written but needs nothing opens for reading (see Database.open).
    if (pendingMigrations(db) > 0) db.transactionNow(() => migrate(db));
    return db;
  } catch (error) {
    void db.close();
    throw error;
  }
}
