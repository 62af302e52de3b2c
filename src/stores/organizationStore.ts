// The organization: usage, cost and limits this cycle, and its integrations. Read when the connection
// is ready and on a timer, and moved on at once from each reply's own figures.
import * as vscode from 'vscode';
import { isMissingEndpoint } from '../api/errors';
import type { IntegrationsBody, Organization, Usage } from '../api/schemas';
import type { Connection } from '../connection/connection';

const REFRESH_MS = 5 * 60_000;
/** After a reply, the service's own figures are read again once this much quiet has passed. */
const SETTLE_MS = 2_000;

/** What a reply cost, as its metadata says. */
export interface ReplyFigures {
  usage: Usage;
  costs: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  savings: { total_tokens: number };
}

export class OrganizationStore implements vscode.Disposable {
  private org: Organization | undefined;
  /** Set when the service does not share the organization (no GET /v1/orgs/self). */
  unavailable: unknown;
  private readonly changed = new vscode.EventEmitter<Organization | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly timer: NodeJS.Timeout;
  private settle: NodeJS.Timeout | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connection: Connection) {
    // Ready (perhaps at another service): read it. Signed out: the organization known is no longer one
    // this window may see.
    this.subscription = connection.onDidChangeState((state) => {
      if (state.kind === 'ready') void this.refresh().catch(() => undefined);
      else if (state.kind === 'signed-out' && this.org) this.set(undefined);
    });
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), REFRESH_MS);
  }

  get organization(): Organization | undefined {
    return this.org;
  }

  /** Reads the organization from the service. A service without the endpoint leaves it undefined. */
  async refresh(): Promise<Organization | undefined> {
    try {
      this.set(await this.connection.call((c) => c.getOrganization()));
      this.unavailable = undefined;
    } catch (error) {
      if (!isMissingEndpoint(error)) {
        this.set(undefined);
        throw error;
      }
      this.unavailable = error;
    }
    return this.org;
  }

  async updateIntegrations(body: IntegrationsBody): Promise<Organization> {
    const org = await this.connection.call((c) => c.updateIntegrations(body));
    this.set(org);
    return org;
  }

  /** A reply came back: its cost and tokens count now; the service's figures follow shortly. */
  recordReply(reply: ReplyFigures): void {
    const org = this.org;
    if (org) {
      this.set({
        ...org,
        prompt_tokens: org.prompt_tokens + reply.usage.prompt_tokens,
        completion_tokens: org.completion_tokens + reply.usage.completion_tokens,
        total_tokens: org.total_tokens + reply.usage.total_tokens,
        prompt_tokens_cost: org.prompt_tokens_cost + reply.costs.prompt_tokens,
        completion_tokens_cost: org.completion_tokens_cost + reply.costs.completion_tokens,
        total_tokens_cost: org.total_tokens_cost + reply.costs.total_tokens,
        total_tokens_cost_savings: org.total_tokens_cost_savings + reply.savings.total_tokens,
        num_requests: org.num_requests + 1,
      });
    }
    clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.refresh().catch(() => undefined), SETTLE_MS);
  }

  private set(org: Organization | undefined): void {
    this.org = org;
    this.changed.fire(org);
  }

  dispose(): void {
    clearInterval(this.timer);
    clearTimeout(this.settle);
    this.subscription.dispose();
    this.changed.dispose();
  }
}
