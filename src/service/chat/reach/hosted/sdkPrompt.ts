// The engine's messages (OpenAI's shapes) as the AI SDK's prompt: text, images and documents, tool
// calls and results, thinking to carry back, and the web searches a model ran.
import type {
  LanguageModelV4FilePart,
  LanguageModelV4Prompt,
  LanguageModelV4ReasoningPart,
  LanguageModelV4TextPart,
  LanguageModelV4ToolCallPart,
  LanguageModelV4ToolResultPart,
  JSONObject,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type { CacheControl } from '../../../../api/schemas';
import {
  PDF_DATA,
  textAndWebTools,
  textOf,
  type ChatMessage,
  isAnthropicBlock,
  isToolSearch,
  type ThinkingBlock,
  type ToolOptions,
  type WebToolUse,
} from '../../request';
import type { ImageDetail } from '../../imageTokens';
/**
 * The engine's messages (OpenAI's shapes) as the AI SDK's prompt, with the thinking `carried` keeps,
 * and to an Anthropic model the web searches it ran.
 */
export function toPrompt(
  messages: readonly ChatMessage[],
  carried: ((b: ThinkingBlock) => boolean) | undefined,
  anthropic: boolean,
  toolImages: boolean,
  /** The tools an OpenAI model is given in their namespaces (its tool search), by the name the request calls each. */
  namespaced?: ReadonlyMap<string, { name: string; namespace: string }>,
): LanguageModelV4Prompt {
  const toolNames = new Map<string, string>();
  const prompt: LanguageModelV4Prompt = [];
  // The images and PDFs of tool results, for an API whose tool results are text only: they follow the
  // results in a message of their own (its package would write their bytes into the result's text).
  const attached: LanguageModelV4FilePart[] = [];
  for (const m of messages) {
    if (m.role !== 'tool' && attached.length) prompt.push({ role: 'user', content: attached.splice(0) });
    prompt.push({ ...asPromptMessage(m), ...cacheOptions(m) });
  }
  if (attached.length) prompt.push({ role: 'user', content: attached });
  return prompt;

  function asPromptMessage(m: ChatMessage): LanguageModelV4Prompt[number] {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: textOf(m.content) };
      case 'user':
        return { role: 'user', content: userParts(m.content) };
      case 'assistant': {
        const text = textOf(m.content);
        const kept = carried ? (m.thinking ?? []).filter(carried) : [];
        const calls = (m.tool_calls ?? []).map((c) => {
          toolNames.set(c.id, c.function.name);
          // A Gemini model's thought signature goes back with the call it came with.
          const signed = kept.find((b) => 'call' in b && b.call === c.id);
          const inNamespace = namespaced?.get(c.function.name);
          return {
            type: 'tool-call' as const,
            toolCallId: c.id,
            toolName: inNamespace?.name ?? c.function.name,
            input: parseArguments(c.function.arguments),
            ...(signed && 'call' in signed
              ? { providerOptions: { google: { thoughtSignature: signed.geminiSignature } } }
              : inNamespace
                ? { providerOptions: forOpenAi({ namespace: inNamespace.namespace }) }
                : {}),
          };
        });
        // The model's own thinking goes back first, as it gave it (signed, or encrypted by OpenAI), then
        // its text with the searches it ran where it ran them. OpenAI refuses a reasoning item that
        // nothing follows ("provided without its required following item"), as in a turn whose client
        // kept only the thinking (its call dropped): such a turn's OpenAI items are left out.
        const followed = !!text || calls.length > 0;
        const thought = (followed ? kept : kept.filter(isAnthropicBlock)).flatMap(reasoningParts);
        const written = textAndWebTools<LanguageModelV4TextPart | WebToolPart>(
          text,
          anthropic ? (m.webTools ?? []).filter(ranAtAnthropic) : [],
          (piece) => [{ type: 'text', text: piece }],
          webToolParts,
        );
        return { role: 'assistant', content: [...thought, ...written, ...calls] };
      }
      case 'tool':
        if (!toolImages && Array.isArray(m.content))
          attached.push(...userParts(m.content).filter((part) => part.type === 'file'));
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: m.tool_call_id,
              toolName: toolNames.get(m.tool_call_id) ?? '',
              output: toolImages ? toolOutput(m.content) : textOutput(m.content),
            },
          ],
        };
    }
  }
}

type WebToolPart = LanguageModelV4ToolCallPart | LanguageModelV4ToolResultPart;

/**
 * A web search, fetch or tool search an Anthropic model ran, as Anthropic's package sends it back: the
 * call, then what it found, read or loaded (an error by its code).
 */
