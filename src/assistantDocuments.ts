// An assistant version as a readable, read-only markdown document (llm-assistant:/<app>/<assistant>/<version>.md).
import * as vscode from 'vscode';
import type { AssistantVersion } from './api/schemas';
import type { Connection } from './connection/connection';

export const ASSISTANT_SCHEME = 'llm-assistant';

export const assistantVersionUri = (appId: string, assistantId: string, versionId: string, name = 'assistant') =>
  vscode.Uri.from({ scheme: ASSISTANT_SCHEME, path: `/${appId}/${assistantId}/${versionId}/${name.replace(/[\\/]/g, ' ')}.md` });

export function renderVersion(v: AssistantVersion, name: string): string {
  const section = (title: string, text: string | null | undefined) => (text ? `## ${title}\n\n${text}\n` : '');
  return [
    `# ${name} — ${v.published ? 'published' : 'draft'} version`,
    '',
    `| field | value |`,
    `| --- | --- |`,
    `| version | \`${v.id}\` |`,
    `| assistant | \`${v.assistant_id}\` |`,
    `| model | ${v.model_id ?? 'the Space decides'} |`,
    `| temperature | ${v.temperature ?? 'default'} |`,
    `| max tokens | ${v.max_tokens ?? 'default'} |`,
    `| author | ${v.identity_id ?? '—'} |`,
    `| added / modified | ${v.added_on} / ${v.modified_on} |`,
    '',
    section('Persona', v.persona),
    section('Instructions', v.instructions),
    section('Greeting', v.greeting),
    section('Writing style', v.writing_style),
    section('Sample interactions', v.sample_interactions),
  ].join('\n');
}

export class AssistantDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly connection: Connection) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [, appId, assistantId, versionId, file] = uri.path.split('/');
    const version = await this.connection.call((c) => c.getAssistantVersion(appId!, assistantId!, versionId!));
    return renderVersion(version, decodeURIComponent(file ?? '').replace(/\.md$/, ''));
  }
}
