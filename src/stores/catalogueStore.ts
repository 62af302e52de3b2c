// The model catalogue for every surface: read once per connection, with the filter and sort the
// Models view shows it under.
import * as vscode from 'vscode';
import { unreadableIn } from '../api/leftOut';
import type { ModelRecord } from '../api/schemas';
import type { Connection } from '../connection/connection';
import { arrange, type ModelFilter, type ProviderGroup } from '../views/modelCatalog';

export class CatalogueStore implements vscode.Disposable {
  private loaded: Promise<ModelRecord[]> | undefined;
  readonly filter: ModelFilter = { text: '', capabilities: [], sort: 'name' };
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the catalogue was dropped or replaced, or the filter changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connection: Connection) {
    this.subscription = connection.onDidNeedRefresh(() => this.reload());
  }

  /** The whole catalogue. */
  models(): Promise<ModelRecord[]> {
    const loading = (this.loaded ??= this.connection.call((c) => c.listModels()));
    loading.catch(() => this.loaded === loading && (this.loaded = undefined));
    return loading;
  }

  /** How many models of the catalogue as last read could not be read and were left out. */
  async unreadable(): Promise<number> {
    return unreadableIn(await this.models());
  }

  /** The catalogue under the current filter, grouped by provider. */
  async arranged(): Promise<ProviderGroup[]> {
    return arrange(await this.models(), this.filter);
  }

  /** Reads the catalogue again at the next use. */
  reload(): void {
    this.loaded = undefined;
    this.changed.fire();
  }

  /** Replaces the catalogue (the benchmark loads 10,000 models without a service). */
  setModels(models: ModelRecord[]): void {
    this.loaded = Promise.resolve(models);
    this.changed.fire();
  }

  setFilter(change: Partial<ModelFilter>): void {
    Object.assign(this.filter, change);
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
