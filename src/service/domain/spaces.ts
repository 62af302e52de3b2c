// Spaces (apps): records, detail views with their sandbox, creation, update with merge semantics.
import { randomUUID } from 'node:crypto';
import type {
  Permission,
  Policies,
  Space,
  SpaceDetail,
  SpaceSettings,
  SpaceUpdateBody,
  SpaceUpdateResponse,
  Weights,
} from '../../api/schemas';
import type { z } from 'zod';
import type { Database } from '../db';
import { forbidden, invalid, notFound } from '../problem';
import { laterThan, nowIso, parseJson, type Caller } from './caller';
import { issueToken, revokeSpaceKeys } from './auth';
import { isRetired } from '../../shared/models';
import { byListing } from '../providers/dataset';
import { providerKeys } from '../providers/keys';
import { findModel, requireModel, setFailoverChain, spaceModels, visibleModels, type CatalogueModel } from './models';
import { keptUntilChanged } from './configCache';
import { answersHere } from './serving';
import { findPrompt } from './prompts';
import { checkAssistantChoice } from './assistants';

export interface AppRow {
  id: string;
  org_id: string;
  identity_id: string;
  modified_by: string;
  name: string;
  description: string;
  app_logo: string;
  is_active: number;
  rate_limit: number;
  has_failover_chain: number;
  weights: string;
  policies: string;
  settings: string;
  sandbox_of: string | null;
  use_parent_custom_data: number;
  benchmark_model_id: string | null;
  prompt_id: string | null;
  hashed_key: string;
  key_end: string;
  added_on: string;
  modified_on: string;
}

export interface AppConfig {
  row: AppRow;
  weights: Weights;
  policies: Required<{ [K in keyof Policies]: NonNullable<Policies[K]> | null }>;
  settings: SpaceSettings;
}

type PermissionName = z.infer<typeof Permission>;
const ALL_PERMISSIONS: PermissionName[] = ['view', 'edit', 'delete', 'manage_keys', 'use_playground'];
const KEY_PERMISSIONS: PermissionName[] = ['view', 'use_playground'];

export const DEFAULT_WEIGHTS: Weights = { cost: 1, latency: 1, quality: 1 };
export const DEFAULT_POLICIES = {
  privacy_level: 1,
  max_cost: 0.02,
  max_switch_model_retries: 1,
  max_same_model_retries: 1,
  optimize_internal_requests: 0,
  prompt_id: null,
};

/**
 * Privacy levels 0-2 of 0.1.0 filtered models; levels 1-3 say what is logged. The old order (more
 * private upward) is kept: 0 becomes 1, 1 becomes 2, 2 becomes 3.
 */
export function migratePrivacyLevels(db: Database): void {
  for (const row of db.all<{ id: string; policies: string }>('SELECT id, policies FROM apps')) {
    const policies = parseJson<Record<string, unknown>>(row.policies, {});
    const old = typeof policies.privacy_level === 'number' ? policies.privacy_level : 0;
    db.run('UPDATE apps SET policies = $p WHERE id = $id', {
      id: row.id,
      p: JSON.stringify({ ...policies, privacy_level: Math.min(3, Math.max(1, old + 1)) }),
    });
  }
}
export const DEFAULT_SETTINGS = {
  assistant_id: null,
  assistant_version_id: null,
  instructions: '',
  max_tokens: 1024,
  temperature: 0.7,
};
/**
 * What a new Space starts with for a provider that has a key: our choice of each provider's current
 * small models in the shipped dataset (which does not say which models are current; a test keeps
 * every one of them in it). A provider without a choice here, or whose choices left the catalogue,
 * starts with its two cheapest models that call tools, of those models.dev lists if any (byListing).
 */
