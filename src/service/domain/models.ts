// The model catalogue as a caller sees it, and the models of a Space.
import type { ModelRecord, ModelSetting } from '../../api/schemas';
import type { Database } from '../db';
import { dayLabel } from '../../shared/labels';
import { isRetired, lineSuccessor } from '../../shared/models';
import { BEDROCK_GEOGRAPHY_PROFILE, ownsBareNames } from '../../shared/providerNames';
import { invalid, notFound } from '../problem';
import { parseJson, type Caller } from './caller';
import { keptUntilChanged } from './configCache';
import { inKeysLocation } from '../providers/dataset';
import { servingFields } from './serving';

export interface CatalogueModel {
  record: ModelRecord;
  quality: number;
  latencyMs: number;
}

interface ModelRow {
  id: string;
  record: string;
  quality: number;
  latency_ms: number;
}

function toModel(row: ModelRow): CatalogueModel {
  return {
    record: parseJson<ModelRecord>(row.record, {} as ModelRecord),
    quality: row.quality,
    latencyMs: row.latency_ms,
  };
}

/**
 * Adds (or, found again, updates) a model of the catalogue, with the figures routing scores it by: a
 * public one, or an organization's own (`org_id`), whose namespace is unique only within it.
 */
export function insertCatalogueModel(
  db: Database,
  record: ModelRecord,
  figures: { quality: number; latencyMs: number },
): void {
  const org = record.org_id ?? null;
  db.run(
    `INSERT INTO models (id, namespace, org_id, record, quality, latency_ms) VALUES ($id, $namespace, $org, $record, $quality, $latency)
     ON CONFLICT (id) DO UPDATE SET record = $record, quality = $quality, latency_ms = $latency`,
    {
      id: record.id,
      namespace: org ? `${org}:${record.namespace}` : record.namespace,
      org,
      record: JSON.stringify(record),
      quality: figures.quality,
      latency: figures.latencyMs,
    },
  );
}

/** Who seeded the hosted providers' models by hand before they came from a dataset. */
const HAND_SEEDED = 'llm-spaces';
/** Models that are ours and no dataset's: they stay whatever a dataset says. */
const OURS = new Set(['test', 'local']);

/**
 * Brings the public catalogue's hosted models up to the shipped dataset: new ones are added, changed
 * ones updated (their quality and latency prior too), the same ones left alone, so a start writes
 * nothing when the dataset has not changed. A hosted model of an earlier catalogue (written by hand
 * before, or dropped from the dataset since) stays, so every Space that names it still opens, but is
 * marked retired from `today` on, with a word why. Answers how many rows it wrote.
 */
export function syncCatalogueModels(
  db: Database,
  models: ReadonlyArray<{ record: ModelRecord; quality: number; latencyMs: number }>,
  source: string,
  today: string,
): number {
  const stored = new Map(
    db
      .all<{ id: string; record: string; quality: number; latency_ms: number }>(
        'SELECT id, record, quality, latency_ms FROM models WHERE org_id IS NULL',
      )
      .map((row) => [row.id, row]),
  );
  /** A record as compared: without the stamps a sync writes. */
  const essence = (record: ModelRecord) => JSON.stringify({ ...record, added_on: null, modified_on: null });
  let written = 0;
  for (const m of models) {
    const row = stored.get(m.record.id!);
    stored.delete(m.record.id!);
    const before = row ? parseJson<ModelRecord>(row.record, {} as ModelRecord) : undefined;
    const record = before ? { ...m.record, default_active: before.default_active } : m.record;
    if (before && essence(before) === essence(record) && row!.quality === m.quality) continue;
    insertCatalogueModel(db, record, m);
    written++;
  }
  for (const row of stored.values()) {
    const before = parseJson<ModelRecord>(row.record, {} as ModelRecord);
    const earlier = before.added_by === HAND_SEEDED || before.added_by === source;
    if (!earlier || OURS.has(before.provider ?? '') || before.is_test_model || isRetired(before, today)) continue;
    const record: ModelRecord = {
      ...before,
      deprecated_on: today,
      description: `${before.description} No longer in the catalogue's dataset (${source}): kept for the Spaces that name it.`,
    };
    insertCatalogueModel(db, record, { quality: row.quality, latencyMs: row.latency_ms });
    written++;
  }
  return written;
}

