// The Spaces the token sees and what hangs under them, for every surface (the Spaces view, the
// playground, the settings editor, and VS Code's chat later): one cache, one set of fallbacks for a
// service without the extra endpoints, one change event.
import * as vscode from 'vscode';
import { ApiError, isMissingEndpoint } from '../api/errors';
import type { LlmSpacesClient } from '../api/client';
import { unreadableIn } from '../api/leftOut';
import type {
  AssistantSummary,
  Conversation,
  Space,
  SpaceCreateBody,
  SpaceUpdateBody,
  SpaceUpdateResponse,
} from '../api/schemas';
import type { Connection } from '../connection/connection';

const REMEMBERED_KEY = 'llmSpaces.rememberedSpaces';

/** A list that only the extra endpoints offer: its items, or `undefined` where the service has no such list. */
export type Offered<T> = T[] | undefined;

export class SpacesStore implements vscode.Disposable {
  private listed: Promise<Space[]> | undefined;
  private readonly details = new Map<string, SpaceUpdateResponse>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when what the store holds changed or was dropped; views render again from the store. */
  readonly onDidChange = this.changed.event;
  /** True when the service has no list endpoint and Spaces are added by id. */
  listUnavailable = false;
  /** Spaces of the last list that could not be read and were left out. */
  unreadable = 0;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly connection: Connection,
    private readonly state: vscode.Memento,
  ) {
    this.subscription = connection.onDidNeedRefresh(() => this.refresh());
  }

  /** Drops what is cached; the next read asks the service. */
  refresh(): void {
    this.listed = undefined;
    this.details.clear();
    this.changed.fire();
  }

  /** Every Space the token sees, or those added by id where the service cannot list them. */
  list(): Promise<Space[]> {
    const listing = (this.listed ??= this.load());
    listing.catch(() => this.listed === listing && (this.listed = undefined));
    return listing;
  }

  private async load(): Promise<Space[]> {
    try {
      const { spaces, unreadable } = await this.connection.call((c) => listAllSpaces(c));
      this.listUnavailable = false;
      this.unreadable = unreadable;
      return spaces;
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
      this.listUnavailable = true;
      this.unreadable = 0;
      return this.rememberedSpaces();
    }
  }

  /** A Space's detail (main and sandbox); `fresh` asks the service even when it is cached. */
  async detail(spaceId: string, fresh = false): Promise<SpaceUpdateResponse> {
    const cached = this.details.get(spaceId);
    if (cached && !fresh) return cached;
    const view = await this.connection.call((c) => readSpace(c, spaceId));
    this.details.set(spaceId, view);
    return view;
  }

  conversations(spaceId: string): Promise<Offered<Conversation>> {
    return offered(this.connection.call((c) => c.listConversations(spaceId)));
  }

  assistants(spaceId: string): Promise<Offered<AssistantSummary>> {
    return offered(this.connection.call((c) => c.listAssistants(spaceId)));
  }

  /** Saves changes to a Space; every surface then shows the saved state. */
  async update(body: SpaceUpdateBody): Promise<SpaceUpdateResponse> {
    const view = await this.connection.call((c) => c.updateSpace(body));
    this.changedSpace(body.id, view);
    return view;
  }

  async toggleModel(spaceId: string, settingId: string, enable: boolean) {
    const result = await this.connection.call((c) => c.toggleModel(spaceId, settingId, enable));
    this.changedSpace(spaceId);
    return result;
  }

  /** Creates a Space; its key, shown only now, is kept for the chat (a remote service needs it there). */
  async create(body: SpaceCreateBody) {
    const created = await this.connection.call((c) => c.createSpace(body));
    await this.connection.storeSpaceKey(created.id, created.created_key);
    this.refresh();
    return created;
  }

  /** Something under a Space changed (a conversation renamed or created): show it fresh. */
  changedSpace(spaceId: string, view?: SpaceUpdateResponse): void {
    this.listed = undefined;
    this.details.clear();
    if (view) this.details.set(spaceId, view);
    this.changed.fire();
  }

  private remembered(): string[] {
    return this.state.get<Record<string, string[]>>(REMEMBERED_KEY, {})[this.connection.url ?? ''] ?? [];
  }

  private async rememberedSpaces(): Promise<Space[]> {
    const spaces: Space[] = [];
    for (const id of this.remembered()) {
      try {
        spaces.push((await this.detail(id)).main.app);
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === 'not-found')) throw error;
      }
    }
    return spaces;
  }

  /** Remembers a Space by id (for services without the list endpoint), after checking it exists. */
  async addById(id: string): Promise<void> {
    await this.detail(id, true);
    const all = this.state.get<Record<string, string[]>>(REMEMBERED_KEY, {});
    const key = this.connection.url ?? '';
    all[key] = [...new Set([...(all[key] ?? []), id])];
    await this.state.update(REMEMBERED_KEY, all);
    this.refresh();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

async function offered<T>(call: Promise<T[]>): Promise<Offered<T>> {
  try {
    return await call;
  } catch (error) {
    if (isMissingEndpoint(error)) return undefined;
    throw error;
  }
}

async function listAllSpaces(client: LlmSpacesClient): Promise<{ spaces: Space[]; unreadable: number }> {
  const spaces: Space[] = [];
  let unreadable = 0;
  for (let page = 1; ; page++) {
    const result = await client.listSpaces({ page, size: 100 });
    spaces.push(...result.items);
    unreadable += unreadableIn(result.items);
    if (page >= result.pages || result.items.length === 0) return { spaces, unreadable };
  }
}

/** GET /v1/apps/{id} where offered; otherwise an update that changes nothing returns the same view. */
export async function readSpace(client: LlmSpacesClient, spaceId: string): Promise<SpaceUpdateResponse> {
  try {
    return await client.getSpace(spaceId);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'method-not-allowed') return client.updateSpace({ id: spaceId });
    throw error;
  }
}
