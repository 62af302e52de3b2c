// Compare Models, host side: the same prompt sent to two to four models of a Space at once, each
// column streaming and stoppable on its own; then a model promoted in the Space (benchmark, failover
// position, only active model, weights), shown as a diff first and saved as the settings editor saves;
// and the comparison written as a markdown report in the workspace.
import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import { CompareCalls, type CompareEvent, type CompareResults, type CompareStart } from '../../shared/protocol/compare';
import type { Handlers } from '../../shared/protocol/envelope';
import type { ChatDraft, ReplyInfo } from '../../shared/protocol/playground';
import { modelBrief } from '../panels/playgroundData';
import { chatModelChoices, modelQuickPick } from '../panels/modelQuickPick';
import type { GuardDeps } from '../panels/budgetGuard';
import { StreamingPanel } from '../panels/streamingPanel';
import { compareSpace, planPromotion, type Plan } from './promotion';
import { compareReport, type ReportColumn } from './compareReport';
import { saveSpace } from '../panels/spaceSave';
import { WebviewChannel, type ChannelDeps } from '../panels/webviewChannel';
import { webviewHtml } from '../panels/webviewShell';

const t = vscode.l10n.t;

type CompareCallsT = typeof CompareCalls;

export interface CompareDeps extends ChannelDeps, GuardDeps {
  /** Opens a Space's settings editor. */
  openSettings(spaceId: string): void;
}

/** A column's request and what became of it, for the report. */
interface Run {
  body: ChatDraft & { model: string };
  /** The Space's benchmark model when it ran: its saving is counted against that one. */
  benchmark: string | null;
  text: string;
  reply: ReplyInfo | null;
  error: string | null;
}

/** Runs kept for a report: the last few comparisons. */
const KEPT_RUNS = 40;

