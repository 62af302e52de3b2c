// A reply drawn while it streams, in time that does not grow with its length: each block that is
// complete (a blank line after it, outside a code block, and the next block begun at the margin) is
// drawn once and kept; only the block still arriving is drawn again on each frame. A block still
// arriving that grows past LIVE_LIMIT is shown as it is (text, or code inside a fence), in parts, until
// it ends. The whole reply is drawn again, highlighted, once it is complete (Transcript.fillReply).
import { fill, h } from './dom';
import { renderMarkdown } from './markdown';
import { BlockScanner } from '../playground/page/blocks';

/** Characters of the arriving block drawn as markdown on every frame; past this, as plain text. */
const LIVE_LIMIT = 3_000;

export class LiveMarkdown {
  private readonly settled = h('div', { class: 'settled' });
  private readonly arriving = h('div', { class: 'arriving' });
  /** The text before this index is drawn in `settled`. */
  private settledTo = 0;
  private readonly blocks = new BlockScanner();
  /** The block arriving is long, and shown as it is (see update). */
  private plain = false;

  constructor(root: HTMLElement) {
    fill(root, this.settled, this.arriving);
  }

  update(text: string): void {
    const blockEnd = this.blocks.scan(text);
    if (blockEnd > this.settledTo) {
      this.settled.append(renderMarkdown(text.slice(this.settledTo, blockEnd), false));
      this.settledTo = blockEnd;
      this.plain = false;
    }
    let rest = text.slice(this.settledTo);
    if (!this.plain && rest.length <= LIVE_LIMIT) return void fill(this.arriving, renderMarkdown(rest, false));
    // A long block still arriving is shown as it is, in parts laid out once each: a browser lays out a
    // paragraph whole whenever it changes, which for tens of thousands of characters takes longer
    // than a frame. The whole reply is drawn properly once it is complete.
    this.plain = true;
    const part = (piece: string) => h(this.blocks.inCode ? 'pre' : 'p', { class: 'plain part' }, piece);
    while (rest.length > LIVE_LIMIT) {
      const cut = Math.max(rest.lastIndexOf(' ', LIVE_LIMIT) + 1, LIVE_LIMIT / 2);
      this.settled.append(part(rest.slice(0, cut)));
      this.settledTo += cut;
      rest = rest.slice(cut);
    }
    fill(this.arriving, part(rest));
  }
}
