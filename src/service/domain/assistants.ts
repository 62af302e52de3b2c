// Assistants of a Space and their versions.
import { randomUUID } from 'node:crypto';
import type { AssistantSummary, AssistantVersion, AssistantVersionCreateBody } from '../../api/schemas';
import type { z } from 'zod';
import type { Database } from '../db';
import { invalid, notFound } from '../problem';
import { nowIso, type Caller } from './caller';
import { requireModel } from './models';

interface AssistantRow {
  id: string;
  app_id: string;
  name: string;
  description: string | null;
  visibility: string;
}

interface VersionRow {
  id: string;
  assistant_id: string;
  identity_id: string | null;
  published: number;
  persona: string | null;
  instructions: string | null;
  greeting: string | null;
  writing_style: string | null;
  sample_interactions: string | null;
  model_id: string | null;
  temperature: number | null;
  max_tokens: number | null;
  added_on: string;
  modified_on: string;
}

const toVersion = (row: VersionRow): AssistantVersion => ({ ...row, published: row.published === 1 });

export function findAssistant(db: Database, appId: string, assistantId: string): AssistantRow | undefined {
  return db.get<AssistantRow>(
    'SELECT id, app_id, name, description, visibility FROM assistants WHERE id = $id AND app_id = $app',
    { id: assistantId, app: appId },
  );
}

/** A version of any assistant of the Space. */
export function findVersion(db: Database, appId: string, versionId: string): AssistantVersion | undefined {
  const row = db.get<VersionRow>(
    'SELECT v.* FROM assistant_versions v JOIN assistants a ON a.id = v.assistant_id WHERE v.id = $id AND a.app_id = $app',
    { id: versionId, app: appId },
  );
  return row && toVersion(row);
}

function summary(db: Database, row: AssistantRow): AssistantSummary {
  const versions = db.all<{ id: string; published: number; added_on: string }>(
    'SELECT id, published, added_on FROM assistant_versions WHERE assistant_id = $id ORDER BY added_on, id',
    { id: row.id },
  );
  return { ...row, versions: versions.map((v) => ({ ...v, published: v.published === 1 })) };
}

/** The version a conversation uses when it names only the assistant: the newest published one. */
export function latestVersionId(db: Database, assistantId: string): string | undefined {
  return db.get<{ id: string }>(
    'SELECT id FROM assistant_versions WHERE assistant_id = $a ORDER BY published DESC, added_on DESC LIMIT 1',
    { a: assistantId },
  )?.id;
}

export function listAssistants(db: Database, appId: string): AssistantSummary[] {
  return db
    .all<AssistantRow>(
      'SELECT id, app_id, name, description, visibility FROM assistants WHERE app_id = $app ORDER BY added_on, id',
      { app: appId },
    )
    .map((r) => summary(db, r));
}

export function getAssistant(db: Database, appId: string, assistantId: string): AssistantSummary {
  const row = findAssistant(db, appId, assistantId);
  if (!row) throw notFound('Assistant');
  return summary(db, row);
}

export function createAssistant(
  db: Database,
  appId: string,
  body: { name: string; description?: string | null },
): AssistantSummary {
  const id = randomUUID();
  const now = nowIso();
  db.run(
    'INSERT INTO assistants (id, app_id, name, description, visibility, added_on, modified_on) VALUES ($id, $app, $name, $description, $visibility, $now, $now)',
    {
      id,
      app: appId,
      name: body.name,
      description: body.description ?? null,
      visibility: 'org',
      now,
    },
  );
  return getAssistant(db, appId, id);
}

export function createVersion(
  db: Database,
  caller: Caller,
  appId: string,
  assistantId: string,
  body: z.output<typeof AssistantVersionCreateBody>,
): AssistantVersion {
  if (!findAssistant(db, appId, assistantId)) throw notFound('Assistant');
  if (body.model_id) requireModel(db, caller, body.model_id, ['body', 'model_id']);
  const id = randomUUID();
  const now = nowIso();
  db.run(
    `INSERT INTO assistant_versions (id, assistant_id, identity_id, published, persona, instructions, greeting, writing_style, sample_interactions, model_id, temperature, max_tokens, added_on, modified_on)
     VALUES ($id, $assistant, $identity, $published, $persona, $instructions, $greeting, $style, $samples, $model, $temperature, $maxTokens, $now, $now)`,
    {
      id,
      assistant: assistantId,
      identity: caller.identity,
      published: body.published ?? false,
      persona: body.persona ?? null,
      instructions: body.instructions ?? null,
      greeting: body.greeting ?? null,
      style: body.writing_style ?? null,
      samples: body.sample_interactions ?? null,
      model: body.model_id ?? null,
      temperature: body.temperature ?? null,
      maxTokens: body.max_tokens ?? null,
      now,
    },
  );
  return getVersion(db, appId, assistantId, id);
}

export function getVersion(db: Database, appId: string, assistantId: string, versionId: string): AssistantVersion {
  const version = findVersion(db, appId, versionId);
  if (!version || version.assistant_id !== assistantId) throw notFound('Assistant version');
  return version;
}

/**
 * Checks an assistant and version chosen for a Space: the assistant belongs to it, and the version to
 * that assistant (or, with no assistant named, to any assistant of the Space). 422 at `loc` otherwise.
 */
export function checkAssistantChoice(
  db: Database,
  appId: string,
  assistantId: string | null | undefined,
  versionId: string | null | undefined,
  loc: string[],
): AssistantVersion | undefined {
  if (assistantId && !findAssistant(db, appId, assistantId))
    throw invalid([...loc, 'assistant_id'], 'Assistant not found in this Space', 'not_found');
  if (!versionId) return undefined;
  const version = findVersion(db, appId, versionId);
  if (!version || (assistantId && version.assistant_id !== assistantId))
    throw invalid([...loc, 'assistant_version_id'], 'Version not found for this assistant', 'not_found');
  return version;
}
