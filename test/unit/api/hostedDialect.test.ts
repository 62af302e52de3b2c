// Reading answers tolerantly and in either spelling, and sending what the service at hand reads:
// the client against a fake of the hosted service (in front of the real built-in one) and directly.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { LlmSpacesClient } from '../../../src/api/client';
import { UnauthorizedError, ValidationError } from '../../../src/api/errors';
import { ModelRecord, Organization, records, unreadableIn, type LeftOut } from '../../../src/api/schemas';
import { parseBody } from '../../../src/api/transport';
import { startHostedFake, type HostedFake } from '../support/hostedFake';
import { removeDir, startService, type RunningService } from '../support/service';

const model = (extra: Record<string, unknown> = {}) => ({
  model: 'm',
  namespace: 'p/m',
  prompt_token_cost: 1e-6,
  ...extra,
});

describe('tolerant reading', () => {
  it('leaves an unreadable record out of its list, counts it and says where it was', () => {
    const reports: LeftOut[][] = [];
    const body = JSON.stringify([
      model(),
      { model: 'no namespace' },
      model({ namespace: 'p/n', context_window: 'big' }),
      model({ namespace: 'p/o' }),
    ]);
    const list = parseBody(records(ModelRecord), body, 'GET /v1/internal/models', 200, (_hosted, leftOut) =>
      reports.push(leftOut),
    );
    assert.deepEqual(
      list.map((m) => m.namespace),
      ['p/m', 'p/o'],
    );
    assert.equal(unreadableIn(list), 2);
    assert.deepEqual(
      reports[0]!.map((r) => [r.index, r.field]),
      [
        [1, 'namespace'],
        [2, 'context_window'],
      ],
    );
  });

  it('counts nothing for a list that was read whole', () => {
    const list = parseBody(records(ModelRecord), JSON.stringify([model()]), 'x', 200);
    assert.equal(unreadableIn(list), 0);
  });

  it('ignores unknown fields and gives absent optional ones their defaults', () => {
    const [m] = parseBody(
      z.array(ModelRecord),
      JSON.stringify([model({ brand_new: { deep: true }, supports_vision: null })]),
      'x',
      200,
    );
    assert.equal(m!.supports_vision, false);
    assert.equal(m!.is_chat, true);
    assert.equal(m!.context_window, 0);
    assert.equal(m!.description, '');
    assert.equal(m!.price_unit, 'tokens');
    assert.equal(m!.id, null);
  });

  it('reads both spellings, the interface name winning where both are sent', () => {
    let hostedSeen = false;
    const org = parseBody(
      Organization,
      JSON.stringify({
        id: '11111111-2222-4333-8444-555555555555',
        org_stripe_id: 'cus_1',
        prom_token: 'p',
        hubspot_id: 'h',
        subscription_tier: 'NEW_TIER',
      }),
      'x',
      200,
      (hosted) => (hostedSeen = hosted),
    );
    assert.equal(org.org_payment_id, 'cus_1');
    assert.equal(org.metrics_token, 'p');
    assert.equal(org.crm_id, 'h');
    assert.equal(org.subscription_tier, 'NEW_TIER', 'an enumeration value added later is kept, not refused');
    assert.equal('org_stripe_id' in org, false, 'only the interface names are handed on');
    assert.ok(hostedSeen);
    const both = parseBody(
      z.array(ModelRecord),
      JSON.stringify([model({ is_service_owner: true, is_pulze_owner: false })]),
      'x',
      200,
    );
    assert.equal(both[0]!.is_service_owner, true);
  });

  it('reads alert stamps as ISO text from either kind of service', () => {
    const org = parseBody(
      Organization,
      JSON.stringify({
        id: '11111111-2222-4333-8444-555555555555',
        alert_emails: { soft_limit: 1_700_000_000, hard_limit: '2026-01-02T03:04:05Z' },
      }),
      'x',
      200,
    );
    assert.equal(org.alert_emails!.soft_limit, '2023-11-14T22:13:20.000Z');
    assert.equal(org.alert_emails!.hard_limit, '2026-01-02T03:04:05Z');
  });
});