interface Catalogue {
  models: CatalogueModel[];
  byId: Map<string, CatalogueModel>;
  byNamespace: Map<string, CatalogueModel>;
  /** By bare name (`gpt-4o`): null where several models have it. */
  byBareName: Map<string, CatalogueModel | null>;
}

/**
 * The catalogue an organization sees, parsed once and kept until it changes (configCache.ts): reading
 * and parsing hundreds of model records for each chat was most of a chat's time under load.
 */
function catalogue(db: Database, orgId: string): Catalogue {
  return keptUntilChanged(db, `catalogue ${orgId}`, () => {
    const models = db
      .all<ModelRow>(
        'SELECT id, record, quality, latency_ms FROM models WHERE org_id IS NULL OR org_id = $org ORDER BY namespace',
        { org: orgId },
      )
      .map(toModel);
    const byNamespace = new Map<string, CatalogueModel>();
    const byBareName = new Map<string, CatalogueModel | null>();
    for (const m of models) {
      if (!byNamespace.has(m.record.namespace)) byNamespace.set(m.record.namespace, m);
      if (ownsBareNames(m.record.provider)) byBareName.set(m.record.model, byBareName.has(m.record.model) ? null : m);
    }
    // A Bedrock model the price list names by a label of its own (`global.anthropic.claude-opus-4-6-v1:0`)
    // is also found by Bedrock's id (`global.anthropic.claude-opus-4-6-v1`, with or without `bedrock/`),
    // as AWS's tools name it.
    for (const m of models) {
      const own = m.record.provider === 'bedrock' && m.record.api_target;
      if (!own || own === m.record.model) continue;
      if (!byNamespace.has(`bedrock/${own}`)) byNamespace.set(`bedrock/${own}`, m);
      if (!byBareName.has(own)) byBareName.set(own, m);
    }
    // Azure's `gpt-4o-mini` is OpenAI's model: it takes a bare name only where no maker's model has it.
    for (const m of models)
      if (!ownsBareNames(m.record.provider) && !byBareName.has(m.record.model)) byBareName.set(m.record.model, m);
    const byId = new Map(models.map((m) => [String(m.record.id), m]));
    // A model made of another (an Azure deployment named as its owner chose) carries the record it runs.
    for (const m of models) if (m.record.parent_id) m.record.parent = byId.get(m.record.parent_id)?.record ?? null;
    return { models, byId, byNamespace, byBareName };
  });
}

/** Public models and the caller organization's own, ordered by namespace. */
export function visibleModels(db: Database, caller: Caller): CatalogueModel[] {
  return catalogue(db, caller.orgId).models;
}

export function listModels(db: Database, caller: Caller): ModelRecord[] {
  // Priced where the provider's key reaches it (a Vertex AI region's premium), as routing and billing price it.
  const models = visibleModels(db, caller).map((m) => ({
    ...inKeysLocation(m.record),
    ...servingFields(db, m.record),
  }));
  const byId = new Map(models.map((m) => [m.id, m]));
  return models.map((m) => ({ ...m, parent: m.parent_id ? (byId.get(m.parent_id) ?? null) : null }));
}

export function findModel(db: Database, caller: Caller, id: string): CatalogueModel | undefined {
  return catalogue(db, caller.orgId).byId.get(id);
}

/**
 * A model by namespace (`openai/gpt-4o`), by id, or by bare name when that name is unambiguous; a
 * geography's Bedrock profile by Bedrock's own name (`bedrock/eu.anthropic.claude-…`).
 */
export function findModelByName(db: Database, caller: Caller, name: string): CatalogueModel | undefined {
  const { byNamespace, byId, byBareName } = catalogue(db, caller.orgId);
  return byNamespace.get(name) ?? byId.get(name) ?? byBareName.get(name) ?? geographyProfile(byNamespace, name);
}

/**
 * What to ask for in place of a retired model (its line's successor, `lineSuccessor`), named as the
 * client named the retired one: by its bare name when the client used one and that name is the
 * successor's alone, else by its namespace.
 */
export function successorName(db: Database, caller: Caller, model: ModelRecord, asked: string): string | undefined {
  const next = lineSuccessor(
    model,
    visibleModels(db, caller).map((m) => m.record),
  );
  if (!next) return undefined;
  const bare = !asked.includes('/') && findModelByName(db, caller, next.model)?.record.id === next.id;
  return bare ? next.model : next.namespace;
}

/**
 * A geography's Bedrock profile asked by Bedrock's name: the catalogue's `regional.` model of it (its
 * price and capabilities), sent as exactly that profile, which the key's region must list.
 */
