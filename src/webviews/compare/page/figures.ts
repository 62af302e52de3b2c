// What a comparison says of its columns, free of the DOM: the figures of a reply in words, which
// column won on cost and on latency, and the weight a promotion shifts toward by default.
import type { WeightName } from '../../../shared/protocol/compare';
import type { ReplyInfo } from '../../../shared/protocol/playground';
import { stoppedShort, tokenFigures } from '../../../shared/receipt';
import { t } from '../../page/l10n';
import { money } from '../../page/values';

/** A column as the comparison keeps it (and VS Code keeps it across reloads). */
export interface Column {
  model: string;
  /** The Space's benchmark model when the column ran: the service counted its saving against that one. */
  benchmark?: string | null;
  text: string;
  reply: ReplyInfo | null;
  error: string | null;
}

/** "1,204 tokens (1,000 in, 204 out) · $0.000410 · 1.20 s". */
export function figuresLine(r: ReplyInfo): string {
  const parts = [tokenFigures(r.usage, t), money(r.costs.total_tokens), t('{0} s', r.latencySeconds.toFixed(2))];
  const stopped = stoppedShort(r.finishReason, t);
  if (stopped) parts.push(stopped);
  return parts.join(' · ');
}

/** The saving against the Space's benchmark model, in words; null without one (the Space's line says so once). */
export function savingLine(r: ReplyInfo, benchmark: string | null): string | null {
  if (!benchmark) return null;
  if (r.namespace === benchmark) return t('This is the benchmark model.');
  const saved = r.savings.total_tokens;
  if (saved > 0) return t('Saves {0} against {1}', money(saved), benchmark);
  if (saved < 0) return t('Costs {0} more than {1}', money(-saved), benchmark);
  return t('Costs the same as {0}', benchmark);
}

/** The models that won among the finished columns: the cheapest and the fastest (none with fewer than two). */
export function winners(columns: Column[]): { cheapest: string | null; fastest: string | null } {
  const done = columns.flatMap((c) => (c.reply ? [{ model: c.model, reply: c.reply }] : []));
  if (done.length < 2) return { cheapest: null, fastest: null };
  const best = (value: (r: ReplyInfo) => number) =>
    done.reduce((a, b) => (value(b.reply) < value(a.reply) ? b : a)).model;
  return { cheapest: best((r) => r.costs.total_tokens), fastest: best((r) => r.latencySeconds) };
}

/** What a promotion of this model shifts the weights toward, unless the user says otherwise. */
export function defaultToward(model: string, won: ReturnType<typeof winners>): WeightName {
  if (won.cheapest === model) return 'cost';
  if (won.fastest === model) return 'latency';
  return 'quality';
}

/** A column's model answered itself: not the failover chain's next model in its place. */
export const ownReply = (c: Column) => !!c.reply && c.reply.namespace === c.model;

/** How the comparison went, counting only the models that answered themselves. */
export function outcome(columns: Column[]): string {
  const own = columns.filter(ownReply).length;
  const replaced = columns.filter((c) => c.reply && !ownReply(c)).length;
  const line =
    own === columns.length ? t('All {0} models answered.', own) : t('{0} of {1} models answered.', own, columns.length);
  if (replaced === 0) return line;
  return replaced === 1
    ? t('{0} In 1 column another model of the failover chain answered instead.', line)
    : t('{0} In {1} columns another model of the failover chain answered instead.', line, replaced);
}
