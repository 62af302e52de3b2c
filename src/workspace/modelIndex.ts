// Model ids in the text of the workspace's files, found against the catalogue: a model's namespace
// (`openai/gpt-4o`) or its `api_target` (`claude-3-5-haiku-20241022`), and ids that look like a
// known provider's but that the catalogue does not have. Free of VS Code, so the benchmark and the
// unit tests run it on Node; one pass over the text with one regular expression and map lookups.
import type { ModelRecord } from '../api/schemas';
import { NOT_CHAT_MODEL, deprecationOf, successorsOf, todayIso } from '../shared/models';
import { ownsBareNames } from '../shared/providerNames';

/** What a found id is: a catalogue model (retired, to be retired, or current), or unknown to it. */
export type IdKind = 'retired' | 'soon' | 'current' | 'unknown';

export interface FoundId {
  /** Offsets in the text. */
  start: number;
  end: number;
  text: string;
  kind: IdKind;
  /** The catalogue's model (undefined for an unknown id). */
  model?: ModelRecord;
  /** For an unknown id: its provider, which the catalogue knows. */
  provider?: string;
}

/**
 * A run of characters a model id is made of. Ids have letters or digits at both ends, and dots,
 * colons, hyphens, underscores and slashes inside (`ft:gpt-4o-mini:acme:support`, `llama3.2`).
 */
const TOKEN = /[A-Za-z0-9][A-Za-z0-9._:/-]*[A-Za-z0-9]/g;

/**
 * Whether a bare api_target is distinctive enough to be an id in prose and code: it has a digit or a
 * hyphen (`gpt-4o`, `llama3.2`). Plain words (`command`, `sonar`) are taken only with their provider.
 */
const distinctive = (text: string) => /[\d-]/.test(text);

export class ModelIndex {
  private readonly ids = new Map<string, ModelRecord>();
  private readonly providers = new Map<string, number>();
  readonly models: readonly ModelRecord[];

  constructor(
    models: readonly ModelRecord[],
    /** `YYYY-MM-DD`: what counts as past. */
    private readonly today = todayIso(),
  ) {
    this.models = models;
    for (const m of models) {
      this.ids.set(m.namespace, m);
      const provider = m.namespace.includes('/') ? m.namespace.slice(0, m.namespace.indexOf('/')) : m.provider;
      if (provider) this.providers.set(provider, (this.providers.get(provider) ?? 0) + 1);
    }
    // A namespace wins over another model's api_target of the same text, and a maker's model over the
    // same model served under its name by another provider (OpenAI's `gpt-4o-mini` over Azure's).
    for (const own of [true, false])
      for (const m of models)
        if (
          ownsBareNames(m.provider) === own &&
          m.api_target &&
          distinctive(m.api_target) &&
          !this.ids.has(m.api_target)
        )
          this.ids.set(m.api_target, m);
  }

  get size(): number {
    return this.models.length;
  }

  /** How many models the catalogue has of this provider. */
  providerSize(provider: string): number {
    return this.providers.get(provider) ?? 0;
  }

  kindOf(m: ModelRecord): Exclude<IdKind, 'unknown'> {
    return deprecationOf(m, this.today)?.kind ?? 'current';
  }

  /** The model ids in a text, in order. */
  scan(text: string): FoundId[] {
    const found: FoundId[] = [];
    TOKEN.lastIndex = 0;
    for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
      const hit = this.classify(match[0], match.index);
      if (hit) found.push(hit);
    }
    return found;
  }

  /** The id at an offset of a text (for a hover), if any. */
  at(text: string, offset: number): FoundId | undefined {
    TOKEN.lastIndex = 0;
    for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
      if (match.index > offset) return undefined;
      if (offset <= match.index + match[0].length) return this.classify(match[0], match.index) ?? undefined;
    }
    return undefined;
  }

  private classify(token: string, start: number): FoundId | null {
    // A token may carry what surrounds the id in a path or a URL: `models/openai/gpt-4o` is tried as is, then from each slash.
    for (let from = 0; from >= 0 && from < token.length; from = token.indexOf('/', from) + 1 || -1) {
      const text = token.slice(from);
      const model = this.ids.get(text);
      if (model) return { start: start + from, end: start + token.length, text, kind: this.kindOf(model), model };
      const slash = text.indexOf('/');
      if (slash > 0 && from === 0 && this.looksLikeId(text, slash))
        return { start, end: start + token.length, text, kind: 'unknown', provider: text.slice(0, slash) };
    }
    return null;
  }

  /**
   * `provider/name` with a provider the catalogue has and a name shaped like a chat model's (a digit or
   * a hyphen, no further slash): an embedding or speech model (`openai/text-embedding-3-small`) is none
   * of the catalogue's, which lists chat models only, and no typo.
   */
  private looksLikeId(text: string, slash: number): boolean {
    const name = text.slice(slash + 1);
    return (
      this.providers.has(text.slice(0, slash)) &&
      !name.includes('/') &&
      !NOT_CHAT_MODEL.test(name) &&
      distinctive(name) &&
      !/\.(ts|js|py|json|ya?ml|md|txt)$/.test(name)
    );
  }

  /** What could replace a model, its own family first (`successorsOf`). */
  successors(model: ModelRecord): ModelRecord[] {
    return successorsOf(model, this.models);
  }

  /** The form of a successor that matches the found id's form: its namespace for a namespace, else its api_target. */
  replacementFor(found: FoundId, successor: ModelRecord): string {
    return found.text === found.model?.namespace || found.text.includes('/')
      ? successor.namespace
      : successor.api_target || successor.namespace;
  }
}
