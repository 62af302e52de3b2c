// The playground chat panel, host side. The webview never sees a token: it asks, and the host calls
// the service, streams the reply back as `thinking` and `delta` events, and answers the call with the
// reply's figures.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { LlmSpacesClient } from '../../api/client';
import { isMissingEndpoint } from '../../api/errors';
import type { ReceiptView } from '../../shared/receipt';
import { estimatedReceipt } from '../../shared/clientEstimates';
import type { CompareStart } from '../../shared/protocol/compare';
import { rulesOf, type Handlers } from '../../shared/protocol/envelope';
import {
  ChatDraft,
  PlaygroundCalls,
  type ConversationBrief,
  type PlaygroundEvent,
  type PlaygroundResults,
  type ReplyInfo,
} from '../../shared/protocol/playground';
import { readAttachments } from '../panels/attachments';
import { applyCode } from './codeActions';
import { chatModelChoices, modelQuickPick as pickModel } from '../panels/modelQuickPick';
import { modelBrief, spaceBrief, turnsOf } from '../panels/playgroundData';
import { WebviewChannel, type ChannelDeps } from '../panels/webviewChannel';
import type { GuardDeps } from '../panels/budgetGuard';
import { StreamingPanel } from '../panels/streamingPanel';
import { webviewHtml } from '../panels/webviewShell';

const t = vscode.l10n.t;

type PlaygroundCallsT = typeof PlaygroundCalls;

/** What a playground works with. */
export interface PlaygroundDeps extends ChannelDeps, GuardDeps {
  /** Tells the walkthrough a step was done (src/walkthrough.ts). */
  reachedMilestone(milestone: 'replied'): void;
  /** Opens the comparison of models with this prompt. */
  compare(start: CompareStart): void;
}

