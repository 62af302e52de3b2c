// What the panels that send chat requests share (the playground and the comparison): the spending
// limits checked before sending, replies streamed with one stop per request, every stream stopped when
// the panel closes, and a fresh start when the service is reachable again.
import type * as vscode from 'vscode';
import type { ChatDraft, ReplyInfo } from '../../shared/protocol/playground';
import { BudgetGuard, type GuardDeps } from './budgetGuard';
import { PanelHost } from './panelHost';
import { streamReply, type ReplyPieces } from './replyStream';

export abstract class StreamingPanel extends PanelHost {
  private readonly running = new Map<number, AbortController>();
  /** The spending limits, checked before each send. */
  readonly guard: BudgetGuard;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly deps: GuardDeps,
  ) {
    super(panel, extensionUri);
    this.guard = new BudgetGuard(deps);
    this.disposables.push(
      { dispose: () => this.running.forEach((abort) => abort.abort()) },
      deps.connection.onDidChangeState((state) => {
        if (state.kind !== 'ready') return;
        this.guard.reconnected();
        this.reconnected();
      }),
    );
  }

  /** The service is reachable (again, or another one): the page reads what it shows afresh. */
  protected abstract reconnected(): void;

  /** Sends a request as call `callId` and streams its reply; `stop(callId)` ends it. */
  protected async stream(callId: number, body: ChatDraft, on: ReplyPieces): Promise<ReplyInfo> {
    const abort = new AbortController();
    this.running.set(callId, abort);
    try {
      return await this.deps.connection.call((c) => streamReply(c, body, abort.signal, on));
    } finally {
      this.running.delete(callId);
    }
  }

  protected stop(callId: number): null {
    this.running.get(callId)?.abort();
    return null;
  }
}
