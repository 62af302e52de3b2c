// A playground request sent and read as it streams, for the playground and the comparison alike: each
// piece of text as it arrives, then the reply with its figures.
import * as vscode from 'vscode';
import type { LlmSpacesClient } from '../../api/client';
import type { ChatDraft, ReplyInfo } from '../../shared/protocol/playground';
import { replyInfo } from './playgroundData';

const t = vscode.l10n.t;

/** `first` is true for the first piece of text. */
export async function streamReply(
  client: LlmSpacesClient,
  body: ChatDraft,
  signal: AbortSignal,
  onDelta: (content: string, first: boolean) => void,
): Promise<ReplyInfo> {
  let content = '';
  for await (const event of client.chatStream(body, signal)) {
    if (event.type === 'delta') {
      onDelta(event.content, !content);
      content += event.content;
    } else if (event.type === 'done') {
      return replyInfo(content, event);
    }
  }
  throw new Error(t('The reply ended without its figures.'));
}
