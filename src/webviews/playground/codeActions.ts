// What a code block's buttons in the playground do: copy, insert at the cursor, replace the selection.
// The code goes to the last text editor's document at that editor's last cursors, through a workspace
// edit: that editor may be hidden behind the playground in the same group, where VS Code no longer
// lets it be edited. The document is then shown beside the playground, so the change is seen.
import * as vscode from 'vscode';

const t = vscode.l10n.t;

export async function applyCode(
  action: 'copy' | 'insert' | 'replace',
  code: string,
  editor: vscode.TextEditor | undefined,
): Promise<void> {
  if (action === 'copy') {
    await vscode.env.clipboard.writeText(code);
    vscode.window.setStatusBarMessage(t('Code copied'), 3000);
    return;
  }
  if (!editor) throw new Error(t('Open a text editor first: the code goes where its cursor is.'));
  // A closed file opens again (the cursors are remembered); a closed untitled one is gone.
  const document = editor.document.isClosed ? await reopen(editor.document.uri) : editor.document;
  const edit = new vscode.WorkspaceEdit();
  for (const selection of editor.selections) {
    if (action === 'insert') edit.insert(document.uri, document.validatePosition(selection.active), code);
    else edit.replace(document.uri, document.validateRange(selection), code);
  }
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(
      t('{0} did not accept the change (it may be read-only).', vscode.workspace.asRelativePath(document.uri)),
    );
  if (!vscode.window.visibleTextEditors.some((e) => e.document === document)) {
    await vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: false,
    });
  }
}

async function reopen(uri: vscode.Uri): Promise<vscode.TextDocument> {
  if (uri.scheme === 'untitled')
    throw new Error(
      t('The editor the code was meant for is closed. Open a text editor first: the code goes where its cursor is.'),
    );
  return vscode.workspace.openTextDocument(uri);
}
