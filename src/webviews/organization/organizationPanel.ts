// The organization panel, host side: usage and cost this cycle, the subscription, and the observability
// integrations. Integration tokens are masked before anything reaches the webview; a group saved with
// an empty token keeps the one the service has.
import * as vscode from 'vscode';
import type { Organization } from '../../api/schemas';
import { maskSecret } from '../../shared/secrets';
import type { Connection } from '../../connection/connection';
import type { OrganizationStore } from '../../stores/organizationStore';
import { rulesOf, type Handlers } from '../../shared/protocol/envelope';
import {
  IntegrationGroup,
  OrganizationCalls,
  type OrganizationData,
  type OrganizationEvent,
  type OrganizationResults,
} from '../../shared/protocol/organization';
import { WebviewChannel, type ChannelDeps } from '../panels/webviewChannel';
import { PanelHost } from '../panels/panelHost';
import { webviewHtml } from '../panels/webviewShell';

const t = vscode.l10n.t;

type OrgCallsT = typeof OrganizationCalls;

/** What the organization panel works with. */
export interface OrganizationDeps extends ChannelDeps {
  organization: OrganizationStore;
  connection: Pick<Connection, 'mode'>;
}

const masked = (org: Organization): OrganizationData['org'] => ({
  ...org,
  metrics_token: org.metrics_token ? maskSecret(org.metrics_token) : null,
  logs_token: org.logs_token ? maskSecret(org.logs_token) : null,
});

export class OrganizationPanel extends PanelHost {
  readonly channel: WebviewChannel<OrgCallsT, OrganizationResults, OrganizationEvent>;
  /** The last record read, with its real tokens (they stay here, in the host). */
  private org: Organization | undefined;
  /** Reads of the panel's own under way (their answer goes to the page; no reload is needed). */
  private reading = 0;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly s: OrganizationDeps,
    extensionUri: vscode.Uri,
  ) {
    super(panel, extensionUri);
    this.channel = new WebviewChannel(panel.webview, OrganizationCalls, this.handlers(), s, t('Organization'));
    panel.webview.html = webviewHtml(panel.webview, extensionUri, {
      script: 'organization',
      styles: ['organization'],
      title: panel.title,
    });
    this.disposables.push(
      this.channel,
      panel.onDidDispose(() => this.dispose()),
      // Spend changes with every chat; show it fresh when the panel comes back into view.
      panel.onDidChangeViewState((e) => e.webviewPanel.visible && void this.channel.post({ type: 'reload' })),
      // The organization changed elsewhere (a command, a reply's spend, another service, signing out):
      // the panel follows, so it never shows an organization that is no longer the one in use.
      s.organization.onDidChange((org) => {
        // Gone (signed out, another service): whatever the page shows or is being sent goes, at once.
        if (!org && (this.org || this.reading > 0)) {
          this.org = undefined;
          void this.channel.post({ type: 'reload' });
        }
        // Changed: unless a read of the panel's own is already on its way to the page.
        else if (org && this.reading === 0 && JSON.stringify(org) !== JSON.stringify(this.org ?? null))
          void this.channel.post({ type: 'reload' });
      }),
    );
  }

  private handlers(): Handlers<OrgCallsT, OrganizationResults> {
    return {
      load: () => this.load(),
      saveIntegration: async ({ group, value }) => {
        let body;
        if (value) {
          const token = value.token.trim() || this.org?.[`${group}_token`];
          if (!token) throw new Error(t('The {0} group needs a token the first time it is set.', group));
          body = { [group]: { id: value.id, endpoint: value.endpoint, token } };
        } else {
          body = { [group]: null };
        }
        this.org = await this.s.organization.updateIntegrations(body);
        return this.data(this.org, null);
      },
      openLink: async ({ href }) => {
        await vscode.env.openExternal(vscode.Uri.parse(href, true));
        return null;
      },
    };
  }

  /** What the page is given: the organization (its tokens masked), or why there is none. */
  private data(org: Organization | undefined, unavailable: string | null): OrganizationData {
    return {
      org: org ? masked(org) : null,
      unavailable,
      rules: rulesOf(IntegrationGroup),
      builtIn: this.s.connection.mode === 'local',
    };
  }

  private async load(): Promise<OrganizationData> {
    let org: Organization | undefined;
    this.reading++;
    try {
      org = await this.s.organization.refresh();
    } catch (error) {
      // Signed out, or nothing answers: nothing of the organization shown before stays.
      this.org = undefined;
      throw error;
    } finally {
      this.reading--;
    }
    if (org) {
      this.org = org;
      return this.data(org, null);
    }
    // A remote service without GET /v1/orgs/self: the integrations can still be set.
    return this.data(
      this.org,
      this.s.errors.describe(this.s.organization.unavailable, t('Reading the organization')).message,
    );
  }
}
