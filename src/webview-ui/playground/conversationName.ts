// The name a new conversation gets from its first prompt. No DOM here (tested on Node).

/** A name for a new conversation: the prompt's first line of prose, or the file its code came from. */
export function conversationName(prompt: string): string {
  const lines = prompt.split('\n');
  const prose = lines.find((l, i) => l.trim() && !l.startsWith('```') && !insideFence(lines, i));
  const file = /^`{3,}\S*\s+(\S+)/m.exec(prompt)?.[1];
  const name = prose?.trim() ?? (file ? `Code from ${file}` : 'Playground chat');
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}

const insideFence = (lines: string[], index: number) => lines.slice(0, index).filter((l) => l.startsWith('```')).length % 2 === 1;
