// OpenAI's reusable prompts (`prompt` on its Responses API) from the organization's saved prompts: a
// request names one by its id, and its text, each `{{name}}` placeholder filled from the request's
// `variables`, comes before the request's own instructions. A prompt here has one version, its latest.
import type { z } from 'zod';
import type { ResponsesBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { findPrompt } from '../domain/prompts';
import type { Database } from '../db';
import { invalid } from '../problem';
import { PROMPT_VARIABLE, variablesOf } from '../../shared/promptVariables';

type Given = Pick<z.output<typeof ResponsesBody>, 'prompt' | 'instructions'>;

/** Names of placeholders in a sentence, each in quotes. */
const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/** The request with the saved prompt it names before its instructions, or as it is when it names none. */
export function withSavedPrompt<G extends Given>(db: Database, caller: Caller, given: G): G {
  if (!given.prompt) return given;
  const { id, version } = given.prompt;
  const variables = given.prompt.variables ?? {};
  if (version != null)
    throw invalid(
      ['body', 'prompt', 'version'],
      'names a version, and a saved prompt here has one, its latest: leave version out',
    );
  const saved = findPrompt(db, caller, id);
  if (!saved)
    throw invalid(
      ['body', 'prompt', 'id'],
      `No saved prompt of this organization has the id ${id}: the prompts of OpenAI's dashboard are not kept here. Give the id of one of the organization's prompts (in VS Code: Copy Prompt for OpenAI's Responses API, on a prompt in the Prompts view)`,
      'not_found',
    );
  const asked = variablesOf(saved.prompt);
  const missing = asked.filter((name) => !(name in variables));
  if (missing.length)
    throw invalid(
      ['body', 'prompt', 'variables'],
      `has no ${quoted(missing)}, which the prompt "${saved.title}" fills in: give ${missing.length > 1 ? 'them' : 'it'} in variables`,
    );
  const unused = Object.keys(variables).find((name) => !asked.includes(name));
  if (unused !== undefined)
    throw invalid(
      ['body', 'prompt', 'variables', unused],
      `is no placeholder of the prompt "${saved.title}"${asked.length ? `, which fills in ${quoted(asked)}` : ', which has none'}`,
    );
  const text = saved.prompt.replace(PROMPT_VARIABLE, (_, name: string) => {
    const value = variables[name]!;
    return typeof value === 'string' ? value : value.text;
  });
  return { ...given, instructions: given.instructions ? `${text}\n\n${given.instructions}` : text };
}
