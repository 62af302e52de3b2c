// The service's token counts: exactly the tokenizer's for ordinary text, and text with a very long run
// without whitespace (which the tokenizer handles in quadratic time) encoded in pieces, losslessly.
import assert from 'node:assert/strict';
import { countTokens as reference } from 'gpt-tokenizer';
import { TokenMemo, countTokens, tokenPieces, tokenizerPieces, truncateTokens } from '../../../src/service/tokenizer';

describe('service tokenizer', () => {
  it('counts ordinary text exactly as the tokenizer does', () => {
    const texts = [
      'Explain this code:\n```ts\nexport function total(items: Item[]) { return items.reduce((a, b) => a + b.price, 0); }\n```',
      'Zusammenfassung der Änderungen — 変更の概要 🙂',
      `${'an_identifier_that_is_long_'.repeat(9)} and more words`,
    ];
    for (const text of texts) assert.equal(countTokens(text), reference(text));
  });

  it("counts a special token's text as text, as OpenAI reads a prompt, instead of throwing", () => {
    const text = 'GPT-2 ends a document with <|endoftext|>; ChatML opens a turn with <|im_start|>.';
    assert.throws(() => reference(text), /Disallowed special token/, 'the tokenizer alone refuses it');
    // As a special token it would be one; as text, `<|endoftext|>` is several.
    assert.ok(countTokens('<|endoftext|>') > 1);
    assert.equal(countTokens(text), reference(text, { disallowedSpecial: new Set() }));
    assert.equal(tokenPieces(text, 3).join(''), text);
    assert.equal(truncateTokens(text, 1000).text, text);
  });

  it('splits a run of 200,000 characters without whitespace into pieces of at most 256, losing nothing', () => {
    const text = `before ${'x'.repeat(200_000)} after`;
    const pieces = tokenizerPieces(text);
    assert.equal(pieces.join(''), text);
    assert.ok(pieces.every((p) => p.length <= 256 || !/\S{257,}/.test(p)));
    assert.equal(
      countTokens(text),
      pieces.reduce((n, p) => n + reference(p), 0),
    );
    assert.equal(tokenPieces(text, 4).join(''), text, 'streamed pieces put together are the text');
    // Only runs longer than 256 are cut, wherever they start; a run of 256 is left whole.
    const [a, b, c] = ['a'.repeat(300), 'b'.repeat(256), 'c'.repeat(600)];
    assert.deepEqual(tokenizerPieces(`${a} ${b}\n${c}`), [
      a.slice(0, 256),
      a.slice(256),
      ` ${b}\n`,
      c.slice(0, 256),
      c.slice(256, 512),
      c.slice(512),
    ]);
    const cut = truncateTokens(text, 10);
    assert.equal(cut.truncated, true);
    assert.ok(text.startsWith(cut.text));
  });

  describe('the memo of long texts (an agent sends its whole conversation on every turn)', () => {
    /** A memo whose counts are the tokenizer's, and the texts it had to count. */
    const memo = (maxEntries: number, minChars: number) => {
      const counted: string[] = [];
      const m = new TokenMemo(maxEntries, minChars, (text) => (counted.push(text), countTokens(text)));
      return { m, counted };
    };
    const system = `You are a careful coding agent. ${'Follow the rules of this repository. '.repeat(40)}`.trim();
    const file =
      `Contents of src/total.ts:\n${'export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n'.repeat(20)}`.trim();

    /** Each text counted on its own, and one token for each line break between them. */
    const separately = (texts: string[]) => texts.reduce((n, text) => n + countTokens(text), texts.length - 1);

    it('counts a prompt as its texts one after another, within a token of each break of the texts joined', () => {
      const { m } = memo(100, 100);
      const texts = [system, file, 'What does total do?'];
      assert.equal(m.prompt('org-a', texts), separately(texts));
      const joined = countTokens(texts.join('\n'));
      assert.ok(Math.abs(m.prompt('org-a', texts) - joined) <= texts.length - 1, `${joined} joined`);
    });

    it('counts a long text once for each organization that sends it, a short one every time', () => {
      const { m, counted } = memo(100, 100);
      const turn1 = [system, 'Read src/total.ts.'];
      const turn2 = [system, 'Read src/total.ts.', file, 'What does total do?'];
      const first = m.prompt('org-a', turn1);
      const second = m.prompt('org-a', turn2);
      assert.equal(second, separately(turn2));
      assert.equal(first, separately(turn1));
      assert.deepEqual(
        counted,
        [system, 'Read src/total.ts.', 'Read src/total.ts.', file, 'What does total do?'],
        'the second turn counted only its short texts and the new file',
      );
      counted.length = 0;
      // Another organization with the same text is counted afresh: it learns nothing of what org-a sent.
      assert.equal(m.tokens('org-b', system), countTokens(system));
      assert.deepEqual(counted, [system]);
      assert.equal(m.tokens('org-b', system), countTokens(system));
      assert.equal(m.tokens('org-a', system), countTokens(system));
      assert.deepEqual(counted, [system], 'then remembered for both');
    });

    it('forgets the least recently used texts beyond its size', () => {
      const { m, counted } = memo(4, 100);
      const texts = Array.from({ length: 6 }, (_, i) => `${i} ${'word '.repeat(200)}`);
      for (const text of texts) m.tokens('org-a', text);
      assert.equal(m.size, 4);
      counted.length = 0;
      m.tokens('org-a', texts[5]!);
      m.tokens('org-a', texts[2]!);
      m.tokens('org-a', texts[0]!);
      assert.deepEqual(counted, [texts[0]], 'the newest are remembered, the oldest forgotten');
      assert.equal(m.size, 4);
    });
  });
});
