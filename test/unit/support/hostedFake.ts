// A fake of the hosted service, built from its public material (conventions.md, "The hosted service as
// it really answers"): it stands in front of the built-in service and speaks the hosted dialect.
// - Answers use the hosted wire names (is_pulze_owner, auth0_id, org_stripe_id, hubspot_id, prom_*,
//   loki_*), carry fields no client knows, and leave out what the hosted service may leave out
//   (an assistant's `versions`).
// - The model toggle answers with the model's record, not its namespace.
// - An update of a Space insists on `description`, `weights` and `policies` (a 422 naming each
//   missing one), and the integrations update reads only `prom` and `loki` (other fields are ignored,
//   as unknown fields are there).
// - With `badModels`, the catalogue carries that many records that cannot be read.
// - Replies carry no routing receipt (`metadata.routing` is the built-in service's own), and there is
//   no route preview (POST /v1/apps/{id}/route answers 404).
// - With `organization`, the organization record has those fields changed (spending limits set on
//   the hosted service's billing, which has no endpoint here).
import http from 'node:http';
import { request } from 'undici';
import { listenLocally } from './localServer';

const TO_HOSTED: ReadonlyMap<string, string> = new Map([
  ['is_service_owner', 'is_pulze_owner'],
  ['identity_id', 'auth0_id'],
  ['org_payment_id', 'org_stripe_id'],
  ['crm_id', 'hubspot_id'],
  ['metrics_id', 'prom_id'],
  ['metrics_token', 'prom_token'],
  ['metrics_endpoint', 'prom_endpoint'],
  ['logs_id', 'loki_id'],
  ['logs_token', 'loki_token'],
  ['logs_endpoint', 'loki_endpoint'],
]);

export interface HostedFakeOptions {
  /** Unreadable records appended to the catalogue. */
  badModels?: number;
  /** Fields of the organization record to answer differently, worked out from the record as it is. */
  organization?: (org: Record<string, unknown>) => Record<string, unknown>;
}

export interface HostedFake {
  url: string;
  options: HostedFakeOptions;
  /** Requests as they arrived: method, path, the JSON body and the bearer credential. */
  seen: Array<{ method: string; path: string; body: unknown; authorization: string | undefined }>;
  close: () => Promise<void>;
}

/**
 * Renames every interface field to its hosted name and adds a field no client knows to each record; a
 * cleared integration's fields are empty strings, as the hosted service keeps them.
 */
function toHosted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toHosted);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { hosted_only_field: { note: 'not in the interface' } };
  for (const [key, field] of Object.entries(value)) {
    const name = TO_HOSTED.get(key) ?? key;
    // A cleared integration is kept as empty strings there.
    out[name] = /^(prom|loki)_/.test(name) && field === null ? '' : toHosted(field);
  }
  return out;
}

/** A reply or stream chunk without the built-in service's routing receipt. */
function withoutReceipt(value: unknown): unknown {
  const metadata = (value as { metadata?: Record<string, unknown> } | null)?.metadata;
  if (metadata && typeof metadata === 'object') delete metadata.routing;
  return value;
}

/** A 422 in the hosted service's shape for each insisted field the update leaves out. */
function insisted(body: Record<string, unknown>): unknown[] {
  return ['description', 'weights', 'policies']
    .filter((f) => body[f] === undefined || body[f] === null)
    .map((f) => ({ loc: ['body', f], msg: 'Field required', type: 'missing' }));
}

export async function startHostedFake(target: string, options: HostedFakeOptions = {}): Promise<HostedFake> {
  const seen: HostedFake['seen'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      let body: Record<string, unknown> | undefined;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      seen.push({ method: req.method!, path: req.url!, body, authorization: req.headers.authorization });
      handle(target, options, req, body, raw, res).catch((error: unknown) => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: `fake: ${(error as Error).message}` }));
      });
    });
  });
  return { ...(await listenLocally(server)), options, seen };
}

async function handle(
  target: string,
  options: HostedFakeOptions,
  req: http.IncomingMessage,
  body: Record<string, unknown> | undefined,
  raw: string,
  res: http.ServerResponse,
) {
  const path = (req.url ?? '').split('?')[0]!;
  const route = `${req.method} ${path}`;
  const send = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (/^POST \/v1\/apps\/[^/]+\/route$/.test(route)) return send(404, { detail: 'Not Found' });
  let forwardBody = raw;
  if (route === 'PUT /v1/apps/update' && body) {
    const missing = insisted(body);
    if (missing.length > 0) return send(422, { detail: missing });
  }
  if (route === 'PUT /v1/orgs/integrations' && body) {
    const { prom, loki } = body as Record<string, Record<string, string> | null | undefined>;
    // Its published schema: each group an object of three strings, never null; all three empty clear it.
    const refused = [prom, loki].some(
      (g) => g === null || (g !== undefined && !['id', 'token', 'endpoint'].every((k) => typeof g[k] === 'string')),
    );
    if (refused) return send(422, { detail: [{ loc: ['body', 'loki'], msg: 'Input should be a valid dictionary' }] });
    const group = (g: Record<string, string> | null | undefined) =>
      !g ? {} : g.id === '' && g.token === '' && g.endpoint === '' ? null : g;
    forwardBody = JSON.stringify({
      ...(prom !== undefined ? { metrics: group(prom) } : {}),
      ...(loki !== undefined ? { logs: group(loki) } : {}),
    });
  }
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length', 'if-none-match'].includes(k)),
  ) as Record<string, string>;
  const upstream = await request(`${target}${req.url}`, {
    method: req.method as 'GET',
    headers,
    body: forwardBody || undefined,
  });
  if (String(upstream.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    res.writeHead(upstream.statusCode, { 'content-type': 'text/event-stream' });
    let pending = '';
    for await (const chunk of upstream.body) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines)
        res.write(
          `${line.startsWith('data: {') ? `data: ${JSON.stringify(withoutReceipt(JSON.parse(line.slice(6))))}` : line}\n`,
        );
    }
    return void res.end(pending);
  }
  const text = await upstream.body.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    res.writeHead(upstream.statusCode, { 'content-type': String(upstream.headers['content-type'] ?? 'text/plain') });
    return void res.end(text);
  }
  if (upstream.statusCode >= 400) return send(upstream.statusCode, answer);
  if (/^PUT \/v1\/apps\/[^/]+\/models\/[^/]+\/toggle$/.test(route)) {
    const toggled = answer as { model: string };
    const catalogue = await request(`${target}/v1/internal/models`, { headers });
    const models = (await catalogue.body.json()) as Array<{ namespace: string }>;
    answer = { ...toggled, model: models.find((m) => m.namespace === toggled.model) ?? toggled.model };
  }
  if (/^GET \/v1\/apps\/[^/]+\/assistants(\/[^/]+)?$/.test(route)) {
    const strip = ({ versions: _versions, ...assistant }: Record<string, unknown>) => assistant;
    answer = Array.isArray(answer) ? answer.map(strip) : strip(answer as Record<string, unknown>);
  }
  if (route === 'GET /v1/internal/models' && options.badModels) {
    const bad = Array.from({ length: options.badModels }, (_, n) => ({
      model: `broken-${n}`,
      context_window: 'large',
      hosted_only_field: true,
    }));
    answer = [...(answer as unknown[]), ...bad];
  }
  if (route === 'GET /v1/orgs/self' && options.organization)
    answer = { ...(answer as Record<string, unknown>), ...options.organization(answer as Record<string, unknown>) };
  send(upstream.statusCode, toHosted(withoutReceipt(answer)));
}
