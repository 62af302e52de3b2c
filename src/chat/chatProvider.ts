// The Spaces in VS Code's own chat: each Space the user can use is a model in the picker (routed by
// the Space), and models of a Space the user pinned appear on their own. Replies go through
// POST /v1/chat/completions, stream back with tool calls, say what answered and what it cost, and move
// the organization's spend on at once.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import type { ChatCompletionsBody, CompletionMessage, ModelRecord, Organization, Usage } from '../api/schemas';
import type { Connection } from '../connection/connection';
import type { CurrentSpace } from './currentSpace';
import type { Logger } from '../logger';
import type { CatalogueStore } from '../stores/catalogueStore';
import type { OrganizationStore } from '../stores/organizationStore';
import type { SpacesStore } from '../stores/spacesStore';
import { money } from '../shared/money';
import { describeError } from '../userErrors';
import { SpaceKeys } from './spaceKeys';
import { budgetVerdict } from '../shared/budget';
import { PINNED_MODELS, SECTION, pinnedModels } from '../settings';
import { pinnedEntry, spaceEntry, type SpaceChatModel } from './spaceModels';
import { countChatTokens } from './tokenCount';
import { placeholderNote, receiptLine, receiptView, stoppedShort } from '../shared/receipt';
import { estimatedReceipt } from '../shared/clientEstimates';

const t = vscode.l10n.t;
/** The line added under each reply (where it went, what it cost); taken off again before the reply goes back to a model. */
const RECEIPT = /\n\n_— [^\n]*_(\n\n_[^\n]*_)?$/;

export interface ChatDeps {
  connection: Connection;
  spaces: SpacesStore;
  catalogue: CatalogueStore;
  organization: OrganizationStore;
  logger: Logger;
  keys: SpaceKeys;
  current: CurrentSpace;
}

