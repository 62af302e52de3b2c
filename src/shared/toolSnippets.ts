// What another tool needs to send through a Space, as Copy Space Endpoint for Other Tools… puts it on
// the clipboard (commands/endpointCommands.ts): each text given the /v1 base URL, the key, the Space's
// name (which lets the Space route), the models to suggest for embeddings and autocomplete (the
// built-in service's), and the smallest context window of the Space's models. Apart from VS Code, so
// that the tests run the agents with what a user pastes.

/** Models a tool may use beside the Space for other work. */
export interface Suggested {
  embedding?: Embedding;
  /**
   * A model server's model, which continues a code completion tool's prompt as it is, or a hosted model
   * that fills in the middle on its own API (`fim`).
   */
  autocomplete?: { model: string; fim: boolean };
  /**
   * The smallest context window of the Space's active models (any of which may answer), for a tool
   * that compacts its conversation before the model's window is full; absent when none is known.
   */
  contextWindow?: number;
}

/** An embedding model to suggest (modelCatalog.ts embeddingToSuggest), and whether it answers here now. */
interface Embedding {
  model: string;
  answers: boolean;
}

export type SnippetText = (v1: string, key: string, space: string, suggested?: Suggested) => string;

/** The base URL Anthropic's clients take: without /v1, which they add. */
const anthropicBase = (v1: string) => v1.replace(/\/v1$/, '');

export const SNIPPET_TEXTS = {
  openaiSdk: (v1, key, space) =>
    `# Python\nfrom openai import OpenAI\nclient = OpenAI(base_url="${v1}", api_key="${key}")\nclient.chat.completions.create(model="${space}", messages=[{"role": "user", "content": "Hello"}])\n\n// JavaScript\nimport OpenAI from 'openai';\nconst client = new OpenAI({ baseURL: '${v1}', apiKey: '${key}' });\nawait client.chat.completions.create({ model: '${space}', messages: [{ role: 'user', content: 'Hello' }] });\n`,
  aiSdk: (v1, key, space) =>
    `import { createOpenAICompatible } from '@ai-sdk/openai-compatible';\nimport { generateText } from 'ai';\nconst spaces = createOpenAICompatible({ name: 'llm-spaces', baseURL: '${v1}', apiKey: '${key}', includeUsage: true });\nconst { text } = await generateText({ model: spaces('${space}'), prompt: 'Hello' });\n`,
  claudeCode: (v1, key, space) =>
    `# Claude Code asks for replies of up to 32,000 tokens, more than a new Space's cost cap of $0.02 a\n# request allows on a paid model: raise the Space's cost cap per request (or set it to 0) in its settings.\nexport ANTHROPIC_BASE_URL=${anthropicBase(v1)}\nexport ANTHROPIC_API_KEY=${key}\nexport ANTHROPIC_MODEL="${space}"\nclaude\n`,
  anthropicSdk: (v1, key, space) =>
    `import Anthropic from '@anthropic-ai/sdk';\nconst client = new Anthropic({ baseURL: '${anthropicBase(v1)}', apiKey: '${key}' });\nawait client.messages.create({ model: '${space}', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] });\n`,
  continue: (v1, key, space, { embedding, autocomplete, contextWindow } = {}) =>
    `models:\n  - name: ${space} (LLM Spaces)\n    provider: openai\n    model: ${space}\n    apiBase: ${v1}\n    apiKey: ${key}\n` +
    (contextWindow
      ? `    # The smallest context window of the Space's models, which Continue fits the conversation into\n    defaultCompletionOptions:\n      contextLength: ${contextWindow}\n`
      : '') +
    (embedding
      ? `  # Continue's codebase index, through the same Space${embedding.answers ? '' : ' (add your OpenAI key first: LLM Spaces: Add Provider Key…, or name local/nomic-embed-text from Ollama)'}\n  - name: Embeddings (LLM Spaces)\n    provider: openai\n    model: ${embedding.model}\n    apiBase: ${v1}\n    apiKey: ${key}\n    roles: [embed]\n`
      : '') +
    (autocomplete
      ? `  # Continue's autocomplete, through the same Space: ${autocomplete.fim ? "the model fills in the middle, sent the text after the cursor too (Mistral's request, which the Space takes)" : 'the model continues the code as it is'}\n  - name: Autocomplete (LLM Spaces)\n    provider: ${autocomplete.fim ? 'mistral' : 'openai'}\n    model: ${autocomplete.model}\n    apiBase: ${v1}\n    apiKey: ${key}\n    roles: [autocomplete]\n`
      : ''),
  cline: (v1, key, space) => `Base URL: ${v1}\nAPI Key: ${key}\nModel ID: ${space}\n`,
  aider: (v1, key, space) =>
    `export OPENAI_API_BASE=${v1}\nexport OPENAI_API_KEY=${key}\naider --model openai/${space}\n`,
  codex: (v1, key, space, { contextWindow } = {}) =>
    `# ~/.codex/config.toml\nmodel = "${space}"\nmodel_provider = "llm-spaces"\n# The Space gives the effort only to models that reason (and Claude's thinking back each turn).\nmodel_reasoning_effort = "medium"\n` +
    (contextWindow
      ? `# The smallest context window of the Space's models: Codex compacts the conversation before it is full.\nmodel_context_window = ${contextWindow}\n`
      : '') +
    `\n[model_providers.llm-spaces]\nname = "LLM Spaces"\nbase_url = "${v1}"\nenv_key = "LLM_SPACES_KEY"\nwire_api = "responses"\n\n# and in the shell\nexport LLM_SPACES_KEY=${key}\n`,
  customEndpoint: (v1, key, space) => `URL: ${v1}/chat/completions\nAPI key: ${key}\nModel: ${space}\n`,
  curl: (v1, key, space) =>
    `curl ${v1}/chat/completions \\\n  -H "Authorization: Bearer ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "${space}", "messages": [{"role": "user", "content": "Hello"}]}'\n`,
} satisfies Record<string, SnippetText>;
