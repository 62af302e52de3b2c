// A prompt's review state, derived from its timestamps as conventions.md says.
import type { PromptRecord } from '../api/schemas';

export type ReviewState = 'draft' | 'in review' | 'approved' | 'declined';

export function reviewState(
  prompt: Pick<PromptRecord, 'decline_reason' | 'approved_on' | 'published_on'>,
): ReviewState {
  if (prompt.decline_reason) return 'declined';
  if (prompt.approved_on) return 'approved';
  if (prompt.published_on) return 'in review';
  return 'draft';
}

/** Fills a saved prompt's {{prompt}} placeholder; a prompt without one gets the text appended. */
export function applyPrompt(template: string, text: string): string {
  return template.includes('{{prompt}}') ? template.split('{{prompt}}').join(text) : `${template}\n\n${text}`;
}

/**
 * Code as a fenced markdown block whose info string names the language and the file, e.g.
 * "```typescript src/cart.ts". The fence is longer than any run of backticks inside the code.
 */
export function fencedCode(code: string, language: string, fileName: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const info = [language, fileName.replace(/\s/g, '_')].filter(Boolean).join(' ');
  return `${fence}${info}\n${code.replace(/\n$/, '')}\n${fence}`;
}