export class SpacesChatProvider implements vscode.LanguageModelChatProvider<SpaceChatModel>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private warnedSoftLimit = false;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly s: ChatDeps) {
    this.disposables = [
      this.changed,
      s.spaces.onDidChange(() => this.changed.fire()),
      s.catalogue.onDidReplace(() => this.changed.fire()),
      s.current.onDidChange(() => this.changed.fire()),
      // Listed again once the service answers (after a sign-in, a restart).
      s.connection.onDidChangeState((state) => state.kind === 'ready' && this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration(`${SECTION}.${PINNED_MODELS}`) && this.changed.fire(),
      ),
    ];
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
  ): Promise<SpaceChatModel[]> {
    // Asked silently (VS Code's startup, another extension's selectChatModels): the built-in service may
    // start, as it needs no one; a remote service without a token is not asked to sign in.
    if (options.silent && this.s.connection.state.kind === 'signed-out') return [];
    try {
      const [spaces, models] = await Promise.all([this.s.spaces.list(), this.s.catalogue.models()]);
      const catalogue = new Map<string, ModelRecord>(models.map((m) => [m.namespace, m]));
      const main = spaces.filter((s) => !s.sandbox_of);
      const entries = await Promise.all(
        main.map(async (space) => spaceEntry(await this.s.spaces.detail(space.id), catalogue)),
      );
      // "Current Space": the Space an agent or the user switched to (the useSpace tool), else the first.
      const current = entries.find((e) => e.spaceId === this.s.current.id) ?? entries[0];
      if (current)
        entries.push({
          ...current,
          id: 'current',
          name: t('Current Space ({0})', current.name),
          tooltip: `${t('Routes through the Space chosen last (ask the chat to use another Space).')}\n${current.tooltip}`,
        });
      for (const pin of pinnedModels()) {
        const record = catalogue.get(pin.model);
        if (!record || !spaces.some((s) => s.id === pin.space)) continue;
        entries.push(pinnedEntry(await this.s.spaces.detail(pin.space), record));
      }
      return entries;
    } catch (error) {
      this.s.logger.warn(
        `The chat models could not be listed: ${describeError(error, 'Listing the Spaces for the chat').message}`,
      );
      return [];
    }
  }

  async provideLanguageModelChatResponse(
    model: SpaceChatModel,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    this.guardBudget(this.s.organization.organization ?? (await this.s.organization.refresh().catch(() => undefined)));
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const body: ChatCompletionsBody = {
      app_id: model.spaceId,
      model: model.model,
      messages: toCompletionMessages(messages),
      ...(options.tools?.length
        ? {
            tools: options.tools.map(toCompletionTool),
            tool_choice: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
          }
        : {}),
    };
    try {
      const key = await this.s.keys.keyFor(model.spaceId, model.name);
      const text = new TextPacer((value) => progress.report(new vscode.LanguageModelTextPart(value)));
      const run = async (client: import('../api/client').LlmSpacesClient) => {
        for await (const event of client.completionStream(body, abort.signal)) {
          if (event.type === 'delta') {
            text.push(event.content);
            continue;
          }
          // VS Code's chat has no place for a model's reasoning in a stable API (its thinking part is
          // proposed); its requests ask no web search, so no pages are cited nor searches suggested.
          if (event.type === 'thinking' || event.type === 'sources' || event.type === 'searchSuggestions') continue;
          text.flush();
          if (event.type === 'toolCall')
            progress.report(
              new vscode.LanguageModelToolCallPart(event.id, event.name, parseArguments(event.arguments)),
            );
          else {
            const { costs, routing, model: answered } = event.metadata;
            // The routing receipt's line where the service sends one (the built-in one does), else the extension's estimate.
            const receipt = routing
              ? receiptView(routing, answered.namespace)
              : await this.estimateReceipt(model, answered.namespace, event.usage, messages);
            const where = receipt ? receiptLine(receipt, t) : t('answered by {0}', answered.namespace);
            const placeholder = placeholderNote(answered.namespace, t);
            const stopped = stoppedShort(event.finishReason, t);
            progress.report(
              new vscode.LanguageModelTextPart(
                `\n\n_— ${where} · ${money(costs.total_tokens)} · ${t('{0} tokens', event.usage.total_tokens)}${stopped ? ` · ${stopped}` : ''}_${placeholder ? `\n\n_${placeholder}_` : ''}`,
              ),
            );
            reportUsage(progress, event.usage);
            this.s.organization.recordReply({ usage: event.usage, costs, savings: event.metadata.cost_savings });
          }
        }
      };
      try {
        await (key ? this.s.connection.callWithKey(key, run) : this.s.connection.call(run));
      } finally {
        text.flush();
      }
    } catch (error) {
      if (token.isCancellationRequested) return;
      throw new Error(chatErrorMessage(error));
    } finally {
      cancelled.dispose();
    }
  }

  /** The extension's own receipt for a service that sends none; null when the Space cannot be read. */
  private async estimateReceipt(
    model: SpaceChatModel,
    answered: string,
    usage: Usage,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
  ) {
    const images = messages.some((m) => m.content.some((part) => imageOf(part) !== undefined));
    try {
      const [view, catalogue] = await Promise.all([this.s.spaces.detail(model.spaceId), this.s.catalogue.models()]);
      return estimatedReceipt({ view, catalogue, asked: model.model ?? null, answered, usage, images });
    } catch {
      return null;
    }
  }

  async provideTokenCount(
    _model: SpaceChatModel,
    text: string | vscode.LanguageModelChatRequestMessage,
  ): Promise<number> {
    return countChatTokens(typeof text === 'string' ? text : textOfParts(text.content));
  }

  /** Past the hard limit nothing is sent; past the soft limit the first request of the session warns. */
  private guardBudget(org: Organization | undefined): void {
    const verdict = budgetVerdict(org);
    if (verdict.kind === 'refuse') {
      throw new Error(
        t(
          "The organization's hard spending limit of {0} is reached ({1} spent this cycle). Raise it on the service, or wait for the next billing cycle.",
          money(verdict.limit),
          money(verdict.spent),
        ),
      );
    }
    if (verdict.kind === 'warn' && !this.warnedSoftLimit) {
      this.warnedSoftLimit = true;
      void vscode.window.showWarningMessage(
        t(
          'LLM Spaces: the organization has passed its soft spending limit of {0} ({1} spent this cycle). Requests still go through up to the hard limit of {2}.',
          money(verdict.limit),
          money(verdict.spent),
          money(verdict.hard),
        ),
      );
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/**
 * Text parts at most every PACE_MS. VS Code passes a provider's parts on after 30 ms without a new one
 * (or at 30 parts): a model streaming a piece every 15 ms would be held until 30 pieces had come,
 * half a second for the first token. Pieces that arrive closer together are sent as one part.
 */
const PACE_MS = 35;

export class TextPacer {
  private pending = '';
  private last = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly report: (text: string) => void) {}

  push(text: string): void {
    this.pending += text;
    const wait = this.last + PACE_MS - performance.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** Sends what is held now (before a tool call, the receipt, or the end). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.last = performance.now();
    this.report(text);
  }
}

/** What a chat user reads when a request fails: the cause and the fix, never a stack or a token. */
export function chatErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'network')
    return t(
      'The LLM Spaces service cannot be reached. Run "LLM Spaces: Restart Built-in Service", or "LLM Spaces: Connect to Service…" to use another one.',
    );
  if (error instanceof ApiError && error.kind === 'unauthorized')
    return t(
      'The LLM Spaces service did not accept the token or key. Run "LLM Spaces: Sign In", or enter the Space\'s key again.',
    );
  return describeError(error, t('LLM Spaces')).message;
}