export class PlaygroundPanel extends StreamingPanel {
  readonly channel: WebviewChannel<PlaygroundCallsT, PlaygroundResults, PlaygroundEvent>;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly s: PlaygroundDeps,
    extensionUri: vscode.Uri,
    /** The text editor that Insert at Cursor and Replace Selection act on. */
    private readonly lastEditor: () => vscode.TextEditor | undefined,
  ) {
    super(panel, extensionUri, s);
    this.channel = new WebviewChannel(panel.webview, PlaygroundCalls, this.handlers(), s, t('Playground'));
    panel.webview.html = webviewHtml(panel.webview, extensionUri, {
      script: 'playground',
      styles: ['markdown', 'playground'],
      title: t('Playground'),
    });
    this.disposables.push(
      this.channel,
      panel.onDidDispose(() => this.dispose()),
      // A key added or removed changes which models answer here: the page's list and warnings follow.
      s.catalogue.onDidReplace(
        () =>
          void s.catalogue
            .models()
            .then((models) =>
              this.channel.post({ type: 'models', models: models.filter((m) => m.is_chat).map(modelBrief) }),
            )
            .catch(() => undefined),
      ),
    );
  }

  protected reconnected(): void {
    void this.channel.post({ type: 'connected' });
  }

  /** Puts text into the prompt box (and picks the Space if the panel has none yet). */
  draft(prompt: string, appId: string | null): void {
    void this.channel.post({ type: 'draft', prompt, appId });
    this.panel.reveal(undefined, false);
  }

  useSpace(appId: string): void {
    void this.channel.post({ type: 'useSpace', appId });
  }

  useConversation(appId: string, conversation: { id: string; name: string }): void {
    void this.channel.post({ type: 'useConversation', appId, conversation });
    this.panel.reveal(undefined, false);
  }

  useModel(namespace: string): void {
    void this.channel.post({ type: 'useModel', namespace });
    this.panel.reveal(undefined, false);
  }

  /** Asks before a send that would pass the soft spending limit; replaceable in tests. */
  set askBudget(ask: (message: string) => Thenable<boolean>) {
    this.guard.ask = ask;
  }

  private async estimateReceipt(body: ChatDraft, reply: ReplyInfo): Promise<ReceiptView> {
    const [view, catalogue] = await Promise.all([this.s.spaces.detail(body.app_id), this.s.catalogue.models()]);
    return estimatedReceipt({
      view,
      catalogue,
      asked: body.model || null,
      answered: reply.namespace,
      usage: reply.usage,
      images: !!body.images?.length,
    });
  }

  /** A conversation for a first prompt; null where the service has none (replies then thread by parent request). */
  private async newConversation(appId: string, name: string): Promise<ConversationBrief | null> {
    const created = await this.s.connection
      .call((c) => c.createConversation(appId, { name }))
      .catch((error: unknown) => {
        if (isMissingEndpoint(error)) return null;
        throw error;
      });
    if (created) this.s.spaces.changedSpace(appId);
    return created && { id: created.id, name: created.name };
  }

  private handlers(): Handlers<PlaygroundCallsT, PlaygroundResults> {
    const call = <T>(fn: (c: LlmSpacesClient) => Promise<T>) => this.s.connection.call(fn);
    return {
      context: async () => {
        const [spaces, models] = await Promise.all([this.s.spaces.list(), this.s.catalogue.models()]);
        return {
          spaces: spaces.map((space) => ({ id: space.id, name: space.name ?? space.id })),
          models: models.filter((m) => m.is_chat).map(modelBrief),
          spacesListed: !this.s.spaces.listUnavailable,
          rules: rulesOf(ChatDraft),
          webSearch: this.s.connection.mode === 'local',
        };
      },
      space: async ({ appId }) => {
        const [view, assistants, conversations] = await Promise.all([
          this.s.spaces.detail(appId, true),
          this.s.spaces.assistants(appId),
          this.s.spaces.conversations(appId),
        ]);
        return spaceBrief(view, {
          assistants: (assistants ?? []).map((a) => ({
            id: a.id,
            name: a.name,
            versions: a.versions.map((v, i) => ({
              id: v.id,
              label: `${t('version {0}', i + 1)}${v.published ? ` · ${t('published')}` : ''}`,
            })),
          })),
          conversations: (conversations ?? []).filter((c) => !c.deleted_on).map((c) => ({ id: c.id, name: c.name })),
        });
      },
      costBand: ({ body }) => this.guard.costBand(body),
      send: async ({ body: draft, newConversation }, callId) => {
        await this.guard.check([draft], () => void this.channel.post({ type: 'stage', callId, stage: 'asking' }));
        // A conversation for the first prompt only once the send may go and the service would take it as
        // it is (not a model that cannot answer here, a file it cannot read): else it would stay empty.
        const made =
          newConversation &&
          !draft.conversation_id &&
          !(await this.guard.costBand(draft)).refused &&
          (await this.newConversation(draft.app_id, newConversation));
        if (made) void this.channel.post({ type: 'conversation', callId, appId: draft.app_id, conversation: made });
        const body = made ? { ...draft, conversation_id: made.id } : draft;
        void this.channel.post({ type: 'stage', callId, stage: 'sent' });
        const reply = await this.stream(callId, body, {
          delta: (content, first) =>
            void this.channel.post({
              type: 'delta',
              callId,
              content,
              at: first ? performance.timeOrigin + performance.now() : undefined,
            }),
          thinking: (content) => void this.channel.post({ type: 'thinking', callId, content }),
        });
        this.s.organization.recordReply(reply);
        this.s.reachedMilestone('replied');
        // A service that sends no receipt (the hosted one): the extension's own estimate, marked so.
        reply.routing ??= await this.estimateReceipt(body, reply).catch(() => null);
        return reply;
      },
      stop: async ({ callId }) => this.stop(callId),
      loadConversation: async ({ appId, conversationId }) => {
        const [conversation, view] = await Promise.all([
          call((c) => c.getConversation(appId, conversationId, true)),
          this.s.spaces.detail(appId),
        ]);
        const turns = turnsOf(conversation);
        const privacy = view.main.app.policies?.privacy_level ?? 1;
        const hidden = (conversation.requests?.length ?? 0) > turns.length;
        const notice =
          privacy >= 2 || hidden
            ? t(
                "Earlier turns of this conversation cannot be shown: this Space's privacy level keeps no prompt or reply text.",
              )
            : null;
        return { turns, notice };
      },
      renameConversation: async ({ appId, conversationId, name }) => {
        const updated = await call((c) => c.updateConversation(appId, conversationId, { name }));
        this.s.spaces.changedSpace(appId);
        return { id: updated.id, name: updated.name };
      },
      attach: async ({ kind }) => {
        const uris = await vscode.window.showOpenDialog({
          canSelectMany: true,
          openLabel: kind === 'images' ? t('Attach Images') : t('Attach Files'),
          filters: kind === 'images' ? { [t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] } : undefined,
        });
        return uris ? readAttachments(uris, kind) : [];
      },
      attachUris: async ({ kind, uris }) =>
        readAttachments(
          uris.map((u) => vscode.Uri.parse(u, true)),
          kind,
          true,
        ),
      codeAction: async ({ action, code }) => {
        await applyCode(action, code, this.lastEditor());
        return null;
      },
      pickModel: async ({ appId, current }) =>
        (await pickModel(await chatModelChoices(this.s, appId), current)) ?? null,
      compare: async (start) => {
        this.s.compare(start);
        return null;
      },
      openLink: async ({ href }) => {
        await vscode.env.openExternal(vscode.Uri.parse(href, true));
        return null;
      },
    };
  }
}
