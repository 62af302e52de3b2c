// Azure OpenAI deployments of an organization (built-in service only). Azure reaches a model only
// through a deployment, named as its owner chose: the catalogue's `azure/gpt-4o-mini` is a deployment
// named `gpt-4o-mini`. One named otherwise (`prod-gpt5`), or of a model the catalogue's Azure list
// lacks, is added here as the organization's own model, `azure/<deployment>`, with the price and
// capabilities of the OpenAI model it runs; Spaces route to it like any other.
import type { AzureDeploymentBody, ModelRecord } from '../../api/schemas';
import { isRetired } from '../../shared/models';
import { stableId } from '../catalogue';
import type { Database } from '../db';
import { nowIso, parseJson, type Caller } from '../domain/caller';
import { findModelByName, insertCatalogueModel, successorName } from '../domain/models';
import { retired } from '../chat/prepare';
import { Problem, invalid, notFound } from '../problem';

/** A deployment's model id: its namespace is the organization's own. */
const deploymentId = (caller: Caller, deployment: string) => stableId('model', `${caller.orgId}:azure/${deployment}`);

export function addAzureDeployment(
  db: Database,
  caller: Caller,
  deployment: string,
  body: AzureDeploymentBody,
): ModelRecord {
  const namespace = `azure/${deployment}`;
  const taken = findModelByName(db, caller, namespace);
  if (taken && taken.record.org_id === null)
    throw new Problem(
      409,
      `${namespace} is in the catalogue already: a deployment named ${deployment} answers as it, with nothing to add`,
    );
  const source = findModelByName(db, caller, body.model);
  if (!source || (source.record.provider !== 'openai' && source.record.provider !== 'azure') || source.record.org_id)
    throw invalid(['body', 'model'], `"${body.model}" is not an OpenAI model of the catalogue`, 'not_found');
  if (isRetired(source.record))
    throw retired(source.record, ['body', 'model'], successorName(db, caller, source.record, body.model));
  const now = nowIso();
  const record: ModelRecord = {
    ...source.record,
    // The model it runs, by which its abilities are known whatever its name (its tool search: webSearches.ts).
    parent_id: source.record.id ?? null,
    parent: undefined,
    id: deploymentId(caller, deployment),
    namespace,
    model: deployment,
    api_target: deployment,
    provider: 'azure',
    description: `Your Azure OpenAI deployment ${deployment}, of ${source.record.namespace}.`,
    org_id: caller.orgId,
    app_id: null,
    is_public: false,
    is_service_owner: false,
    default_active: false,
    added_by: caller.identity,
    added_on: taken?.record.added_on ?? now,
    modified_on: now,
  };
  insertCatalogueModel(db, record, source);
  return record;
}

/** Forgets a deployment, and takes it out of the organization's Spaces. */
export function removeAzureDeployment(db: Database, caller: Caller, deployment: string): { success: true } {
  const id = deploymentId(caller, deployment);
  if (!db.get('SELECT 1 AS found FROM models WHERE id = $id AND org_id = $org', { id, org: caller.orgId }))
    throw notFound(`The Azure deployment ${deployment}`);
  db.run('DELETE FROM app_models WHERE model_id = $id', { id });
  db.run('DELETE FROM models WHERE id = $id', { id });
  return { success: true };
}

/**
 * A deployment added before it kept the model it runs (its parent) is given it from its description,
 * which has always named that model (`…, of openai/gpt-5.4.`): its abilities then follow the model.
 */
export function migrateDeploymentParents(db: Database): void {
  const rows = db.all<{ id: string; record: string }>(
    "SELECT id, record FROM models WHERE org_id IS NOT NULL AND namespace LIKE '%:azure/%'",
  );
  for (const row of rows) {
    const record = parseJson<ModelRecord>(row.record, {} as ModelRecord);
    const runs = record.parent_id ? undefined : /, of (\S+)\.$/.exec(record.description ?? '')?.[1];
    const parent = runs && db.get<{ id: string }>('SELECT id FROM models WHERE namespace = $ns', { ns: runs });
    if (parent)
      db.run('UPDATE models SET record = $record WHERE id = $id', {
        id: row.id,
        record: JSON.stringify({ ...record, parent_id: parent.id }),
      });
  }
}
