// The one way errors reach the user: a message with the action that helps (Sign In, Connect…, Retry,
// Show Log). Chosen by error type, never by message text; the token is never part of a message.
import * as vscode from 'vscode';
import { ApiError, NetworkError, RateLimitError, ValidationError } from './api/errors';
import { NotSignedInError } from './connection/connection';
import type { Logger } from './logger';
import { isDeclined } from './shared/declined';
import { timeLabel } from './shared/labels';

export type ErrorAction = 'Sign In' | 'Connect…' | 'Retry' | 'Show Log';

export interface UserError {
  message: string;
  actions: ErrorAction[];
}

export function describeError(error: unknown, what: string): UserError {
  if (isDeclined(error)) return { message: error.message, actions: [] };
  if (error instanceof NotSignedInError)
    return { message: vscode.l10n.t('{0}: sign in to {1} first.', what, error.url), actions: ['Sign In', 'Connect…'] };
  if (!(error instanceof ApiError))
    return {
      message: vscode.l10n.t('{0} failed: {1}', what, error instanceof Error ? error.message : String(error)),
      actions: ['Show Log'],
    };
  switch (error.kind) {
    case 'unauthorized':
      return {
        message: vscode.l10n.t('{0}: the service did not accept the token. Sign in again.', what),
        actions: ['Sign In', 'Connect…'],
      };
    case 'forbidden':
      return { message: vscode.l10n.t('{0}: not allowed ({1}).', what, error.message), actions: [] };
    case 'rate-limited': {
      const at = timeLabel((error as RateLimitError).retryAt);
      return {
        message: vscode.l10n.t('{0}: the rate limit is reached. Try again after {1}.', what, at),
        actions: ['Retry'],
      };
    }
    case 'validation':
      return {
        message: vscode.l10n.t('{0}: the service refused the input ({1}).', what, (error as ValidationError).inWords),
        actions: [],
      };
    case 'not-found':
    case 'method-not-allowed':
      return {
        message: vscode.l10n.t(
          '{0}: {1}.',
          what,
          error.kind === 'method-not-allowed' ? vscode.l10n.t('this service does not offer that') : error.message,
        ),
        actions: [],
      };
    case 'network':
      return {
        message: vscode.l10n.t('{0}: the service cannot be reached; {1}.', what, (error as NetworkError).reason),
        actions: ['Retry', 'Connect…', 'Show Log'],
      };
    case 'timeout':
      return {
        message: vscode.l10n.t('{0}: the service did not answer in time.', what),
        actions: ['Retry', 'Connect…', 'Show Log'],
      };
    case 'cancelled':
      return { message: vscode.l10n.t('{0} was cancelled.', what), actions: [] };
    default:
      return { message: vscode.l10n.t('{0} failed: {1}', what, error.message), actions: ['Retry', 'Show Log'] };
  }
}

export interface ReportedError extends UserError {
  what: string;
}

export class ErrorReporter implements vscode.Disposable {
  private readonly reported = new vscode.EventEmitter<ReportedError>();
  /** Every error shown to the user (tests listen here). */
  readonly onDidReport = this.reported.event;

  constructor(private readonly logger: Logger) {}

  /** The message (and actions) for an error, for code that shows it itself, such as a webview. */
  describe(error: unknown, what: string): UserError {
    return describeError(error, what);
  }

  async report(error: unknown, what: string, retry?: () => unknown): Promise<void> {
    const described = describeError(error, what);
    if (error instanceof ApiError && error.kind === 'cancelled') return;
    this.logger.error(`${what}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    const actions = described.actions.filter((a) => a !== 'Retry' || retry);
    this.reported.fire({ ...described, actions, what });
    // Not awaited: the command that failed finishes now; the user's choice is handled whenever it comes.
    void vscode.window.showErrorMessage(described.message, ...actions).then((choice) => this.act(choice, retry));
  }

  private async act(choice: ErrorAction | undefined, retry?: () => unknown): Promise<void> {
    if (choice === 'Retry') await retry?.();
    else if (choice === 'Sign In') await vscode.commands.executeCommand('llmSpaces.signIn');
    else if (choice === 'Connect…') await vscode.commands.executeCommand('llmSpaces.connect');
    else if (choice === 'Show Log') this.logger.show();
  }

  dispose(): void {
    this.reported.dispose();
  }
}
