// Plain values the pages show, free of the DOM so the logic using them runs (and is tested) on Node.

export { money } from '../../shared/money';

/** One option of a select. */
export interface Choice {
  value: string;
  label: string;
  description?: string;
}
