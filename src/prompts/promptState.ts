// A prompt's review state, derived from its timestamps as conventions.md says.
import type { PromptRecord } from '../api/schemas';

export type ReviewState = 'draft' | 'in review' | 'approved' | 'declined';

export function reviewState(prompt: Pick<PromptRecord, 'decline_reason' | 'approved_on' | 'published_on'>): ReviewState {
  if (prompt.decline_reason) return 'declined';
  if (prompt.approved_on) return 'approved';
  if (prompt.published_on) return 'in review';
  return 'draft';
}

/** Fills a saved prompt's {{prompt}} placeholder; a prompt without one gets the text appended. */
export function applyPrompt(template: string, text: string): string {
  return template.includes('{{prompt}}') ? template.split('{{prompt}}').join(text) : `${template}\n\n${text}`;
}
