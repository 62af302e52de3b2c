// Finds OpenAI-compatible model servers on this computer (Ollama, LM Studio, llama.cpp's server,
// vLLM on their usual ports) and at the URLs the user gave, asks each for its models, and offers them
// as `local/<name>` models: price 0, their context window and capabilities where the server says.
// Asked at start and on refresh (POST /v1/models/refresh). A server that stopped answering leaves
// its models in the catalogue, marked unavailable, so no Space loses a model it refers to.
import { request } from 'undici';
import type { ModelRecord } from '../api/schemas';
import { CATALOGUE, catalogueRecord, type CatalogueEntry } from './catalogue';
import type { Database } from './db';
import { insertCatalogueModel } from './domain/models';
import {
  hostOf,
  localName,
  recordServing,
  setEmbeddingServers,
  setForwarding,
  type EmbeddingServing,
  type Serving,
} from './domain/serving';
import { settleUntouchedSpaces } from './domain/spaces';

/** The model servers people run locally, on their default ports. */
export const KNOWN_SERVERS = [
  { name: 'Ollama', port: 11434 },
  { name: 'LM Studio', port: 1234 },
  { name: 'llama.cpp', port: 8080 },
  { name: 'vLLM', port: 8000 },
] as const;

export interface ServerCandidate {
  /** Base URL of the OpenAI-compatible API, ending in /v1. */
  baseUrl: string;
  /** For people: the server's kind when known, else its host. */
  name: string;
}

export interface FoundModel {
  /** The model's id as the server names it (what requests must send). */
  id: string;
  contextWindow: number | null;
  vision: boolean;
  tools: boolean;
  /** Whether it reasons (takes a reasoning effort), where the server says: Ollama does. */
  thinks?: boolean;
  size: string | null;
  /** An embedding model: it cannot chat, and is offered for POST /v1/embeddings alone. */
  embeds?: true;
}

export interface ServerReport {
  name: string;
  baseUrl: string;
  answered: boolean;
  /** The models it offers, as `local/<name>`. */
  models: string[];
  /** Why it did not answer, in words (only for servers the user named; the usual ports are quiet). */
  problem?: string;
}

export interface ModelServerOptions {
  /** URLs the user gave (--upstream). The first also serves the catalogue's other models. */
  upstreams: string[];
  /** Look on the usual ports of this computer too. */
  discover: boolean;
  timeoutMs?: number;
}

/** A model a local server offers stands in for nothing in routing: middling quality, typical latency. */
const LOCAL_FIGURES = { quality: 60, latencyMs: 500 };
/** Assumed when a server does not say its context window. */
export const ASSUMED_CONTEXT = 8192;

export function candidates(options: ModelServerOptions): ServerCandidate[] {
  const given = options.upstreams.map((url) => ({ baseUrl: withV1(url), name: hostOf(url) }));
  const known = options.discover
    ? KNOWN_SERVERS.map((s) => ({ baseUrl: `http://127.0.0.1:${s.port}/v1`, name: `${s.name} (port ${s.port})` }))
    : [];
  const seen = new Set<string>();
  return [...given, ...known].filter((c) => !seen.has(c.baseUrl) && seen.add(c.baseUrl));
}

