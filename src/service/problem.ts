// Errors the service answers with, in the shapes of conventions.md.
import type { z } from 'zod';
import type { ValidationIssue } from '../api/schemas';

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
    /** What a vendor's clients read beside the words: Anthropic's error `details` (its `error_code`). */
    readonly details?: Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => d.msg).join('; '));
  }
}

export type Where = 'body' | 'query' | 'path';

export const notFound = (what: string) => new Problem(404, `${what} not found`);
export const forbidden = (why: string) => new Problem(403, why);
export const invalid = (loc: Array<string | number>, msg: string, type = 'value_error') =>
  new Problem(422, [{ loc, msg, type }]);

/** How deep a request's JSON may nest: far more than any request of the interface needs. */
export const MAX_DEPTH = 64;

/** Parses input with a zod schema; failures become a 422 whose `loc` starts with `where`. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: Where): z.infer<T> {
  const wrong = malformed(value, where);
  if (wrong) throw new Problem(422, [wrong]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new Problem(
    422,
    result.error.issues.flatMap(narrowed).map(({ path, issue }) => ({
      loc: [where, ...path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: issue.message,
      type: issueType(issue),
    })),
  );
}

type Issue = z.core.$ZodIssue;

/** A union's branch that was not meant for the value: it failed on the value's type, or on its `type` field. */
const mismatched = (branch: readonly Issue[]) =>
  branch.some(
    (i) =>
      (i.path.length === 0 && i.code === 'invalid_type') ||
      (i.path.length === 1 && i.path[0] === 'type' && i.code === 'invalid_value'),
  );

/**
 * An issue, a union's narrowed to the one branch the value was meant for (the others failed on its
 * type, or on its `type` field, themselves or in a union of theirs), when that branch says what is
 * wrong deeper down (in a field, an item, or a union of its own), under their whole path. A union
 * meant for no branch, or for several, or failing as a whole (a list too long), is its own issue, in
 * its own words. Walked with a stack: unions nest as deep as the schema does, never as the input.
 */
function narrowed(first: Issue): Array<{ path: PropertyKey[]; issue: Issue }> {
  const found: Array<{ path: PropertyKey[]; issue: Issue }> = [];
  const stack = [{ at: [] as PropertyKey[], issue: first }];
  while (stack.length) {
    const { at, issue } = stack.pop()!;
    const path = [...at, ...issue.path];
    const meant =
      issue.code === 'invalid_union'
        ? issue.errors.filter(
            (branch) =>
              !mismatched(branch) &&
              !branch.some((i) => i.path.length === 0 && i.code === 'invalid_union' && i.errors.every(mismatched)),
          )
        : [];
    const deeper = meant.length === 1 && meant[0]!.some((i) => i.path.length > 0 || i.code === 'invalid_union');
    if (!deeper) found.push({ path, issue });
    else for (const inner of [...meant[0]!].reverse()) stack.push({ at: path, issue: inner });
  }
  return found;
}

function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'missing';
  if (issue.code === 'too_small') return issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal';
  if (issue.code === 'too_big') return issue.origin === 'string' ? 'string_too_long' : 'less_than_equal';
  if (issue.code === 'invalid_format') return `${issue.format}_parsing`;
  if (issue.code === 'invalid_value') return 'enum';
  return issue.code;
}

interface Frame {
  value: unknown;
  key: string | number;
  depth: number;
  parent: Frame | undefined;
}

/**
 * What is wrong with the input's shape before the schema reads it: nesting deeper than MAX_DEPTH, or a
 * string (or key) that is not well-formed Unicode (a lone surrogate). Walked with a stack of its own,
 * never by recursion on the input, and a path is made only for what is wrong.
 */
function malformed(value: unknown, where: Where): ValidationIssue | undefined {
  const pathOf = (frame: Frame) => {
    const path: Array<string | number> = [];
    for (let f: Frame | undefined = frame; f; f = f.parent) path.unshift(f.key);
    return path;
  };
  const unicode = (loc: Array<string | number>) => ({
    loc,
    msg: 'must be well-formed Unicode text (it has a lone surrogate)',
    type: 'string_unicode',
  });
  const stack: Frame[] = [{ value, key: where, depth: 0, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return unicode(pathOf(frame));
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (frame.depth >= MAX_DEPTH)
      return { loc: pathOf(frame), msg: `is nested more than ${MAX_DEPTH} levels deep`, type: 'too_deep' };
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? [...v.entries()] : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const child = { value: item, key, depth: frame.depth + 1, parent: frame };
      if (typeof key === 'string' && !key.isWellFormed()) return unicode(pathOf(child));
      stack.push(child);
    }
  }
  return undefined;
}
