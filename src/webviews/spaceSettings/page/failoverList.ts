// The failover chain's order: move a model up or down, remove it, or add one from the catalogue.
// Keyboard users get the same through the buttons on each row.
import type { ModelRecord } from '../../../api/schemas';
import { fill, h, valueOf } from '../../page/dom';
import { select } from '../../page/fields';
import { t } from '../../page/l10n';

export class FailoverList {
  readonly element = h('div', { class: 'failover' });
  readonly initial: string[];
  ids: string[];
  private disabled = false;

  constructor(
    chain: ModelRecord[],
    private readonly catalogue: Array<{ id: string; namespace: string }>,
    draft: string[] | null,
    private readonly onChange: () => void,
  ) {
    this.initial = chain.flatMap((m) => (m.id ? [m.id] : []));
    this.ids = draft ?? [...this.initial];
    this.render();
  }

  disable(): void {
    this.disabled = true;
    this.render();
  }

  private name(id: string): string {
    return this.catalogue.find((m) => m.id === id)?.namespace ?? id;
  }

  private move(from: number, to: number): void {
    if (to < 0 || to >= this.ids.length) return;
    const [id] = this.ids.splice(from, 1);
    this.ids.splice(to, 0, id!);
    this.render();
    this.onChange();
    (this.element.querySelectorAll('li')[to]?.querySelector('vscode-button') as HTMLElement | null)?.focus();
  }

  private render(): void {
    const button = (label: string, aria: string, fn: () => void, off = false) => {
      const b = h('vscode-button', { secondary: true, 'aria-label': aria, disabled: this.disabled || off }, label);
      b.addEventListener('click', fn);
      return b;
    };
    const rows = this.ids.map((id, i) =>
      h(
        'li',
        {},
        h('span', { class: 'position' }, `${i + 1}.`),
        h('span', { class: 'name' }, this.name(id)),
        button('↑', t('Move {0} up', this.name(id)), () => this.move(i, i - 1), i === 0),
        button('↓', t('Move {0} down', this.name(id)), () => this.move(i, i + 1), i === this.ids.length - 1),
        button(t('Remove'), t('Remove {0} from the chain', this.name(id)), () => {
          this.ids.splice(i, 1);
          this.render();
          this.onChange();
        }),
      ),
    );
    const candidates = this.catalogue.filter((m) => !this.ids.includes(m.id));
    const picker = select(
      [
        { value: '', label: t('Add a model to the chain…') },
        ...candidates.map((m) => ({ value: m.id, label: m.namespace })),
      ],
      '',
      { combobox: true, 'aria-label': t('Add a model to the failover chain'), disabled: this.disabled },
    );
    picker.addEventListener('change', () => {
      const id = valueOf(picker);
      if (!id) return;
      this.ids.push(id);
      this.render();
      this.onChange();
    });
    fill(
      this.element,
      rows.length
        ? h('ol', { class: 'chain', 'aria-label': t('Failover order') }, ...rows)
        : h('p', { class: 'hint' }, t('No model in the chain.')),
      picker,
    );
  }
}
