// The cost of a prompt before it is sent, from the models' listed prices. Tokens are estimated at about
// four characters each (the service counts them exactly once the request runs).
import type { ModelBrief } from '../../shared/protocol';
import { money } from '../values';

export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function promptCost(model: ModelBrief, text: string): number {
  return (model.byCharacters ? text.length : estimateTokens(text)) * model.promptCost + model.baseCost;
}

/** "≈ 120 tokens · $0.000360 at openai/gpt-4o", or the range over the models routing may choose. */
export function describeEstimate(text: string, chosen: ModelBrief | undefined, routable: ModelBrief[]): string {
  const tokens = `≈ ${estimateTokens(text).toLocaleString()} prompt tokens`;
  if (chosen) return `${tokens} · ${money(promptCost(chosen, text))} at ${chosen.namespace}`;
  if (routable.length === 0) return `${tokens} · no active model to route to`;
  const costs = routable.map((m) => promptCost(m, text));
  const low = Math.min(...costs);
  const high = Math.max(...costs);
  const range = low === high ? money(low) : `${money(low)}–${money(high)}`;
  return `${tokens} · ${range} across ${routable.length} active model${routable.length === 1 ? '' : 's'} (routing)`;
}

/** What a stopped reply had cost so far: its tokens, and their price where the model is known. */
export function stoppedNote(text: string, cost: number | undefined): string {
  if (!text) return 'Stopped before the first tokens.';
  const tokens = `≈ ${estimateTokens(text).toLocaleString('en-US')} tokens`;
  return `Stopped after ${tokens}${cost === undefined ? '' : `, worth ≈ ${money(cost)} at the model's price`}.`;
}
