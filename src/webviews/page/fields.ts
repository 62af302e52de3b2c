// Labelled form controls from @vscode-elements/elements, each with a place for its error message, and
// the marking of fields named by a failed call (the service's 422 or the form's own checks).
import { h, setValue } from './dom';
import type { Choice } from './values';

export interface Field<E extends HTMLElement = HTMLElement> {
  /** The path the service uses for this field, e.g. `max_tokens` or `weights.cost`. */
  path: string;
  control: E;
  row: HTMLElement;
  error: HTMLElement;
}

let counter = 0;

export function field<E extends HTMLElement>(path: string, label: string, control: E, hint?: string): Field<E> {
  const id = control.id || `f${++counter}`;
  control.id = id;
  control.dataset.path = path;
  const error = h('div', { class: 'field-error', id: `${id}-error`, role: 'alert' });
  control.setAttribute('aria-describedby', `${id}-error`);
  const row = h(
    'div',
    { class: 'field' },
    h('vscode-label', { for: id }, label),
    control,
    hint ? h('div', { class: 'hint' }, hint) : null,
    error,
  );
  return { path, control, row, error };
}

/** A single-select whose initial choice is marked on its option (set before the element upgrades). */
export function select(choices: Choice[], selected: string, attrs: Record<string, string | boolean> = {}): HTMLElement {
  const el = h('vscode-single-select', attrs);
  fillSelect(el, choices, selected);
  return el;
}

export function fillSelect(el: HTMLElement, choices: Choice[], selected: string): void {
  el.replaceChildren(
    ...choices.map((c) =>
      h('vscode-option', { value: c.value, selected: c.value === selected, description: c.description }, c.label),
    ),
  );
  setValue(el, selected);
}

export const textfield = (value: string, attrs: Record<string, string | boolean> = {}) => {
  const el = h('vscode-textfield', attrs);
  setValue(el, value);
  return el;
};

/**
 * Marks the fields named in `errors` (by path, a path below them, or the group they are in: an error on
 * `weights` marks each weight) and clears the others. Returns the messages no field claimed.
 */
export function markFields(fields: Field[], errors: Record<string, string>): string[] {
  const unclaimed = new Set(Object.keys(errors));
  for (const f of fields) {
    const hits = Object.keys(errors).filter(
      (p) =>
        p === f.path ||
        p.startsWith(`${f.path}.`) ||
        p.startsWith(`${f.path}[`) ||
        (p !== '' && f.path.startsWith(`${p}.`)),
    );
    hits.forEach((p) => unclaimed.delete(p));
    f.error.textContent = hits.map((p) => errors[p]).join('; ');
    if (hits.length) f.control.setAttribute('invalid', '');
    else f.control.removeAttribute('invalid');
  }
  return [...unclaimed].map((p) => errors[p]!);
}
