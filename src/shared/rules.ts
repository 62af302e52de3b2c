// Field rules a webview checks as the user types, without a schema library in its bundle: the host
// turns its zod schemas into JSON Schema (zod's own toJSONSchema) and sends them; this checks a value
// against the part of JSON Schema those produce, with messages in words. The host still parses every
// message strictly: this only says sooner what the host would refuse.

export interface Rules {
  type?: string | string[];
  properties?: Record<string, Rules>;
  required?: string[];
  items?: Rules;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Rules[];
  oneOf?: Rules[];
  allOf?: Rules[];
}

/** Errors by path (`weights.cost`, `images.0`), each in words; empty when the value keeps the rules. */
export function checkRules(rules: Rules, value: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  check(rules, value, [], errors);
  return errors;
}

/** Bounds at or past this are guards against absurd values, not a range people choose within. */
const GUARD = 1_000_000;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: string | string[] | undefined, value: unknown): boolean {
  if (expected === undefined) return true;
  const actual = typeOf(value);
  return (Array.isArray(expected) ? expected : [expected]).some(
    (t) => t === actual || (t === 'number' && actual === 'integer'),
  );
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  integer: 'a whole number',
  string: 'text',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of fields',
  null: 'empty',
};

function rangeMessage(r: Rules, tooLow: boolean): string {
  const min = r.minimum ?? r.exclusiveMinimum;
  const max = r.maximum ?? r.exclusiveMaximum;
  const realMin = min !== undefined && min > -GUARD;
  const realMax = max !== undefined && max < GUARD;
  if (realMin && realMax) return `must be between ${min} and ${max}`;
  // A bound that only guards against absurd values is no figure to show.
  if (!tooLow)
    return realMax ? `must be ${r.exclusiveMaximum !== undefined ? 'less than' : 'at most'} ${max}` : 'is too large';
  if (min === 0 && r.exclusiveMinimum === undefined) return 'must be 0 or more';
  return `must be ${r.exclusiveMinimum !== undefined ? 'more than' : 'at least'} ${min}`;
}

function lengthMessage(r: Rules, unit: string): string {
  const min = r.minLength ?? r.minItems;
  const max = r.maxLength ?? r.maxItems;
  if (min !== undefined && max !== undefined) return `must be ${min} to ${max} ${unit}`;
  if (min !== undefined)
    return min === 1 && unit === 'characters' ? 'must not be empty' : `must be at least ${min} ${unit}`;
  return `must be at most ${max} ${unit}`;
}

function check(r: Rules, value: unknown, path: Array<string | number>, errors: Record<string, string>): void {
  const at = path.join('.');
  const fail = (message: string) => void (errors[at] ??= message);
  const alternatives = r.anyOf ?? r.oneOf;
  if (alternatives) {
    const outcomes = alternatives.map((alt) => checkRules(alt, value));
    if (outcomes.some((o) => Object.keys(o).length === 0)) return;
    // The branch meant for this kind of value says what is wrong (not the null branch of an optional field).
    const meant = alternatives.findIndex((alt) => typeMatches(alt.type, value) && alt.type !== 'null');
    for (const [sub, message] of Object.entries(outcomes[meant >= 0 ? meant : 0]!))
      errors[[at, sub].filter(Boolean).join('.')] ??= message;
    return;
  }
  for (const part of r.allOf ?? []) check(part, value, path, errors);
  if (!typeMatches(r.type, value)) {
    const expected = Array.isArray(r.type) ? r.type.filter((t) => t !== 'null')[0] : r.type;
    // A number field left empty needs one (the body has no way to empty it).
    if (value === '' && (expected === 'number' || expected === 'integer')) return fail(`needs ${TYPE_WORDS[expected]}`);
    return fail(`must be ${TYPE_WORDS[expected ?? ''] ?? expected}`);
  }
  if (r.const !== undefined && value !== r.const) return fail(`must be ${JSON.stringify(r.const)}`);
  if (r.enum && !r.enum.includes(value)) return fail(`must be one of ${r.enum.map((e) => String(e)).join(', ')}`);
  if (typeof value === 'number') {
    const low =
      (r.minimum !== undefined && value < r.minimum) ||
      (r.exclusiveMinimum !== undefined && value <= r.exclusiveMinimum);
    const high =
      (r.maximum !== undefined && value > r.maximum) ||
      (r.exclusiveMaximum !== undefined && value >= r.exclusiveMaximum);
    if (low || high) return fail(rangeMessage(r, low));
  }
  if (typeof value === 'string') {
    // Lengths in code points, as JSON Schema and the service count them.
    const length = [...value].length;
    if (length === 0 && r.minLength !== undefined && r.minLength > 0) return fail('must not be empty');
    if ((r.minLength !== undefined && length < r.minLength) || (r.maxLength !== undefined && length > r.maxLength))
      return fail(lengthMessage(r, 'characters'));
    if (r.pattern && !new RegExp(r.pattern, 'u').test(value)) return fail('is not in the expected form');
  }
  if (Array.isArray(value)) {
    if (
      (r.minItems !== undefined && value.length < r.minItems) ||
      (r.maxItems !== undefined && value.length > r.maxItems)
    )
      return fail(lengthMessage(r, 'items'));
    if (r.items) value.forEach((item, i) => check(r.items!, item, [...path, i], errors));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of r.required ?? [])
      if (record[key] === undefined) errors[[...path, key].join('.')] ??= 'is required';
    for (const [key, sub] of Object.entries(r.properties ?? {}))
      if (record[key] !== undefined) check(sub, record[key], [...path, key], errors);
  }
}
