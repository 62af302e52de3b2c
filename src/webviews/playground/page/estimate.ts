// The cost of a prompt before it is sent, from the models' listed prices. Tokens are estimated at about
// four characters each (the service counts them exactly once the request runs).
import type { CostBand } from '../../../api/schemas';
import type { ModelBrief } from '../../../shared/protocol/playground';
import { money } from '../../page/values';
import { t } from '../../page/l10n';

export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function promptCost(model: ModelBrief, text: string): number {
  return (model.byCharacters ? text.length : estimateTokens(text)) * model.promptCost + model.baseCost;
}

/** "≈ 120 prompt tokens", "≈ 1 prompt token". */
const promptTokens = (count: number) =>
  count === 1 ? t('≈ 1 prompt token') : t('≈ {0} prompt tokens', count.toLocaleString());

/** Said with the estimate when the chosen model cannot answer here, before anything is sent. */
export function cannotAnswerNote(chosen: ModelBrief | undefined): string | null {
  if (!chosen || chosen.answersHere) return null;
  if (chosen.notOfferedWhy) return t('{0} cannot answer here: {1}.', chosen.namespace, chosen.notOfferedWhy);
  return chosen.notOffered
    ? t('{0} cannot answer here: its provider does not list it among the models your key can use.', chosen.namespace)
    : t('{0} cannot answer here now: no provider key or model server here reaches it.', chosen.namespace);
}

/** "≈ 120 tokens · $0.000360 at openai/gpt-4o", or the range over the models routing may choose. */
export function describeEstimate(text: string, chosen: ModelBrief | undefined, routable: ModelBrief[]): string {
  const tokens = promptTokens(estimateTokens(text));
  if (chosen) return t('{0} · {1} at {2}', tokens, money(promptCost(chosen, text)), chosen.namespace);
  if (routable.length === 0) return t('{0} · no active model to route to', tokens);
  const costs = routable.map((m) => promptCost(m, text));
  const low = Math.min(...costs);
  const high = Math.max(...costs);
  const range = low === high ? money(low) : `${money(low)}–${money(high)}`;
  return routable.length === 1
    ? t('{0} · {1} across 1 active model (routing)', tokens, range)
    : t('{0} · {1} across {2} active models (routing)', tokens, range, routable.length);
}

/**
 * The cost band of the request as it would be sent: "412 tokens to send · $0.0001–$0.0009, expected
 * $0.0003 at openai/gpt-4o-mini". One the extension estimated (the service gives none) says so.
 */
export function describeBand(band: CostBand & { estimated?: boolean }): string {
  if (band.estimated) {
    const tokens = promptTokens(band.prompt_tokens);
    const at = band.model ? t('at {0}', band.model) : t('routing among the active models');
    return t(
      '{0} · {1}–{2}, expected ≈ {3} {4} (estimated from the prices; earlier turns not counted)',
      tokens,
      money(band.min),
      money(band.max),
      money(band.expected),
      at,
    );
  }
  const tokens = t('{0} tokens to send', band.prompt_tokens.toLocaleString());
  if (band.min === band.max) return t('{0} · {1} at {2}', tokens, money(band.expected), band.model);
  return t(
    '{0} · {1}–{2}, expected {3} at {4}',
    tokens,
    money(band.min),
    money(band.max),
    money(band.expected),
    band.model,
  );
}

/** What a stopped reply had cost so far: its tokens, and their price where the model is known. */
export function stoppedNote(text: string, cost: number | undefined): string {
  if (!text) return t('Stopped before the first tokens.');
  const tokens = estimateTokens(text).toLocaleString('en-US');
  return cost === undefined
    ? t('Stopped after ≈ {0} tokens.', tokens)
    : t("Stopped after ≈ {0} tokens, worth ≈ {1} at the model's price.", tokens, money(cost));
}
