// What the observability integrations (PUT /v1/orgs/integrations) share: where a group sends, read
// from the organization's record and read again a few seconds later or when it changes; and one push
// to it, with the group's id and token as basic authentication (as Grafana Cloud gives them), answered
// as what went wrong in words and whether it is worth sending again (429, 5xx, no answer).
import { request } from 'undici';
import type { Database } from './db';

export type Group = 'logs' | 'metrics';

export interface Target {
  url: string;
  authorization: string;
  /** Where it goes, for the service's log: the address without its path or any credentials. */
  origin: string;
}

/** How long an organization's integration is trusted before it is read again. */
const READ_AGAIN_MS = 5_000;
/** How long a push may take. */
const PUSH_TIMEOUT_MS = 10_000;

/** Each group's target of each organization, as last read, and when. */
export class Targets {
  private readonly read = new Map<string, { target: Target | null; at: number }>();

  /** `path`: appended to the endpoint given, unless it ends with it already (Loki's push path). */
  constructor(
    private readonly group: Group,
    private readonly path = '',
  ) {}

  of(db: Database, orgId: string): Target | null {
    const known = this.read.get(orgId);
    if (known && Date.now() - known.at <= READ_AGAIN_MS) return known.target;
    const row = db.get<Record<string, string | null>>(
      `SELECT ${this.group}_id AS id, ${this.group}_token AS token, ${this.group}_endpoint AS endpoint FROM orgs WHERE id = $id`,
      { id: orgId },
    );
    const target = row ? this.targetOf(row.id ?? '', row.token ?? '', row.endpoint ?? null) : null;
    this.read.set(orgId, { target, at: Date.now() });
    return target;
  }

  /** The organization's integrations changed: read them again before the next use. */
  changed(orgId: string): void {
    this.read.delete(orgId);
  }

  private targetOf(id: string, token: string, endpoint: string | null): Target | null {
    if (!endpoint || !URL.canParse(endpoint)) return null;
    const base = endpoint.replace(/\/+$/, '');
    return {
      url: !this.path || base.endsWith(this.path) ? base : `${base}${this.path}`,
      authorization: `Basic ${Buffer.from(`${id}:${token}`).toString('base64')}`,
      origin: new URL(base).origin,
    };
  }
}

/** One push: nothing when it went through, else why in words and whether to send it again. */
export async function push(
  target: Target,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<{ why: string; again: boolean } | undefined> {
  try {
    const answer = await request(target.url, {
      method: 'POST',
      headers: { ...headers, authorization: target.authorization },
      body,
      headersTimeout: PUSH_TIMEOUT_MS,
      bodyTimeout: PUSH_TIMEOUT_MS,
    });
    const said = (await answer.body.text().catch(() => '')).trim().slice(0, 200);
    if (answer.statusCode < 300) return undefined;
    return {
      why: `HTTP ${answer.statusCode}${said ? `: ${said}` : ''}`,
      again: answer.statusCode === 429 || answer.statusCode >= 500,
    };
  } catch (error) {
    return {
      why: `it could not be reached (${(error as { code?: string }).code ?? (error as Error).name})`,
      again: true,
    };
  }
}

/** Says each trouble of an organization's integration once in the service's log, until it goes away. */
export class SaidOnce {
  private readonly said = new Map<string, string>();

  say(orgId: string, words: string): void {
    if (this.said.get(orgId) === words) return;
    this.said.set(orgId, words);
    console.error(words);
  }

  wentThrough(orgId: string): void {
    this.said.delete(orgId);
  }
}
