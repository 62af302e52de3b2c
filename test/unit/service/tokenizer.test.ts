// The service's token counts: exactly the tokenizer's for ordinary text, and text with a very long run
// without whitespace (which the tokenizer handles in quadratic time) encoded in pieces, losslessly.
import assert from 'node:assert/strict';
import { countTokens as reference } from 'gpt-tokenizer';
import { countTokens, tokenPieces, tokenizerPieces, truncateTokens } from '../../../src/service/tokenizer';

describe('service tokenizer', () => {
  it('counts ordinary text exactly as the tokenizer does', () => {
    const texts = [
      'Explain this code:\n```ts\nexport function total(items: Item[]) { return items.reduce((a, b) => a + b.price, 0); }\n```',
      'Zusammenfassung der Änderungen — 変更の概要 🙂',
      `${'an_identifier_that_is_long_'.repeat(9)} and more words`,
    ];
    for (const text of texts) assert.equal(countTokens(text), reference(text));
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
    const cut = truncateTokens(text, 10);
    assert.equal(cut.truncated, true);
    assert.ok(text.startsWith(cut.text));
  });
});