function webToolParts(use: WebToolUse): WebToolPart[] {
  const call = { toolCallId: use.id, toolName: use.name };
  return [
    { type: 'tool-call', ...call, input: use.input, providerExecuted: true },
    { type: 'tool-result', ...call, output: webToolOutput(use) },
  ];
}

/** What a web search found, a web fetch read or a tool search loaded, as the result Anthropic's package takes back. */
function webToolOutput(use: WebToolUse): LanguageModelV4ToolResultPart['output'] {
  const failed = (code: string) => ({ type: 'error-json' as const, value: { errorCode: code } });
  // A remote MCP server's call goes back as a tool call of its own (chat/remoteMcp.ts), never as this.
  if (use.name === 'mcp') return { type: 'text', value: use.results.text };
  if (use.name === 'mcp_approval') return { type: 'text', value: '' };
  if (use.name === 'web_search') {
    const found = use.results;
    if (!Array.isArray(found)) return failed(found.error_code);
    return {
      type: 'json',
      value: found.map((r) => ({
        type: r.type,
        url: r.url,
        title: r.title,
        pageAge: r.page_age,
        encryptedContent: r.encrypted_content,
      })),
    };
  }
  if (isToolSearch(use)) {
    const loaded = use.results;
    if (!Array.isArray(loaded)) return failed(loaded.error_code);
    return { type: 'json', value: loaded.map((name) => ({ type: 'tool_reference', toolName: name })) };
  }
  const read = use.results;
  if ('error_code' in read) return failed(read.error_code);
  const { source } = read.content;
  return {
    type: 'json',
    value: {
      type: read.type,
      url: read.url,
      retrievedAt: read.retrieved_at,
      content: {
        type: read.content.type,
        title: read.content.title,
        ...(read.content.citations ? { citations: read.content.citations } : {}),
        source: { type: source.type, mediaType: source.media_type, data: source.data },
      },
    },
  };
}

/** The tools of namespaces, by the name the request calls each (`<namespace>__<name>`): their name and namespace. */
export function namespacedTools(options: ToolOptions): Map<string, { name: string; namespace: string }> {
  return new Map(
    (options.tools ?? []).flatMap((t) =>
      t.openAi?.namespace ? [[t.function.name, { name: t.openAi.name, namespace: t.openAi.namespace.name }]] : [],
    ),
  );
}

/**
 * Thinking as the provider's package sends it back: an Anthropic block's text and signature, or the
 * redacted data; an OpenAI reasoning item as one part for each part of its summary (at least one), each
 * naming the item and its encrypted reasoning, which OpenAI's package joins into the item again; a web
 * search an OpenAI model ran as its call and result, which the package makes its item again (one that
 * failed, of which OpenAI's package keeps nothing to send, is left out); a tool search it ran as its
 * call and the tools it loaded, which the package makes its two items again, each with its own id.
 */
function reasoningParts(
  block: ThinkingBlock,
): Array<LanguageModelV4ReasoningPart | LanguageModelV4ToolCallPart | LanguageModelV4ToolResultPart> {
  if ('call' in block) return [];
  if ('toolSearchCall' in block) {
    const id = block.toolSearchCall;
    return [
      {
        type: 'tool-call',
        toolCallId: id,
        toolName: 'tool_search',
        input: { arguments: block.arguments, call_id: null },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: 'tool_search',
        output: { type: 'json', value: { tools: block.tools } as never },
        providerOptions: forOpenAi({ itemId: block.output }),
      },
    ];
  }
  if ('webSearchCall' in block) {
    const id = block.webSearchCall;
    return block.failed
      ? []
      : [
          { type: 'tool-call', toolCallId: id, toolName: 'web_search', input: {}, providerExecuted: true },
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'web_search',
            output: { type: 'json', value: block.result as never },
          },
        ];
  }
  if ('minimaxThinking' in block)
    return [
      {
        type: 'reasoning',
        text: block.minimaxThinking,
        providerOptions: { anthropic: { signature: block.signature } },
      },
    ];
  if ('item' in block) {
    // The block goes back only to the model that wrote it, at OpenAI or at Azure.
    const item = { itemId: block.item, reasoningEncryptedContent: block.encrypted };
    return (block.summary.length ? block.summary : ['']).map((text) => ({
      type: 'reasoning',
      text,
      providerOptions: forOpenAi(item),
    }));
  }
  return [
    'redacted' in block
      ? { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: block.redacted } } }
      : { type: 'reasoning', text: block.thinking, providerOptions: { anthropic: { signature: block.signature } } },
  ];
}

/**
 * A prompt-cache breakpoint as Anthropic's package reads it (on a message: after its last part). Other
 * providers' packages leave it alone; OpenAI's and Gemini's cache long prompts by themselves.
 */