export const STARTERS: Readonly<Record<string, readonly string[]>> = {
  openai: ['openai/gpt-5.4-mini', 'openai/gpt-6-luna'],
  anthropic: ['anthropic/claude-haiku-4-5'],
  google: ['google/gemini-3.5-flash-lite', 'google/gemini-3.5-flash'],
  mistral: ['mistral/mistral-small-latest', 'mistral/mistral-medium-latest'],
  deepseek: ['deepseek/deepseek-v4-flash'],
  xai: ['xai/grok-4.3'],
  groq: ['groq/llama-3.3-70b-versatile'],
  moonshotai: ['moonshotai/kimi-k2.6', 'moonshotai/kimi-k2.5'],
  zai: ['zai/glm-5.3-flash', 'zai/glm-5.3'],
  zhipuai: ['zhipuai/glm-5.3-flash', 'zhipuai/glm-5.3'],
  minimax: ['minimax/MiniMax-M2.7', 'minimax/MiniMax-M3'],
  cohere: ['cohere/command-r7b-12-2024', 'cohere/command-a-03-2025'],
  // Nova Micro answers in its own region in the US; elsewhere Claude Haiku 4.5 from every region.
  bedrock: ['bedrock/amazon.nova-micro-v1:0', 'bedrock/global.anthropic.claude-haiku-4-5-20251001-v1:0'],
  // Gemini answers in every project; Claude once its terms are accepted in Vertex AI's Model Garden.
  vertex: ['vertex/gemini-3.5-flash-lite', 'vertex/claude-haiku-4-5'],
  // Azure's models answer only through deployments named as them: the ones most often made.
  azure: ['azure/gpt-4.1-mini', 'azure/gpt-4o-mini'],
};
/** The first Space's failover chain, of the models it starts with. */
const DEFAULT_FAILOVER = [...Object.values(STARTERS).map((names) => names[0]!), 'test/echo'];

export function permissionsOf(caller: Caller): PermissionName[] {
  return caller.appId ? KEY_PERMISSIONS : ALL_PERMISSIONS;
}

export function requirePermission(caller: Caller, permission: PermissionName): void {
  if (!permissionsOf(caller).includes(permission)) throw forbidden(`This key lacks the "${permission}" permission.`);
}

/** A Space of the caller's organization (and, for a Space key, that Space only); 404 otherwise. */
/** A Space of the caller's (kept until the configuration changes: never to be changed by the caller). */
export function loadApp(db: Database, caller: Caller, appId: string): AppRow {
  const row = keptUntilChanged(db, `app ${appId}`, () =>
    db.get<AppRow>('SELECT * FROM apps WHERE id = $id', { id: appId }),
  );
  if (!row || row.org_id !== caller.orgId || (caller.appId && caller.appId !== row.id)) throw notFound('Space');
  return row;
}

/** Each row's configuration, parsed once: loadApp hands out the same row until the Space changes. */
const configs = new WeakMap<AppRow, AppConfig>();

/** A Space's weights, policies and settings with their defaults; shared, so never to be changed. */
export function appConfig(row: AppRow): AppConfig {
  let config = configs.get(row);
  if (!config) {
    config = {
      row,
      weights: { ...DEFAULT_WEIGHTS, ...parseJson<Partial<Weights>>(row.weights, {}) },
      policies: { ...DEFAULT_POLICIES, ...parseJson<Partial<AppConfig['policies']>>(row.policies, {}) },
      settings: { ...DEFAULT_SETTINGS, ...parseJson<SpaceSettings>(row.settings, {}) },
    };
    configs.set(row, config);
  }
  return config;
}

export function spaceRecord(db: Database, caller: Caller, row: AppRow): Space {
  const config = appConfig(row);
  const benchmark = row.benchmark_model_id ? findModel(db, caller, row.benchmark_model_id)?.record : undefined;
  const prompt = row.prompt_id ? findPrompt(db, caller, row.prompt_id) : undefined;
  return {
    id: row.id,
    identity_id: row.identity_id,
    modified_by: row.modified_by,
    org_id: row.org_id,
    prompt_id: row.prompt_id,
    hashed_key: row.hashed_key,
    key_end: row.key_end,
    name: row.name,
    description: row.description,
    app_logo: row.app_logo,
    is_active: row.is_active === 1,
    rate_limit: row.rate_limit,
    has_failover_chain: row.has_failover_chain === 1,
    weights: config.weights,
    policies: config.policies,
    settings: config.settings,
    sandbox_of: row.sandbox_of,
    use_parent_custom_data: row.use_parent_custom_data === 1,
    benchmark_model_id: row.benchmark_model_id,
    benchmark_model: benchmark ?? null,
    prompt: prompt ?? null,
    added_on: row.added_on,
    modified_on: row.modified_on,
  };
}

function detail(db: Database, caller: Caller, row: AppRow): SpaceDetail {
  return {
    app: spaceRecord(db, caller, row),
    ...spaceModels(db, caller, row.id),
    current_user_permissions: permissionsOf(caller),
  };
}

