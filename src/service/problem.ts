// Errors the service answers with, in the shapes of conventions.md.
import type { z } from 'zod';
import type { ValidationIssue } from '../api/schemas';

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => d.msg).join('; '));
  }
}

export type Where = 'body' | 'query' | 'path';

export const notFound = (what: string) => new Problem(404, `${what} not found`);
export const forbidden = (why: string) => new Problem(403, why);
export const invalid = (loc: Array<string | number>, msg: string, type = 'value_error') =>
  new Problem(422, [{ loc, msg, type }]);

/** Parses input with a zod schema; failures become a 422 whose `loc` starts with `where`. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: Where): z.infer<T> {
  const broken = illFormedText(value, [where]);
  if (broken)
    throw new Problem(422, [
      { loc: broken, msg: 'must be well-formed Unicode text (it has a lone surrogate)', type: 'string_unicode' },
    ]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new Problem(
    422,
    result.error.issues.map((issue) => ({
      loc: [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: issue.message,
      type: issueType(issue),
    })),
  );
}

function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'missing';
  if (issue.code === 'too_small') return issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal';
  if (issue.code === 'too_big') return issue.origin === 'string' ? 'string_too_long' : 'less_than_equal';
  if (issue.code === 'invalid_format') return 'uuid_parsing';
  if (issue.code === 'invalid_value') return 'enum';
  return issue.code;
}

/** The path of the first string that is not well-formed UTF-16 (a lone surrogate), if any. */
function illFormedText(value: unknown, at: Array<string | number>): Array<string | number> | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : at;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = illFormedText(item, [...at, i]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = illFormedText(key, [...at, key]) ?? illFormedText(item, [...at, key]);
      if (found) return found;
    }
  }
  return undefined;
}
