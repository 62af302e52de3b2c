// The organization panel's line of what the cycle cost, apart from the page so that it can be tested.
import { money } from '../../page/values';
import type { MaskedOrganization } from '../../../shared/protocol/organization';
import { t } from '../../page/l10n';

type Costs = Pick<MaskedOrganization, 'total_tokens_cost' | 'prompt_tokens_cost' | 'completion_tokens_cost'>;

/**
 * What the cycle cost, split as the service bills it: the prompts, the replies, and what is billed
 * beside the tokens (web searches a model ran at its provider, per-request fees) when there was any.
 */
export function costLine(org: Costs): string {
  const [total, prompt, completion] = [org.total_tokens_cost, org.prompt_tokens_cost, org.completion_tokens_cost];
  const beside = total - prompt - completion;
  return beside > 1e-9
    ? t(
        '{0} ({1} prompt, {2} completion, {3} web searches and fees)',
        money(total),
        money(prompt),
        money(completion),
        money(beside),
      )
    : t('{0} ({1} prompt, {2} completion)', money(total), money(prompt), money(completion));
}
