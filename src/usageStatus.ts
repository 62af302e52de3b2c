// Status bar item: connection state and this cycle's spend against the soft and hard limits, rendered
// from the organization store (which moves on with every reply).
import * as vscode from 'vscode';
import type { Connection, ConnectionState } from './connection/connection';
import { money } from './shared/money';
import { billingCycleLabel, planLabel, spacesPlanLabel, subscriptionStatusLabel, whenLabel } from './shared/labels';
import type { OrganizationStore } from './stores/organizationStore';

export class UsageStatus implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('llmSpaces.usage', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly store: OrganizationStore,
  ) {
    this.item.name = vscode.l10n.t('LLM Spaces usage');
    this.item.command = 'llmSpaces.showUsage';
    this.disposables.push(
      this.item,
      connection.onDidChangeState((state) => this.render(state)),
      store.onDidChange(() => this.render(connection.state)),
    );
    this.render(connection.state);
    this.item.show();
  }

  private render(state: ConnectionState): void {
    const where = state.mode === 'local' ? vscode.l10n.t('built-in service') : (state.url ?? '');
    this.item.backgroundColor = undefined;
    switch (state.kind) {
      case 'connecting':
        this.item.text = `$(sync~spin) LLM Spaces`;
        this.item.tooltip = vscode.l10n.t('Connecting to the {0}…', where);
        return;
      case 'signed-out':
        this.item.text = `$(account) LLM Spaces: ${vscode.l10n.t('sign in')}`;
        this.item.tooltip = vscode.l10n.t('Not signed in to {0}', where);
        this.item.command = 'llmSpaces.signIn';
        return;
      case 'unreachable':
        this.item.text = `$(debug-disconnect) LLM Spaces`;
        this.item.tooltip = state.message;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        return;
      case 'ready': {
        this.item.command = 'llmSpaces.showUsage';
        const org = this.store.organization;
        if (!org) {
          this.item.text = `$(cloud) LLM Spaces`;
          this.item.tooltip = vscode.l10n.t('Connected to the {0}', where);
          return;
        }
        const spent = org.total_tokens_cost;
        const hard = org.spending_limit_hard ?? 0;
        const soft = org.spending_limit_soft ?? 0;
        this.item.text = `$(cloud) ${money(spent)}${hard ? ` / ${money(hard)}` : ''}`;
        this.item.tooltip = vscode.l10n.t(
          '{0}: {1} spent this cycle (soft limit {2}, hard limit {3}). Click for usage.',
          where,
          money(spent),
          money(soft),
          money(hard),
        );
        if (hard && spent >= hard) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        else if (soft && spent >= soft)
          this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      }
    }
  }

  /** A quick view of the organization's usage, subscription and limits. */
  async showUsage(): Promise<void> {
    const org = await this.store.refresh();
    if (!org) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This service does not share organization usage.'));
      return;
    }
    const items: vscode.QuickPickItem[] = [
      { label: vscode.l10n.t('Tokens'), kind: vscode.QuickPickItemKind.Separator },
      {
        label: `$(symbol-number) ${org.total_tokens.toLocaleString('en-US')} tokens`,
        description: `${org.prompt_tokens.toLocaleString('en-US')} prompt · ${org.completion_tokens.toLocaleString('en-US')} completion`,
      },
      { label: vscode.l10n.t('Costs'), kind: vscode.QuickPickItemKind.Separator },
      {
        label: `$(credit-card) ${money(org.total_tokens_cost)} spent`,
        description: `${money(org.prompt_tokens_cost)} prompt · ${money(org.completion_tokens_cost)} completion`,
      },
      {
        label: `$(graph) ${money(org.total_tokens_cost_savings)} saved`,
        description: vscode.l10n.t('against the benchmark models'),
      },
      { label: `$(pulse) ${org.num_requests} requests`, description: vscode.l10n.t('this cycle') },
      { label: vscode.l10n.t('Subscription'), kind: vscode.QuickPickItemKind.Separator },
      {
        label: `$(star) ${vscode.l10n.t('Plan: {0} · Spaces: {1}', planLabel(org.subscription_tier), spacesPlanLabel(org.spaces_subscription_tier))}`,
        description: [
          subscriptionStatusLabel(org.spaces_subscription_status),
          billingCycleLabel(org.subscription_cycle),
          ...seatsOf(org.spaces_subscription_seats),
        ].join(' · '),
      },
      {
        label: `$(warning) ${vscode.l10n.t('Limits')}: ${money(org.spending_limit_soft)} soft · ${money(org.spending_limit_hard)} hard`,
        description: `${vscode.l10n.t('rate limit')} ${org.rate_limit}/min`,
      },
    ];
    if (org.trial_end)
      items.push({
        label: `$(clock) ${vscode.l10n.t('Trial ends {0}', whenLabel(org.trial_end * 1000, false))}`,
      });
    if (org.subscription_pause_reason)
      items.push({
        label: `$(error) ${org.subscription_pause_reason.invoices.length === 1 ? vscode.l10n.t('Paused: 1 unpaid invoice') : vscode.l10n.t('Paused: {0} unpaid invoices', org.subscription_pause_reason.invoices.length)}`,
      });
    await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('LLM Spaces usage — {0}', org.org_display_name ?? org.org_name),
      placeHolder: vscode.l10n.t('Usage this cycle'),
    });
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/** How many seats, in words; nothing when the service does not say. */
const seatsOf = (seats: number | null | undefined): string[] =>
  seats == null ? [] : [seats === 1 ? vscode.l10n.t('1 seat') : vscode.l10n.t('{0} seats', seats)];
