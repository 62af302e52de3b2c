// zod's messages in words a person reads ("must be at most 2", "is required"), for every schema of the
// extension and the built-in service that does not word its own: they reach people as field errors
// in the forms, in the service's 422 answers, and in what the chat tools say back. Imported once, for
// its effect, by each bundle that checks with zod (src/api/door.ts, the service's app).
import { z } from 'zod';

const FORMATS: Record<string, string> = {
  url: 'a URL',
  uuid: 'an id (UUID)',
  guid: 'an id (UUID)',
  email: 'an e-mail address',
  datetime: 'a date and time (ISO 8601)',
  date: 'a date (YYYY-MM-DD)',
};

const TYPES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

const units = (origin: string) =>
  origin === 'string' ? 'characters' : origin === 'array' || origin === 'set' ? 'items' : '';

function bound(issue: { origin: string; inclusive?: boolean }, limit: unknown, low: boolean): string {
  const unit = units(issue.origin);
  // The safe-integer bound of a whole number guards against absurd values; it is no figure to show.
  if (!low && typeof limit === 'number' && limit >= Number.MAX_SAFE_INTEGER) return 'is too large';
  if (low && unit === 'characters' && limit === 1) return 'must not be empty';
  const relation = low
    ? issue.inclusive === false
      ? 'more than'
      : 'at least'
    : issue.inclusive === false
      ? 'less than'
      : 'at most';
  return `must be ${relation} ${String(limit)}${unit ? ` ${unit}` : ''}`;
}

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'too_small':
        return bound(issue, issue.minimum, true);
      case 'too_big':
        return bound(issue, issue.maximum, false);
      case 'invalid_type':
        return issue.input === undefined ? 'is required' : `must be ${TYPES[issue.expected] ?? issue.expected}`;
      case 'invalid_format':
        return `must be ${FORMATS[issue.format] ?? `in the ${issue.format} format`}`;
      case 'invalid_value':
        return issue.values.length === 1
          ? `must be ${JSON.stringify(issue.values[0])}`
          : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      case 'unrecognized_keys':
        return `${issue.keys.join(', ')} ${issue.keys.length === 1 ? 'is not a field' : 'are not fields'} here`;
      case 'not_multiple_of':
        return `must be a multiple of ${String(issue.divisor)}`;
      case 'invalid_union':
        return 'is not valid';
      default:
        return undefined;
    }
  },
});
