// A small element builder: text always goes in as text nodes, never as HTML.
type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children)
    if (child) parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A vscode-elements control's current value (they are custom elements with a `value` property). */
export const valueOf = (el: Element | null): string =>
  el && 'value' in el && typeof el.value === 'string' ? el.value : '';

export function setValue(el: Element | null, value: string): void {
  // Through the property's setter, also on a custom element not upgraded yet (it keeps the value then).
  if (el) Object.assign(el, { value });
}

/** A checkbox's state (an input or a vscode-checkbox). */
export const checkedOf = (el: Element | null): boolean => !!el && 'checked' in el && el.checked === true;

export function onEnter(el: Element, fn: () => void): void {
  el.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter' && !(e as KeyboardEvent).shiftKey) {
      e.preventDefault();
      fn();
    }
  });
}
