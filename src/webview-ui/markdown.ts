// Model output and prompt text as markdown: markdown-it with raw HTML off, then DOMPurify on what it
// produced, so `<script>`, `onerror=` and `javascript:` links end up as text or are removed. Code is
// highlighted with highlight.js (a fixed set of languages keeps the bundle small).
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLang from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';

const languages = { bash, css, go, java, javascript, json, markdown: markdownLang, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell', 'shellscript'], { languageName: 'bash' });
hljs.registerAliases(['js', 'javascriptreact', 'jsx'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'typescriptreact', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });

let highlighting = true;
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const md = new MarkdownIt({
  html: false,
  linkify: true,
  highlight: (code, lang) => {
    const language = lang.split(/\s+/)[0] ?? '';
    if (highlighting && language && hljs.getLanguage(language)) return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    return escape(code);
  },
});

const PURIFY = {
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
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
