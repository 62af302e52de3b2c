// GET /v1/models and GET /v1/models/{model}, for tools that ask which models there are: the models that
// can answer here, and each Space by its name, which lets the Space route (for tools that must name a
// model). A Space key sees its own Space and the models it has turned on. In OpenAI's form, with the
// embedding models that answer here (POST /v1/embeddings, never routed, so open to every Space), or in
// Anthropic's (paged, with display names) for its clients, which send `anthropic-version`.
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { appModelRows, findModel, visibleModels, type CatalogueModel } from '../domain/models';
import { answersHere } from '../domain/serving';
import { Problem, invalid } from '../problem';
import { embeddingCatalogue } from './embeddings';
import { isRetired } from '../../shared/models';

/** One model of the list, before it takes a vendor's shape. */
interface Listed {
  id: string;
  /** ISO 8601, or empty when unknown. */
  added: string;
  ownedBy: string;
  displayName: string;
}

interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

interface AnthropicModel {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
}

/** Anthropic's paging of the list (`limit` 1–1000, 20 when not given). */
export interface ModelPage {
  limit?: number;
  after_id?: string;
  before_id?: string;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;
const rfc3339 = (iso: string) => new Date(Date.parse(iso) || 0).toISOString();

/** The Spaces and the models that answer here; with `embeddings`, the embedding models too (OpenAI's list has them). */
function listed(db: Database, caller: Caller, embeddings: boolean): Listed[] {
  const spaces = db.all<{ id: string; name: string | null; added_on: string }>(
    'SELECT id, name, added_on FROM apps WHERE org_id = $org AND ($app IS NULL OR id = $app) ORDER BY added_on',
    { org: caller.orgId, app: caller.appId },
  );
  const models: CatalogueModel[] = caller.appId
    ? appModelRows(db, caller.appId)
        .filter((row) => row.active === 1)
        .flatMap((row) => findModel(db, caller, row.model_id) ?? [])
    : visibleModels(db, caller);
  return [
    ...spaces
      .filter((s) => s.name)
      .map((s) => ({
        id: s.name!,
        added: s.added_on,
        ownedBy: 'llm-spaces',
        displayName: `Space: ${s.name}`,
      })),
    ...models
      .filter((m) => !isRetired(m.record) && answersHere(db, m.record))
      .map((m) => ({
        id: m.record.namespace,
        added: m.record.added_on ?? '',
        ownedBy: m.record.provider ?? 'llm-spaces',
        displayName: m.record.namespace,
      })),
    ...(embeddings ? embeddingCatalogue(db).filter((m) => m.answers_here) : []).map((m) => ({
      id: m.namespace,
      added: '',
      ownedBy: m.provider,
      displayName: m.namespace,
    })),
  ];
}

const openAi = (m: Listed): OpenAiModel => ({
  id: m.id,
  object: 'model',
  created: seconds(m.added),
  owned_by: m.ownedBy,
});
const anthropic = (m: Listed): AnthropicModel => ({
  type: 'model',
  id: m.id,
  display_name: m.displayName,
  created_at: rfc3339(m.added),
});

export function modelList(
  db: Database,
  caller: Caller,
  forAnthropic: boolean,
  page: ModelPage,
):
  | { object: 'list'; data: OpenAiModel[] }
  | { data: AnthropicModel[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  const all = listed(db, caller, !forAnthropic);
  if (!forAnthropic) return { object: 'list', data: all.map(openAi) };
  const limit = page.limit ?? 20;
  const at = (field: 'after_id' | 'before_id', id: string) => {
    const index = all.findIndex((m) => m.id === id);
    if (index < 0) throw invalid(['query', field], `${id} is not a model of this list`);
    return index;
  };
  let from: number;
  let to: number;
  if (page.before_id !== undefined) {
    to = at('before_id', page.before_id);
    from = Math.max(0, to - limit);
  } else {
    from = page.after_id !== undefined ? at('after_id', page.after_id) + 1 : 0;
    to = Math.min(all.length, from + limit);
  }
  const data = all.slice(from, to).map(anthropic);
  const hasMore = page.before_id !== undefined ? from > 0 : to < all.length;
  return { data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}

export function modelById(
  db: Database,
  caller: Caller,
  id: string,
  forAnthropic: boolean,
): OpenAiModel | AnthropicModel {
  const found = listed(db, caller, !forAnthropic).find((m) => m.id === id);
  if (!found)
    throw new Problem(
      404,
      `The model ${id} does not exist here, or cannot answer here${caller.appId ? ' through this Space' : ''}: GET /v1/models lists those that can.`,
    );
  return forAnthropic ? anthropic(found) : openAi(found);
}