export class ComparePanel extends StreamingPanel {
  readonly channel: WebviewChannel<CompareCallsT, CompareResults, CompareEvent>;
  private readonly runs = new Map<number, Run>();
  private readonly proposals = new Map<number, Plan & { spaceId: string; base: string | null }>();
  private nextProposal = 0;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly s: CompareDeps,
    extensionUri: vscode.Uri,
    private start: CompareStart | null,
  ) {
    super(panel, extensionUri, s);
    this.channel = new WebviewChannel(panel.webview, CompareCalls, this.handlers(), s, t('Compare Models'));
    panel.webview.html = webviewHtml(panel.webview, extensionUri, {
      script: 'compare',
      styles: ['markdown', 'compare'],
      title: t('Compare Models'),
    });
    this.disposables.push(
      this.channel,
      panel.onDidDispose(() => this.dispose()),
    );
  }

  protected reconnected(): void {
    void this.channel.post({ type: 'connected' });
  }

  /** Brings new models or a prompt to the open comparison. */
  show(start: CompareStart): void {
    this.start = start;
    void this.channel.post({ type: 'start', start });
    this.panel.reveal(undefined, false);
  }

  /** The plan of a promotion against the Space as it is now, and the version it was made on. */
  private async planFor(appId: string, ask: Parameters<typeof planPromotion>[2]) {
    const [view, models] = await Promise.all([this.s.spaces.detail(appId, true), this.s.catalogue.models()]);
    return { plan: planPromotion(view, models, ask), base: view.main.app.modified_on ?? null };
  }

  private handlers(): Handlers<CompareCallsT, CompareResults> {
    return {
      context: async () => {
        const [spaces, models] = await Promise.all([this.s.spaces.list(), this.s.catalogue.models()]);
        const start = this.start;
        this.start = null;
        return {
          spaces: spaces.map((space) => ({ id: space.id, name: space.name ?? space.id })),
          models: models.filter((m) => m.is_chat).map(modelBrief),
          start,
        };
      },
      space: async ({ appId }) =>
        compareSpace(await this.s.spaces.detail(appId, true), await this.s.catalogue.models()),
      guard: async ({ bodies }) => {
        await this.guard.check(bodies);
        return null;
      },
      run: async ({ body }, callId) => {
        const view = await this.s.spaces.detail(body.app_id).catch(() => undefined);
        const run: Run = {
          body,
          benchmark: view ? compareSpace(view, await this.s.catalogue.models()).benchmark : null,
          text: '',
          reply: null,
          error: null,
        };
        this.keep(callId, run);
        try {
          // Columns compare replies side by side; a model's reasoning is not shown there.
          run.reply = await this.stream(callId, body, {
            delta: (content) => {
              run.text += content;
              void this.channel.post({ type: 'delta', callId, content });
            },
          });
          this.s.organization.recordReply(run.reply);
          return run.reply;
        } catch (error) {
          run.error =
            error instanceof ApiError && error.kind === 'cancelled'
              ? t('Stopped.')
              : this.s.errors.describe(error, body.model).message;
          throw error;
        }
      },
      stop: async ({ callId }) => this.stop(callId),
      pickModel: async ({ appId, current }) =>
        (await modelQuickPick(await chatModelChoices(this.s, appId, current), '', false)) || null,
      propose: async ({ appId, ...ask }) => {
        const { plan, base } = await this.planFor(appId, ask);
        const id = this.nextProposal++;
        this.proposals.set(id, { ...plan, spaceId: appId, base });
        return { id, title: plan.title, rows: plan.rows, note: plan.note };
      },
      promote: async ({ proposalId }) => {
        const plan = this.proposals.get(proposalId);
        if (!plan) throw new Error(t('These changes were already saved or are out of date; show them again.'));
        this.proposals.delete(proposalId);
        const name = (await this.s.spaces.detail(plan.spaceId)).main.app.name ?? t('the Space');
        // The settings editor's own save: checked, refused without permission, never over a change made elsewhere.
        await saveSpace(
          this.s.spaces,
          { spaceId: plan.spaceId, name, base: plan.base, changes: plan.changes },
          async () => 'cancel',
        ).catch((error: unknown) => {
          if (error instanceof vscode.CancellationError)
            throw new Error(
              t(
                'Not saved: "{0}" was changed elsewhere since these changes were shown. Show them again to see them against the Space as it is now.',
                name,
              ),
            );
          throw error;
        });
        for (const toggle of plan.toggles)
          await this.s.spaces.toggleModel(plan.spaceId, toggle.settingId, toggle.enable);
        const now = compareSpace(await this.s.spaces.detail(plan.spaceId, true), await this.s.catalogue.models());
        // A service may keep its own failover order (the hosted one takes no order): say what it kept.
        if (plan.chain && plan.chain.join() !== now.failover.join()) {
          return {
            message: t(
              'Saved, but the service kept its own failover chain: {0}.',
              now.failover.join(' → ') || t('empty'),
            ),
            space: now,
          };
        }
        return { message: t('Saved to "{0}". {1}', name, plan.done), space: now };
      },
      report: async ({ callIds }) => {
        const columns: ReportColumn[] = callIds.flatMap((id) => this.runs.get(id) ?? []);
        if (columns.length === 0) throw new Error(t('Nothing to report yet: compare first.'));
        const first = columns[0]!;
        const space = await this.s.spaces.detail(first.body.app_id).catch(() => undefined);
        return this.writeReport(
          compareReport({
            spaceName: space?.main.app.name ?? first.body.app_id,
            benchmark: first.benchmark,
            prompt: first.body.prompt,
            columns,
            when: new Date(),
          }),
        );
      },
      openSettings: async ({ appId }) => {
        this.s.openSettings(appId);
        return null;
      },
    };
  }

  private keep(callId: number, run: Run): void {
    this.runs.set(callId, run);
    for (const id of this.runs.keys()) {
      if (this.runs.size <= KEPT_RUNS) break;
      this.runs.delete(id);
    }
  }

  /** Writes the report under the first workspace folder (or opens it unsaved without one); answers where. */
  private async writeReport(text: string): Promise<string> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
      return t('an unsaved report');
    }
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const uri = vscode.Uri.joinPath(folder.uri, 'llm-spaces-reports', `compare-${stamp}.md`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return vscode.workspace.asRelativePath(uri, false);
  }
}
