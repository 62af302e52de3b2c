// Copy Space Endpoint for Other Tools…: what another tool needs to send through a Space (Continue,
// Cline, Claude Code, Codex CLI, aider, VS Code's Custom Endpoint, the OpenAI, Anthropic and AI SDKs), put on
// the clipboard. The Space's key goes in only after asking; otherwise a placeholder stands for it.
import * as vscode from 'vscode';
import { readSettings, setLocalServicePort } from '../settings';
import { autocompleteToSuggest, embeddingToSuggest } from '../shared/modelCatalog';
import type { Services } from '../services';
import type { SpaceNode } from '../views/spaceNodes';

const t = vscode.l10n.t;

/** The port the built-in service is given when another tool is to reach it across restarts. */
const SHARED_PORT = 8787;

interface Snippet {
  label: string;
  detail: string;
  /**
   * The text, given the /v1 base URL, the key, the Space's name (which lets the Space route), and the
   * models to suggest for embeddings and autocomplete (the built-in service's: undefined for a service
   * without embeddings, or with no model server's model for autocomplete).
   */
  text: (v1: string, key: string, space: string, suggested?: Suggested) => string;
}

/** Models a tool may use beside the Space for other work. */
interface Suggested {
  embedding?: Embedding;
  /**
   * A model server's model, which continues a code completion tool's prompt as it is, or a hosted model
   * that fills in the middle on its own API (`fim`).
   */
  autocomplete?: { model: string; fim: boolean };
}

/** An embedding model to suggest (modelCatalog.ts embeddingToSuggest), and whether it answers here now. */
interface Embedding {
  model: string;
  answers: boolean;
}

export const SNIPPETS: readonly Snippet[] = [
  {
    label: 'OpenAI SDK (Python, JavaScript)',
    detail: t('Chat Completions and the model list'),
    text: (v1, key, space) =>
      `# Python\nfrom openai import OpenAI\nclient = OpenAI(base_url="${v1}", api_key="${key}")\nclient.chat.completions.create(model="${space}", messages=[{"role": "user", "content": "Hello"}])\n\n// JavaScript\nimport OpenAI from 'openai';\nconst client = new OpenAI({ baseURL: '${v1}', apiKey: '${key}' });\nawait client.chat.completions.create({ model: '${space}', messages: [{ role: 'user', content: 'Hello' }] });\n`,
  },
  {
    label: 'AI SDK',
    detail: '@ai-sdk/openai-compatible',
    text: (v1, key, space) =>
      `import { createOpenAICompatible } from '@ai-sdk/openai-compatible';\nimport { generateText } from 'ai';\nconst spaces = createOpenAICompatible({ name: 'llm-spaces', baseURL: '${v1}', apiKey: '${key}', includeUsage: true });\nconst { text } = await generateText({ model: spaces('${space}'), prompt: 'Hello' });\n`,
  },
  {
    label: 'Claude Code',
    detail: t("Anthropic's Messages API"),
    text: (v1, key, space) =>
      `export ANTHROPIC_BASE_URL=${v1.replace(/\/v1$/, '')}\nexport ANTHROPIC_API_KEY=${key}\nexport ANTHROPIC_MODEL="${space}"\nclaude\n`,
  },
  {
    label: 'Anthropic SDK',
    detail: t("Anthropic's Messages API"),
    text: (v1, key, space) =>
      `import Anthropic from '@anthropic-ai/sdk';\nconst client = new Anthropic({ baseURL: '${v1.replace(/\/v1$/, '')}', apiKey: '${key}' });\nawait client.messages.create({ model: '${space}', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] });\n`,
  },
  {
    label: 'Continue',
    detail: t('a model in config.yaml'),
    text: (v1, key, space, { embedding, autocomplete } = {}) =>
      `models:\n  - name: ${space} (LLM Spaces)\n    provider: openai\n    model: ${space}\n    apiBase: ${v1}\n    apiKey: ${key}\n` +
      (embedding
        ? `  # Continue's codebase index, through the same Space${embedding.answers ? '' : ' (add your OpenAI key first: LLM Spaces: Add Provider Key…, or name local/nomic-embed-text from Ollama)'}\n  - name: Embeddings (LLM Spaces)\n    provider: openai\n    model: ${embedding.model}\n    apiBase: ${v1}\n    apiKey: ${key}\n    roles: [embed]\n`
        : '') +
      (autocomplete
        ? `  # Continue's autocomplete, through the same Space: ${autocomplete.fim ? "the model fills in the middle, sent the text after the cursor too (Mistral's request, which the Space takes)" : "a model server's model continues the code as it is"}\n  - name: Autocomplete (LLM Spaces)\n    provider: ${autocomplete.fim ? 'mistral' : 'openai'}\n    model: ${autocomplete.model}\n    apiBase: ${v1}\n    apiKey: ${key}\n    roles: [autocomplete]\n`
        : ''),
  },
  {
    label: 'Cline',
    detail: t('API Provider: OpenAI Compatible'),
    text: (v1, key, space) => `Base URL: ${v1}\nAPI Key: ${key}\nModel ID: ${space}\n`,
  },
  {
    label: 'aider',
    detail: t('OpenAI-compatible endpoint'),
    text: (v1, key, space) =>
      `export OPENAI_API_BASE=${v1}\nexport OPENAI_API_KEY=${key}\naider --model openai/${space}\n`,
  },
  {
    label: 'Codex CLI',
    detail: t('a provider in ~/.codex/config.toml'),
    text: (v1, key, space) =>
      `# ~/.codex/config.toml\nmodel = "${space}"\nmodel_provider = "llm-spaces"\n# Codex asks a model it does not know by name to reason only when told it can; the\n# Space gives the effort only to models that reason (and Claude's thinking back each turn).\nmodel_supports_reasoning_summaries = true\nmodel_reasoning_effort = "medium"\n\n[model_providers.llm-spaces]\nname = "LLM Spaces"\nbase_url = "${v1}"\nenv_key = "LLM_SPACES_KEY"\nwire_api = "responses"\n\n# and in the shell\nexport LLM_SPACES_KEY=${key}\n`,
  },
  {
    label: "VS Code's Custom Endpoint",
    detail: t('Chat Completions URL for a custom model'),
    text: (v1, key, space) => `URL: ${v1}/chat/completions\nAPI key: ${key}\nModel: ${space}\n`,
  },
  {
    label: 'curl',
    detail: t('one request'),
    text: (v1, key, space) =>
      `curl ${v1}/chat/completions \\\n  -H "Authorization: Bearer ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "${space}", "messages": [{"role": "user", "content": "Hello"}]}'\n`,
  },
];

