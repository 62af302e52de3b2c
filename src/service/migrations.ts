// Versioned migrations: PRAGMA user_version holds how many have been applied. Never edit a shipped
// migration; append a new one.
import type { Database } from './db';
import { CATALOGUE, PUBLIC_PROMPTS, SERVICE_ORG_ID, catalogueRecord, stableId } from './catalogue';
import { insertCatalogueModel } from './domain/models';
import { insertOrganization, migrateAlertStamps } from './domain/orgs';
import { migratePrivacyLevels } from './domain/spaces';
import { insertSeedPrompt } from './domain/prompts';
import { KEPT_RESPONSES_SCHEMA, RESPONSE_ITEMS_SCHEMA } from './domain/responseItems';
import { RESPONSE_CONVERSATIONS_SCHEMA } from './domain/responseConversations';
import { SERVING_SCHEMA } from './domain/serving';
import { migrateDeploymentParents } from './providers/azureDeployments';

/** One step of the schema; `from` is the version the database had before this run (0: new). */
type Migration = (db: Database, from: number) => void;

const SCHEMA = `
CREATE TABLE orgs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  creator TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  profile TEXT NOT NULL,
  rate_limit INTEGER NOT NULL DEFAULT 200,
  metrics_id TEXT, metrics_token TEXT, metrics_endpoint TEXT,
  logs_id TEXT, logs_token TEXT, logs_endpoint TEXT,
  alert_emails TEXT,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens INTEGER NOT NULL DEFAULT 0,
  prompt_tokens_cost REAL NOT NULL DEFAULT 0,
  completion_tokens_cost REAL NOT NULL DEFAULT 0,
  total_tokens_cost REAL NOT NULL DEFAULT 0,
  prompt_tokens_cost_savings REAL NOT NULL DEFAULT 0,
  completion_tokens_cost_savings REAL NOT NULL DEFAULT 0,
  total_tokens_cost_savings REAL NOT NULL DEFAULT 0,
  num_requests INTEGER NOT NULL DEFAULT 0,
  added_on TEXT NOT NULL,
  modified_on TEXT NOT NULL
);
CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  key_end TEXT NOT NULL,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  app_id TEXT,
  added_on TEXT NOT NULL
);
CREATE TABLE models (
  id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL UNIQUE,
  org_id TEXT,
  record TEXT NOT NULL,
  quality REAL NOT NULL,
  latency_ms REAL NOT NULL
);
CREATE TABLE apps (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  identity_id TEXT NOT NULL,
  modified_by TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  app_logo TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1,
  rate_limit INTEGER NOT NULL DEFAULT 200,
  has_failover_chain INTEGER NOT NULL DEFAULT 1,
  weights TEXT NOT NULL,
  policies TEXT NOT NULL,
  settings TEXT NOT NULL,
  sandbox_of TEXT REFERENCES apps(id),
  use_parent_custom_data INTEGER NOT NULL DEFAULT 0,
  benchmark_model_id TEXT REFERENCES models(id),
  prompt_id TEXT,
  hashed_key TEXT NOT NULL,
  key_end TEXT NOT NULL,
  added_on TEXT NOT NULL,
  modified_on TEXT NOT NULL
);
CREATE INDEX apps_org ON apps(org_id, added_on);
CREATE TABLE app_models (
  app_id TEXT NOT NULL REFERENCES apps(id),
  model_id TEXT NOT NULL REFERENCES models(id),
  active INTEGER NOT NULL,
  failover_position INTEGER,
  PRIMARY KEY (app_id, model_id)
);
CREATE TABLE prompts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  is_public INTEGER NOT NULL DEFAULT 0,
  prompt TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  published_on TEXT, reviewed_on TEXT, approved_on TEXT, decline_reason TEXT,
  added_on TEXT NOT NULL,
  modified_on TEXT NOT NULL
);
CREATE INDEX prompts_org ON prompts(org_id, modified_on);
CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps(id),
  name TEXT NOT NULL,
  settings TEXT,
  deleted_on TEXT,
  added_on TEXT NOT NULL,
  modified_on TEXT NOT NULL
);
CREATE INDEX conversations_app ON conversations(app_id, modified_on);
CREATE TABLE assistants (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps(id),
  name TEXT NOT NULL,
  description TEXT,
  visibility TEXT NOT NULL DEFAULT 'org',
  added_on TEXT NOT NULL,
  modified_on TEXT NOT NULL
);
CREATE TABLE assistant_versions (
  id TEXT PRIMARY KEY,
  assistant_id TEXT NOT NULL REFERENCES assistants(id),
  identity_id TEXT,
  published INTEGER NOT NULL DEFAULT 0,
  persona TEXT, instructions TEXT, greeting TEXT, writing_style TEXT, sample_interactions TEXT,
  model_id TEXT, temperature REAL, max_tokens INTEGER,
  added_on TEXT NOT NULL,
  modified_on TEXT NOT NULL
);
CREATE TABLE requests (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  app_id TEXT NOT NULL,
  conversation_id TEXT,
  parent_request_id TEXT,
  model TEXT,
  prompt TEXT NOT NULL,
  response TEXT,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  total_tokens INTEGER NOT NULL,
  cost REAL NOT NULL,
  cost_savings REAL NOT NULL,
  latency REAL NOT NULL,
  status_code INTEGER NOT NULL,
  error TEXT,
  added_on TEXT NOT NULL
);
CREATE INDEX requests_conversation ON requests(conversation_id, added_on);
CREATE INDEX requests_app ON requests(app_id, added_on);
`;

