// Markdown for the playground, loaded beside the page rather than inside it: the renderer (markdown-it,
// DOMPurify, highlight.js) is most of the page's weight and is not needed to draw the form. Until it
// is there, text shows as plain paragraphs; whoever listens with `onMarkdownChange` draws again once
// it (or a highlighting language) has loaded.
import { h } from './dom';

type Renderer = typeof import('./markdownRenderer.js');
let renderer: Renderer | undefined;
const listeners: Array<() => void> = [];

export function onMarkdownChange(listener: () => void): void {
  listeners.push(listener);
}

const changed = () => listeners.forEach((listener) => listener());

void import('./markdownRenderer.js').then((loaded) => {
  renderer = loaded;
  loaded.onLanguage(changed);
  changed();
});

/**
 * Renders markdown to a sanitized fragment. While a reply streams, `highlight` is off: highlighting the
 * whole reply on every frame would grow with its length.
 */
export function renderMarkdown(text: string, highlight = true): DocumentFragment {
  if (renderer) return renderer.renderMarkdown(text, highlight);
  const fragment = document.createDocumentFragment();
  fragment.append(...text.split(/\n{2,}/).map((paragraph) => h('p', { class: 'plain' }, paragraph)));
  return fragment;
}

/** Shows Google's Search Suggestions in `host` (see markdownRenderer.ts), once the sanitizer has loaded. */
export function showSearchSuggestions(host: HTMLElement, html: string): void {
  if (renderer) return renderer.fillSearchSuggestions(host, html);
  listeners.push(() => {
    if (!host.shadowRoot) renderer?.fillSearchSuggestions(host, html);
  });
}
