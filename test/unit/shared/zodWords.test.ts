// zod's own messages, as people read them in the forms, the service's 422 answers and the tools' output.
import assert from 'node:assert/strict';
import { z } from 'zod';
import '../../../src/shared/zodWords';

const message = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  assert.ok(!result.success, 'the value is refused');
  return result.error.issues[0]!.message;
};

describe("zod's messages in words", () => {
  it('words limits of numbers, text and lists', () => {
    assert.equal(message(z.number().max(2), 3), 'must be at most 2');
    assert.equal(message(z.number().gt(0), 0), 'must be more than 0');
    assert.equal(message(z.string().min(1), ''), 'must not be empty');
    assert.equal(message(z.string().max(120), 'x'.repeat(121)), 'must be at most 120 characters');
    assert.equal(message(z.array(z.string()).min(2), ['a']), 'must be at least 2 items');
  });

  it('words missing fields, wrong types, formats, choices and unknown fields', () => {
    assert.equal(message(z.object({ title: z.string() }), {}), 'is required');
    assert.equal(message(z.number(), 'seven'), 'must be a number');
    assert.equal(message(z.url(), 'not a url'), 'must be a URL');
    assert.equal(message(z.uuid(), '42'), 'must be an id (UUID)');
    assert.equal(message(z.enum(['low', 'high']), 'mid'), 'must be one of "low", "high"');
    assert.equal(message(z.strictObject({ a: z.number() }), { a: 1, b: 2 }), 'b is not a field here');
  });

  it("keeps a schema's own message", () => {
    assert.equal(message(z.string().min(1, 'write a title'), ''), 'write a title');
  });

  it('never says what the library says', () => {
    for (const [schema, value] of [
      [z.number().min(1), 0],
      [z.string(), 5],
      [z.boolean(), undefined],
    ] as const)
      assert.doesNotMatch(message(schema, value), /Too (small|big)|Invalid|expected/);
  });
});
