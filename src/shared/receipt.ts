// A reply's routing receipt as people read it: one line that says where the reply went and why, and
// the rows of the table behind it. Shared by the playground (host and webview) and VS Code's chat.
// The receipt itself is the service's (conventions.md, "Routing receipt"); reasons are kept in its
// words, which are already words ("over max_cost" becomes "over the Space's max cost").
import type { RoutingReceipt, Usage } from '../api/schemas';

export interface ReceiptView {
  strategy: string;
  /** The model that answered. */
  answered: string;
  /** Latency and quality are null in an estimate (the client knows only prices). */
  candidates: Array<{
    namespace: string;
    score: number;
    costScore: number;
    latencyScore: number | null;
    qualityScore: number | null;
    estimatedCost: number;
  }>;
  /** The active models that could not take the request, with the reason. */
  excluded: Array<{ namespace: string; reason: string }>;
  /** How many of the Space's models are turned off (in its failover chain only, or toggled off). */
  inactive: number;
  attempts: Array<{ namespace: string; statusCode: number; error: string | null }>;
  /** The client's own estimate, for a service that sent no receipt (src/shared/receiptEstimate.ts). */
  estimated?: boolean;
}

export function receiptView(wire: RoutingReceipt, answered: string): ReceiptView {
  return {
    strategy: wire.strategy,
    answered,
    candidates: wire.candidates.map((c) => ({
      namespace: c.namespace,
      score: c.score,
      costScore: c.cost_score,
      latencyScore: c.latency_score,
      qualityScore: c.quality_score,
      estimatedCost: c.estimated_cost,
    })),
    excluded: wire.rejected
      .filter((r) => r.reason !== 'inactive')
      .map((r) => ({ namespace: r.namespace, reason: r.reason })),
    inactive: wire.rejected.filter((r) => r.reason === 'inactive').length,
    attempts: wire.attempts.map((a) => ({ namespace: a.namespace, statusCode: a.status_code, error: a.error })),
  };
}

/** The localizer of the side that shows the line: vscode.l10n.t on the host, webviews/page/l10n's t in a page. */
export type Localize = (message: string, ...args: Array<string | number>) => string;

/** A reason a model was left out, in words ("over max_cost" names a field; the others are words already). */
export function reasonLabel(reason: string, t: Localize): string {
  switch (reason) {
    case 'over max_cost':
      return t("over the Space's max cost");
    case 'deprecated':
      return t('deprecated');
    case 'cannot read images':
      return t('cannot read images');
    case 'cannot read PDFs':
      return t('cannot read PDFs');
    case 'too many PDF pages':
      return t('too many PDF pages for it');
    case 'cannot answer here':
      return t('cannot answer here');
    case 'prompt longer than its context window':
      return t('prompt longer than its context window');
    default:
      return reason.replace(/_/g, ' ');
  }
}

/** What made the winner win, in a word, from its scores. */
function why(c: ReceiptView['candidates'][number], t: Localize): string {
  if (c.costScore === 1 && c.qualityScore === 1) return t('cheapest and best');
  if (c.costScore === 1) return t('cheapest');
  if (c.qualityScore === 1) return t('best');
  if (c.latencyScore === 1) return t('fastest');
  return t('best balance');
}

/** "Routed to X: cheapest of 4 that met the policy; 2 excluded". */
export function receiptLine(r: ReceiptView, t: Localize): string {
  if (r.estimated) return estimateLine(r, t);
  const failed = r.attempts.filter((a) => a.statusCode !== 200);
  const retries = failed.length === 1 ? t('1 retry') : t('{0} retries', failed.length);
  if (r.strategy === 'failover')
    return t(
      'Answered by {0} after {1} failed on {2} (failover)',
      r.answered,
      failed.length === 1 ? t('1 attempt') : t('{0} attempts', failed.length),
      failed[0]?.namespace ?? '?',
    );
  if (r.strategy === 'model')
    return failed.length
      ? t('Sent to {0}, the model asked for, after {1}', r.answered, retries)
      : t('Sent to {0}, the model asked for', r.answered);
  const winner = r.candidates.find((c) => c.namespace === r.answered) ?? r.candidates[0];
  const chosen =
    r.candidates.length <= 1
      ? t('the only model that met the policy')
      : t('{0} of {1} that met the policy', winner ? why(winner, t) : t('best'), r.candidates.length);
  const parts = [t('Routed to {0}: {1}', r.answered, chosen)];
  if (r.excluded.length) parts.push(t('{0} excluded', r.excluded.length));
  if (failed.length) parts.push(retries);
  return parts.join('; ');
}

/** The line of a receipt the client estimated: said to be an estimate, ranked by cost alone. */
function estimateLine(r: ReceiptView, t: Localize): string {
  if (r.strategy === 'model')
    return t('Sent to {0}, the model asked for (estimated: the service sent no receipt)', r.answered);
  const at = r.candidates.findIndex((c) => c.namespace === r.answered);
  const n = r.candidates.length;
  const rank =
    at < 0
      ? t("Routed to {0}, not one of the Space's {1} active models that could take it", r.answered, n)
      : at === 0
        ? t('Routed to {0}, the cheapest of {1} active models for this reply', r.answered, n)
        : t('Routed to {0}, number {1} by cost of {2} active models for this reply', r.answered, at + 1, n);
  const parts = [t('Estimated: {0}', rank)];
  if (r.excluded.length) parts.push(t('{0} excluded', r.excluded.length));
  return parts.join('; ');
}

/**
 * What a reply from a test model says where it is read (the playground, VS Code's chat, Compare): it is
 * a placeholder, and how to get real answers. Null for any other model.
 */
export function placeholderNote(answered: string, t: Localize): string | null {
  if (!answered.startsWith('test/')) return null;
  return t(
    '{0} is a test model: this reply is a placeholder. For real answers, add a provider key (LLM Spaces: Add Provider Key…), start a model server on this computer, or connect to the hosted service.',
    answered,
  );
}

/**
 * A reply's tokens in words, where they are read (the playground, Compare): "1,204 tokens (1,000 in,
 * 204 out)", and of them those read from the provider's cache and those the model reasoned in, where
 * the provider counted any: "… (1,000 in, 204 out; 800 cached, 150 reasoning)".
 */
export function tokenFigures(usage: Usage, t: Localize): string {
  const n = (count: number) => count.toLocaleString();
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const details = [
    ...(cached > 0 ? [t('{0} cached', n(cached))] : []),
    ...(reasoning > 0 ? [t('{0} reasoning', n(reasoning))] : []),
  ];
  const [total, input, output] = [n(usage.total_tokens), n(usage.prompt_tokens), n(usage.completion_tokens)];
  return details.length
    ? t('{0} tokens ({1} in, {2} out; {3})', total, input, output, details.join(', '))
    : t('{0} tokens ({1} in, {2} out)', total, input, output);
}

/**
 * Why a reply stopped short, where it is read (the playground, VS Code's chat, Compare): cut at max
 * tokens, or stopped by its provider's content filter. Null for a reply that ended as the model chose.
 */
export function stoppedShort(finishReason: string | null | undefined, t: Localize): string | null {
  if (finishReason === 'length') return t('cut at max tokens');
  if (finishReason === 'content_filter') return t("stopped by the provider's content filter");
  return null;
}