function withV1(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

async function getJson(url: string, timeoutMs: number, body?: unknown): Promise<unknown> {
  const response = await request(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`answered ${response.statusCode}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('answered, but not with JSON');
  }
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

/** The context window a /v1/models entry states: vLLM, llama.cpp and LM Studio each name it differently. */
function statedContext(entry: Record<string, unknown>): number | null {
  return (
    positive(entry.max_model_len) ??
    positive(record(entry.meta).n_ctx_train) ??
    positive(entry.max_context_length) ??
    positive(entry.context_length) ??
    positive(entry.context_window)
  );
}

/** Asks one server for its models; throws with the reason when it does not answer as a model server. */
export async function askServer(candidate: ServerCandidate, timeoutMs: number): Promise<FoundModel[]> {
  const listed = record(await getJson(`${candidate.baseUrl}/models`, timeoutMs));
  if (!Array.isArray(listed.data)) throw new Error('answered, but without a list of models');
  const models = new Map<string, FoundModel>();
  for (const item of listed.data) {
    const entry = record(item);
    if (typeof entry.id !== 'string' || entry.id === '') continue;
    models.set(entry.id, {
      id: entry.id,
      contextWindow: statedContext(entry),
      vision: entry.type === 'vlm',
      tools: false,
      size: null,
      ...(/embed/i.test(entry.id) || entry.type === 'embeddings' ? { embeds: true as const } : {}),
    });
  }
  await addOllamaDetails(candidate, models, timeoutMs);
  return [...models.values()];
}

/** Ollama says more through its own API: sizes from /api/tags, context and capabilities from /api/show. */
async function addOllamaDetails(
  candidate: ServerCandidate,
  models: Map<string, FoundModel>,
  timeoutMs: number,
): Promise<void> {
  const root = candidate.baseUrl.replace(/\/v1$/, '');
  let tags: unknown[];
  try {
    const answer = record(await getJson(`${root}/api/tags`, timeoutMs));
    if (!Array.isArray(answer.models)) return;
    tags = answer.models;
  } catch {
    return; // Not Ollama.
  }
  await Promise.all(
    tags.map(async (item) => {
      const tag = record(item);
      const model = typeof tag.name === 'string' ? models.get(tag.name) : undefined;
      if (!model) return;
      const size = record(tag.details).parameter_size;
      if (typeof size === 'string') model.size = size;
      try {
        const shown = record(await getJson(`${root}/api/show`, timeoutMs, { model: model.id }));
        const info = record(shown.model_info);
        const contextKey = Object.keys(info).find((k) => k.endsWith('.context_length'));
        model.contextWindow ??= contextKey ? positive(info[contextKey]) : null;
        const capabilities = Array.isArray(shown.capabilities) ? shown.capabilities : [];
        model.vision ||= capabilities.includes('vision');
        model.tools ||= capabilities.includes('tools');
        if (Array.isArray(shown.capabilities)) model.thinks = capabilities.includes('thinking');
      } catch {
        // An older Ollama, or a model it cannot describe: the list is enough.
      }
    }),
  );
}

/** What the server says of a model the catalogue already lists: its context window and capabilities win. */
function seededRecord(entry: CatalogueEntry, found: FoundModel): ModelRecord {
  const flags =
    entry.flags +
    (found.tools && !entry.flags.includes('f') ? 'f' : '') +
    (found.vision && !entry.flags.includes('v') ? 'v' : '');
  return withReasoning(
    catalogueRecord({ ...entry, context: found.contextWindow ?? entry.context, flags }, '2026-01-01T00:00:00.000Z'),
    found,
  );
}

/** A record with whether its model reasons, where the server said. */
const withReasoning = (record: ModelRecord, found: FoundModel): ModelRecord =>
  found.thinks === undefined ? record : { ...record, supports_reasoning: found.thinks };

function localRecord(found: FoundModel, server: ServerCandidate, now: string): ModelRecord {
  const context = found.contextWindow ?? ASSUMED_CONTEXT;
  const said = [`Found on ${server.name}`, found.size && `${found.size} parameters`].filter(Boolean).join(', ');
  const assumed =
    found.contextWindow === null
      ? ` The server does not say its context window; ${ASSUMED_CONTEXT.toLocaleString('en-US')} tokens are assumed.`
      : '';
  const record = catalogueRecord(
    {
      provider: 'local',
      model: localName(found.id),
      input: 0,
      output: 0,
      context,
      until: null,
      flags: `s${found.tools ? 'f' : ''}${found.vision ? 'v' : ''}`,
      ...LOCAL_FIGURES,
      apiTarget: found.id,
      description: `${said}. Runs on this computer; costs nothing.${assumed}`,
      url: server.baseUrl,
    },
    now,
  );
  return withReasoning(record, found);
}

/** The catalogue's own local entries (e.g. local/llama3.2) stand for the same model when a server offers it. */
function catalogueEntryFor(found: FoundModel): CatalogueEntry | undefined {
  return CATALOGUE.find((m) => m.provider === 'local' && (m.apiTarget === found.id || m.model === localName(found.id)));
}

/**
 * Asks every candidate at once, then records in one transaction what answered: new models are
 * added, the ones no server offers any more are marked unavailable, and Spaces nobody has changed
 * follow. Returns a report per candidate.
 */
export async function refreshModelServers(db: Database, options: ModelServerOptions): Promise<ServerReport[]> {
  setForwarding(db, options.upstreams[0] ? withV1(options.upstreams[0]) : null);
  const timeoutMs = options.timeoutMs ?? 1500;
  const asked = await Promise.all(
    candidates(options).map(async (candidate) => {
      try {
        return { candidate, models: await askServer(candidate, timeoutMs) };
      } catch (error) {
        return { candidate, models: [] as FoundModel[], problem: describeFailure(error) };
      }
    }),
  );
  const now = new Date().toISOString();
  const reports: ServerReport[] = [];
  await db.transaction(() => {
    const serving = new Map<string, Omit<Serving, 'available'>>();
    const embedding = new Map<string, EmbeddingServing>();
    for (const { candidate, models, problem } of asked) {
      const offered: string[] = [];
      for (const found of models) {
        if (found.embeds) {
          const namespace = `local/${localName(found.id)}`;
          if (!embedding.has(namespace))
            embedding.set(namespace, { baseUrl: candidate.baseUrl, target: found.id, namespace });
          continue;
        }
        const seeded = catalogueEntryFor(found);
        const fresh = seeded ? seededRecord(seeded, found) : localRecord(found, candidate, now);
        const id = fresh.id!;
        if (serving.has(id)) continue; // Two servers offer it: the first asked serves it.
        insertCatalogueModel(db, fresh, seeded ?? LOCAL_FIGURES);
        serving.set(id, { baseUrl: candidate.baseUrl, server: candidate.name, target: found.id });
        offered.push(fresh.namespace);
      }
      reports.push({
        name: candidate.name,
        baseUrl: candidate.baseUrl,
        answered: problem === undefined,
        models: offered,
        ...(problem ? { problem } : {}),
      });
    }
    recordServing(db, serving, now);
    setEmbeddingServers(db, [...embedding.values()]);
    settleUntouchedSpaces(db);
  });
  return reports;
}

function describeFailure(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'nothing answers there';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || (error as Error).name === 'TimeoutError')
    return 'it did not answer in time';
  return (error as Error).message || String(error);
}
