// Anthropic's tools that the client runs (its bash, text editor and memory tools): Anthropic defines
// each one's schema and the name it goes by, so a request names only its type. A Claude model gets
// each as Anthropic's own (it was trained on them); any other model gets a function taking what
// Anthropic's tool takes, under the same name, so its calls come back to the client as the tool's.
// Each version's fields are those of Anthropic's tool reference (and the AI SDK's schema of its input).
import { ANTHROPIC_CLIENT_TOOLS } from '../../api/schemas';
import type { ToolOptions } from './request';

type Tool = NonNullable<ToolOptions['tools']>[number];

const STRING = { type: 'string' } as const;
const LINE = { type: 'integer' } as const;
const RANGE = {
  type: 'array',
  items: { type: 'integer' },
  minItems: 2,
  maxItems: 2,
  description: 'The first and last line to view, counting from 1 (-1 for the end).',
} as const;

const BASH = {
  description:
    "Runs a command in a bash session on the user's computer. The session keeps its state (working folder, variables) from one call to the next; restart: true starts a new one.",
  parameters: {
    type: 'object',
    properties: {
      command: { ...STRING, description: 'The command to run.' },
      restart: { type: 'boolean', description: 'Start a new session instead of running a command.' },
    },
    required: ['command'],
  },
};

/** The text editor of a version: with undo_edit before 2025-04-29, inserting `insert_text` from 2025-07-28 on. */
function textEditor(undo: boolean, insertText: boolean) {
  const inserted = insertText ? 'insert_text' : 'new_str';
  return {
    description: `Views, creates and edits text files on the user's computer. view: a file's lines (view_range) or a folder's entries; create: a new file holding file_text; str_replace: old_str, which must occur exactly once, becomes new_str; insert: ${inserted} goes after line insert_line (0 for the top)${undo ? '; undo_edit: the last edit of the file is undone' : ''}.`,
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          enum: ['view', 'create', 'str_replace', 'insert', ...(undo ? ['undo_edit'] : [])],
        },
        path: { ...STRING, description: "The file's or folder's absolute path." },
        file_text: STRING,
        old_str: STRING,
        new_str: STRING,
        insert_line: LINE,
        ...(insertText ? { insert_text: STRING } : {}),
        view_range: RANGE,
      },
      required: ['command', 'path'],
    },
  };
}

const MEMORY = {
  description:
    'Keeps notes from one conversation to the next in the /memories folder: view a file or the folder, create a file, str_replace or insert in one, delete or rename one. Look at the folder before a task.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] },
      path: STRING,
      view_range: RANGE,
      file_text: STRING,
      old_str: STRING,
      new_str: STRING,
      insert_line: LINE,
      insert_text: STRING,
      old_path: STRING,
      new_path: STRING,
    },
    required: ['command'],
  },
};

/** The function any model gets for each of Anthropic's client tools, by its type. */
const FUNCTIONS = new Map<string, { description: string; parameters: Record<string, unknown> }>([
  ['bash_20241022', BASH],
  ['bash_20250124', BASH],
  ['text_editor_20241022', textEditor(true, false)],
  ['text_editor_20250124', textEditor(true, false)],
  ['text_editor_20250429', textEditor(false, false)],
  ['text_editor_20250728', textEditor(false, true)],
  ['memory_20250818', MEMORY],
]);

/**
 * One of Anthropic's client tools as the request's tool: the function any model gets, marked with the
 * tool it stands for, which a Claude model gets instead (sdkCallOptions.ts).
 */
export function clientTool(type: string, maxCharacters: number | undefined): Tool {
  const { description, parameters } = FUNCTIONS.get(type)!;
  return {
    type: 'function',
    function: { name: ANTHROPIC_CLIENT_TOOLS.get(type)!, description, parameters },
    anthropic: { type, ...(maxCharacters !== undefined ? { maxCharacters } : {}) },
  };
}
