// Model output and prompt text as markdown: markdown-it with raw HTML off, then DOMPurify on what it
// produced, so `<script>`, `onerror=` and `javascript:` links end up as text or are removed. Code is
// highlighted with highlight.js; each language is loaded the first time a code block names it, and
// the blocks are drawn again once it is there (see `onLanguage`).
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import type { LanguageFn } from 'highlight.js';
import MarkdownIt from 'markdown-it';

type Loader = () => Promise<{ default: LanguageFn }>;
/** The languages offered, each its own small chunk next to the bundle. */
const LANGUAGES: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  css: () => import('highlight.js/lib/languages/css'),
  go: () => import('highlight.js/lib/languages/go'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  python: () => import('highlight.js/lib/languages/python'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};
const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  shellscript: 'bash',
  zsh: 'bash',
  js: 'javascript',
  javascriptreact: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  typescriptreact: 'typescript',
  tsx: 'typescript',
  html: 'xml',
  svg: 'xml',
  py: 'python',
  rs: 'rust',
  yml: 'yaml',
  md: 'markdown',
};

const requested = new Set<string>();
let languageLoaded: () => void = () => undefined;

/** Called once a language a code block asked for has loaded, so the blocks can be drawn again. */
export function onLanguage(listener: () => void): void {
  languageLoaded = listener;
}

/** Whether `lang` can be highlighted now; if it can be soon, its loading starts. */
function ready(lang: string): string | undefined {
  const name = ALIASES[lang.toLowerCase()] ?? lang.toLowerCase();
  if (hljs.getLanguage(name)) return name;
  const load = LANGUAGES[name];
  if (load && !requested.has(name)) {
    requested.add(name);
    void load().then((language) => {
      hljs.registerLanguage(name, language.default);
      languageLoaded();
    });
  }
  return undefined;
}

let highlighting = true;
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const md = new MarkdownIt({
  html: false,
  linkify: true,
  highlight: (code, lang) => {
    const language = lang.split(/\s+/)[0] ?? '';
    const name = highlighting && language ? ready(language) : undefined;
    return name ? hljs.highlight(code, { language: name, ignoreIllegals: true }).value : escape(code);
  },
});

/**
 * DOMPurify checks every attribute's value that is not an address by this pattern too: a value that
 * names no scheme (a list's `start="3"`, a size) passes; of those that do, only the schemes given.
 */
const valuesAnd = (schemes: string) => new RegExp(`^(?:${schemes}|[^a-z]|[a-z+.-]+(?:[^a-z+.\\-:]|$))`, 'i');

const PURIFY = {
  ALLOWED_URI_REGEXP: valuesAnd('https?:|mailto:|#'),
  FORBID_TAGS: ['style', 'img', 'form', 'input', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style'],
  RETURN_DOM_FRAGMENT: true as const,
};

/**
 * Renders markdown to a sanitized fragment. While a reply streams, `highlight` is off: highlighting the
 * whole reply on every frame would grow with its length.
 */
export function renderMarkdown(text: string, highlight = true): DocumentFragment {
  highlighting = highlight;
  const html = md.render(text);
  return DOMPurify.sanitize(html, PURIFY);
}

/**
 * Google's Search Suggestions (the markup Google gives with a Gemini model's grounded reply), which Google
 * asks to be shown as given: its links and Google's logo, with no script, no form and no other address.
 */
const SUGGESTIONS = {
  ALLOWED_URI_REGEXP: valuesAnd('https:'),
  USE_PROFILES: { html: true, svg: true },
  FORBID_TAGS: ['style', 'img', 'form', 'input', 'iframe', 'object', 'embed', 'math', 'foreignObject', 'use'],
  FORBID_ATTR: ['style'],
  RETURN_DOM_FRAGMENT: true as const,
};

/**
 * Shows Google's Search Suggestions in `host`'s own shadow root, so that Google's styles reach only
 * them and the page's do not change them. Their style sheet is built by the page (this webview's policy
 * allows no style element); its text is Google's, read from the markup without running any of it.
 */
export function fillSearchSuggestions(host: HTMLElement, html: string): void {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const sheet = new CSSStyleSheet();
  sheet.replaceSync([...parsed.querySelectorAll('style')].map((style) => style.textContent ?? '').join('\n'));
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [sheet];
  root.replaceChildren(DOMPurify.sanitize(html, SUGGESTIONS));
}