export const cacheOptions = (marked: {
  cache_control?: CacheControl;
}): { providerOptions?: SharedV4ProviderOptions } =>
  marked.cache_control ? { providerOptions: { anthropic: { cacheControl: marked.cache_control } } } : {};

/**
 * What a tool gave back, as the provider packages take it: its text, or its text, images and PDFs as
 * parts, for an API that takes them in a tool's result (toPrompt says which).
 */
function toolOutput(content: ChatMessage['content']): LanguageModelV4ToolResultPart['output'] {
  if (!Array.isArray(content) || !content.some((part) => part.type !== 'text')) return textOutput(content);
  return {
    type: 'content',
    value: content.flatMap((part): ToolContent[] =>
      // A tool a tool search found (only a Claude model gets these: advancedToolUse.ts), as Anthropic's package sends it.
      part.type === 'tool_reference'
        ? [
            {
              type: 'custom' as const,
              providerOptions: { anthropic: { type: 'tool-reference', toolName: String(part.tool_name) } },
            },
          ]
        : userParts([part]),
    ),
  };
}

type ToolContent = Extract<LanguageModelV4ToolResultPart['output'], { type: 'content' }>['value'][number];

/** A tool's result as text: its images and PDFs, if any, go to the model another way (toPrompt). */
function textOutput(content: ChatMessage['content']): LanguageModelV4ToolResultPart['output'] {
  const text = textOf(content);
  const shown = Array.isArray(content) && content.some((part) => part.type === 'image_url' || part.type === 'file');
  return {
    type: 'text',
    value: shown ? `${text}${text ? '\n' : ''}(The tool's images and documents follow in the next message.)` : text,
  };
}

function userParts(content: ChatMessage['content']): Array<LanguageModelV4TextPart | LanguageModelV4FilePart> {
  if (content === null || typeof content === 'string') return [{ type: 'text', text: content ?? '' }];
  return content.flatMap((part): Array<LanguageModelV4TextPart | LanguageModelV4FilePart> => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    const file = part.file as { file_data?: unknown; filename?: string } | undefined;
    if (part.type === 'file' && typeof file?.file_data === 'string' && file.file_data.startsWith(PDF_DATA))
      return [
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: { type: 'data', data: file.file_data.slice(PDF_DATA.length) },
          ...(file.filename ? { filename: file.filename } : {}),
        },
      ];
    const image = part.image_url as { url?: unknown; detail?: ImageDetail } | undefined;
    const url = image?.url;
    if (part.type !== 'image_url' || typeof url !== 'string') return [];
    const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    // The detail the client asked for, as OpenAI's and Azure's packages read it (others read no detail).
    const detail = image?.detail ? { imageDetail: image.detail } : undefined;
    return [
      {
        ...(inline
          ? { type: 'file', mediaType: inline[1]!, data: { type: 'data', data: inline[2]! } }
          : { type: 'file', mediaType: 'image/*', data: { type: 'url', url: new URL(url) } }),
        ...(detail ? { providerOptions: forOpenAi(detail) } : {}),
      },
    ];
  });
}

/** A tool call's arguments as an object (a model may have written something that is not JSON). */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return {};
  }
}

/**
 * Providers whose API takes system instructions only at the start of a conversation: Gemini's (at
 * Google and Vertex AI) and Bedrock's Converse API (their packages refuse a later one), and MiniMax's
 * Anthropic-compatible API and Bedrock's and Vertex AI's Anthropic Messages API, which know no
 * mid-conversation system message (Anthropic's beta). Claude Code sends its environment so to a model it does not know.
 */
export const SYSTEM_AT_START = new Set(['google', 'minimax', 'bedrock', 'vertex']);

/** The conversation with its later system messages joined to the first (SYSTEM_AT_START). */
export function systemFirst(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  const first = messages.findIndex((m) => m.role !== 'system');
  if (first < 0 || !messages.some((m, i) => i > first && m.role === 'system')) return messages;
  const system = messages.filter((m) => m.role === 'system');
  const marked = system.findLast((m) => m.cache_control)?.cache_control;
  return [
    {
      role: 'system',
      content: system.map((m) => textOf(m.content)).join('\n\n'),
      ...(marked ? { cache_control: marked } : {}),
    },
    ...messages.filter((m) => m.role !== 'system'),
  ];
}

/**
 * Whether Anthropic ran a web search or fetch sent back (its ids begin `srvtoolu_`): one an OpenAI model
 * ran (told in Anthropic's words, webTools.ts) has no encrypted pages for an Anthropic model to read again.
 */
const ranAtAnthropic = (use: WebToolUse) => use.id.startsWith('srvtoolu_');

/** Options for OpenAI's package, which Azure's (built on it) reads under its own name. */
const forOpenAi = <T extends JSONObject>(options: T) => ({ openai: options, azure: options });
