// The organization's logs integration (PUT /v1/orgs/integrations `logs`): each request the service
// logs is sent on as a line of JSON to the Loki it names, through Loki's push API, with its id and
// token as Grafana Cloud gives them (basic authentication). Lines go in batches, a second apart, never
// on a request's way: a Loki that is slow or down holds no reply up. A batch it cannot take now (429,
// 5xx, no answer) is sent again, later each time, and while it waits at most MAX_WAITING lines are
// kept (the oldest are let go first, and the service's log says how many); a batch it refuses for good
// (401, 400…) is dropped, and the service's log says why. A line says what the request cost and how
// it went, never its prompt or its reply, whatever the Space keeps of them.
import { request } from 'undici';
import type { Database } from './db';
import type { RequestLog } from './domain/requests';

/** How often waiting lines are sent. */
const SEND_EVERY_MS = 1_000;
/** Lines sent in one push at the most. */
const BATCH = 1_000;
/** Lines kept while Loki cannot take them. */
const MAX_WAITING = 10_000;
/** How long a push may take. */
const PUSH_TIMEOUT_MS = 10_000;
/** The longest wait before sending again to a Loki that could not take a batch. */
const MAX_BACKOFF_MS = 60_000;
/** How long an organization's integration is trusted before it is read again. */
const READ_AGAIN_MS = 5_000;

interface Target {
  url: string;
  authorization: string;
  /** Where the lines go, for the service's log: the address without its path or any credentials. */
  origin: string;
}

interface Line {
  /** Nanoseconds since the epoch, as Loki takes them. */
  at: string;
  space: string;
  failed: boolean;
  text: string;
}

interface Shipping {
  db: Database;
  target: Target | null;
  readAt: number;
  waiting: Line[];
  backoffMs: number;
  nextAt: number;
  sending: boolean;
  /** Lines let go since the service's log last said so. */
  dropped: number;
  /** What the service's log last said of this Loki, not said again until a push goes through. */
  said: string | null;
}

/** Loki's push path under the endpoint given, unless the endpoint is that path already. */
const PUSH_PATH = '/loki/api/v1/push';

function targetOf(row: { logs_id: string | null; logs_token: string | null; logs_endpoint: string | null }) {
  if (!row.logs_endpoint || !URL.canParse(row.logs_endpoint)) return null;
  const endpoint = row.logs_endpoint.replace(/\/+$/, '');
  return {
    url: endpoint.endsWith(PUSH_PATH) ? endpoint : `${endpoint}${PUSH_PATH}`,
    authorization: `Basic ${Buffer.from(`${row.logs_id ?? ''}:${row.logs_token ?? ''}`).toString('base64')}`,
    origin: new URL(endpoint).origin,
  } satisfies Target;
}

class LogShipping {
  private readonly orgs = new Map<string, Shipping>();
  private timer: NodeJS.Timeout | undefined;

  /** Queues a logged request's line for its organization's Loki, if it has one. */
  logged(db: Database, log: RequestLog): void {
    const org = this.shippingOf(db, log.orgId);
    if (!org.target) return;
    org.waiting.push({
      at: `${Date.now()}000000`,
      space: log.appId,
      failed: log.status >= 400,
      text: JSON.stringify({
        request_id: log.id,
        space_id: log.appId,
        conversation_id: log.conversationId,
        model: log.model,
        status: log.status,
        prompt_tokens: log.promptTokens,
        completion_tokens: log.completionTokens,
        cost: log.cost,
        savings: log.savings,
        // A Space that keeps billing only keeps no latency either (domain/requests.ts).
        ...(log.privacyLevel >= 3 ? {} : { latency_s: log.latency }),
        error: log.error,
      }),
    });
    letGoPast(org);
    this.timer ??= setInterval(() => this.sendAll(), SEND_EVERY_MS).unref();
  }

  /** The organization's integration changed: read it again before the next line. */
  changed(orgId: string): void {
    const org = this.orgs.get(orgId);
    if (org) org.readAt = 0;
  }

