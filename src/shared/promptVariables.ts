// The placeholders of a saved prompt's text (`{{name}}`), which the extension fills with a selection
// (`{{prompt}}`), a prompt file takes as VS Code's input variables, and OpenAI's Responses API fills
// from a request's `variables`.

/** A placeholder; its name is the first group. */
export const PROMPT_VARIABLE = /\{\{([A-Za-z_][\w-]*)\}\}/g;

/** The names of a text's placeholders, each once, in the order they first appear. */
export const variablesOf = (text: string): string[] => [
  ...new Set([...text.matchAll(PROMPT_VARIABLE)].map((m) => m[1]!)),
];
