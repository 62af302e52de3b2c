// One log channel for the extension. Requests are logged as method, path, status and milliseconds:
// the transport never hands over headers, so the token cannot reach the log.
import * as vscode from 'vscode';
import type { RequestLogEntry } from './api/transport';

export class Logger implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('LLM Spaces', { log: true });

  request(entry: RequestLogEntry): void {
    const line = `${entry.method} ${entry.path} → ${entry.status ?? entry.error ?? 'no answer'} in ${entry.ms} ms${entry.attempt > 1 ? ` (attempt ${entry.attempt})` : ''}`;
    if (entry.status === undefined || entry.status >= 500) this.channel.warn(line);
    else this.channel.info(line);
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