const CONFIG_TABLES = ['models', 'apps', 'app_models'];
const CONFIG_VERSION_SCHEMA = [
  'CREATE TABLE config_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);',
  'INSERT INTO config_version (id, version) VALUES (1, 0);',
  ...CONFIG_TABLES.flatMap((table) =>
    ['INSERT', 'UPDATE', 'DELETE'].map(
      (event) =>
        `CREATE TRIGGER ${table}_${event.toLowerCase()}_counted AFTER ${event} ON ${table} BEGIN UPDATE config_version SET version = version + 1; END;`,
    ),
  ),
].join('\n');

function seedCatalogue(db: Database): void {
  for (const m of CATALOGUE)
    insertCatalogueModel(db, catalogueRecord(m, '2026-01-01T00:00:00.000Z'), {
      quality: m.quality,
      latencyMs: m.latencyMs,
    });
}

function seedPublic(db: Database): void {
  insertOrganization(db, {
    id: SERVICE_ORG_ID,
    name: 'LLM Spaces',
    creator: 'llm-spaces',
    isDefault: false,
    seedContent: false,
  });
  PUBLIC_PROMPTS.forEach((p, i) => insertSeedPrompt(db, SERVICE_ORG_ID, true, p, i));
}

function seedDefaultOrganization(db: Database): void {
  insertOrganization(db, {
    id: stableId('org', 'default'),
    name: 'My organization',
    creator: 'local-user',
    isDefault: true,
    seedContent: true,
  });
}

const MIGRATIONS: Migration[] = [
  (db) => db.exec(SCHEMA),
  seedCatalogue,
  seedPublic,
  seedDefaultOrganization,
  // The request log's retention deletes by age.
  (db) => db.exec('CREATE INDEX requests_added ON requests(added_on)'),
  // Alert e-mail stamps are ISO timestamps, as the hosted service answers them.
  migrateAlertStamps,
  // Privacy levels say what the request log keeps (1-3), no longer which models may answer (0-2).
  // The log keeps each row's level (rows before: 1). Adding a column with a default rewrites no row.
  (db, from) => {
    // A new database was seeded above with today's levels already.
    if (from > 0) migratePrivacyLevels(db);
    db.exec('ALTER TABLE requests ADD COLUMN privacy_level INTEGER NOT NULL DEFAULT 1');
  },
  // Which model server serves each local model found on this computer, and whether it answered last.
  (db) => db.exec(SERVING_SCHEMA),
  // A counter of changes to the configuration (the catalogue, the Spaces and their models), kept by
  // the database itself: what every request reads is kept parsed until it changes (domain/configCache.ts).
  (db) => db.exec(CONFIG_VERSION_SCHEMA),
  // The output items of Responses answers, for a later request's item_reference (domain/responseItems.ts).
  (db) => db.exec(RESPONSE_ITEMS_SCHEMA),
  // Each kept response's own input and the one it continued, for a later previous_response_id.
  (db) => db.exec(KEPT_RESPONSES_SCHEMA),
  // Each kept response as it was answered, for GET /v1/responses/{id}.
  (db) => db.exec('ALTER TABLE kept_responses ADD COLUMN answer TEXT'),
  // The pages each reply cites (its web search's), so that a conversation read again shows them.
  (db) => db.exec('ALTER TABLE requests ADD COLUMN sources TEXT'),
  // Google's Search Suggestions for a Gemini model's grounded reply, shown with it when read again.
  (db) => db.exec('ALTER TABLE requests ADD COLUMN search_suggestions TEXT'),
  // An Azure deployment keeps the model it runs as its parent (providers/azureDeployments.ts).
  migrateDeploymentParents,
  // OpenAI's conversations, kept by a Space with their items (domain/responseConversations.ts).
  (db) => db.exec(RESPONSE_CONVERSATIONS_SCHEMA),
  // Of each reply's tokens, those read from the provider's cache and those the model reasoned in, as its
  // provider counted them (null where it did not), so that a conversation read again shows them.
  (db) => addMissingColumns(db, 'requests', ['cached_tokens INTEGER', 'reasoning_tokens INTEGER']),
];

/** Adds the columns a table lacks (as it is when a database's version was set back to run a migration again). */
function addMissingColumns(db: Database, table: string, columns: string[]): void {
  const has = new Set(db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`).map((c) => c.name));
  for (const column of columns)
    if (!has.has(column.split(' ')[0]!)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column}`);
}

/** The version a database had before this migration ran (its place among them). */
export const versionBefore = (migration: Migration) => MIGRATIONS.indexOf(migration);

/** How many migrations this database has not seen. */
export function pendingMigrations(db: Database): number {
  return MIGRATIONS.length - Number(db.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
}

/** Applies the migrations this database has not seen; returns how many ran. */
export function migrate(db: Database): number {
  const version = Number(db.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
  for (let i = version; i < MIGRATIONS.length; i++) MIGRATIONS[i]!(db, version);
  if (version < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  return MIGRATIONS.length - version;
}
