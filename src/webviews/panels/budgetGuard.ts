// The organization's spending limits before a request is sent, from the playground or a comparison:
// the request's cost band (the service's route preview, or the extension's estimate where the service
// has none), then past the hard limit the request is refused, past the soft one the user is asked
// first. Both name the limit and what is spent this cycle.
import * as vscode from 'vscode';
import type { Connection } from '../../connection/connection';
import type { CatalogueStore } from '../../stores/catalogueStore';
import type { OrganizationStore } from '../../stores/organizationStore';
import type { SpacesStore } from '../../stores/spacesStore';
import { isMissingEndpoint, ValidationError } from '../../api/errors';
import { dataUrlType } from '../../shared/attachedText';
import { budgetVerdict } from '../../shared/budget';
import { estimatedBand } from '../../shared/clientEstimates';
import { money } from '../../shared/money';
import type { BandAnswer, ChatDraft } from '../../shared/protocol/playground';
import { Declined } from '../../shared/declined';

const t = vscode.l10n.t;

export interface GuardDeps {
  connection: Connection;
  organization: OrganizationStore;
  spaces: SpacesStore;
  catalogue: CatalogueStore;
}

export class BudgetGuard {
  /** The service answered that it has no route preview (the hosted one): asked again after a reconnect. */
  private noRoutePreview = false;

  /** Asks before a send that would pass the soft spending limit; replaceable in tests. */
  ask: (message: string) => Thenable<boolean> = async (message) => {
    const send = t('Send Anyway');
    return (await vscode.window.showWarningMessage(message, { modal: true }, send)) === send;
  };

  constructor(private readonly s: GuardDeps) {}

  /** The service is reachable again (or another one is): its route preview is asked for again. */
  reconnected(): void {
    this.noRoutePreview = false;
  }

  /**
   * The cost band of the request as it would be sent: the service's, or (a service without the route
   * preview) the extension's estimate from the Space's models and prices; null when neither can tell.
   * `refused` says in words why the service would refuse the request as it is (a PDF it cannot read,
   * a model dearer than the Space's cost cap), so that the user learns it before sending.
   */
  async costBand(body: ChatDraft): Promise<BandAnswer> {
    if (!this.noRoutePreview) {
      // The service counts the attachments as it would send them (a text file's text, an image's and
      // a PDF's tokens), and images need a model that reads them.
      const files = [...(body.images ?? []), ...(body.files ?? [])];
      const images = files.filter((url) => dataUrlType(url).startsWith('image/')).length;
      const question = {
        prompt: body.prompt,
        images: images || undefined,
        files: files.length ? files : undefined,
        max_tokens: body.max_tokens,
        model: body.model,
        conversation_id: body.conversation_id,
        parent_request_id: body.parent_request_id,
        // A web search is billed apart, and counts against the Space's cost cap.
        plugins: body.plugins?.length ? body.plugins : undefined,
      };
      let refused: Pick<BandAnswer, 'refused' | 'refusedFile'> = {};
      const preview = await this.s.connection
        .call((c) => c.previewRoute(body.app_id, question))
        .catch((error: unknown) => {
          if (isMissingEndpoint(error)) this.noRoutePreview = true;
          if (error instanceof ValidationError) {
            // The question's files are the draft's images, then its files: the same places.
            const file = error.issues
              .map((i) => i.loc)
              .find((loc) => loc.at(-2) === 'files' && typeof loc.at(-1) === 'number');
            refused = { refused: error.inWords, ...(file ? { refusedFile: file.at(-1) as number } : {}) };
          }
          return null;
        });
      if (preview?.refused) refused = { refused: preview.refused.replace(/\.$/, '') };
      if (!this.noRoutePreview) return { band: preview?.band ?? null, ...refused };
    }
    const [view, catalogue] = await Promise.all([this.s.spaces.detail(body.app_id), this.s.catalogue.models()]);
    return {
      band: estimatedBand({
        view,
        catalogue,
        model: body.model || null,
        prompt: body.prompt,
        maxTokens: body.max_tokens ?? null,
      }),
    };
  }

  /**
   * Throws (in words) when these requests, together, may not or should not be sent; `asking` is told
   * just before the user is asked whether to pass the soft limit.
   */
  async check(bodies: readonly ChatDraft[], asking?: () => void): Promise<void> {
    const org = this.s.organization.organization ?? (await this.s.organization.refresh().catch(() => undefined));
    // No limit, nothing to guard: the send is not held up by a preview of its cost.
    if (!org?.spending_limit_soft && !org?.spending_limit_hard) return;
    const bands = (await Promise.all(bodies.map((body) => this.costBand(body)))).map((answer) => answer.band);
    const expected = bands.reduce((sum, band) => sum + (band?.expected ?? 0), 0);
    const verdict = budgetVerdict(org, expected);
    if (verdict.kind === 'go') return;
    const cost = bands.some((band) => band) ? money(expected) : t('an unknown amount');
    const what =
      bodies.length === 1
        ? t('this request (about {0})', cost)
        : t('these {0} requests (about {1} together)', bodies.length, cost);
    if (verdict.kind === 'refuse') {
      throw new Declined(
        t(
          "Not sent: {0} would pass the organization's hard spending limit of {1}, with {2} spent this cycle. Raise the limit on the service, or wait for the next billing cycle.",
          what,
          money(verdict.limit),
          money(verdict.spent),
        ),
      );
    }
    asking?.();
    const go = await this.ask(
      t(
        "Sending {0} would pass the organization's soft spending limit of {1}, with {2} spent this cycle. Send anyway?",
        what,
        money(verdict.limit),
        money(verdict.spent),
      ),
    );
    if (!go) throw new Declined(t('Not sent: it would pass the soft spending limit.'));
  }
}
