// GET /v1/models in OpenAI's list form, for tools that ask which models there are: the models that can
// answer here, and each Space by its name, which lets the Space route (for tools that must name a
// model). A Space key sees its own Space and the models it has turned on.
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { appModelRows, findModel, visibleModels, type CatalogueModel } from '../domain/models';
import { answersHere } from '../domain/serving';
import { isRetired } from '../../shared/models';

interface ListedModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

const seconds = (iso: string | null | undefined) => Math.floor(Date.parse(iso ?? '') / 1000) || 0;

export function openAiModelList(db: Database, caller: Caller): { object: 'list'; data: ListedModel[] } {
  const spaces = db.all<{ id: string; name: string | null; added_on: string }>(
    'SELECT id, name, added_on FROM apps WHERE org_id = $org AND ($app IS NULL OR id = $app) ORDER BY added_on',
    { org: caller.orgId, app: caller.appId },
  );
  const models: CatalogueModel[] = caller.appId
    ? appModelRows(db, caller.appId)
        .filter((row) => row.active === 1)
        .flatMap((row) => findModel(db, caller, row.model_id) ?? [])
    : visibleModels(db, caller);
  return {
    object: 'list',
    data: [
      ...spaces
        .filter((s) => s.name)
        .map((s) => ({ id: s.name!, object: 'model' as const, created: seconds(s.added_on), owned_by: 'llm-spaces' })),
      ...models
        .filter((m) => !isRetired(m.record) && answersHere(db, m.record))
        .map((m) => ({
          id: m.record.namespace,
          object: 'model' as const,
          created: seconds(m.record.added_on),
          owned_by: m.record.provider ?? 'llm-spaces',
        })),
    ],
  };
}
