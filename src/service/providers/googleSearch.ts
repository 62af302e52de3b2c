// Grounding with Google Search: a Gemini model searching the web at Google (on the Gemini API and on
// Vertex AI alike) before it answers. Which models run it, and whether beside the client's own tools,
// is the AI SDK's Google package's word (its catalogue of Gemini models); the price is Google's
// (ai.google.dev/gemini-api/docs/pricing and Vertex AI's pricing page, the same for both): from Gemini 3
// on, $14 for 1,000 search queries the model runs; before, $35 for 1,000 prompts it grounded, however
// many queries each ran. Google's free allowance (a day's or a month's first prompts) is not known here,
// so each is billed at the paid price.
import { getGoogleLanguageModelEntry } from '@ai-sdk/google/internal';

export interface GoogleSearch {
  /** Billed for each search query the model runs (Gemini 3 on); else once for each prompt it grounded. */
  perQuery: boolean;
  /** It can search in a request that offers the client's own tools too (Gemini 3 on); else only without them. */
  besideTools: boolean;
  /** What Google bills for a query, or for a grounded prompt, in dollars. */
  cost: number;
}

/** Whether a Gemini model (by its id at Google, the Gemini API's or Vertex AI's) runs Google Search, and how. */
export function googleSearchOf(modelId: string): GoogleSearch | undefined {
  // A model out of preview runs what its preview ran, until the package lists it under its own name.
  const said = (id: string) => getGoogleLanguageModelEntry(id).capabilities.language.tools;
  const tools = said(modelId).googleSearch === true ? said(modelId) : said(`${modelId}-preview`);
  if (tools.googleSearch !== true) return undefined;
  const gemini3 = tools.mixed === true;
  return { perQuery: gemini3, besideTools: gemini3, cost: (gemini3 ? 14 : 35) / 1000 };
}
