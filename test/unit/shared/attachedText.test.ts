// What a model reads of a text file attached to a playground prompt, as the service sends it and the
// cost band counts it.
import assert from 'node:assert/strict';
import { attachedText, dataUrlBase64, dataUrlType } from '../../../src/shared/attachedText';

const dataUrl = (type: string, bytes: Buffer | string) =>
  `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
/** What the service and the host do: the data URL's bytes, decoded. */
const read = (url: string, index: number) =>
  attachedText(dataUrlType(url), Buffer.from(dataUrlBase64(url), 'base64'), index);

describe('an attached text file as the model reads it', () => {
  it('is a line naming it, then its text', () => {
    const csv = dataUrl('text/csv', 'name,price\nrouting,0\n');
    assert.equal(dataUrlType(csv), 'text/csv');
    assert.equal(read(csv, 1), '\n\nAttached file 2 (text/csv):\nname,price\nrouting,0\n');
  });

  it('is nothing when its bytes are not text: not UTF-8, or holding a NUL', () => {
    assert.equal(read(dataUrl('text/plain', Buffer.from([0xff, 0xfe, 0x41])), 0), null);
    assert.equal(read(dataUrl('application/json', Buffer.from('{"a":\u00001}')), 0), null);
  });
});
