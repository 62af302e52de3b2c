// The note under a test model's reply (the playground, Compare): a placeholder, and how to get real answers.
import { placeholderNote } from '../../shared/receipt';
import { h } from './dom';
import { t } from './l10n';

export function placeholder(namespace: string): HTMLElement | null {
  const note = placeholderNote(namespace, t);
  return note ? h('div', { class: 'warning placeholder', role: 'note' }, note) : null;
}
