// The organization's spending limits before a request: refuse it (it would pass the hard limit), ask or
// warn (it would pass the soft one), or let it go. Used by VS Code's chat and the playground.
import type { Organization } from '../api/schemas';

export type BudgetVerdict = { kind: 'refuse' | 'warn'; spent: number; limit: number; hard: number } | { kind: 'go' };

/** `adding`: what the request is expected to cost (0 when unknown: only a limit already reached counts). */
export function budgetVerdict(
  org: Pick<Organization, 'total_tokens_cost' | 'spending_limit_soft' | 'spending_limit_hard'> | undefined,
  adding = 0,
): BudgetVerdict {
  if (!org) return { kind: 'go' };
  const spent = org.total_tokens_cost;
  const after = spent + adding;
  const soft = org.spending_limit_soft ?? 0;
  const hard = org.spending_limit_hard ?? 0;
  if (hard > 0 && after >= hard) return { kind: 'refuse', spent, limit: hard, hard };
  if (soft > 0 && after >= soft) return { kind: 'warn', spent, limit: soft, hard };
  return { kind: 'go' };
}
