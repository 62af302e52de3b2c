// Organizations: the record of spec 2.10, usage counters, integrations and alert e-mails.
import { randomUUID } from 'node:crypto';
import type { IntegrationsBodyEither, Organization } from '../../api/schemas';
import type { Database } from '../db';
import { notFound } from '../problem';
import { nowIso, parseJson } from './caller';
import { seedOrganizationContent } from './seedContent';

interface OrgRow {
  id: string;
  name: string;
  creator: string;
  profile: string;
  rate_limit: number;
  alert_emails: string | null;
  [column: string]: string | number | null;
}

const COUNTERS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'prompt_tokens_cost',
  'completion_tokens_cost',
  'total_tokens_cost',
  'prompt_tokens_cost_savings',
  'completion_tokens_cost_savings',
  'total_tokens_cost_savings',
  'num_requests',
] as const;
const INTEGRATION_FIELDS = [
  'metrics_id',
  'metrics_token',
  'metrics_endpoint',
  'logs_id',
  'logs_token',
  'logs_endpoint',
] as const;

export interface NewOrganization {
  id?: string;
  name: string;
  creator: string;
  isDefault: boolean;
  seedContent: boolean;
  rateLimit?: number;
}

export function insertOrganization(db: Database, org: NewOrganization): string {
  const id = org.id ?? randomUUID();
  const now = new Date();
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000;
  const profile = {
    org_payment_id: `cus_local_${id.slice(0, 8)}`,
    last_invoice_date: monthStart,
    spaces_subscription_tier: 'FREE',
    spaces_subscription_seats: 1,
    spaces_subscription_status: 'active',
    spaces_subscription_cancel_at: null,
    subscription_pause_reason: null,
    subscription_cycle: 'monthly',
    subscription_tier: '_TRIAL_',
    subscription_price_id: null,
    trial_end: Math.floor(now.getTime() / 1000) + 14 * 86_400,
    currency: 'usd',
    billing_email: '',
    free_balance: 5,
    spending_limit_soft: 20,
    spending_limit_hard: 50,
    is_active: true,
    is_personal: true,
    org_display_name: org.name,
    org_logo: '',
    address_1: '',
    address_2: '',
    address_city: '',
    address_zip: '',
    address_state: '',
    address_country: '',
    crm_id: null,
  };
  db.run(
    `INSERT INTO orgs (id, name, creator, is_default, profile, rate_limit, added_on, modified_on)
     VALUES ($id, $name, $creator, $isDefault, $profile, $rateLimit, $now, $now)`,
    {
      id,
      name: org.name,
      creator: org.creator,
      isDefault: org.isDefault,
      profile: JSON.stringify(profile),
      rateLimit: org.rateLimit ?? 200,
      now: now.toISOString(),
    },
  );
  if (org.seedContent) seedOrganizationContent(db, id, org.creator);
  return id;
}

export function defaultOrganizationId(db: Database): string {
  const row = db.get<{ id: string }>('SELECT id FROM orgs WHERE is_default = 1');
  if (!row) throw new Error('The database has no default organization.');
  return row.id;
}

export function getOrganization(db: Database, orgId: string): Organization {
  const row = db.get<OrgRow>('SELECT * FROM orgs WHERE id = $id', { id: orgId });
  if (!row) throw notFound('Organization');
  const apps =
    db.get<{ n: number }>('SELECT COUNT(*) AS n FROM apps WHERE org_id = $id AND is_active = 1', { id: orgId })?.n ?? 0;
  const counters = Object.fromEntries(COUNTERS.map((c) => [c, row[c]]));
  const integrations = Object.fromEntries(INTEGRATION_FIELDS.map((c) => [c, row[c]]));
  return {
    ...parseJson<Record<string, unknown>>(row.profile, {}),
    id: row.id,
    org_name: row.name,
    org_creator: row.creator,
    ...counters,
    ...integrations,
    num_apps: apps,
    rate_limit: row.rate_limit,
    alert_emails: parseJson(row.alert_emails, null),
    added_on: row.added_on,
    modified_on: row.modified_on,
  } as Organization;
}

/** The organization as a Space key may see it: the integration tokens left out. */
export function withoutIntegrationTokens(org: Organization): Organization {
  return { ...org, metrics_token: null, logs_token: null };
}

export function setRateLimit(db: Database, orgId: string, perMinute: number): void {
  db.run('UPDATE orgs SET rate_limit = $n, modified_on = $now WHERE id = $id', {
    n: perMinute,
    now: new Date().toISOString(),
    id: orgId,
  });
}

export function rateLimitOf(db: Database, orgId: string): number {
  return db.get<{ rate_limit: number }>('SELECT rate_limit FROM orgs WHERE id = $id', { id: orgId })?.rate_limit ?? 200;
}

/**
 * An omitted group keeps its values, a null group clears it, an object sets all three fields. The
 * hosted service's names for the groups (`prom`, `loki`) are read too.
 */
export function updateIntegrations(db: Database, orgId: string, body: IntegrationsBodyEither): Organization {
  const groups = {
    metrics: body.metrics !== undefined ? body.metrics : body.prom,
    logs: body.logs !== undefined ? body.logs : body.loki,
  };
  for (const [group, value] of Object.entries(groups)) {
    if (value === undefined) continue;
    db.run(
      `UPDATE orgs SET ${group}_id = $id, ${group}_token = $token, ${group}_endpoint = $endpoint, modified_on = $now WHERE id = $org`,
      {
        id: value?.id ?? null,
        token: value?.token ?? null,
        endpoint: value?.endpoint ?? null,
        now: nowIso(),
        org: orgId,
      },
    );
  }
  return getOrganization(db, orgId);
}

/** Alert stamps stored as epoch seconds (up to 0.1.0) become ISO timestamps. */
export function migrateAlertStamps(db: Database): void {
  for (const row of db.all<{ id: string; alert_emails: string }>(
    'SELECT id, alert_emails FROM orgs WHERE alert_emails IS NOT NULL',
  )) {
    const stamps = parseJson<Record<string, unknown>>(row.alert_emails, {}) ?? {};
    const iso = Object.fromEntries(
      Object.entries(stamps).map(([k, v]) => [k, typeof v === 'number' ? new Date(v * 1000).toISOString() : v]),
    );
    db.run('UPDATE orgs SET alert_emails = $a WHERE id = $id', { a: JSON.stringify(iso), id: row.id });
  }
}
