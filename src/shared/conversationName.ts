// The name a new conversation gets from its first prompt: its first words a person would recognise it
// by. A lead-in such as "Fix this:" before a code block says little, so the code's first line joins it.
// Shared by the playground (which names the conversations it creates) and the built-in service (which
// names one created by a first request); no DOM and no Node here.

const MAX = 60;
const FENCE = /^\s*(```|~~~)/;

/** At most MAX characters, cut at a word boundary where there is one. */
function shorten(text: string): string {
  if (text.length <= MAX) return text;
  const cut = text.slice(0, MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function conversationName(prompt: string): string {
  const prose: string[] = [];
  let code: string | undefined;
  let file: string | undefined;
  let inCode = false;
  for (const raw of prompt.split('\n')) {
    if (FENCE.test(raw)) {
      // An opening fence may name the file after the language: ```ts src/cart.ts
      if (!inCode) file ??= /^\s*(?:```|~~~)\S*\s+(\S+)/.exec(raw)?.[1];
      inCode = !inCode;
      continue;
    }
    const line = raw.trim();
    if (!line) continue;
    if (inCode) code ??= line;
    else prose.push(line);
  }
  const lead = prose[0]?.replace(/[\s:.,;-]+$/, '');
  if (!lead) return file ? shorten(`Code from ${file}`) : code ? shorten(code) : 'New conversation';
  // A short lead-in ("Fix this:", "Explain:") is named with what it is about.
  const words = lead.split(/\s+/).length;
  const about = prose[1] ?? code;
  if (words <= 3 && /[:]\s*$/.test(prose[0]!) && about) return shorten(`${lead}: ${about}`);
  return shorten(lead);
}
