// What a request adds to its organization's counters (tokens, cost, savings, requests), and the alert
// e-mails its spend crossed. Written with each request's log entry (chat/logEntry.ts), on the request
// log's writer thread too, so this module imports nothing that thread does not need.
import type { Database } from '../db';
import { nowIso, parseJson } from './caller';

export interface UsageDelta {
  promptTokens: number;
  completionTokens: number;
  promptCost: number;
  completionCost: number;
  totalCost: number;
  promptSavings: number;
  completionSavings: number;
  totalSavings: number;
}

/** Adds one request's usage to the counters and stamps the alert e-mails its spend crossed. */
export function recordUsage(db: Database, orgId: string, usage: UsageDelta): void {
  const row = db.get<{ spent: number; profile: string }>(
    `UPDATE orgs SET
       prompt_tokens = prompt_tokens + $pt, completion_tokens = completion_tokens + $ct, total_tokens = total_tokens + $pt + $ct,
       prompt_tokens_cost = prompt_tokens_cost + $pc, completion_tokens_cost = completion_tokens_cost + $cc, total_tokens_cost = total_tokens_cost + $tc,
       prompt_tokens_cost_savings = prompt_tokens_cost_savings + $ps, completion_tokens_cost_savings = completion_tokens_cost_savings + $cs,
       total_tokens_cost_savings = total_tokens_cost_savings + $ts, num_requests = num_requests + 1
     WHERE id = $org
     RETURNING total_tokens_cost AS spent, profile`,
    {
      pt: usage.promptTokens,
      ct: usage.completionTokens,
      pc: usage.promptCost,
      cc: usage.completionCost,
      tc: usage.totalCost,
      ps: usage.promptSavings,
      cs: usage.completionSavings,
      ts: usage.totalSavings,
      org: orgId,
    },
  );
  if (row) stampAlerts(db, orgId, row, usage.totalCost);
}

/** A request that cost nothing (no model could answer) still counts. */
export function countFailedRequest(db: Database, orgId: string): void {
  db.run('UPDATE orgs SET num_requests = num_requests + 1 WHERE id = $org', { org: orgId });
}

/** Stamps the alert e-mails the organization's spend crossed with this request's cost. */
function stampAlerts(db: Database, orgId: string, row: { spent: number; profile: string }, added: number): void {
  const limits = parseJson<{ spending_limit_soft?: number | null; spending_limit_hard?: number | null }>(
    row.profile,
    {},
  );
  const before = row.spent - added;
  const crossed = (limit: number | null | undefined) => !!limit && limit > 0 && before < limit && row.spent >= limit;
  const hard = limits.spending_limit_hard;
  const due = [
    crossed(limits.spending_limit_soft) && 'soft_limit',
    crossed(hard) && 'hard_limit',
    ...[50, 80, 90, 100].map((pct) => !!hard && crossed((hard * pct) / 100) && `usage_${pct}`),
  ].filter((key): key is string => typeof key === 'string');
  if (due.length === 0) return;
  const stamped = db.get<{ alert_emails: string | null }>('SELECT alert_emails FROM orgs WHERE id = $id', {
    id: orgId,
  });
  const alerts = parseJson<Record<string, string | null>>(stamped?.alert_emails ?? null, {}) ?? {};
  const now = nowIso();
  for (const key of due) alerts[key] = now;
  db.run('UPDATE orgs SET alert_emails = $a WHERE id = $org', { a: JSON.stringify(alerts), org: orgId });
}
