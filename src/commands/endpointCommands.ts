// Copy Space Endpoint for Other Tools…: what another tool needs to send through a Space (Continue,
// Cline, Claude Code, Codex CLI, aider, VS Code's Custom Endpoint, the OpenAI, Anthropic and AI SDKs), put on
// the clipboard. The Space's key goes in only after asking; otherwise a placeholder stands for it.
import * as vscode from 'vscode';
import type { ModelRecord } from '../api/schemas';
import { candidatesOf } from '../chat/spaceModels';
import { readSettings, setLocalServicePort } from '../settings';
import { autocompleteToSuggest, embeddingToSuggest } from '../shared/modelCatalog';
import { SNIPPET_TEXTS, type SnippetText, type Suggested } from '../shared/toolSnippets';
import type { Services } from '../services';
import type { SpaceNode } from '../views/spaceNodes';

const t = vscode.l10n.t;

/** The port the built-in service is given when another tool is to reach it across restarts. */
const SHARED_PORT = 8787;

interface Snippet {
  label: string;
  detail: string;
  text: SnippetText;
}

export const SNIPPETS: readonly Snippet[] = [
  {
    label: 'OpenAI SDK (Python, JavaScript)',
    detail: t('Chat Completions, Responses, conversations and the model list'),
    text: SNIPPET_TEXTS.openaiSdk,
  },
  { label: 'AI SDK', detail: '@ai-sdk/openai-compatible', text: SNIPPET_TEXTS.aiSdk },
  { label: 'Claude Code', detail: t("Anthropic's Messages API"), text: SNIPPET_TEXTS.claudeCode },
  { label: 'Anthropic SDK', detail: t("Anthropic's Messages API"), text: SNIPPET_TEXTS.anthropicSdk },
  { label: 'Continue', detail: t('a model in config.yaml'), text: SNIPPET_TEXTS.continue },
  { label: 'Cline', detail: t('API Provider: OpenAI Compatible'), text: SNIPPET_TEXTS.cline },
  { label: 'aider', detail: t('OpenAI-compatible endpoint'), text: SNIPPET_TEXTS.aider },
  { label: 'Codex CLI', detail: t('a provider in ~/.codex/config.toml'), text: SNIPPET_TEXTS.codex },
  {
    label: "VS Code's Custom Endpoint",
    detail: t('Chat Completions URL for a custom model'),
    text: SNIPPET_TEXTS.customEndpoint,
  },
  { label: 'curl', detail: t('one request'), text: SNIPPET_TEXTS.curl },
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
  const models = await s.catalogue.models().catch(() => []);
  let suggested: Suggested = { contextWindow: await contextWindowOf(s, space.id, models) };
  if (s.connection.mode === 'local') {
    const embeddings = await s.connection.call((c) => c.listEmbeddingModels()).catch(() => []);
    suggested = {
      ...suggested,
      embedding: embeddingToSuggest(embeddings),
      autocomplete: autocompleteToSuggest(models),
    };
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

/** The smallest context window of the Space's active models, or none when no window of them is known. */
async function contextWindowOf(s: Services, spaceId: string, models: ModelRecord[]): Promise<number | undefined> {
  const view = await s.spaces.detail(spaceId).catch(() => undefined);
  if (!view) return undefined;
  const windows = candidatesOf(view, new Map(models.map((m) => [m.namespace, m])))
    .map((m) => m.context_window)
    .filter((w) => w > 0);
  return windows.length ? Math.min(...windows) : undefined;
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