/** The Space, its sandbox (the Space whose sandbox_of points at it) and whether that sandbox is behind. */
export function spaceView(db: Database, caller: Caller, appId: string): SpaceUpdateResponse {
  const main = loadApp(db, caller, appId);
  const sandbox = db.get<AppRow>(
    'SELECT * FROM apps WHERE sandbox_of = $id AND org_id = $org ORDER BY added_on LIMIT 1',
    { id: main.id, org: caller.orgId },
  );
  const visibleSandbox = sandbox && (!caller.appId || caller.appId === sandbox.id) ? sandbox : undefined;
  return {
    main: detail(db, caller, main),
    sandbox: visibleSandbox ? detail(db, caller, visibleSandbox) : null,
    sandbox_status: visibleSandbox ? (main.modified_on > visibleSandbox.modified_on ? 'outdated' : 'up_to_date') : null,
  };
}

export function listSpaces(db: Database, caller: Caller, query: { search: string; page: number; size: number }) {
  const params = {
    org: caller.orgId,
    app: caller.appId,
    search: `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
  };
  const where = "org_id = $org AND ($app IS NULL OR id = $app) AND name LIKE $search ESCAPE '\\'";
  const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM apps WHERE ${where}`, params)?.n ?? 0;
  const rows = db.all<AppRow>(`SELECT * FROM apps WHERE ${where} ORDER BY added_on, id LIMIT $size OFFSET $offset`, {
    ...params,
    size: query.size,
    offset: (query.page - 1) * query.size,
  });
  return {
    items: rows.map((r) => spaceRecord(db, caller, r)),
    total,
    page: query.page,
    size: query.size,
    pages: Math.ceil(total / query.size),
  };
}

/**
 * What a new Space routes to: the catalogue's default models and the local models, of those that can
 * answer here, and for a provider with a key but no default model, its starters (STARTERS). Test models only when nothing else answers: with a model server found or a key
 * added, a reply should come from a real model.
 */
function startingModels(db: Database, caller: Caller): CatalogueModel[] {
  const answering = visibleModels(db, caller).filter(
    (m) => m.record.org_id === null && !isRetired(m.record) && answersHere(db, m.record),
  );
  const chosen = answering.filter(
    (m) => !m.record.is_test_model && (m.record.default_active || m.record.provider === 'local'),
  );
  const covered = new Set(chosen.map((m) => m.record.provider));
  const byProvider = Map.groupBy(
    answering.filter(
      (m) =>
        !m.record.is_test_model &&
        !covered.has(m.record.provider) &&
        !m.record.deprecated_on &&
        m.record.supports_functions &&
        providerKeys.has(m.record.provider),
    ),
    (m) => m.record.provider,
  );
  const cheapest = [...byProvider.entries()].flatMap(([provider, models]) => {
    const starters = models.filter((m) => STARTERS[provider ?? '']?.includes(m.record.namespace));
    if (starters.length > 0) return starters;
    const { listed, unlisted } = byListing(models.map((m) => m.record));
    return (listed.length > 0 ? listed : unlisted).slice(0, 2).map((r) => models.find((m) => m.record === r)!);
  });
  const real = [...chosen, ...cheapest];
  return real.length > 0 ? real : answering.filter((m) => m.record.is_test_model && m.record.default_active);
}

function setStartingModels(db: Database, caller: Caller, appId: string): CatalogueModel[] {
  const starting = startingModels(db, caller);
  db.run('DELETE FROM app_models WHERE app_id = $id', { id: appId });
  for (const m of starting)
    db.run('INSERT INTO app_models (app_id, model_id, active, failover_position) VALUES ($app, $model, 1, NULL)', {
      app: appId,
      model: m.record.id,
    });
  // One model of each provider that answers, so that an outage of one fails over to another; at least
  // two where there are two. Found among the starting models themselves: a lookup in the catalogue
  // after the writes above would read it all again (the transaction changed the configuration).
  const chain = DEFAULT_FAILOVER.flatMap((ns) => starting.find((m) => m.record.namespace === ns) ?? []);
  const more = starting.filter((m) => !chain.includes(m));
  setFailoverChain(
    db,
    appId,
    [...chain, ...more.slice(0, Math.max(0, 2 - chain.length))].map((m) => m.record.id!),
  );
  return starting;
}

