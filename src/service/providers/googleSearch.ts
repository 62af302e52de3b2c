// Grounding with Google Search: a Gemini model searching the web at Google (on the Gemini API and on
// Vertex AI alike) before it answers. Which models run it, and whether beside the client's own tools,
// is the AI SDK's Google package's word (its catalogue of Gemini models); the price is Google's
// (ai.google.dev/gemini-api/docs/pricing and Vertex AI's pricing page, the same for both): from Gemini 3
// on, $14 for 1,000 search queries the model runs; before, $35 for 1,000 prompts it grounded, however
// many queries each ran. Google's free allowance (a day's or a month's first prompts) is not known here,
// so each is billed at the paid price.
import { getGoogleLanguageModelEntry } from '@ai-sdk/google/internal';

export interface GoogleSearch {
  /**
   * Gemini 3 or later: it searches beside the client's own tools too, and Google bills each search
   * query it runs; an earlier model searches only without them, billed once for each prompt it grounded.
   */
  gemini3: boolean;
  /** What Google bills for a query, or for a grounded prompt, in dollars. */
  cost: number;
}

/** What each model id was found to run, read once (routing asks it of every model a search is weighed for). */
const known = new Map<string, GoogleSearch | undefined>();

/** Whether a Gemini model (by its id at Google, the Gemini API's or Vertex AI's) runs Google Search, and how. */
export function googleSearchOf(modelId: string): GoogleSearch | undefined {
  if (known.has(modelId)) return known.get(modelId);
  // A model out of preview runs what its preview ran, until the package lists it under its own name.
  const said = (id: string) => getGoogleLanguageModelEntry(id).capabilities.language.tools;
  const own = said(modelId);
  const tools = own.googleSearch === true ? own : said(`${modelId}-preview`);
  const gemini3 = tools.mixed === true;
  const search = tools.googleSearch === true ? { gemini3, cost: (gemini3 ? 14 : 35) / 1000 } : undefined;
  known.set(modelId, search);
  return search;
}
