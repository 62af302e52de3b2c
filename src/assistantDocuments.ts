// An assistant version as a readable, read-only markdown document: llm-assistant:/<label>.md with the
// Space, assistant and version ids in the query, so the tab and the breadcrumbs read as the version.
import * as vscode from 'vscode';
import type { AssistantVersion } from './api/schemas';
import type { Connection } from './connection/connection';
import type { CatalogueStore } from './stores/catalogueStore';
import { whenLabel } from './shared/labels';

export const ASSISTANT_SCHEME = 'llm-assistant';

export const assistantVersionUri = (appId: string, assistantId: string, versionId: string, name = 'assistant') =>
  vscode.Uri.from({
    scheme: ASSISTANT_SCHEME,
    path: `/${name.replace(/[\\/]/g, ' ')}.md`,
    query: [appId, assistantId, versionId].join('/'),
  });

const when = (iso: string | null | undefined) => whenLabel(iso);

/** `model`: the namespace of the version's model, when the catalogue knows it. */
export function renderVersion(v: AssistantVersion, name: string, model?: string): string {
  const section = (title: string, text: string | null | undefined) => (text ? `## ${title}\n\n${text}\n` : '');
  return [
    `# ${name} (${v.published ? 'published' : 'draft'})`,
    '',
    `| | |`,
    `| --- | --- |`,
    `| Model | ${v.model_id ? (model ?? 'a model this catalogue does not list') : 'the Space decides'} |`,
    `| Temperature | ${v.temperature ?? 'the Space default'} |`,
    `| Max tokens | ${v.max_tokens ?? 'the Space default'} |`,
    `| Added | ${when(v.added_on)} |`,
    `| Modified | ${when(v.modified_on)} |`,
    '',
    section('Persona', v.persona),
    section('Instructions', v.instructions),
    section('Greeting', v.greeting),
    section('Writing style', v.writing_style),
    section('Sample interactions', v.sample_interactions),
  ].join('\n');
}

export class AssistantDocuments implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly connection: Connection,
    private readonly catalogue: CatalogueStore,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    // Documents restored from before the ids moved to the query have them as folders.
    const [appId, assistantId, versionId] = uri.query ? uri.query.split('/') : uri.path.split('/').slice(1);
    const version = await this.connection.call((c) => c.getAssistantVersion(appId!, assistantId!, versionId!));
    const model = version.model_id
      ? (await this.catalogue.models().catch(() => [])).find((m) => m.id === version.model_id)?.namespace
      : undefined;
    return renderVersion(version, (uri.path.split('/').pop() ?? '').replace(/\.md$/, ''), model);
  }
}
