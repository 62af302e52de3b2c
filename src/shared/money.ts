// One way to write an amount of money, everywhere the extension shows one: two decimals from a cent
// up, and for smaller amounts enough decimals to show two significant digits ($0.075, $0.0042), so
// that a sub-cent reply never reads as $0.00. Used for spend, costs, estimates and prices alike.
export function money(amount: number | null | undefined): string {
  const n = amount ?? 0;
  if (!Number.isFinite(n)) return 'unknown';
  const size = Math.abs(n);
  const digits = size === 0 || size >= 0.1 ? 2 : Math.min(8, 1 - Math.floor(Math.log10(size)));
  return `${n < 0 ? '-' : ''}$${size.toFixed(digits)}`;
}

/** A price per token (or character) as people compare them: per million. */
export const perMillion = (perUnit: number) => money(perUnit * 1_000_000);
