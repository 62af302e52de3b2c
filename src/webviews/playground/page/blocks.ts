// Where the complete markdown blocks of a growing text end, read a line at a time as the text grows
// (each line once): a block ends at a blank line outside a fenced code block, once the next line
// starts at the margin (an indented line after a blank one may still belong to a list item above).
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class BlockScanner {
  /** Complete lines are read up to here. */
  private scanned = 0;
  /** The fence that opened the code block being read, if one is. */
  private fence: string | null = null;
  private lastLineBlank = false;
  private blockEnd = 0;

  /** Whether the text read so far ends inside a fenced code block. */
  get inCode(): boolean {
    return this.fence !== null;
  }

  /** Reads what `text` (the same text, grown) added; returns where its last complete block ends. */
  scan(text: string): number {
    for (let end = text.indexOf('\n', this.scanned); end >= 0; end = text.indexOf('\n', this.scanned)) {
      const start = this.scanned;
      const line = text.slice(start, end);
      this.scanned = end + 1;
      const marker = FENCE.exec(line)?.[1];
      if (this.fence) {
        if (marker && marker[0] === this.fence[0] && marker.length >= this.fence.length && line.trim() === marker)
          this.fence = null;
        this.lastLineBlank = false;
        continue;
      }
      const blank = line.trim() === '';
      if (!blank && this.lastLineBlank && !/^\s/.test(line)) this.blockEnd = start;
      if (marker) this.fence = marker;
      this.lastLineBlank = blank;
    }
    return this.blockEnd;
  }
}
