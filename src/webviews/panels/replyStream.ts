// A playground request sent and read as it streams, for the playground and the comparison alike: each
// piece of reasoning and text as it arrives, then the reply with its figures.
import * as vscode from 'vscode';
import type { CitedPage, LlmSpacesClient } from '../../api/client';
import type { ChatDraft, ReplyInfo } from '../../shared/protocol/playground';
import { replyInfo } from './playgroundData';

const t = vscode.l10n.t;

/** What a reply's pieces go to: `first` is true for the first piece of text. */
export interface ReplyPieces {
  delta(content: string, first: boolean): void;
  /** The model's reasoning as it comes, where the model and the service show it. */
  thinking?(content: string): void;
}

export async function streamReply(
  client: LlmSpacesClient,
  body: ChatDraft,
  signal: AbortSignal,
  on: ReplyPieces,
): Promise<ReplyInfo> {
  let content = '';
  const cited: CitedPage[] = [];
  let searchSuggestions: string | undefined;
  for await (const event of client.chatStream(body, signal)) {
    if (event.type === 'thinking') on.thinking?.(event.content);
    else if (event.type === 'sources') cited.push(...event.pages);
    else if (event.type === 'searchSuggestions') searchSuggestions = event.html;
    else if (event.type === 'delta') {
      on.delta(event.content, !content);
      content += event.content;
    } else if (event.type === 'done') {
      return replyInfo(content, event, cited, searchSuggestions);
    }
  }
  throw new Error(t('The reply ended without its figures.'));
}
