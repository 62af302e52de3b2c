// One log channel for the extension. Requests are logged as method, path, status and milliseconds:
// the transport never hands over headers, so the token cannot reach the log.
import * as vscode from 'vscode';
import type { RequestLogEntry } from './api/transport';

export class Logger implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('LLM Spaces', { log: true });

  /** Logging never fails what it describes: a channel already closed (the window is going) drops the line. */
  private write(level: 'info' | 'warn' | 'error', line: string): void {
    try {
      this.channel[level](line);
    } catch {
      // Nothing to write to.
    }
  }

  request(entry: RequestLogEntry): void {
    const line = `${entry.method} ${entry.path} → ${entry.status ?? entry.error ?? 'no answer'} in ${entry.ms} ms${entry.attempt > 1 ? ` (attempt ${entry.attempt})` : ''}`;
    this.write(entry.status === undefined || entry.status >= 500 ? 'warn' : 'info', line);
  }

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
