// Anthropic's advanced tool use as Claude Code sends it (its ToolSearch, a tool of its own):
// tools sent with `defer_loading`, which the model is not shown until a tool's result names them in a
// `tool_reference`, and examples of a tool's input. A Claude model gets both as they are (Anthropic
// expands a reference into the tool's definition). Any other model is shown the tools named so far,
// is told of each reference in words, and reads a tool's examples in its description. With Anthropic's
// own tool search tool, which runs only at Anthropic, any other model is shown every tool.
//
// The request's estimate, before a model is chosen (prepare.ts), counts the tools as a model that runs
// the search reads them: a deferred tool once a search or a tool's result loaded it, and so too the tools
// that wait for OpenAI's own tool search (a Responses client's), once one of its searches loaded them.
import { flatToolName, isToolSearch, type ChatMessage, type ToolOptions } from './request';

type Tool = NonNullable<ToolOptions['tools']>[number];

/**
 * The names of the tools the conversation has loaded: by its tool results (their `tool_reference`
 * parts), and by the tool searches a Claude model ran at Anthropic.
 */
function loadedTools(messages: readonly ChatMessage[]): Set<string> {
  const names = new Set<string>();
  for (const m of messages)
    if (m.role === 'tool' && Array.isArray(m.content)) {
      for (const part of m.content) if (part.type === 'tool_reference') names.add(String(part.tool_name));
    } else if (m.role === 'assistant')
      for (const use of m.webTools ?? [])
        if (isToolSearch(use) && Array.isArray(use.results)) for (const name of use.results) names.add(name);
  return names;
}

/** The tools the model is shown: those not deferred, and the deferred ones a tool's result has loaded. */
export function toolsShown(tools: readonly Tool[], messages: readonly ChatMessage[]): readonly Tool[] {
  if (!tools.some((t) => t.deferred)) return tools;
  const loaded = loadedTools(messages);
  return tools.filter((t) => !t.deferred || loaded.has(t.function.name));
}

/**
 * The tools OpenAI's tool search loaded, by the name the request calls each (a namespace's as
 * `<namespace>__<name>`): carried in the thinking of the turns it ran in, or sent back as its items;
 * and those a turn called (which a search had loaded, wherever it ran).
 */
function loadedByOpenAi(messages: readonly ChatMessage[]): Set<string> {
  const names = new Set<string>();
  for (const m of messages)
    if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) names.add(call.function.name);
      for (const block of m.thinking ?? [])
        if ('toolSearchCall' in block)
          for (const tool of block.tools)
            if (tool.type !== 'namespace') names.add(String(tool.name));
            else if (Array.isArray(tool.tools))
              for (const t of tool.tools as Array<Record<string, unknown>>)
                names.add(flatToolName(String(tool.name), String(t.name)));
    }
  return names;
}

/**
 * Whether OpenAI's tool search, asked of a Claude model at Anthropic, runs there as Anthropic's own:
 * unless the request defers every tool (Anthropic refuses a request that shows none).
 */
export const openAiSearchAtAnthropic = (options: ToolOptions): boolean =>
  !!options.openAiToolSearch && !options.toolSearch && (options.tools ?? []).some((t) => !t.openAi?.deferred);

/**
 * The request as a Claude model at Anthropic gets OpenAI's tool search: Anthropic's search by BM25 (a
 * query's words, as OpenAI's searches by what the model asks) over the tools that wait for OpenAI's,
 * but those an earlier turn loaded or called, which it is shown at once (its search's result is
 * Anthropic's and does not come back through a Responses client).
 */
export function asAnthropicToolSearch(options: ToolOptions, messages: readonly ChatMessage[]): ToolOptions {
  const loaded = loadedByOpenAi(messages);
  return {
    ...options,
    toolSearch: 'tool_search_tool_bm25',
    tools: (options.tools ?? []).map((t) =>
      t.openAi?.deferred && !loaded.has(t.function.name) ? { ...t, deferred: true } : t,
    ),
  };
}

/**
 * The tools a model reads, as the request's estimate counts them: those shown (above), less those that
 * wait for OpenAI's tool search, when the request asks for it, until one of its searches loaded them.
 */
export function toolsRead(options: ToolOptions | undefined, messages: readonly ChatMessage[]): readonly Tool[] {
  const shown = toolsShown(options?.tools ?? [], messages);
  if (!options?.openAiToolSearch || !shown.some((t) => t.openAi?.deferred)) return shown;
  const loaded = loadedByOpenAi(messages);
  return shown.filter((t) => !t.openAi?.deferred || loaded.has(t.function.name));
}

/**
 * The request in the terms of a model that does not know Anthropic's advanced tool use: the tools it is
 * shown, each with its examples in its description; a tool's result that loaded tools says so in words.
 */
export function inOwnTerms(
  messages: ChatMessage[],
  options: ToolOptions,
): { messages: ChatMessage[]; options: ToolOptions } {
  if (!options.advancedToolUse) return { messages, options };
  const shown = options.toolSearch ? (options.tools ?? []) : toolsShown(options.tools ?? [], messages);
  const tools = shown.map(({ deferred: _, examples, ...tool }) =>
    examples?.length
      ? { ...tool, function: { ...tool.function, description: withExamples(tool.function.description, examples) } }
      : tool,
  );
  return {
    messages: messages.map((m) =>
      m.role === 'tool' && Array.isArray(m.content) && m.content.some((p) => p.type === 'tool_reference')
        ? { ...m, content: referencesInWords(m.content) }
        : m,
    ),
    options: { ...options, tools: tools.length ? tools : undefined, advancedToolUse: undefined, toolSearch: undefined },
  };
}

/** A tool's description, then its examples, one input a line. */
const withExamples = (description: string | undefined, examples: ReadonlyArray<Record<string, unknown>>) =>
  [
    ...(description ? [description, ''] : []),
    'Examples of its input:',
    ...examples.map((example) => JSON.stringify(example)),
  ].join('\n');

/** A tool's result with each tool it loaded said in words: its text alone when no image or document remains. */
function referencesInWords(parts: ReadonlyArray<Record<string, unknown>>): string | Array<Record<string, unknown>> {
  const said = parts.map((part) =>
    part.type === 'tool_reference'
      ? { type: 'text', text: `The tool ${String(part.tool_name)} is loaded: it can be called now.` }
      : part,
  );
  return said.every((part) => part.type === 'text') ? said.map((part) => part.text).join('\n') : said;
}
