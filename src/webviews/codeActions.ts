// What a code block's buttons in the playground do: copy, insert at the cursor, replace the selection.
import * as vscode from 'vscode';

export async function applyCode(action: 'copy' | 'insert' | 'replace', code: string, editor: vscode.TextEditor | undefined): Promise<void> {
  if (action === 'copy') {
    await vscode.env.clipboard.writeText(code);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Code copied'), 3000);
    return;
  }
  if (!editor || editor.document.isClosed) throw new Error(vscode.l10n.t('Open a text editor first: the code goes where its cursor is.'));
  const applied = await editor.edit((edit) => {
    for (const selection of editor.selections) {
      if (action === 'insert') edit.insert(selection.active, code);
      else edit.replace(selection, code);
    }
  });
  if (!applied) throw new Error(vscode.l10n.t('The editor did not accept the change.'));
  await vscode.window.showTextDocument(editor.document, editor.viewColumn);
}
