// The webviews' words: English by default with the arguments filled in, VS Code's translation when the
// page carries one, and a broken or missing bundle never breaks a label.
import assert from 'node:assert/strict';
import { t } from '../../../src/webviews/page/l10n';

/** A page whose body carries this bundle text (as the host's shell writes it). */
function loadWith(l10n: string | undefined): { t: typeof t } {
  (globalThis as { document?: unknown }).document = { body: { dataset: l10n === undefined ? {} : { l10n } } };
  return { t };
}

describe('webview words (l10n)', () => {
  after(() => delete (globalThis as { document?: unknown }).document);

  it('fills the placeholders of the English text when there is no translation', () => {
    const { t } = loadWith(undefined);
    assert.equal(t('Move {0} up', 'test/echo'), 'Move test/echo up');
    assert.equal(
      t('{0} · {1} at {2}', '≈ 3 prompt tokens', '$0.01', 'openai/gpt-4o'),
      '≈ 3 prompt tokens · $0.01 at openai/gpt-4o',
    );
    assert.equal(t('Left {0} alone {1}', 'a'), 'Left a alone {1}', 'a placeholder without an argument stays as it is');
  });

  it("uses VS Code's translation from the page, with its own order of the arguments", () => {
    const { t } = loadWith(JSON.stringify({ 'Move {0} up': '{0} nach oben', 'Reply {0}: {1}': '«{1}» (Antwort {0})' }));
    assert.equal(t('Move {0} up', 'test/echo'), 'test/echo nach oben');
    assert.equal(t('Reply {0}: {1}', 2, 'Fix the total'), '«Fix the total» (Antwort 2)');
    assert.equal(t('Save'), 'Save', 'a word without a translation is English');
  });

  it('shows English when the bundle in the page is not valid', () => {
    const { t } = loadWith('{not json');
    assert.equal(t('Saved at {0}.', '10:00'), 'Saved at 10:00.');
  });
});
