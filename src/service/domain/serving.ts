// Which models can answer here, and where their requests go. Test models answer inside the service.
// A `local/…` model answers while the model server it was found on answers (the `model_servers`
// table, written by discovery, see ../modelServers.ts). Every other model answers only when the
// service forwards to an upstream given by the user (--upstream, e.g. a LiteLLM proxy or an Ollama
// serving the catalogue's own local models).
import { providerKeys } from '../providers/keys';
import { keyKindRefusal, offeredModels } from '../providers/offered';
import { providerSpec } from '../providers/providers';
import type { ModelRecord } from '../../api/schemas';
import type { Database } from '../db';

export interface Serving {
  /** Base URL of the OpenAI-compatible API, ending in /v1. */
  baseUrl: string;
  /** For people: "Ollama (port 11434)". */
  server: string;
  /** The model's name on that server, when it differs from the record's api_target. */
  target: string | null;
  available: boolean;
}

interface ServingRow {
  model_id: string;
  base_url: string;
  server: string;
  target: string | null;
  available: number;
}

export const SERVING_SCHEMA = `CREATE TABLE model_servers (
  model_id TEXT PRIMARY KEY,
  base_url TEXT NOT NULL,
  server TEXT NOT NULL,
  target TEXT,
  available INTEGER NOT NULL,
  checked_on TEXT NOT NULL
)`;

/** Where this service forwards the requests of catalogue models that are neither test nor local. */
const forwarding = new WeakMap<Database, { baseUrl: string; server: string; target: null }>();

export function setForwarding(db: Database, baseUrl: string | null): void {
  if (baseUrl) forwarding.set(db, { baseUrl, server: hostOf(baseUrl), target: null });
  else forwarding.delete(db);
}

/** Where an embedding model of a model server answers (POST /v1/embeddings), and its names there and here. */
export interface EmbeddingServing {
  baseUrl: string;
  /** As the server names it: `nomic-embed-text:latest`. */
  target: string;
  /** As requests and the log name it: `local/nomic-embed-text`. */
  namespace: string;
}

/** The embedding models the last refresh found, by their names here (not in the catalogue). */
const embeddingServers = new WeakMap<Database, ReadonlyMap<string, EmbeddingServing>>();

export function setEmbeddingServers(db: Database, found: readonly EmbeddingServing[]): void {
  embeddingServers.set(db, new Map(found.map((served) => [served.namespace, served])));
}

/** The model servers' embedding models the last refresh found. */
export function servedEmbeddingModels(db: Database): EmbeddingServing[] {
  return [...(embeddingServers.get(db)?.values() ?? [])];
}

/**
 * Where a model server's embedding model, named as its server names it or as `local/<name>` (with or
 * without Ollama's `:latest`), answers: one a refresh found, else the first --upstream URL, which this
 * service forwards any name to.
 */
export function embeddingServing(db: Database, name: string): EmbeddingServing | null {
  const local = embeddingServers.get(db)?.get(`local/${localName(name.replace(/^local\//, ''))}`);
  if (local) return local;
  const forward = forwarding.get(db);
  return forward
    ? { baseUrl: forward.baseUrl, target: name, namespace: name.includes('/') ? name : `local/${name}` }
    : null;
}

/** `llama3.2:latest` is offered as `local/llama3.2`: the tag everyone leaves out. */
export const localName = (id: string) => id.replace(/:latest$/, '');

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

const tables = new WeakMap<Database, { version: number; rows: Map<string, Serving> }>();

function servingTable(db: Database): Map<string, Serving> {
  const cached = tables.get(db);
  if (cached && cached.version === db.version && !db.inTransaction) return cached.rows;
  // Migrations that seed Spaces run before the migration that makes this table: nothing serves yet.
  if (!db.get('SELECT 1 AS found FROM sqlite_master WHERE name = $name', { name: 'model_servers' })) return new Map();
  const rows = new Map(
    db
      .all<ServingRow>('SELECT model_id, base_url, server, target, available FROM model_servers')
      .map((r) => [
        r.model_id,
        { baseUrl: r.base_url, server: r.server, target: r.target, available: r.available === 1 },
      ]),
  );
  if (!db.inTransaction) tables.set(db, { version: db.version, rows });
  return rows;
}

/** Where a model's request goes; null for test models (answered here) and for models nothing serves. */
export function servingOf(db: Database, record: Pick<ModelRecord, 'id' | 'is_test_model'>): Serving | null {
  if (record.is_test_model) return null;
  const local = servingTable(db).get(record.id ?? '');
  if (local) return local;
  const forward = forwarding.get(db);
  return forward ? { ...forward, available: true } : null;
}

type Reachable = Pick<ModelRecord, 'id' | 'is_test_model' | 'provider' | 'model' | 'api_target'>;

/** Whether the provider's key reaches the model: a key, and the model in the provider's list for it (offered.ts). */
export const keyReaches = (record: Pick<ModelRecord, 'provider' | 'model' | 'api_target'>): boolean =>
  providerKeys.has(record.provider) && offeredModels.offers(record);

export function answersHere(db: Database, record: Reachable): boolean {
  return record.is_test_model || keyReaches(record) || servingOf(db, record)?.available === true;
}

/**
 * What the model lists of the built-in service add to each model: whether it answers here, by whom,
 * and (false) when the provider has a key but does not list the model for it.
 */
export function servingFields(
  db: Database,
  record: ModelRecord,
): { answers_here: boolean; served_by: string | null; offered_to_key?: false; not_offered_because?: string } {
  if (record.is_test_model) return { answers_here: true, served_by: 'this service' };
  if (keyReaches(record)) return { answers_here: true, served_by: providerSpec(record.provider)?.label ?? null };
  const serving = servingOf(db, record);
  if (serving?.available) return { answers_here: true, served_by: serving.server };
  if (providerKeys.has(record.provider)) {
    const because = keyKindRefusal(record);
    return {
      answers_here: false,
      served_by: providerSpec(record.provider)?.label ?? null,
      offered_to_key: false,
      ...(because ? { not_offered_because: because } : {}),
    };
  }
  return { answers_here: false, served_by: serving?.server ?? null };
}

/** Records what a refresh found; a model no server offers any more stays, marked unavailable. */
export function recordServing(db: Database, found: Map<string, Omit<Serving, 'available'>>, checkedOn: string): void {
  db.run('UPDATE model_servers SET available = 0, checked_on = $now', { now: checkedOn });
  for (const [modelId, s] of found) {
    db.run(
      `INSERT INTO model_servers (model_id, base_url, server, target, available, checked_on) VALUES ($id, $url, $server, $target, 1, $now)
       ON CONFLICT (model_id) DO UPDATE SET base_url = $url, server = $server, target = $target, available = 1, checked_on = $now`,
      { id: modelId, url: s.baseUrl, server: s.server, target: s.target, now: checkedOn },
    );
  }
}

/** A server stopped answering mid-request: its models are unavailable until the next refresh finds it. */
export function markServerGone(db: Database, baseUrl: string): number {
  return db.run('UPDATE model_servers SET available = 0 WHERE base_url = $url AND available = 1', { url: baseUrl });
}
