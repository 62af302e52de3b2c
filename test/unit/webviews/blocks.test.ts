// Where a streaming reply's complete markdown blocks end: what the playground draws once and keeps.
import assert from 'node:assert/strict';
import { BlockScanner } from '../../../src/webviews/playground/page/blocks';

/** Feeds `text` in pieces of `size` characters, as a stream does; returns the block ends seen. */
function stream(text: string, size: number): { ends: number[]; inCode: boolean } {
  const scanner = new BlockScanner();
  const ends = new Set<number>();
  for (let at = size; at < text.length + size; at += size) ends.add(scanner.scan(text.slice(0, at)));
  ends.delete(0);
  return { ends: [...ends], inCode: scanner.inCode };
}

describe('block ends of a streaming reply', () => {
  it('ends a block at a blank line once the next block has begun', () => {
    const text = 'First paragraph.\n\nSecond paragraph.\n\nThird\n';
    assert.deepEqual(stream(text, 3).ends, [text.indexOf('Second'), text.indexOf('Third')]);
    assert.deepEqual(stream(text.slice(0, -1), 3).ends, [text.indexOf('Second')], 'a line is read once it is complete');
    assert.deepEqual(stream('One.\n\n', 2).ends, [], 'nothing after the blank line yet');
  });

  it('does not end a block inside a fenced code block, whatever its blank lines', () => {
    const text = 'Look:\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter.\n';
    const { ends, inCode } = stream(text, 4);
    assert.deepEqual(ends, [text.indexOf('```ts'), text.indexOf('After.')]);
    assert.equal(inCode, false);
    assert.equal(stream('Look:\n\n```ts\nconst a = 1;\n\nconst', 5).inCode, true);
  });

  it('closes a fence only with the same character, at least as long, alone on its line', () => {
    const text = '````md\n```\nnot closed\n~~~\n````\n\nNext\n';
    assert.deepEqual(stream(text, 7).ends, [text.indexOf('Next')]);
  });

  it('keeps an indented line after a blank one with the block above (a list item going on)', () => {
    const text = '1. Item\n\n   more of the item\n\n2. Next item\n';
    assert.deepEqual(stream(text, 6).ends, [text.indexOf('2. Next')]);
  });

  it('finds the same blocks however the text arrives', () => {
    const text = Array.from({ length: 50 }, (_, i) => `Paragraph ${i}.\n`).join('\n');
    const last = (size: number) => stream(text, size).ends.at(-1);
    assert.equal(stream(text, 1).ends.length, 49, 'each block end seen once, a character at a time');
    for (const size of [7, 97, text.length]) assert.equal(last(size), text.indexOf('Paragraph 49'));
  });
});
