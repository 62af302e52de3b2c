// Saved prompts as VS Code prompt files and back: front matter VS Code accepts, placeholders as input
// variables, the text unchanged over a round trip, the lock file, and how a file stands to the service.
import assert from 'node:assert/strict';
import {
  formatLock,
  fromPromptFile,
  parseLock,
  slugOf,
  syncState,
  textHash,
  toPromptFile,
  type LockEntry,
} from '../../../src/workspace/promptFiles';

const review = {
  title: 'Find bugs',
  description: 'Reviews code for bugs: races, leaks.',
  prompt:
    'Review the following {{language}} code for bugs.\n\n{{prompt}}\n\nKeep `{{ spaced }}` and ${input:x:y} as they are.',
};

describe('prompt files', () => {
  it('writes only front-matter keys VS Code accepts, and placeholders as input variables', () => {
    const file = toPromptFile(review);
    assert.equal(
      file.split('\n---\n')[0],
      '---\nname: find-bugs\ndescription: "Reviews code for bugs: races, leaks."\nargument-hint: language, prompt',
    );
    assert.ok(file.includes('Review the following ${input:language} code for bugs.\n\n${input:prompt}\n'));
    assert.ok(file.includes('`{{ spaced }}`'), 'what is not a placeholder is left as it is');
  });

  it('reads back the same text, placeholders and description', () => {
    const { fields, prompt } = fromPromptFile(toPromptFile(review));
    assert.equal(fields.description, review.description);
    assert.equal(fields.name, 'find-bugs');
    // A literal ${input:x:y} (with a placeholder) is not one of ours and stays.
    assert.equal(prompt, review.prompt);
    const plain = { title: 'Ünïcode — title!', description: 'd', prompt: 'no variables\n' };
    assert.equal(fromPromptFile(toPromptFile(plain)).prompt, plain.prompt);
    assert.equal(slugOf(plain.title), 'unicode-title');
    assert.equal(fromPromptFile("---\r\nname: a\r\ndescription: 'it''s'\r\n---\r\nbody").fields.description, "it's");
    assert.equal(fromPromptFile('no front matter {{x}} ${input:y}').prompt, 'no front matter {{x}} {{y}}');
  });

  it('keeps the lock file sorted, and reads only whole entries of a damaged one', () => {
    const entry: LockEntry = {
      id: 'p1',
      title: 'T',
      state: 'approved',
      declineReason: null,
      modifiedOn: '2026-01-01',
      hash: 'abc',
    };
    const text = formatLock({ version: 1, prompts: { 'b.prompt.md': entry, 'a.prompt.md': entry } });
    assert.ok(text.indexOf('a.prompt.md') < text.indexOf('b.prompt.md'));
    assert.deepEqual(parseLock(text).prompts['a.prompt.md'], entry);
    assert.deepEqual(parseLock('{"prompts": {"x": {"id": 3}, "y": {"id": "p", "hash": "h", "title": "t"}}}').prompts, {
      y: { id: 'p', title: 't', state: 'draft', declineReason: null, modifiedOn: '', hash: 'h' },
    });
    assert.deepEqual(parseLock('not json').prompts, {});
  });

  it('tells whether the file, the service or both changed since the last sync', () => {
    const synced = { ...review };
    const entry: LockEntry = {
      id: 'p1',
      title: review.title,
      state: 'draft',
      declineReason: null,
      modifiedOn: 'm',
      hash: textHash(synced),
    };
    const edited = { ...review, prompt: `${review.prompt} More.` };
    const theirs = { ...review, description: 'Changed on the service.' };
    assert.equal(syncState(entry, synced, synced), 'same');
    assert.equal(syncState(entry, edited, synced), 'local');
    assert.equal(syncState(entry, synced, theirs), 'service');
    assert.equal(syncState(entry, edited, theirs), 'both');
    assert.equal(syncState(entry, edited, edited), 'same', 'the same change on both sides is no difference');
    assert.equal(syncState(entry, synced, undefined), 'gone');
  });
});