// The last one is what the first Space said before the service wrote what it routes to.
const ROUTING_DESCRIPTION = /^Routes (to|only to) |^Routes playground requests across the active models\.$/;

/** A Space's description that says what it routes to, in words; kept current until someone edits it. */
export function routingDescription(models: CatalogueModel[]): string {
  const real = models.filter((m) => !m.record.is_test_model);
  if (real.length === 0) {
    return 'Routes only to the test models, which answer without a model server. For real replies, add a provider key (Add Provider Key…), start a local model server (Ollama, LM Studio, llama.cpp or vLLM) and choose Refresh Local Models, or connect to the hosted service.';
  }
  const names = real.map((m) => m.record.model);
  const listed = names.length <= 3 ? names : [...names.slice(0, 3), `${names.length - 3} more`];
  const list = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}`;
  return `Routes to ${list}, ${real.length === 1 ? 'the model that answers' : 'the models that answer'} here.`;
}

/**
 * After model servers were found or lost: each Space nobody has changed since it was made follows
 * what answers now, and its description says so if it was written by the service.
 */
export function settleUntouchedSpaces(db: Database): number {
  const rows = db.all<AppRow>('SELECT * FROM apps WHERE modified_on = added_on');
  for (const row of rows) {
    const starting = setStartingModels(db, { orgId: row.org_id, appId: null, identity: row.identity_id }, row.id);
    if (ROUTING_DESCRIPTION.test(row.description))
      db.run('UPDATE apps SET description = $d WHERE id = $id', { d: routingDescription(starting), id: row.id });
  }
  return rows.length;
}

/** Marks a Space as changed by someone, so that settling no longer changes it. */
export function touchSpace(db: Database, appId: string): void {
  const row = db.get<{ modified_on: string }>('SELECT modified_on FROM apps WHERE id = $id', { id: appId });
  if (row) db.run('UPDATE apps SET modified_on = $now WHERE id = $id', { now: laterThan(row.modified_on), id: appId });
}

export interface NewSpace {
  name?: string | null;
  description?: string | null;
  app_logo?: string | null;
  sandboxOf?: string;
  id?: string;
  /** The description says what the Space routes to (and follows it until someone edits the Space). */
  describeRouting?: boolean;
}

export function insertSpace(db: Database, orgId: string, identity: string, space: NewSpace) {
  const id = space.id ?? randomUUID();
  const now = nowIso();
  const key = issueToken(db, orgId, id);
  db.run(
    `INSERT INTO apps (id, org_id, identity_id, modified_by, name, description, app_logo, weights, policies, settings, sandbox_of, hashed_key, key_end, added_on, modified_on)
     VALUES ($id, $org, $identity, $identity, $name, $description, $logo, $weights, $policies, $settings, $sandboxOf, $hash, $end, $now, $now)`,
    {
      id,
      org: orgId,
      identity,
      name: space.name ?? 'Untitled Space',
      description: space.description ?? '',
      logo: space.app_logo ?? '',
      weights: JSON.stringify(DEFAULT_WEIGHTS),
      policies: JSON.stringify(DEFAULT_POLICIES),
      settings: JSON.stringify(DEFAULT_SETTINGS),
      sandboxOf: space.sandboxOf ?? null,
      hash: key.hash,
      end: key.keyEnd,
      now,
    },
  );
  const caller: Caller = { orgId, appId: null, identity };
  const starting = setStartingModels(db, caller, id);
  if (space.describeRouting)
    db.run('UPDATE apps SET description = $d WHERE id = $id', { d: routingDescription(starting), id });
  return {
    id,
    org_id: orgId,
    created_key: key.token,
    key_end: key.keyEnd,
    name: space.name ?? 'Untitled Space',
    description: space.description ?? '',
  };
}

/**
 * A new key for a Space; the old one stops working at once. The new key is shown only now. The
 * Space's settings are as they were, so it is not marked changed: its sandbox stays up to date, and a
 * Space nobody has set up still follows the providers that answer.
 */
export function regenerateKey(db: Database, caller: Caller, appId: string): { created_key: string; key_end: string } {
  const row = loadApp(db, caller, appId);
  requirePermission(caller, 'manage_keys');
  revokeSpaceKeys(db, row.id);
  const key = issueToken(db, caller.orgId, row.id);
  db.run('UPDATE apps SET hashed_key = $hash, key_end = $end WHERE id = $id', {
    hash: key.hash,
    end: key.keyEnd,
    id: row.id,
  });
  return { created_key: key.token, key_end: key.keyEnd };
}

export function createSpace(
  db: Database,
  caller: Caller,
  body: { name?: string | null; description?: string | null; app_logo?: string | null },
) {
  if (caller.appId) throw forbidden('A Space key cannot create Spaces.');
  return insertSpace(db, caller.orgId, caller.identity, body);
}

/** Omitted or null fields keep their value; weights, policies and settings merge field by field. */
export function updateSpace(db: Database, caller: Caller, body: z.output<typeof SpaceUpdateBody>): SpaceUpdateResponse {
  const row = loadApp(db, caller, body.id);
  requirePermission(caller, 'edit');
  const current = appConfig(row);
  checkSandbox(db, caller, row, body.sandbox_of);
  if (body.benchmark_model_id) requireModel(db, caller, body.benchmark_model_id, ['body', 'benchmark_model_id']);
  if (body.policies?.prompt_id && !findPrompt(db, caller, body.policies.prompt_id))
    throw invalid(['body', 'policies', 'prompt_id'], 'Prompt not found', 'not_found');
  const settings = { ...current.settings, ...definedOnly(body.settings ?? {}) };
  // A newly sent version must belong to the assistant the merged settings name.
  if (body.settings?.assistant_id || body.settings?.assistant_version_id)
    checkAssistantChoice(db, row.id, settings.assistant_id, body.settings.assistant_version_id, ['body', 'settings']);
  const weights = { ...current.weights, ...definedOnly(body.weights ?? {}) } as Weights;
  if (weights.cost + weights.latency + weights.quality <= 0)
    throw invalid(['body', 'weights'], 'At least one weight must be greater than 0', 'value_error');
  const policies = { ...current.policies, ...definedOnly(body.policies ?? {}) };
  if (body.failover_model_ids) {
    body.failover_model_ids.forEach((id, i) => requireModel(db, caller, id, ['body', 'failover_model_ids', i]));
    if (new Set(body.failover_model_ids).size !== body.failover_model_ids.length)
      throw invalid(['body', 'failover_model_ids'], 'A model may appear only once in the failover chain');
    setFailoverChain(db, row.id, body.failover_model_ids);
  }
  db.run(
    `UPDATE apps SET name = $name, description = $description, app_logo = $logo, has_failover_chain = $failover, weights = $weights,
       policies = $policies, settings = $settings, sandbox_of = $sandboxOf, use_parent_custom_data = $parentData,
       benchmark_model_id = $benchmark, prompt_id = $promptId, modified_by = $identity, modified_on = $now WHERE id = $id`,
    {
      id: row.id,
      name: body.name ?? row.name,
      description: body.description ?? row.description,
      logo: body.app_logo ?? row.app_logo,
      failover: body.has_failover_chain ?? row.has_failover_chain === 1,
      weights: JSON.stringify(weights),
      policies: JSON.stringify(policies),
      settings: JSON.stringify(settings),
      sandboxOf: body.sandbox_of ?? row.sandbox_of,
      parentData: body.use_parent_custom_data ?? row.use_parent_custom_data === 1,
      benchmark: body.benchmark_model_id ?? row.benchmark_model_id,
      promptId: policies.prompt_id ?? row.prompt_id,
      identity: caller.identity,
      now: laterThan(row.modified_on),
    },
  );
  return spaceView(db, caller, row.id);
}

function checkSandbox(db: Database, caller: Caller, row: AppRow, sandboxOf: string | null | undefined): void {
  if (!sandboxOf || sandboxOf === row.sandbox_of) return;
  const loc = ['body', 'sandbox_of'];
  if (sandboxOf === row.id) throw invalid(loc, 'A Space cannot be its own sandbox');
  const target = db.get<AppRow>('SELECT * FROM apps WHERE id = $id AND org_id = $org', {
    id: sandboxOf,
    org: caller.orgId,
  });
  if (!target) throw invalid(loc, 'Space not found', 'not_found');
  if (target.sandbox_of) throw invalid(loc, 'That Space is itself a sandbox');
  if (db.get('SELECT 1 AS x FROM apps WHERE sandbox_of = $id', { id: row.id }))
    throw invalid(loc, 'This Space has a sandbox of its own, so it cannot become a sandbox');
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
