// The organization panel's calls, results and events.
import { z } from 'zod';
import type { Organization } from '../../api/schemas';
import type { Rules } from '../rules';
import type { Calls } from './envelope';
import { PlaygroundCalls } from './playground';

export const IntegrationGroup = z.object({
  id: z.string().trim().min(1, 'required').max(200),
  /** Empty keeps the token the service has. */
  token: z.string().max(2000),
  endpoint: z.url({ error: 'must be a URL' }).max(2000),
});

export const OrganizationCalls = {
  load: z.object({}),
  saveIntegration: z.object({ group: z.enum(['metrics', 'logs']), value: IntegrationGroup.nullable() }),
  openLink: PlaygroundCalls.openLink,
} satisfies Calls;

/** The organization with `metrics_token` and `logs_token` masked (`••••ab12`): a secret never enters a webview. */
export type MaskedOrganization = Organization;

export interface OrganizationData {
  org: MaskedOrganization | null;
  /** Why `org` is missing, e.g. the service does not offer GET /v1/orgs/self. */
  unavailable: string | null;
  /** The rules of an integration group (id, token, endpoint), checked before sending. */
  rules: Rules;
  /** The built-in service's organization: what it does with each group is said under it. */
  builtIn: boolean;
}

export interface OrganizationResults {
  load: OrganizationData;
  saveIntegration: OrganizationData;
  openLink: null;
}

export type OrganizationEvent = { type: 'reload' };
