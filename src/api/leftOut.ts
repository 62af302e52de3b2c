// Records left out of list answers because they could not be read (conventions.md: one bad record
// never fails its list). No zod here: the views ask for counts from the activation bundle, which
// dist/lazy.js shares this module with (src/owned.ts).

/** A record that was left out of its list: where it was and what was wrong with it. */
export interface LeftOut {
  index: number;
  field: string;
  message: string;
}

/** Each parsed list's count, kept beside the list (never sent or compared with it). */
const counts = new WeakMap<readonly unknown[], number>();
let collector: LeftOut[] | undefined;

/** How many records of this list (as parsed from an answer) could not be read and were left out. */
export const unreadableIn = (list: readonly unknown[]): number => counts.get(list) ?? 0;

/** Notes that `list` was read without `records`, and tells the parse under way which they were. */
export function leaveOut(list: readonly unknown[], count: number, records: LeftOut[]): void {
  if (count === 0) return;
  counts.set(list, count);
  collector?.push(...records);
}

/** Runs a (synchronous) parse and returns, with its result, every record the lists in it left out. */
export function collectLeftOut<T>(parse: () => T): { value: T; leftOut: LeftOut[] } {
  const outer = collector;
  collector = [];
  try {
    const value = parse();
    return { value, leftOut: collector };
  } finally {
    collector = outer;
  }
}