  private shippingOf(db: Database, orgId: string): Shipping {
    let org = this.orgs.get(orgId);
    if (!org) {
      org = {
        db,
        target: null,
        readAt: 0,
        waiting: [],
        backoffMs: 0,
        nextAt: 0,
        sending: false,
        dropped: 0,
        said: null,
      };
      this.orgs.set(orgId, org);
    }
    if (Date.now() - org.readAt > READ_AGAIN_MS) {
      const row = db.get<{ logs_id: string | null; logs_token: string | null; logs_endpoint: string | null }>(
        'SELECT logs_id, logs_token, logs_endpoint FROM orgs WHERE id = $id',
        { id: orgId },
      );
      org.target = row ? targetOf(row) : null;
      org.readAt = Date.now();
      if (!org.target) org.waiting = [];
    }
    return org;
  }

  private sendAll(): void {
    let waiting = false;
    for (const [orgId, org] of this.orgs) {
      if (org.dropped) {
        console.error(
          `The logs integration could not take ${org.dropped} request log lines in time (${org.target?.origin ?? 'no Loki'}); they were let go.`,
        );
        org.dropped = 0;
      }
      // A batch in flight may come back to be sent again: the timer runs on until it is through.
      if (!org.waiting.length && !org.sending) continue;
      waiting = true;
      if (!org.sending && Date.now() >= org.nextAt) void this.send(this.shippingOf(org.db, orgId));
    }
    if (!waiting && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async send(org: Shipping): Promise<void> {
    const target = org.target;
    if (!target || !org.waiting.length) return;
    // Out of the queue while it is sent, so that lines let go or an integration cleared meanwhile
    // cannot take lines that were not sent; back at its front if it is to be sent again.
    const batch = org.waiting.splice(0, BATCH);
    org.sending = true;
    let why: string | undefined;
    let again = false;
    try {
      const answer = await request(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: target.authorization },
        body: JSON.stringify({ streams: streamsOf(batch) }),
        headersTimeout: PUSH_TIMEOUT_MS,
        bodyTimeout: PUSH_TIMEOUT_MS,
      });
      const said = (await answer.body.text().catch(() => '')).trim().slice(0, 200);
      if (answer.statusCode >= 300) {
        why = `HTTP ${answer.statusCode}${said ? `: ${said}` : ''}`;
        again = answer.statusCode === 429 || answer.statusCode >= 500;
      }
    } catch (error) {
      why = `it could not be reached (${(error as { code?: string }).code ?? (error as Error).name})`;
      again = true;
    } finally {
      org.sending = false;
    }
    if (again && org.target) {
      org.waiting.unshift(...batch);
      letGoPast(org);
    }
    if (!why) {
      org.backoffMs = 0;
      org.said = null;
      return;
    }
    if (again) {
      org.backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(SEND_EVERY_MS, org.backoffMs * 2));
      org.nextAt = Date.now() + org.backoffMs;
    }
    // Said once, not at every try or batch, until a push goes through.
    const words = again
      ? `The logs integration's Loki at ${target.origin} did not take request log lines: ${why}. They are sent again.`
      : `The logs integration's Loki at ${target.origin} refused request log lines: ${why}. Check the logs integration (Observability Integrations); lines are let go meanwhile.`;
    if (words !== org.said) console.error(words);
    org.said = words;
  }
}

/** Lets the oldest waiting lines go past MAX_WAITING, counted for the service's log. */
function letGoPast(org: Shipping): void {
  if (org.waiting.length > MAX_WAITING) org.dropped += org.waiting.splice(0, org.waiting.length - MAX_WAITING).length;
}

/** Loki's streams: one for each Space and outcome, its lines in the order they were logged. */
function streamsOf(lines: readonly Line[]) {
  const streams = new Map<string, { stream: Record<string, string>; values: Array<[string, string]> }>();
  for (const line of lines) {
    const key = `${line.space} ${line.failed}`;
    let stream = streams.get(key);
    if (!stream) {
      stream = {
        stream: { service_name: 'llm-spaces', space_id: line.space, level: line.failed ? 'error' : 'info' },
        values: [],
      };
      streams.set(key, stream);
    }
    stream.values.push([line.at, line.text]);
  }
  return [...streams.values()];
}

export const logShipping = new LogShipping();
