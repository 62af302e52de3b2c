// The prompts the service holds, cached for the view and the editor; `own` marks the organization's.
import * as vscode from 'vscode';
import type { PromptRecord, PromptShow } from '../api/schemas';
import type { Connection } from '../connection/connection';

export class PromptStore implements vscode.Disposable {
  private prompts = new Map<string, PromptRecord>();
  private ownIds = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly connection: Connection) {}

  /** Loads the prompts for `show`, and always which ones are the organization's own. */
  async load(show: PromptShow): Promise<PromptRecord[]> {
    const [shown, own] = await this.connection.call((c) =>
      Promise.all([c.listPrompts(show), show === 'org' ? Promise.resolve(null) : c.listPrompts('org')]),
    );
    const ownList = own ?? shown;
    this.ownIds = new Set(ownList.map((p) => p.id));
    // The whole list replaces what was kept, so a prompt deleted since is known to be gone.
    if (show === 'all') this.prompts = new Map();
    for (const p of [...shown, ...ownList]) this.prompts.set(p.id, p);
    return shown;
  }

  isOwn(id: string): boolean {
    return this.ownIds.has(id);
  }

  /** The prompt as the service holds it now (there is no single-prompt read in /v1, so: the list). */
  async fetch(id: string): Promise<PromptRecord | undefined> {
    await this.load('all');
    return this.prompts.get(id);
  }

  cached(id: string): PromptRecord | undefined {
    return this.prompts.get(id);
  }

  remember(prompt: PromptRecord, own: boolean): void {
    this.prompts.set(prompt.id, prompt);
    if (own) this.ownIds.add(prompt.id);
    this.changed.fire();
  }

  forget(id: string): void {
    this.prompts.delete(id);
    this.ownIds.delete(id);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