function geographyProfile(byNamespace: Map<string, CatalogueModel>, name: string): CatalogueModel | undefined {
  const profile = BEDROCK_GEOGRAPHY_PROFILE.exec(name);
  const regional = profile && byNamespace.get(`bedrock/regional.${profile[2]}`);
  return regional
    ? { ...regional, record: { ...regional.record, api_target: `${profile[1]}.${profile[2]}` } }
    : undefined;
}

export function requireModel(db: Database, caller: Caller, id: string, loc: Array<string | number>): CatalogueModel {
  const model = findModel(db, caller, id);
  if (!model) throw invalid(loc, 'Model not found', 'not_found');
  return model;
}

interface AppModelRow {
  model_id: string;
  active: number;
  failover_position: number | null;
}

/** A Space's models: kept until the configuration changes, so never to be changed by the caller. */
export function appModelRows(db: Database, appId: string): readonly AppModelRow[] {
  return keptUntilChanged(db, `app models ${appId}`, () =>
    db.all<AppModelRow>('SELECT model_id, active, failover_position FROM app_models WHERE app_id = $app', {
      app: appId,
    }),
  );
}

export interface SpaceModelView {
  active_models: number;
  base_model_settings: ModelSetting[];
  custom_model_settings: ModelSetting[];
  failover_models: ModelRecord[];
}

/** Catalogue models are the base settings; the organization's own models are the custom ones. */
export function spaceModels(db: Database, caller: Caller, appId: string): SpaceModelView {
  const rows = new Map(appModelRows(db, appId).map((r) => [r.model_id, r]));
  const models = visibleModels(db, caller);
  const setting = ({ record }: CatalogueModel): ModelSetting => {
    const retired = isRetired(record);
    return {
      model: record.model,
      provider: record.provider ?? null,
      owner: record.owner ?? null,
      namespace: record.namespace,
      at: record.at ?? null,
      context_window: record.context_window,
      until: record.until,
      description: record.description,
      url: record.url,
      api_target: record.api_target ?? '',
      deprecated_on: record.deprecated_on ?? null,
      parent_id: record.parent_id ?? null,
      parent: null,
      prompt_id: null,
      id: record.id ?? '',
      active: !retired && rows.get(record.id ?? '')?.active === 1,
      globally_disabled: retired,
      ...servingFields(db, record),
    };
  };
  const base = models.filter((m) => m.record.org_id === null).map(setting);
  const custom = models.filter((m) => m.record.org_id !== null).map(setting);
  const failover = [...rows.values()]
    .filter((r) => r.failover_position !== null)
    .sort((a, b) => (a.failover_position ?? 0) - (b.failover_position ?? 0))
    .flatMap((r) => models.filter((m) => m.record.id === r.model_id).map((m) => inKeysLocation(m.record)));
  return {
    active_models: [...base, ...custom].filter((s) => s.active).length,
    base_model_settings: base,
    custom_model_settings: custom,
    failover_models: failover,
  };
}

export function toggleModel(db: Database, caller: Caller, appId: string, modelId: string, enable: boolean) {
  const model = findModel(db, caller, modelId);
  if (!model) throw notFound('Model');
  if (enable && isRetired(model.record)) {
    const next = successorName(db, caller, model.record, model.record.namespace);
    throw invalid(
      ['path', 'model_id'],
      `${model.record.namespace} was retired on ${dayLabel(model.record.deprecated_on!)} and can no longer be enabled${next ? `: enable ${next} in its place` : ''}`,
      'model_deprecated',
    );
  }
  db.run(
    `INSERT INTO app_models (app_id, model_id, active, failover_position) VALUES ($app, $model, $active, NULL)
     ON CONFLICT (app_id, model_id) DO UPDATE SET active = $active`,
    { app: appId, model: modelId, active: enable },
  );
  return { success: true, model: model.record.namespace, active: enable };
}

export function setFailoverChain(db: Database, appId: string, modelIds: string[]): void {
  db.run('UPDATE app_models SET failover_position = NULL WHERE app_id = $app', { app: appId });
  modelIds.forEach((modelId, position) => {
    db.run(
      `INSERT INTO app_models (app_id, model_id, active, failover_position) VALUES ($app, $model, 0, $position)
       ON CONFLICT (app_id, model_id) DO UPDATE SET failover_position = $position`,
      { app: appId, model: modelId, position },
    );
  });
}
