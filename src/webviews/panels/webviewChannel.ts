// The host's end of a webview's protocol: every incoming message is parsed with zod before anything
// acts on it, each call gets exactly one reply, and nothing is posted before the webview says `ready`.
import * as vscode from 'vscode';
import { z } from 'zod';
import { ApiError, ValidationError, fieldPath } from '../../api/errors';
import type { Logger } from '../../logger';
import type { ErrorReporter } from '../../userErrors';
import { FromWebview, type CallError, type Calls, type Handlers, type ToWebview } from '../../shared/protocol/envelope';

/** What a channel needs from the activation side (this module is loaded later). */
export interface ChannelDeps {
  logger: Logger;
  errors: ErrorReporter;
}

export class WebviewChannel<C extends Calls, R extends { [K in keyof C]: unknown }, E> implements vscode.Disposable {
  private readyWaiters: Array<() => void> = [];
  private isReady = false;
  private readonly subscription: vscode.Disposable;
  private readonly posted = new vscode.EventEmitter<ToWebview<E>>();
  /** Every message the host sends to the webview (the log and the tests watch it). */
  readonly onDidPost = this.posted.event;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly calls: C,
    private readonly handlers: Handlers<C, R>,
    /** The log and the error descriptions of the activation side (this module is loaded later). */
    private readonly s: ChannelDeps,
    /** What the panel does, for messages: "Playground", "Space settings". */
    private readonly what: string,
  ) {
    this.subscription = webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw));
  }

  /** Posts an event once the webview is ready (events before `ready` wait for it). */
  async post(event: E): Promise<void> {
    if (!this.isReady) await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
    await this.send({ type: 'event', event });
  }

  /** Handles one message from the webview, exactly as if its page had posted it. */
  async receive(raw: unknown): Promise<void> {
    const parsed = FromWebview.safeParse(raw);
    if (!parsed.success) {
      this.s.logger.error(
        `${this.what}: ignored a malformed message from the webview (${z.prettifyError(parsed.error)})`,
      );
      return;
    }
    const message = parsed.data;
    // A page that calls is listening too, even if its `ready` is still on the way.
    this.isReady = true;
    this.readyWaiters.splice(0).forEach((resolve) => resolve());
    if (message.type === 'ready') return;
    const method = message.method as keyof C & string;
    const schema = Object.hasOwn(this.calls, method) ? this.calls[method] : undefined;
    if (!schema)
      return this.send({
        type: 'reply',
        id: message.id,
        ok: false,
        error: { message: vscode.l10n.t('Unknown request "{0}".', method), fields: {} },
      });
    const params = schema.safeParse(message.params);
    if (!params.success)
      return this.send({ type: 'reply', id: message.id, ok: false, error: invalidInput(params.error) });
    try {
      const result = await this.handlers[method](params.data as z.infer<C[typeof method]>, message.id);
      await this.send({ type: 'reply', id: message.id, ok: true, result: result ?? null });
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'cancelled'))
        this.s.logger.error(
          `${this.what}: ${method} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      await this.send({
        type: 'reply',
        id: message.id,
        ok: false,
        error: toCallError(error, this.what, this.s.errors),
      });
    }
  }

  private async send(message: ToWebview<E>): Promise<void> {
    this.posted.fire(message);
    // A disposed panel throws; there is nobody left to tell.
    await Promise.resolve(this.webview.postMessage(message)).catch(() => undefined);
  }

  dispose(): void {
    this.subscription.dispose();
    this.posted.dispose();
    this.readyWaiters.splice(0).forEach((resolve) => resolve());
  }
}

/** Field paths of a local zod failure, in the same form as the service's 422 (`weights.cost`). */
function invalidInput(error: z.ZodError): CallError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = fieldPath(issue.path.filter((p): p is string | number => typeof p !== 'symbol'));
    fields[path.replace(/^(body|changes)\.?/, '')] ??= issue.message;
  }
  return {
    message: vscode.l10n.t(
      'Some fields are not valid: {0}',
      Object.entries(fields)
        .map(([f, m]) => `${f || 'input'}: ${m}`)
        .join('; '),
    ),
    fields,
  };
}

export function toCallError(error: unknown, what: string, errors: Pick<ErrorReporter, 'describe'>): CallError {
  if (error instanceof z.ZodError) return invalidInput(error);
  const fields: Record<string, string> = {};
  if (error instanceof ValidationError)
    error.issues.forEach((issue, n) => (fields[error.fields[n] ?? ''] ??= issue.msg));
  const cancelled = error instanceof ApiError && error.kind === 'cancelled';
  return { message: errors.describe(error, what).message, fields, ...(cancelled ? { cancelled } : {}) };
}
