// The organization's metrics integration: the logged requests' counts go out every 15 seconds through
// Prometheus's remote write 1.0 (a snappy-compressed protobuf WriteRequest, with the protocol's
// headers), by Space and model, as a Grafana Cloud, Mimir or Prometheus receiver takes them.
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import OpenAI from 'openai';
import protobuf from 'protobufjs/light';
import { uncompress } from 'snappyjs';
import { startPushReceiver } from '../support/pushReceiver';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';
import { until } from '../support/until';

/** prompb's WriteRequest as Prometheus publishes it (types.proto, remote.proto), as a receiver reads it. */
const WriteRequest = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: {
          fields: {
            timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 },
            metadata: { rule: 'repeated', type: 'MetricMetadata', id: 3 },
          },
        },
        MetricMetadata: {
          fields: {
            type: { type: 'int32', id: 1 },
            metric_family_name: { type: 'string', id: 2 },
            help: { type: 'string', id: 4 },
            unit: { type: 'string', id: 5 },
          },
        },
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

interface Written {
  headers: IncomingHttpHeaders;
  series: Array<{ labels: Record<string, string>; names: string[]; value: number; timestamp: number }>;
}

type Decoded = {
  timeseries: Array<{
    labels: Array<{ name: string; value: string }>;
    samples: Array<{ value: number; timestamp: number }>;
  }>;
};

/** A remote write receiver: each push read as the protocol says, its headers and its snappy-compressed WriteRequest. */
const startReceiver = () =>
  startPushReceiver<Written>(
    '/api/prom/push',
    (req, body, problems) => {
      for (const [name, value] of Object.entries({
        'content-type': 'application/x-protobuf',
        'content-encoding': 'snappy',
        'x-prometheus-remote-write-version': '0.1.0',
      }))
        if (req.headers[name] !== value) problems.push(`${name} is ${req.headers[name]}`);
      // A count of 0 (two echoes each under a millisecond) is not on the wire at all, as proto3 leaves
      // out default values: read it as 0, as a receiver does.
      const message = WriteRequest.toObject(WriteRequest.decode(uncompress(body)), {
        longs: Number,
        defaults: true,
      }) as Decoded;
      return {
        headers: req.headers,
        series: message.timeseries.map((t) => ({
          labels: Object.fromEntries(t.labels.map((l) => [l.name, l.value])),
          names: t.labels.map((l) => l.name),
          value: t.samples[0]!.value,
          timestamp: t.samples[0]!.timestamp,
        })),
      };
    },
    'authentication error: invalid token',
  );

describe("the organization's metrics integration", function () {
  this.timeout(90_000);
  let service: RunningService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let openai: OpenAI;
  let appId: string;
  const TOKEN = 'glc_fake-metrics-0123456789abcdef';

  before(async () => {
    [service, receiver] = await Promise.all([startService(), startReceiver()]);
    const space = await echoSpace(service, 'Counted');
    appId = space.id;
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: space.key, maxRetries: 0 });
    await service.client().updateIntegrations({ metrics: { id: '987654', token: TOKEN, endpoint: receiver.url } });
  });
  after(async () => {
    await service?.stop();
    await receiver?.close();
    if (service) removeDir(service.dataDir);
  });

  it('sends the requests, tokens, cost and time taken by Space and model, with the id and token', async () => {
    const answers = await Promise.all(
      ['one', 'two'].map((content) =>
        openai.chat.completions.create({ model: 'test/echo', messages: [{ role: 'user', content }] }),
      ),
    );
    const of = (write: Written, name: string) =>
      write.series.find((s) => s.labels.__name__ === name && s.labels.space_id === appId);
    await until('the push', () => receiver.taken.some((w) => of(w, 'llm_spaces_requests_total')?.value === 2), 40_000);
    const write = receiver.taken.find((w) => of(w, 'llm_spaces_requests_total')?.value === 2)!;
    assert.equal(write.headers.authorization, `Basic ${Buffer.from(`987654:${TOKEN}`).toString('base64')}`);
    assert.deepEqual(of(write, 'llm_spaces_requests_total')!.labels, {
      __name__: 'llm_spaces_requests_total',
      job: 'llm-spaces',
      space_id: appId,
      model: 'test/echo',
      status: '200',
    });
    const sum = (pick: (u: OpenAI.CompletionUsage) => number) => answers.reduce((n, a) => n + pick(a.usage!), 0);
    assert.equal(
      of(write, 'llm_spaces_prompt_tokens_total')!.value,
      sum((u) => u.prompt_tokens),
    );
    assert.equal(
      of(write, 'llm_spaces_completion_tokens_total')!.value,
      sum((u) => u.completion_tokens),
    );
    assert.equal(of(write, 'llm_spaces_request_duration_seconds_count')!.value, 2);
    // The time taken as each answer's metadata says it (an echo can take under a millisecond).
    const latency = answers.reduce(
      (n, a) => n + (a as unknown as { metadata: { latency: number } }).metadata.latency,
      0,
    );
    assert.ok(Math.abs(of(write, 'llm_spaces_request_duration_seconds_sum')!.value - latency) < 1e-9);
    const cost = answers.reduce(
      (n, a) => n + (a as unknown as { metadata: { costs: { total_tokens: number } } }).metadata.costs.total_tokens,
      0,
    );
    assert.ok(Math.abs(of(write, 'llm_spaces_cost_dollars_total')!.value - cost) < 1e-12);
    // Each series' labels sorted by name, and its sample stamped now, as remote write asks.
    for (const s of write.series) assert.deepEqual(s.names, [...s.names].sort());
    assert.ok(Math.abs(write.series[0]!.timestamp - Date.now()) < 60_000);
    assert.deepEqual(receiver.problems, []);
  });

  it('says once in the log why a push was refused, never the token', async () => {
    receiver.statuses.push(401, 401);
    const refusedLine = /The metrics integration at http:\/\/127\.0\.0\.1:\d+ refused the request counts: HTTP 401/;
    await until('the log line', () => refusedLine.test(service.output()), 40_000);
    await until('the second refusal', () => receiver.statuses.length === 0, 40_000);
    assert.equal(service.output().match(/refused the request counts/g)!.length, 1, 'said once');
    assert.ok(!service.output().includes(TOKEN));
  });
});
