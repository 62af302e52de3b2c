// Token counts for VS Code's chat with the tokenizer the service bills with (o200k_base, in pieces as
// the service does), not characters divided by four. dist/tokenizer.js is required on first use.
import type * as Tokenizer from '../service/tokenizer';

let loaded: typeof Tokenizer | undefined;

export function countChatTokens(text: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../service/tokenizer.js') as typeof Tokenizer;
  return loaded.countTokens(text);
}
