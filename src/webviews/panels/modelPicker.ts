// The playground's model picker: VS Code's own quick pick over the catalogue, each model with its
// price in and out, context window, capabilities, and whether it is active in the Space, deprecated,
// or unable to answer here. Typing ranks what was typed exactly first, then names that start with
// it, so `gpt-4o-mini` and Enter picks openai/gpt-4o-mini rather than a fine-tune of it.
import type { ModelBrief } from '../../shared/protocol/playground';
import { perMillion } from '../../shared/money';
import { dayLabel } from '../../shared/labels';
import { ownsBareNames } from '../../shared/providerNames';

export interface PickerModel extends ModelBrief {
  active: boolean;
}

/** 0 exact, 1 starts with, 2 a word starts with, 3 contains; null: no match. */
export function matchRank(model: Pick<ModelBrief, 'namespace' | 'model'>, query: string): number | null {
  const q = query.trim().toLowerCase();
  if (!q) return 3;
  const names = [model.namespace.toLowerCase(), model.model.toLowerCase()];
  if (names.includes(q)) return 0;
  if (names.some((n) => n.startsWith(q))) return 1;
  if (
    names.some((n) =>
      n.split(/[/:._-]/).some((_, i, parts) =>
        parts
          .slice(i)
          .join('-')
          .startsWith(q.replace(/[/:._]/g, '-')),
      ),
    )
  )
    return 2;
  if (names.some((n) => n.includes(q))) return 3;
  return null;
}

/**
 * The models for a query, best first: by match, then those active in the Space, then those that can
 * answer here, then by name. Retired models are left out: they can no longer be chosen.
 */
export function rankModels<M extends PickerModel>(models: readonly M[], query: string): M[] {
  return models
    .filter((m) => !m.retired)
    .map((m) => ({ m, rank: matchRank(m, query) }))
    .filter((x): x is { m: M; rank: number } => x.rank !== null)
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        Number(b.m.active) - Number(a.m.active) ||
        Number(b.m.answersHere) - Number(a.m.answersHere) ||
        // OpenAI's gpt-4o-mini before Azure's, which serves it under OpenAI's name.
        Number(ownsBareNames(b.m.provider)) - Number(ownsBareNames(a.m.provider)) ||
        a.m.namespace.localeCompare(b.m.namespace),
    )
    .map((x) => x.m);
}

/** "128K", "1M": a context window as people read it. */
export function contextLabel(tokens: number): string {
  if (tokens <= 0) return '';
  if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10}M`.replace('.0M', 'M');
  return `${Math.round(tokens / 1000)}K`;
}

/** What the picker says of a model: its price and context on one line, its state and capabilities on the next. */
export function describeModel(m: PickerModel): { description: string; detail: string } {
  const unit = m.byCharacters ? 'M characters' : 'M tokens';
  const price =
    m.promptCost === 0 && m.completionCost === 0
      ? 'free'
      : `${perMillion(m.promptCost)} in · ${perMillion(m.completionCost)} out per ${unit}`;
  const context = contextLabel(m.contextWindow);
  const state = [
    m.active && '$(pass-filled) active in this Space',
    !m.answersHere &&
      (m.notOffered ? '$(debug-disconnect) not offered to your key' : '$(debug-disconnect) cannot answer here'),
    m.deprecatedOn &&
      (m.retired
        ? `$(error) retired on ${dayLabel(m.deprecatedOn)}`
        : `$(warning) retires on ${dayLabel(m.deprecatedOn)}`),
  ];
  const capabilities = [m.vision && '$(eye) reads images', m.tools && '$(tools) calls tools'];
  return {
    description: [price, context && `${context} context`].filter(Boolean).join(' · '),
    detail: [...state, ...capabilities].filter(Boolean).join('  '),
  };
}
