// Markdown for the views' tooltips with the command links of the model card (add a key, refresh the
// local models, connect, get started) working: a tooltip's links are plain text unless trusted.
import * as vscode from 'vscode';
import { LINKED_COMMANDS } from '../shared/modelCatalog';

export function linkedMarkdown(text: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(text, true);
  markdown.isTrusted = { enabledCommands: LINKED_COMMANDS };
  return markdown;
}
