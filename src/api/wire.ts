// The one place where the hosted service's wire names meet the interface's (conventions.md, "The hosted
// service as it really answers"). Answers are read in either spelling and handed on in the interface's;
// what the client sends is spelled for the service it talks to.

/** The hosted service's names of record fields, and the interface's name of each. */
const HOSTED_FIELDS: ReadonlyMap<string, string> = new Map([
  ['is_pulze_owner', 'is_service_owner'],
  ['auth0_id', 'identity_id'],
  ['org_stripe_id', 'org_payment_id'],
  ['hubspot_id', 'crm_id'],
  ['prom_id', 'metrics_id'],
  ['prom_token', 'metrics_token'],
  ['prom_endpoint', 'metrics_endpoint'],
  ['loki_id', 'logs_id'],
  ['loki_token', 'logs_token'],
  ['loki_endpoint', 'logs_endpoint'],
]);

const HOSTED_NAME = new RegExp(`"(${[...HOSTED_FIELDS.keys()].join('|')})"\\s*:`);

/** Whether an answer's text uses any hosted name: one scan, cheaper than walking every record. */
export const mentionsHostedNames = (text: string): boolean => HOSTED_NAME.test(text);

/** Which names a service uses: the interface's (the built-in service) or the hosted service's. */
export type Dialect = 'interface' | 'hosted';

/**
 * Renames the hosted service's fields to the interface's, in place, through the whole parsed answer.
 * When both spellings are present the interface's wins. Returns whether any hosted name was seen.
 */
export function fromWire(json: unknown): boolean {
  let hosted = false;
  const stack: unknown[] = [json];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') stack.push(item);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const field = record[key];
      const renamed = HOSTED_FIELDS.get(key);
      if (renamed !== undefined) {
        hosted = true;
        // The hosted service keeps a cleared integration as empty strings (see integrationsToWire).
        if (!(renamed in record)) record[renamed] = INTEGRATION_FIELDS.has(renamed) && field === '' ? null : field;
        delete record[key];
      }
      if (field !== null && typeof field === 'object') stack.push(field);
    }
  }
  return hosted;
}

export type IntegrationGroupName = 'metrics' | 'logs';

type Group = { id: string; token: string; endpoint: string };

/** The integration fields of the organization record, by the interface's names. */
const INTEGRATION_FIELDS: ReadonlySet<string> = new Set(
  [...HOSTED_FIELDS.values()].filter((name) => /^(metrics|logs)_/.test(name)),
);

/**
 * The integrations update's group names as the given service reads them. The hosted service's
 * published schema takes each group as an object of three strings and refuses null, so a group is
 * cleared there by sending it empty (its answer then carries empty strings, read back as not set).
 */
export function integrationsToWire(
  body: Partial<Record<IntegrationGroupName, Group | null>>,
  dialect: Dialect,
): Record<string, Group | null | undefined> {
  if (dialect === 'interface') return { ...body };
  const cleared = (group: Group | null | undefined) => (group === null ? { id: '', token: '', endpoint: '' } : group);
  return { prom: cleared(body.metrics), loki: cleared(body.logs) };
}