describe('the client against the hosted dialect', function () {
  this.timeout(30_000);
  let service: RunningService;
  let hosted: HostedFake;
  let appId: string;
  const leftOut: Array<{ endpoint: string; count: number }> = [];
  const viaHosted = (token?: string) =>
    new LlmSpacesClient({
      baseUrl: hosted.url,
      token: () => token ?? service.token,
      onLeftOut: (endpoint, list) => leftOut.push({ endpoint, count: list.length }),
    });

  before(async () => {
    service = await startService();
    hosted = await startHostedFake(service.url);
    appId = (await service.client().listSpaces()).items[0]!.id;
  });
  after(async () => {
    await hosted.close();
    await service.stop();
    removeDir(service.dataDir);
  });

  it('reads every record in hosted names, and leaves unreadable models out with a count', async () => {
    hosted.options.badModels = 2;
    const client = viaHosted();
    const models = await client.listModels();
    hosted.options.badModels = 0;
    const direct = await service.client().listModels();
    assert.equal(models.length, direct.length);
    assert.equal(unreadableIn(models), 2);
    assert.deepEqual(leftOut.at(-1), { endpoint: 'GET /v1/internal/models', count: 2 });
    assert.deepEqual(
      models.map((m) => m.is_service_owner),
      direct.map((m) => m.is_service_owner),
    );
    const org = await client.getOrganization();
    assert.equal(org.org_payment_id, (await service.client().getOrganization()).org_payment_id);
    const space = await client.getSpace(appId);
    assert.equal(space.main.app.identity_id, (await service.client().getSpace(appId)).main.app.identity_id);
    assert.equal(await client.dialect(), 'hosted');
    assert.equal(await service.client().dialect(), 'interface');
  });

  it('sends the integrations as prom and loki to the hosted service, as metrics and logs to the built-in one', async () => {
    const group = { id: 'g1', token: 'tok-hosted-1', endpoint: 'https://metrics.example/push' };
    const fresh = viaHosted();
    const org = await fresh.updateIntegrations({ metrics: group });
    assert.equal(org.metrics_id, 'g1');
    assert.deepEqual(hosted.seen.filter((r) => r.path === '/v1/orgs/integrations').at(-1)!.body, { prom: group });
    // Cleared, as the hosted schema takes it: the group sent empty (null is refused there), read back as not set.
    const clearedThere = await fresh.updateIntegrations({ metrics: null });
    assert.deepEqual(hosted.seen.filter((r) => r.path === '/v1/orgs/integrations').at(-1)!.body, {
      prom: { id: '', token: '', endpoint: '' },
    });
    assert.equal(clearedThere.metrics_id, null);
    const direct = service.client();
    const cleared = await direct.updateIntegrations({ metrics: null, logs: { ...group, id: 'g2' } });
    assert.equal(cleared.metrics_id, null);
    assert.equal(cleared.logs_id, 'g2');
  });

  it('reads the toggle answer with a model record, and an assistant without versions', async () => {
    const client = viaHosted();
    const detail = await client.getSpace(appId);
    const setting = detail.main.base_model_settings.find((s) => s.active)!;
    const toggled = await client.toggleModel(appId, setting.id, false);
    assert.equal(toggled.model, setting.namespace);
    assert.equal(toggled.active, false);
    await client.toggleModel(appId, setting.id, true);
    const made = await service.client().createAssistant(appId, { name: 'Reviewer' });
    await service.client().createAssistantVersion(appId, made.id, { instructions: 'Review.' });
    const read = await client.getAssistant(appId, made.id);
    assert.deepEqual(read.versions, []);
  });

  it('resends a partial update once with the fields the hosted service insists on', async () => {
    const client = viaHosted();
    const before = (await client.getSpace(appId)).main.app;
    const updated = await client.updateSpace({ id: appId, name: 'Renamed through hosted' });
    assert.equal(updated.main.app.name, 'Renamed through hosted');
    assert.deepEqual(updated.main.app.weights, before.weights);
    assert.equal(updated.main.app.description, before.description);
    const updates = hosted.seen.filter((r) => r.path === '/v1/apps/update');
    assert.equal(updates.length, 2);
    assert.deepEqual(Object.keys(updates[1]!.body as object).sort(), [
      'description',
      'id',
      'name',
      'policies',
      'weights',
    ]);
  });

  it('does not resend a 422 about a value the update carried', async () => {
    await assert.rejects(
      service.client().updateSpace({ id: appId, weights: { cost: 0, latency: 0, quality: 0 } }),
      ValidationError,
    );
    const sent = hosted.seen.length;
    await assert.rejects(
      viaHosted().updateSpace({
        id: appId,
        description: 'd',
        policies: {},
        weights: { cost: 0, latency: 0, quality: 0 },
      }),
      ValidationError,
    );
    assert.equal(hosted.seen.length, sent + 1, 'sent once');
  });

  it('checks a token with a call that fails only for a wrong token', async () => {
    await viaHosted().checkToken();
    await assert.rejects(viaHosted('not-a-token').checkToken(), UnauthorizedError);
  });
});
