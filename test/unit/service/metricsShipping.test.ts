// The organization's metrics integration: the logged requests' counts go out every 15 seconds through
// Prometheus's remote write 1.0 (a snappy-compressed protobuf WriteRequest, with the protocol's
// headers), by Space and model, as a Grafana Cloud, Mimir or Prometheus receiver takes them.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import protobuf from 'protobufjs/light';
import { uncompress } from 'snappyjs';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';

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

/** A remote write receiver: it reads each push as the protocol says, and answers the statuses given, then 204. */
async function startReceiver() {
  const writes: Written[] = [];
  const problems: string[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const status = statuses.shift() ?? 204;
      if (req.method !== 'POST' || req.url !== '/api/prom/push') problems.push(`${req.method} ${req.url}`);
      for (const [name, value] of Object.entries({
        'content-type': 'application/x-protobuf',
        'content-encoding': 'snappy',
        'x-prometheus-remote-write-version': '0.1.0',
      }))
        if (req.headers[name] !== value) problems.push(`${name} is ${req.headers[name]}`);
      try {
        const message = WriteRequest.toObject(WriteRequest.decode(uncompress(Buffer.concat(parts))), {
          longs: Number,
        }) as {
          timeseries: Array<{
            labels: Array<{ name: string; value: string }>;
            samples: Array<{ value: number; timestamp: number }>;
          }>;
        };
        if (status === 204)
          writes.push({
            headers: req.headers,
            series: message.timeseries.map((t) => ({
              labels: Object.fromEntries(t.labels.map((l) => [l.name, l.value])),
              names: t.labels.map((l) => l.name),
              value: t.samples[0]!.value,
              timestamp: t.samples[0]!.timestamp,
            })),
          });
      } catch (error) {
        problems.push(`the body is not a snappy-compressed WriteRequest: ${(error as Error).message}`);
      }
      res.writeHead(status).end(status === 204 ? undefined : 'authentication error: invalid token');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/prom/push`,
    writes,
    problems,
    statuses,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const until = async (done: () => boolean, what: string, ms = 40_000) => {
  for (const deadline = Date.now() + ms; !done(); await new Promise((r) => setTimeout(r, 200)))
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
};

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
    await until(() => receiver.writes.some((w) => of(w, 'llm_spaces_requests_total')?.value === 2), 'the push');
    const write = receiver.writes.find((w) => of(w, 'llm_spaces_requests_total')?.value === 2)!;
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
    assert.ok(of(write, 'llm_spaces_request_duration_seconds_sum')!.value > 0);
    assert.ok(of(write, 'llm_spaces_cost_dollars_total')!.value >= 0);
    // Each series' labels sorted by name, and its sample stamped now, as remote write asks.
    for (const s of write.series) assert.deepEqual(s.names, [...s.names].sort());
    assert.ok(Math.abs(write.series[0]!.timestamp - Date.now()) < 60_000);
    assert.deepEqual(receiver.problems, []);
  });

  it('says once in the log why a push was refused, never the token', async () => {
    receiver.statuses.push(401, 401);
    await until(
      () =>
        /The metrics integration at http:\/\/127\.0\.0\.1:\d+ refused the request counts: HTTP 401/.test(
          service.output(),
        ),
      'the log line',
    );
    await until(() => receiver.statuses.length === 0, 'the second refusal');
    assert.equal(service.output().match(/refused the request counts/g)!.length, 1, 'said once');
    assert.ok(!service.output().includes(TOKEN));
  });
});
