// The model catalogue for every surface: read once per connection, with the filter, sort and layout
// the Models view shows it under (kept across reloads).
import * as vscode from 'vscode';
import { reachedMilestone } from '../walkthrough';
import { unreadableIn } from '../api/leftOut';
import type { EmbeddingModelRecord, ModelRecord } from '../api/schemas';
import type { Connection } from '../connection/connection';
import { arrange, arrangeEmbeddings, arrangeFlat, type ModelFilter, type ProviderGroup } from '../shared/modelCatalog';
import { CAPABILITIES } from '../shared/models';

const FILTER_KEY = 'llmSpaces.models.filter';

export class CatalogueStore implements vscode.Disposable {
  private loaded: Promise<ModelRecord[]> | undefined;
  private embeddingsLoaded: Promise<EmbeddingModelRecord[]> | undefined;
  readonly filter: ModelFilter = { text: '', capabilities: [], sort: 'name', flat: false };
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the catalogue was dropped or replaced, or the filter changed. */
  readonly onDidChange = this.changed.event;
  private readonly replaced = new vscode.EventEmitter<void>();
  /** Fires when the catalogue was dropped or replaced (not for a change of the filter). */
  readonly onDidReplace = this.replaced.event;
  private readonly read = new vscode.EventEmitter<readonly ModelRecord[]>();
  /** Fires with the catalogue each time it was read from the service (or replaced). */
  readonly onDidRead = this.read.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly connection: Connection,
    private readonly memento?: vscode.Memento,
  ) {
    this.subscription = connection.onDidNeedRefresh(() => this.reload());
    Object.assign(this.filter, savedFilter(memento?.get<unknown>(FILTER_KEY)));
  }

  /** The whole catalogue. */
  models(): Promise<ModelRecord[]> {
    if (!this.loaded) {
      const reading = this.connection.call((c) => c.listModels());
      this.loaded = reading;
      reading.then(
        (models) => this.loaded === reading && this.read.fire(models),
        () => undefined,
      );
    }
    const loading = this.loaded;
    loading.then(
      (models) => models.some((m) => !m.is_test_model && m.answers_here !== false) && reachedMilestone('realModels'),
      () => this.loaded === loading && (this.loaded = undefined),
    );
    return loading;
  }

  /**
   * The built-in service's embedding models under the current filter; none from the hosted service,
   * which has no embeddings, nor while they cannot be read (asked again at the next use).
   */
  async arrangedEmbeddings(): Promise<EmbeddingModelRecord[]> {
    if (this.connection.mode !== 'local') return [];
    if (!this.embeddingsLoaded) {
      const reading = this.connection.call((c) => c.listEmbeddingModels());
      this.embeddingsLoaded = reading;
      reading.catch(() => this.embeddingsLoaded === reading && (this.embeddingsLoaded = undefined));
    }
    return arrangeEmbeddings(await this.embeddingsLoaded.catch(() => []), this.filter);
  }

  /** How many models of the catalogue as last read could not be read and were left out. */
  async unreadable(): Promise<number> {
    return unreadableIn(await this.models());
  }

  /** The catalogue under the current filter, grouped by provider. */
  async arranged(): Promise<ProviderGroup[]> {
    return arrange(await this.models(), this.filter);
  }

  /** The catalogue under the current filter as one list across providers. */
  async arrangedFlat(): Promise<ModelRecord[]> {
    return arrangeFlat(await this.models(), this.filter);
  }

  /** Reads the catalogue again at the next use. */
  reload(): void {
    this.loaded = undefined;
    this.embeddingsLoaded = undefined;
    this.changed.fire();
    this.replaced.fire();
  }

  /** Replaces the catalogue (the benchmark loads 10,000 models without a service). */
  setModels(models: ModelRecord[]): void {
    this.loaded = Promise.resolve(models);
    this.changed.fire();
    this.replaced.fire();
    this.read.fire(models);
  }

  setFilter(change: Partial<ModelFilter>): void {
    Object.assign(this.filter, change);
    void this.memento?.update(FILTER_KEY, { ...this.filter });
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.replaced.dispose();
    this.read.dispose();
  }
}

/** A filter saved by an earlier version or by hand: only what is still valid is taken. */
function savedFilter(saved: unknown): Partial<ModelFilter> {
  if (!saved || typeof saved !== 'object') return {};
  const s = saved as Record<string, unknown>;
  return {
    ...(typeof s.text === 'string' ? { text: s.text.slice(0, 200) } : {}),
    ...(Array.isArray(s.capabilities)
      ? { capabilities: CAPABILITIES.filter((c) => (s.capabilities as unknown[]).includes(c)) }
      : {}),
    ...(s.sort === 'name' || s.sort === 'price' || s.sort === 'context' ? { sort: s.sort } : {}),
    ...(typeof s.flat === 'boolean' ? { flat: s.flat } : {}),
  };
}
