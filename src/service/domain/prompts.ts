// Saved prompts: public ones of the service and the organization's own.
import { randomUUID } from 'node:crypto';
import type { PromptRecord, PromptShow } from '../../api/schemas';
import type { SeedPrompt } from '../catalogue';
import type { Database } from '../db';
import { forbidden, notFound } from '../problem';
import { countTokens } from '../tokenizer';
import { laterThan, nowIso, type Caller } from './caller';

interface PromptRow {
  id: string;
  org_id: string;
  is_public: number;
  prompt: string;
  title: string;
  description: string;
  tokens: number;
  published_on: string | null;
  reviewed_on: string | null;
  approved_on: string | null;
  decline_reason: string | null;
  added_on: string;
  modified_on: string;
}

const toRecord = (row: PromptRow): PromptRecord => ({
  id: row.id,
  org_id: row.org_id,
  prompt: row.prompt,
  title: row.title,
  description: row.description,
  tokens: row.tokens,
  published_on: row.published_on,
  reviewed_on: row.reviewed_on,
  approved_on: row.approved_on,
  decline_reason: row.decline_reason,
  added_on: row.added_on,
  modified_on: row.modified_on,
  is_public: row.is_public === 1,
});

export function insertSeedPrompt(
  db: Database,
  orgId: string,
  isPublic: boolean,
  seed: SeedPrompt,
  index: number,
): void {
  const at = new Date(Date.UTC(2026, 0, 1, 12, index)).toISOString();
  const reviewed = seed.state === 'approved' || seed.state === 'declined' ? at : null;
  db.run(
    `INSERT INTO prompts (id, org_id, is_public, prompt, title, description, tokens, published_on, reviewed_on, approved_on, decline_reason, added_on, modified_on)
     VALUES ($id, $org, $public, $prompt, $title, $description, $tokens, $published, $reviewed, $approved, $decline, $at, $at)`,
    {
      id: randomUUID(),
      org: orgId,
      public: isPublic,
      prompt: seed.prompt,
      title: seed.title,
      description: seed.description,
      tokens: countTokens(seed.prompt),
      published: seed.state === 'draft' ? null : at,
      reviewed,
      approved: seed.state === 'approved' ? at : null,
      decline: seed.state === 'declined' ? (seed.declineReason ?? 'Declined') : null,
      at,
    },
  );
}

/** A prompt the caller may read: its organization's own, or a public one. */
export function findPrompt(db: Database, caller: Caller, id: string): PromptRecord | undefined {
  const row = db.get<PromptRow>('SELECT * FROM prompts WHERE id = $id AND (org_id = $org OR is_public = 1)', {
    id,
    org: caller.orgId,
  });
  return row && toRecord(row);
}

export function listPrompts(db: Database, caller: Caller, show: PromptShow): PromptRecord[] {
  const filter = { public: 'is_public = 1', org: 'org_id = $org', all: '(is_public = 1 OR org_id = $org)' }[show];
  return db
    .all<PromptRow>(`SELECT * FROM prompts WHERE ${filter} ORDER BY modified_on DESC, id`, { org: caller.orgId })
    .map(toRecord);
}

export function createPrompt(
  db: Database,
  caller: Caller,
  body: { prompt: string; title: string; description: string },
): PromptRecord {
  const id = randomUUID();
  const now = nowIso();
  db.run(
    `INSERT INTO prompts (id, org_id, is_public, prompt, title, description, tokens, added_on, modified_on)
     VALUES ($id, $org, 0, $prompt, $title, $description, $tokens, $now, $now)`,
    {
      id,
      org: caller.orgId,
      prompt: body.prompt,
      title: body.title,
      description: body.description,
      tokens: countTokens(body.prompt),
      now,
    },
  );
  return findPrompt(db, caller, id)!;
}

function ownPrompt(db: Database, caller: Caller, id: string): PromptRow {
  const row = db.get<PromptRow>('SELECT * FROM prompts WHERE id = $id AND (org_id = $org OR is_public = 1)', {
    id,
    org: caller.orgId,
  });
  if (!row) throw notFound('Prompt');
  if (row.org_id !== caller.orgId) throw forbidden('Public prompts of other organizations are read-only.');
  return row;
}

export function updatePrompt(
  db: Database,
  caller: Caller,
  id: string,
  body: { prompt?: string; title?: string; description?: string },
): PromptRecord {
  const row = ownPrompt(db, caller, id);
  const prompt = body.prompt ?? row.prompt;
  db.run(
    'UPDATE prompts SET prompt = $prompt, title = $title, description = $description, tokens = $tokens, modified_on = $now WHERE id = $id',
    {
      id,
      prompt,
      title: body.title ?? row.title,
      description: body.description ?? row.description,
      tokens: countTokens(prompt),
      now: laterThan(row.modified_on),
    },
  );
  return findPrompt(db, caller, id)!;
}

export function deletePrompt(db: Database, caller: Caller, id: string): { success: true } {
  ownPrompt(db, caller, id);
  db.run('DELETE FROM prompts WHERE id = $id', { id });
  return { success: true };
}
