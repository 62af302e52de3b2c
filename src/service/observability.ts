// Where a logged request goes besides the database: the organization's observability integrations,
// the logs group's Loki (logShipping.ts) and the metrics group's remote write (metricsShipping.ts).
import type { Database } from './db';
import type { RequestLog } from './domain/requests';
import { logShipping } from './logShipping';
import { metricsShipping } from './metricsShipping';

/** A request is on disk: its line and its counts go to the organization's integrations, if it has them. */
export function observed(db: Database, log: RequestLog): void {
  logShipping.logged(db, log);
  metricsShipping.counted(db, log);
}

/** The organization's integrations changed: both read them again before their next use. */
export function integrationsChanged(orgId: string): void {
  logShipping.targets.changed(orgId);
  metricsShipping.targets.changed(orgId);
}
