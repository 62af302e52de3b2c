// Tokens: only a SHA-256 hash and the last characters are stored; the full token is shown once.
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db';
import { nowIso, type Caller } from './caller';

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
export const keyEnd = (token: string) => token.slice(-4);
export const newToken = () => `lls_${randomBytes(24).toString('base64url')}`;

/** Stores a token for an organization (or one Space of it); returns the token, shown only now. */
export function issueToken(
  db: Database,
  orgId: string,
  appId: string | null,
  token = newToken(),
): { token: string; hash: string; keyEnd: string } {
  const hash = hashToken(token);
  db.run(
    'INSERT OR IGNORE INTO tokens (hash, key_end, org_id, app_id, added_on) VALUES ($hash, $end, $org, $app, $now)',
    {
      hash,
      end: keyEnd(token),
      org: orgId,
      app: appId,
      now: nowIso(),
    },
  );
  return { token, hash, keyEnd: keyEnd(token) };
}

export function tokenExists(db: Database, token: string): boolean {
  return db.get('SELECT 1 AS ok FROM tokens WHERE hash = $hash', { hash: hashToken(token) }) !== undefined;
}

/** Revokes every key of a Space (its tokens scoped to it). */
export function revokeSpaceKeys(db: Database, appId: string): void {
  db.run('DELETE FROM tokens WHERE app_id = $app', { app: appId });
}

/** Whether the organization has a token of its own (not a Space key). */
export function hasOrganizationToken(db: Database, orgId: string): boolean {
  return db.get('SELECT 1 AS x FROM tokens WHERE org_id = $org AND app_id IS NULL', { org: orgId }) !== undefined;
}

export function authenticate(db: Database, token: string): Caller | undefined {
  const row = db.get<{ org_id: string; app_id: string | null; key_end: string }>(
    'SELECT t.org_id, t.app_id, t.key_end FROM tokens t JOIN orgs o ON o.id = t.org_id WHERE t.hash = $hash',
    { hash: hashToken(token) },
  );
  if (!row) return undefined;
  return { orgId: row.org_id, appId: row.app_id, identity: `key-…${row.key_end}` };
}
