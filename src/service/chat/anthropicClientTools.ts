// Anthropic's tools that the client runs (its bash, text editor, memory and computer-use tools): Anthropic defines
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

const COMPUTER_2024 = [
  'key',
  'type',
  'mouse_move',
  'left_click',
  'left_click_drag',
  'right_click',
  'middle_click',
  'double_click',
  'screenshot',
  'cursor_position',
];
const COMPUTER_2025 = [
  ...COMPUTER_2024,
  'hold_key',
  'left_mouse_down',
  'left_mouse_up',
  'triple_click',
  'scroll',
  'wait',
];
const POINT = { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } as const;

/**
 * The computer-use tool of a version, for a screen of the size the request gives: the actions it
 * takes, and from 2025-01-24 on scrolling, holding and waiting (and from 2025-11-24 zooming in).
 */
function computer(actions: string[], later: boolean, zoom: boolean, screen: string) {
  return {
    description: `Uses the user's computer through its screen (${screen}), mouse and keyboard: screenshot shows the screen; the mouse moves and clicks at coordinate [x, y] in pixels; type writes text; key presses a key or combination (xdotool's names: ctrl+s, Return).${later ? ' scroll turns the wheel (scroll_direction, scroll_amount) at coordinate; left_click_drag drags from start_coordinate to coordinate; hold_key holds text for duration seconds; wait waits duration seconds.' : ''}${zoom ? ' zoom shows region [x1, y1, x2, y2] of the screen larger.' : ''}`,
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: zoom ? [...actions, 'zoom'] : actions },
        coordinate: POINT,
        text: STRING,
        ...(later
          ? {
              start_coordinate: POINT,
              scroll_direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
              scroll_amount: { type: 'integer' },
              duration: { type: 'number' },
            }
          : {}),
        ...(zoom ? { region: { type: 'array', items: { type: 'integer' }, minItems: 4, maxItems: 4 } } : {}),
      },
      required: ['action'],
    },
  };
}

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

/** What a request's tool may say of one of Anthropic's client tools besides its type and name. */
export interface ClientToolFields {
  max_characters?: number;
  display_width_px?: number;
  display_height_px?: number;
  display_number?: number | null;
  enable_zoom?: boolean;
}

/**
 * One of Anthropic's client tools as the request's tool: the function any model gets, marked with the
 * tool it stands for and its settings in the words of the AI SDK's Anthropic package, which a Claude
 * model gets instead (sdkCallOptions.ts).
 */
export function clientTool(type: string, fields: ClientToolFields): Tool {
  const computerUse = type.startsWith('computer_');
  const { description, parameters } = computerUse
    ? computer(
        type === 'computer_20241022' ? COMPUTER_2024 : COMPUTER_2025,
        type !== 'computer_20241022',
        type === 'computer_20251124' && fields.enable_zoom === true,
        `${fields.display_width_px} × ${fields.display_height_px} pixels`,
      )
    : FUNCTIONS.get(type)!;
  const args = {
    maxCharacters: fields.max_characters,
    displayWidthPx: fields.display_width_px,
    displayHeightPx: fields.display_height_px,
    displayNumber: fields.display_number,
    enableZoom: fields.enable_zoom,
  };
  return {
    type: 'function',
    function: { name: ANTHROPIC_CLIENT_TOOLS.get(type)!, description, parameters },
    anthropic: { type, args: Object.fromEntries(Object.entries(args).filter(([, v]) => v != null)) },
  };
}
