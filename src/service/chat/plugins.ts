// The playground's plugins (`plugins` of POST /v1/playground/chat, whose names the interface leaves
// open): the ones this service runs, by name, each as the tools it gives the model. A name it does not
// know is refused with the names it does, never dropped.
import type { z } from 'zod';
import type { ChatBody } from '../../api/schemas';
import { invalid } from '../problem';
import type { Body, ToolOptions } from './request';

const PLUGINS: Record<string, { tools: ToolOptions; does: string }> = {
  web_search: {
    // The search a model runs at its provider, as on the OpenAI-compatible APIs (webSearches.ts).
    tools: { openAiWebSearch: { preview: false, options: {}, named: 'The web search' } },
    does: 'the model searches the web before it answers, where its provider runs a search',
  },
};

/** The playground's request with the tools its plugins give the model; an unknown plugin is a 422. */
export function withPlugins(body: z.output<typeof ChatBody>): Body {
  const asked = [...new Set(body.plugins ?? [])];
  for (const [at, name] of asked.entries())
    if (!Object.hasOwn(PLUGINS, name))
      throw invalid(
        ['body', 'plugins', at],
        `${name} is not a plugin of this service; it has ${Object.entries(PLUGINS)
          .map(([known, p]) => `${known} (${p.does})`)
          .join(', ')}`,
      );
  if (!asked.length) return body;
  return { ...body, pluginTools: Object.assign({}, ...asked.map((name) => PLUGINS[name]!.tools)) as ToolOptions };
}
