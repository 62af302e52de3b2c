// What a new conversation is called after its first prompt.
import assert from 'node:assert/strict';
import { conversationName } from '../../../src/shared/conversationName';

describe('conversation names', () => {
  it('takes the first line of prose', () => {
    assert.equal(conversationName('first question'), 'first question');
    assert.equal(
      conversationName('\n\n  Why does the cache miss on every second request?\nMore detail.'),
      'Why does the cache miss on every second request?',
    );
  });

  it('names a short lead-in with what it is about: the code after it, or the next line', () => {
    assert.equal(
      conversationName('Fix this:\n```ts\nfunction total(cart: Item[]) {\n  return 0;\n}\n```'),
      'Fix this: function total(cart: Item[]) {',
    );
    assert.equal(
      conversationName('Explain:\nthe retry policy of the gateway'),
      'Explain: the retry policy of the gateway',
    );
  });

  it('cuts a long line at a word, and falls back to the code or a plain name', () => {
    const name = conversationName(
      'Summarize the differences between the three caching strategies we discussed yesterday in the design review',
    );
    assert.ok(name.length <= 60 && name.endsWith('…'), name);
    assert.ok(!/\s…$/.test(name), 'no space before the ellipsis');
    assert.equal(conversationName('```py\nprint("hi")\n```'), 'print("hi")');
    assert.equal(conversationName('   \n'), 'New conversation');
  });
});
