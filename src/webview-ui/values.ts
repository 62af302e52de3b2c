// Plain values the pages show, free of the DOM so the logic using them runs (and is tested) on Node.

export const money = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 6 : 2)}`;

/** One option of a select. */
export interface Choice {
  value: string;
  label: string;
  description?: string;
}
