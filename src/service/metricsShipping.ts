// The organization's metrics integration (PUT /v1/orgs/integrations `metrics`): the service counts the
// requests it logs, by Space and model (their number by status, tokens, cost and time taken), and sends
// the counts every 15 seconds to the endpoint named, through Prometheus's remote write (1.0: protobuf,
// snappy), as Grafana Cloud, Mimir or Prometheus itself take it. The counts run from when the service
// started, as a scraped counter would; a push that fails loses only its moment, the next carries the
// counts on. Never on a request's way; the service's log says a trouble once, never the token.
import protobuf from 'protobufjs/light';
import { compress } from 'snappyjs';
import type { Database } from './db';
import type { RequestLog } from './domain/requests';
import { SaidOnce, Targets, push } from './integrations';

/** How often the counts are sent. */
const SEND_EVERY_MS = 15_000;

/** Prometheus's remote write messages (prompb types.proto and remote.proto), the fields a sample needs. */
const WriteRequest = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 } } },
        TimeSeries: {
          fields: {
            labels: { rule: 'repeated', type: 'Label', id: 1 },
            samples: { rule: 'repeated', type: 'Sample', id: 2 },
          },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
      },
    },
  },
}).lookupType('prometheus.WriteRequest');

/** The headers remote write 1.0 asks for. */
const HEADERS = {
  'content-type': 'application/x-protobuf',
  'content-encoding': 'snappy',
  'x-prometheus-remote-write-version': '0.1.0',
  'user-agent': 'llm-spaces',
};

interface Series {
  /** Sorted by name, as remote write asks. */
  labels: Array<{ name: string; value: string }>;
  value: number;
}

interface Counting {
  db: Database;
  series: Map<string, Series>;
  sending: boolean;
}

class MetricsShipping {
  readonly targets = new Targets('metrics');
  private readonly orgs = new Map<string, Counting>();
  private readonly said = new SaidOnce();
  private timer: NodeJS.Timeout | undefined;

  /** Counts a logged request for its organization's metrics, if it has the integration. */
  counted(db: Database, log: RequestLog): void {
    if (!this.targets.of(db, log.orgId)) return;
    let org = this.orgs.get(log.orgId);
    if (!org) {
      org = { db, series: new Map(), sending: false };
      this.orgs.set(log.orgId, org);
    }
    const by = { space_id: log.appId, model: log.model ?? 'none' };
    add(org, 'llm_spaces_requests_total', { ...by, status: String(log.status) }, 1);
    add(org, 'llm_spaces_prompt_tokens_total', by, log.promptTokens);
    add(org, 'llm_spaces_completion_tokens_total', by, log.completionTokens);
    add(org, 'llm_spaces_cost_dollars_total', by, log.cost);
    // A Space that keeps billing only keeps no time taken either (domain/requests.ts).
    if (log.privacyLevel < 3) {
      add(org, 'llm_spaces_request_duration_seconds_sum', by, log.latency);
      add(org, 'llm_spaces_request_duration_seconds_count', by, 1);
    }
    this.timer ??= setInterval(() => this.sendAll(), SEND_EVERY_MS).unref();
  }

  private sendAll(): void {
    for (const [orgId, org] of this.orgs) if (!org.sending) void this.send(orgId, org);
    // Every integration was cleared (send lets its counts go at once): no timer until one counts again.
    if (!this.orgs.size) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async send(orgId: string, org: Counting): Promise<void> {
    const target = this.targets.of(org.db, orgId);
    // The integration was cleared: its counts go, and start again if it is set again.
    if (!target) return void this.orgs.delete(orgId);
    const now = Date.now();
    const message = WriteRequest.fromObject({
      timeseries: [...org.series.values()].map((s) => ({
        labels: s.labels,
        samples: [{ value: s.value, timestamp: now }],
      })),
    });
    org.sending = true;
    const failed = await push(target, compress(WriteRequest.encode(message).finish()), HEADERS).finally(
      () => (org.sending = false),
    );
    if (!failed) return this.said.wentThrough(orgId);
    this.said.say(
      orgId,
      failed.again
        ? `The metrics integration at ${target.origin} did not take the request counts: ${failed.why}. The next push carries them on.`
        : `The metrics integration at ${target.origin} refused the request counts: ${failed.why}. Check the metrics integration (Observability Integrations).`,
    );
  }
}

function add(org: Counting, name: string, labels: Record<string, string>, by: number): void {
  const all = { __name__: name, job: 'llm-spaces', ...labels };
  const key = JSON.stringify(all);
  let series = org.series.get(key);
  if (!series) {
    series = {
      labels: Object.entries(all)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => ({ name, value })),
      value: 0,
    };
    org.series.set(key, series);
  }
  series.value += by;
}

export const metricsShipping = new MetricsShipping();
