// Token counts from a real BPE tokenizer (o200k_base, the encoding of current OpenAI models), used for
// every model as the common measure.
//
// BPE merges within one pre-tokenized word take time that grows with the square of its length: a
// prompt of 150,000 characters without a space took ten seconds to count and blocked the service
// meanwhile. Runs of more than MAX_RUN characters without whitespace are therefore encoded in pieces
// of MAX_RUN; text without such a run is encoded exactly as before.
import { createHash } from 'node:crypto';
import { countTokens as count, decode, encode as encodeAll } from 'gpt-tokenizer';
import type * as Cl100k from 'gpt-tokenizer/encoding/cl100k_base';

const MAX_RUN = 256;
// A run starts after whitespace (or at the start): tried from every character instead, the pattern
// read each shorter run again from each of its characters: in code, almost half again the count's time.
const LONG_RUN = new RegExp(`(?<!\\S)\\S{${MAX_RUN + 1},}`, 'g');

/** The text in pieces the tokenizer handles in linear time; one piece when there is no long run. */
export function tokenizerPieces(text: string): string[] {
  const pieces: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) pieces.push(text.slice(last, match.index));
    for (let i = 0; i < match[0].length; i += MAX_RUN) pieces.push(match[0].slice(i, i + MAX_RUN));
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

// A special token's text (`<|endoftext|>`, `<|im_start|>`) in a prompt is text like any other, as
// OpenAI's API reads it: by default the tokenizer throws on it, and a question about GPT-2's end of text
// marker, or a file that names it, failed with a 500.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const encode = (text: string): number[] => tokenizerPieces(text).flatMap((piece) => encodeAll(piece, AS_TEXT));

export const countTokens = (text: string): number =>
  tokenizerPieces(text).reduce((n, piece) => n + count(piece, AS_TEXT), 0);

let cl100k: typeof Cl100k | undefined;

/**
 * The text of token ids of cl100k_base: the encoding tiktoken gives OpenAI's embedding models, and any
 * model it does not know, so what LangChain's OpenAIEmbeddings sends in place of text.
 */
export function textOfTokenIds(ids: readonly number[]): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: building its ranks takes about 100 ms, which no start should pay for a rare request
  cl100k ??= require('gpt-tokenizer/encoding/cl100k_base') as typeof Cl100k;
  return cl100k.decode(ids);
}

/** The text cut to at most `max` tokens, and whether it was cut. */
export function truncateTokens(text: string, max: number): { text: string; tokens: number; truncated: boolean } {
  const tokens = encode(text);
  if (tokens.length <= max) return { text, tokens: tokens.length, truncated: false };
  return { text: decode(tokens.slice(0, max)), tokens: max, truncated: true };
}

/** Splits text into pieces of about `per` tokens each, for streaming. */
export function tokenPieces(text: string, per: number): string[] {
  const tokens = encode(text);
  const pieces: string[] = [];
  for (let i = 0; i < tokens.length; i += per) pieces.push(decode(tokens.slice(i, i + per)));
  return pieces;
}

/**
 * Counts of long texts seen lately, the least recently used forgotten first once it holds `maxEntries`.
 * An agent (Cline, Claude Code, Continue) sends its whole conversation again on every turn: a system
 * prompt of thousands of tokens, every file and tool result read so far. Counting 46,000 tokens takes
 * about 8 ms of the event loop, which every other request waits for; remembered, a turn costs the count
 * of what is new in it. A text is known by its SHA-256, so no prompt is kept once its request is done;
 * and a count is remembered for the organizations that sent the text: one that did not is counted
 * afresh, so that how fast it is answered says nothing of what others sent.
 */
export class TokenMemo {
  private readonly counts = new Map<string, { tokens: number; owners: string[] }>();

  constructor(
    private readonly maxEntries: number,
    /** Texts shorter than this are counted each time (faster than remembering them is worth). */
    private readonly minChars: number,
    private readonly count: (text: string) => number = countTokens,
  ) {}

  /**
   * The tokens of these texts as one prompt of `owner`'s: each text's, and one for each line break
   * between them (counted together, a break after punctuation can share its token: at most one apart).
   */
  prompt(owner: string, texts: readonly string[]): number {
    let total = Math.max(0, texts.length - 1);
    for (const text of texts) total += this.tokens(owner, text);
    return total;
  }

  tokens(owner: string, text: string): number {
    if (text.length < this.minChars) return this.count(text);
    const key = createHash('sha256').update(text).digest('base64');
    const known = this.counts.get(key);
    if (known) {
      // Used again: it moves to the end of the map, last to be forgotten.
      this.counts.delete(key);
      this.counts.set(key, known);
      if (known.owners.includes(owner)) return known.tokens;
      known.owners.push(owner);
      return this.count(text);
    }
    const tokens = this.count(text);
    this.counts.set(key, { tokens, owners: [owner] });
    if (this.counts.size > this.maxEntries) this.counts.delete(this.counts.keys().next().value!);
    return tokens;
  }

  /** How many counts it holds now. */
  get size(): number {
    return this.counts.size;
  }
}

/** The service's memo: 20,000 texts of 1,000 characters or more (a few MB). */
export const promptTokens = new TokenMemo(20_000, 1_000);
