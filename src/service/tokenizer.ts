// Token counts from a real BPE tokenizer (o200k_base, the encoding of current OpenAI models), used for
// every model as the common measure.
import { countTokens as count, decode, encode } from 'gpt-tokenizer';

export const countTokens = (text: string): number => (text ? count(text) : 0);

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