/**
 * VS Code's chat messages as OpenAI messages: text, images, tool calls and tool results. A tool's
 * result is text there, so the images a tool gave back (a screenshot) follow its results in a user
 * message, as the result's text says.
 */
export function toCompletionMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): CompletionMessage[] {
  const out: CompletionMessage[] = [];
  for (const message of messages) {
    const texts: string[] = [];
    const images: string[] = [];
    const toolImages: string[] = [];
    const calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
      else if (part instanceof vscode.LanguageModelToolCallPart)
        calls.push({
          id: part.callId,
          type: 'function',
          function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) },
        });
      else if (part instanceof vscode.LanguageModelToolResultPart) {
        const shown = part.content.flatMap((p) => imageOf(p) ?? []);
        toolImages.push(...shown);
        const text = textOfParts(part.content);
        const note = shown.length ? `${text ? '\n' : ''}(The tool's images follow in the next message.)` : '';
        out.push({ role: 'tool', tool_call_id: part.callId, content: text + note });
      } else {
        const image = imageOf(part);
        if (image) images.push(image);
      }
    }
    if (toolImages.length) out.push({ role: 'user', content: toolImages.map(imagePart) });
    const text = texts.join('');
    if (message.role === vscode.LanguageModelChatMessageRole.Assistant) {
      if (text || calls.length)
        out.push({
          role: 'assistant',
          content: text.replace(RECEIPT, '') || null,
          ...(calls.length ? { tool_calls: calls } : {}),
        });
    } else if (text || images.length) {
      out.push({
        role: 'user',
        content: images.length ? [{ type: 'text', text }, ...images.map(imagePart)] : text,
      });
    }
  }
  return out;
}

function textOfParts(parts: readonly unknown[]): string {
  return parts
    .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : typeof p === 'string' ? p : ''))
    .join('');
}

const imagePart = (url: string) => ({ type: 'image_url' as const, image_url: { url } });

/** An image part (LanguageModelDataPart, in the API of newer hosts) as a data URL. */
function imageOf(part: unknown): string | undefined {
  const data = part as { mimeType?: unknown; data?: unknown };
  if (typeof data?.mimeType !== 'string' || !data.mimeType.startsWith('image/') || !(data.data instanceof Uint8Array))
    return undefined;
  return `data:${data.mimeType};base64,${Buffer.from(data.data).toString('base64')}`;
}

function toCompletionTool(tool: vscode.LanguageModelChatTool) {
  return {
    type: 'function' as const,
    function: {
      name: tool.name,
      description: tool.description,
      parameters: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
    },
  };
}

function parseArguments(text: string): object {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value !== null && typeof value === 'object' ? value : { value };
  } catch {
    return { raw: text };
  }
}

/** The reply's tokens as a data part of mime type `usage`, where the host has data parts. */
function reportUsage(
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number },
): void {
  const DataPart = (
    vscode as unknown as { LanguageModelDataPart?: new (data: Uint8Array, mimeType: string) => unknown }
  ).LanguageModelDataPart;
  if (!DataPart) return;
  try {
    progress.report(
      new DataPart(new TextEncoder().encode(JSON.stringify(usage)), 'usage') as vscode.LanguageModelResponsePart,
    );
  } catch {
    // A host that does not take data parts from providers: the receipt line already says it.
  }
}
