// Saved prompts as VS Code prompt files (`.prompt.md`), and back. The file has only front-matter keys
// VS Code accepts (`name`, `description`, `argument-hint`), and the service's `{{var}}` placeholders
// written as VS Code's `${input:var}`. What the file cannot say (the service's id, the title, the
// review state, the version the text was synced at) lives in `.llm-spaces/prompts.lock.json`.
// Free of VS Code: unit tests and the benchmark run it on Node.
import { createHash } from 'node:crypto';
import { PROMPT_VARIABLE, variablesOf } from '../shared/promptVariables';

export interface PromptText {
  title: string;
  description: string;
  prompt: string;
}

/** What one prompt file is to the service, as the lock file keeps it. */
export interface LockEntry {
  id: string;
  title: string;
  /** Review state when last synced (draft, in review, approved, declined) and the reason of a decline. */
  state: string;
  declineReason: string | null;
  /** The service's `modified_on` of the text last synced, and that text's hash. */
  modifiedOn: string;
  hash: string;
}

export interface LockFile {
  version: 1;
  /** By the file's path relative to the workspace folder, with forward slashes. */
  prompts: Record<string, LockEntry>;
}

export const LOCK_PATH = '.llm-spaces/prompts.lock.json';
/** Where VS Code looks for prompt files by default (`chat.promptFilesLocations`). */
export const PROMPTS_FOLDER = '.github/prompts';

const FILE_VAR = /\$\{input:([A-Za-z_][\w-]*)\}/g;

/** The service's placeholders as VS Code's input variables, and back. */
export const toFileVariables = (text: string) =>
  text.replace(PROMPT_VARIABLE, (_, name: string) => `\${input:${name}}`);
export const toServiceVariables = (text: string) => text.replace(FILE_VAR, (_, name: string) => `{{${name}}}`);

/** A file name (and the prompt file's `name`) from a title: lower case, words joined by hyphens. */
export function slugOf(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'prompt'
  );
}

/** A YAML scalar that reads back as the same string: plain when safe, else double-quoted (JSON's escapes are YAML's). */
function scalar(value: string): string {
  return /^[A-Za-z0-9][\w .,()/-]*$/.test(value) && !/: |\s$/.test(value) ? value : JSON.stringify(value);
}

/** The prompt file of a saved prompt. */
export function toPromptFile(prompt: PromptText): string {
  const vars = variablesOf(prompt.prompt);
  const head = [`name: ${scalar(slugOf(prompt.title))}`, `description: ${scalar(prompt.description)}`];
  if (vars.length) head.push(`argument-hint: ${scalar(vars.join(', '))}`);
  return `---\n${head.join('\n')}\n---\n${toFileVariables(prompt.prompt)}`;
}

/** A prompt file's front matter (the keys it has, as strings) and its body with the service's placeholders. */
export function fromPromptFile(text: string): { fields: Record<string, string>; prompt: string } {
  const normal = text.replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(normal);
  if (!match) return { fields: {}, prompt: toServiceVariables(normal) };
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split('\n')) {
    const pair = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (pair) fields[pair[1]!] = unquote(pair[2]!.trim());
  }
  return { fields, prompt: toServiceVariables(normal.slice(match[0].length)) };
}

function unquote(value: string): string {
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

/** The hash of a prompt's text as the service holds it (what the lock compares). */
export const textHash = (prompt: PromptText) =>
  createHash('sha256')
    .update(JSON.stringify([prompt.title, prompt.description, prompt.prompt]))
    .digest('hex')
    .slice(0, 16);

/** A lock file read without trusting it: entries that are not whole are left out. */
export function parseLock(text: string | undefined): LockFile {
  const empty: LockFile = { version: 1, prompts: {} };
  if (!text) return empty;
  try {
    const raw = JSON.parse(text) as { prompts?: Record<string, unknown> };
    const prompts: Record<string, LockEntry> = {};
    for (const [file, entry] of Object.entries(raw.prompts ?? {})) {
      const e = entry as Partial<LockEntry>;
      if (typeof e?.id === 'string' && typeof e.hash === 'string' && typeof e.title === 'string') {
        prompts[file] = {
          id: e.id,
          title: e.title,
          state: typeof e.state === 'string' ? e.state : 'draft',
          declineReason: typeof e.declineReason === 'string' ? e.declineReason : null,
          modifiedOn: typeof e.modifiedOn === 'string' ? e.modifiedOn : '',
          hash: e.hash,
        };
      }
    }
    return { version: 1, prompts };
  } catch {
    return empty;
  }
}

/** The lock file's text: sorted by path, so that it diffs well in review. */
export function formatLock(lock: LockFile): string {
  const prompts = Object.fromEntries(Object.entries(lock.prompts).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify({ version: 1, prompts }, null, 2)}\n`;
}

/** How a prompt file stands against the service. */
export type SyncState = 'same' | 'local' | 'service' | 'both' | 'gone';

/**
 * `local`: the file changed since the last sync; `service`: the service's text did; `both`: each did,
 * differently; `gone`: the service no longer has the prompt.
 */
export function syncState(entry: LockEntry, file: PromptText, service: PromptText | undefined): SyncState {
  if (!service) return 'gone';
  const fileHash = textHash(file);
  const serviceHash = textHash(service);
  if (fileHash === serviceHash) return 'same';
  const localChanged = fileHash !== entry.hash;
  const serviceChanged = serviceHash !== entry.hash;
  if (localChanged && serviceChanged) return 'both';
  return serviceChanged ? 'service' : 'local';
}
