// Files the playground attaches, read by the host and sent as data URLs.
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/protocol/playground';

const MAX_BYTES = 10 * 1024 * 1024;
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  json: 'application/json',
  pdf: 'application/pdf',
  csv: 'text/csv',
  md: 'text/markdown',
  html: 'text/html',
  xml: 'application/xml',
};

export const mediaTypeOf = (name: string) => TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'text/plain';

/**
 * Reads the chosen files. Images must be images. With `workspaceOnly` (uris that came from the webview,
 * as a drop), a file outside the open folders is refused: the webview may only name what the user dragged.
 */
export async function readAttachments(
  uris: vscode.Uri[],
  kind: 'images' | 'files',
  workspaceOnly = false,
): Promise<Attachment[]> {
  const attachments: Attachment[] = [];
  for (const uri of uris) {
    const name = uri.path.split('/').pop() ?? uri.path;
    if (workspaceOnly && !vscode.workspace.getWorkspaceFolder(uri))
      throw new Error(vscode.l10n.t('{0} is not in the workspace; attach it with the Attach button instead.', name));
    const type = mediaTypeOf(name);
    if (kind === 'images' && (!type.startsWith('image/') || type === 'image/svg+xml'))
      throw new Error(vscode.l10n.t('{0} is not a PNG, JPEG, GIF or WebP image.', name));
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > MAX_BYTES) throw new Error(vscode.l10n.t('{0} is larger than 10 MB.', name));
    const bytes = await vscode.workspace.fs.readFile(uri);
    attachments.push({ name, size, dataUrl: `data:${type};base64,${Buffer.from(bytes).toString('base64')}` });
  }
  return attachments;
}
