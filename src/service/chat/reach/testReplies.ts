// Test models make no model request: they answer deterministically from the prompt.
//   test/echo   answers with the prompt itself (and notes attachments)
//   test/lorem  answers with lorem ipsum whose words and length derive from the prompt's hash
import { createHash } from 'node:crypto';

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum'.split(
    ' ',
  );

export interface TestModelInput {
  model: string;
  prompt: string;
  images: number;
  files: number;
}

export function testModelReply(input: TestModelInput): string {
  if (input.model === 'lorem') return lorem(input.prompt);
  const notes = [
    input.images ? `[${counted(input.images, 'image')} attached]` : '',
    input.files ? `[${counted(input.files, 'file')} attached]` : '',
  ].filter(Boolean);
  return notes.length ? `${input.prompt}\n\n${notes.join(' ')}` : input.prompt;
}

/** "1 file", "2 files". */
const counted = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;

function lorem(prompt: string): string {
  let state = createHash('sha256').update(prompt).digest().readUInt32BE(0) || 1;
  const next = () => {
    // xorshift32: a small deterministic generator seeded by the prompt.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const count = 30 + Math.floor(next() * 90);
  const words = Array.from({ length: count }, (_, i) => {
    const word = WORDS[Math.floor(next() * WORDS.length)]!;
    return i === 0 ? word[0]!.toUpperCase() + word.slice(1) : word;
  });
  const paragraphs: string[] = [];
  for (let i = 0; i < words.length; i += 40) paragraphs.push(`${words.slice(i, i + 40).join(' ')}.`);
  return paragraphs.join('\n\n');
}
