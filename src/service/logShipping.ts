// The organization's logs integration (PUT /v1/orgs/integrations `logs`): each request the service
// logs is sent on as a line of JSON to the Loki it names, through Loki's push API. Lines go in batches,
// a second apart, never on a request's way: a Loki that is slow or down holds no reply up. A batch it
// cannot take now (429, 5xx, no answer) is sent again, later each time, and while it waits at most
// MAX_WAITING lines are kept (the oldest are let go first, and the service's log says how many); a
// batch it refuses for good (401, 400…) is dropped, and the service's log says why. A line says what
// the request cost and how it went, never its prompt or its reply, whatever the Space keeps of them.
import type { Database } from './db';
import type { RequestLog } from './domain/requests';
import { SaidOnce, Targets, push } from './integrations';

/** How often waiting lines are sent. */
const SEND_EVERY_MS = 1_000;
/** Lines sent in one push at the most. */
const BATCH = 1_000;
/** Lines kept while Loki cannot take them. */
const MAX_WAITING = 10_000;
/** The longest wait before sending again to a Loki that could not take a batch. */
const MAX_BACKOFF_MS = 60_000;

interface Line {
  /** Nanoseconds since the epoch, as Loki takes them. */
  at: string;
  space: string;
  failed: boolean;
  text: string;
}

interface Shipping {
  db: Database;
  waiting: Line[];
  backoffMs: number;
  nextAt: number;
  sending: boolean;
  /** Lines let go since the service's log last said so. */
  dropped: number;
}

class LogShipping {
  readonly targets = new Targets('logs', '/loki/api/v1/push');
  private readonly orgs = new Map<string, Shipping>();
  private readonly said = new SaidOnce();
  private timer: NodeJS.Timeout | undefined;

  /** Queues a logged request's line for its organization's Loki, if it has one. */
  logged(db: Database, log: RequestLog): void {
    if (!this.targets.of(db, log.orgId)) return;
    let org = this.orgs.get(log.orgId);
    if (!org) {
      org = { db, waiting: [], backoffMs: 0, nextAt: 0, sending: false, dropped: 0 };
      this.orgs.set(log.orgId, org);
    }
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
        // Where the provider counted them.
        ...(log.cachedTokens != null ? { cached_tokens: log.cachedTokens } : {}),
        ...(log.reasoningTokens != null ? { reasoning_tokens: log.reasoningTokens } : {}),
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

  private sendAll(): void {
    let waiting = false;
    for (const [orgId, org] of this.orgs) {
      if (org.dropped) {
        console.error(
          `The logs integration could not take ${org.dropped} request log lines in time; they were let go.`,
        );
        org.dropped = 0;
      }
      // A batch in flight may come back to be sent again: the timer runs on until it is through.
      if (!org.waiting.length && !org.sending) continue;
      waiting = true;
      if (!org.sending && Date.now() >= org.nextAt) void this.send(orgId, org);
    }
    if (!waiting && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async send(orgId: string, org: Shipping): Promise<void> {
    const target = this.targets.of(org.db, orgId);
    // The integration was cleared: what waits for it goes.
    if (!target) return void (org.waiting = []);
    // Out of the queue while it is sent, so that lines let go meanwhile cannot be lines that were not
    // sent; back at its front if it is to be sent again.
    const batch = org.waiting.splice(0, BATCH);
    org.sending = true;
    const failed = await push(target, JSON.stringify({ streams: streamsOf(batch) }), {
      'content-type': 'application/json',
    }).finally(() => (org.sending = false));
    if (!failed) {
      org.backoffMs = 0;
      return this.said.wentThrough(orgId);
    }
    if (failed.again) {
      org.waiting.unshift(...batch);
      letGoPast(org);
      org.backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(SEND_EVERY_MS, org.backoffMs * 2));
      org.nextAt = Date.now() + org.backoffMs;
    }
    this.said.say(
      orgId,
      failed.again
        ? `The logs integration's Loki at ${target.origin} did not take request log lines: ${failed.why}. They are sent again.`
        : `The logs integration's Loki at ${target.origin} refused request log lines: ${failed.why}. Check the logs integration (Observability Integrations); lines are let go meanwhile.`,
    );
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