export async function copySpaceEndpoint(s: Services, node?: unknown): Promise<void> {
  const space = await spaceOf(s, node);
  if (!space) return;
  const snippet = await vscode.window.showQuickPick(
    SNIPPETS.map((p) => ({ label: p.label, description: p.detail, snippet: p })),
    { title: t('Copy the endpoint of "{0}"', space.name), placeHolder: t('For which tool?') },
  );
  if (!snippet) return;
  if (s.connection.mode === 'local' && readSettings().localServicePort === 0 && !(await offerFixedPort())) return;
  await s.connection.client();
  const v1 = `${s.connection.url}/v1`;
  const key = await keyToInclude(s, space);
  if (key === undefined) return;
  let suggested: Suggested = {};
  if (s.connection.mode === 'local') {
    const [embeddings, models] = await Promise.all([
      s.connection.call((c) => c.listEmbeddingModels()).catch(() => []),
      s.catalogue.models().catch(() => []),
    ]);
    suggested = { embedding: embeddingToSuggest(embeddings), autocomplete: autocompleteToSuggest(models) };
  }
  await vscode.env.clipboard.writeText(snippet.snippet.text(v1, key, space.name, suggested));
  void vscode.window.showInformationMessage(
    key === PLACEHOLDER
      ? t(
          'The {0} settings for "{1}" are on the clipboard, with {2} where its key goes.',
          snippet.label,
          space.name,
          PLACEHOLDER,
        )
      : t(
          'The {0} settings for "{1}" are on the clipboard, with its key: keep them to yourself.',
          snippet.label,
          space.name,
        ),
  );
}

const PLACEHOLDER = '<your Space key>';

async function spaceOf(s: Services, node: unknown): Promise<{ id: string; name: string } | undefined> {
  const n = node as SpaceNode | undefined;
  if (n?.kind === 'space') return { id: n.space.id, name: n.space.name ?? n.space.id };
  const spaces = (await s.spaces.list()).filter((sp) => !sp.sandbox_of);
  const pick = await vscode.window.showQuickPick(
    spaces.map((sp) => ({ label: sp.name ?? sp.id, space: { id: sp.id, name: sp.name ?? sp.id } })),
    { title: t('Copy Space Endpoint for Other Tools'), placeHolder: t('Which Space should the tool send through?') },
  );
  return pick?.space;
}

/** A random port changes with every start; another tool needs one that stays. Answers whether to go on. */
async function offerFixedPort(): Promise<boolean> {
  const fix = t('Use Port {0}', SHARED_PORT);
  const once = t('Copy Anyway');
  const answer = await vscode.window.showInformationMessage(
    t(
      'The built-in service takes a free port at each start, so another tool would lose it after a restart. Give it port {0}? It restarts on it.',
      SHARED_PORT,
    ),
    { modal: true },
    fix,
    once,
  );
  if (answer === fix) await setLocalServicePort(SHARED_PORT);
  return answer !== undefined;
}

/** The Space's key, after asking; the placeholder when the user would rather paste it themselves. */
async function keyToInclude(s: Services, space: { id: string; name: string }): Promise<string | undefined> {
  const stored = await s.connection.spaceKey(space.id);
  const include = t('Include the Key');
  const renew = t('Make a New Key and Include It');
  const without = t('Leave a Placeholder');
  const answer = await vscode.window.showInformationMessage(
    t('Put the key of "{0}" on the clipboard too? Anyone with it can send through the Space.', space.name),
    {
      modal: true,
      detail: stored
        ? undefined
        : t('VS Code does not have its key; a new one replaces the old, which stops working at once.'),
    },
    ...(stored ? [include] : [renew]),
    without,
  );
  if (answer === undefined) return undefined;
  if (answer === without) return PLACEHOLDER;
  if (stored) return stored;
  const key = (await s.connection.call((c) => c.regenerateSpaceKey(space.id))).created_key;
  await s.connection.storeSpaceKey(space.id, key);
  return key;
}
