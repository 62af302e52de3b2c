// The user's keys for hosted providers: kept in VS Code's SecretStorage and handed to the built-in
// service each time it is connected (it keeps them in memory only). Never in settings, a file, the log
// or a webview.
import * as vscode from 'vscode';
import type { ProviderState } from '../api/schemas';
import type { Logger } from '../logger';
import type { Connection } from './connection';

/** The ids of the providers with a stored key (SecretStorage has no listing of its own). */
const INDEX_KEY = 'llmSpaces.providerKeys';
const keyOf = (provider: string) => `llmSpaces.providerKey.${provider}`;
const baseUrlOf = (provider: string) => `llmSpaces.providerBaseUrl.${provider}`;

export class ProviderKeyStore implements vscode.Disposable {
  private readonly handedOver = new vscode.EventEmitter<void>();
  /** Fires once the built-in service has the stored keys (its models may answer now). */
  readonly onDidHandOver = this.handedOver.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly connection: Connection,
    private readonly logger: Logger,
  ) {
    // A built-in service that (re)started has no keys: hand them over each time it is ready.
    this.subscription = connection.onDidChangeState((state) => {
      if (state.kind === 'ready' && state.mode === 'local') void this.handOver();
    });
  }

  /** The providers with a key stored in VS Code. */
  async stored(): Promise<string[]> {
    try {
      const list: unknown = JSON.parse((await this.secrets.get(INDEX_KEY)) ?? '[]');
      return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }

  /** Stores a key and hands it to the built-in service; answers what the service says of the provider. */
  async add(provider: string, key: string, baseUrl: string | null): Promise<ProviderState> {
    const state = await this.connection.call((c) => c.setProviderKey(provider, { key, base_url: baseUrl }));
    await this.secrets.store(keyOf(provider), key);
    if (baseUrl) await this.secrets.store(baseUrlOf(provider), baseUrl);
    else await this.secrets.delete(baseUrlOf(provider));
    await this.secrets.store(INDEX_KEY, JSON.stringify([...new Set([...(await this.stored()), provider])]));
    this.handedOver.fire();
    return state;
  }

  async remove(provider: string): Promise<void> {
    await this.secrets.delete(keyOf(provider));
    await this.secrets.delete(baseUrlOf(provider));
    await this.secrets.store(INDEX_KEY, JSON.stringify((await this.stored()).filter((id) => id !== provider)));
    if (this.connection.mode === 'local') await this.connection.call((c) => c.removeProviderKey(provider));
    this.handedOver.fire();
  }

  private async handOver(): Promise<void> {
    const providers = await this.stored();
    let count = 0;
    for (const provider of providers) {
      const key = await this.secrets.get(keyOf(provider));
      if (!key) continue;
      const baseUrl = (await this.secrets.get(baseUrlOf(provider))) ?? null;
      try {
        // Kept from an earlier session, where the user added it: it routes at once.
        await this.connection.call((c) => c.setProviderKey(provider, { key, base_url: baseUrl, verified: true }));
        count++;
      } catch (error) {
        // The message names the provider, never the key.
        this.logger.error(
          `The ${provider} key could not be handed to the built-in service: ${(error as Error).message}`,
        );
      }
    }
    if (count > 0) {
      this.logger.info(
        `Handed ${count === 1 ? "1 provider's key" : `${count} providers' keys`} to the built-in service.`,
      );
      this.handedOver.fire();
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.handedOver.dispose();
  }
}
