// The model catalogue kept on disk, one copy per service, so that model ids in files get their hover
// and their diagnostics at startup and offline. Written each time the catalogue is read; read back
// without trusting it: a record without a namespace is left out.
import * as vscode from 'vscode';
import type { ModelRecord } from '../api/schemas';

export interface CachedCatalogue {
  models: ModelRecord[];
  /** When the service gave it (ms since the epoch). */
  savedAt: number;
}

/** How old a copy may be before it is marked stale. */
export const STALE_AFTER_MS = 7 * 24 * 3600 * 1000;

export class CatalogueCache {
  constructor(private readonly folder: vscode.Uri) {}

  /** One file per service: the built-in one, or a remote URL. */
  private fileFor(service: string): vscode.Uri {
    const safe = service === 'local' ? 'local' : encodeURIComponent(service).replace(/%/g, '_').slice(0, 120);
    return vscode.Uri.joinPath(this.folder, `catalogue-${safe}.json`);
  }

  async read(service: string): Promise<CachedCatalogue | undefined> {
    try {
      const raw: unknown = JSON.parse(
        new TextDecoder().decode(await vscode.workspace.fs.readFile(this.fileFor(service))),
      );
      const saved = raw as { savedAt?: unknown; models?: unknown };
      if (typeof saved.savedAt !== 'number' || !Array.isArray(saved.models)) return undefined;
      const models = saved.models.filter(
        (m): m is ModelRecord =>
          !!m && typeof m === 'object' && typeof (m as { namespace?: unknown }).namespace === 'string',
      );
      return { savedAt: saved.savedAt, models };
    } catch {
      return undefined;
    }
  }

  async write(service: string, models: readonly ModelRecord[], savedAt = Date.now()): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.folder);
    const file = this.fileFor(service);
    const temp = file.with({ path: `${file.path}.tmp` });
    // Written whole, then renamed over the old copy: a crash leaves one or the other, never half.
    await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(JSON.stringify({ savedAt, models })));
    await vscode.workspace.fs.rename(temp, file, { overwrite: true });
  }
}
