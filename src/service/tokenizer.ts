// Token counts from a real BPE tokenizer (o200k_base, the encoding of current OpenAI models), used for
// every model as the common measure.
//
// BPE merges within one pre-tokenized word take time that grows with the square of its length: a
// prompt of 150,000 characters without a space took ten seconds to count and blocked the service
// meanwhile. Runs of more than MAX_RUN characters without whitespace are therefore encoded in pieces
// of MAX_RUN; text without such a run is encoded exactly as before.
import { countTokens as count, decode, encode as encodeAll } from 'gpt-tokenizer';

const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');

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

const encode = (text: string): number[] => tokenizerPieces(text).flatMap((piece) => encodeAll(piece));

export const countTokens = (text: string): number => tokenizerPieces(text).reduce((n, piece) => n + count(piece), 0);

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
