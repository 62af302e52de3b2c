// The extension's settings, read in one place.
import * as vscode from 'vscode';

export const SECTION = 'llmSpaces';

export interface Settings {
  /** Empty: the built-in local service. */
  serviceUrl: string;
  upstreamUrl: string;
  /** Days the built-in service keeps a logged request (0: always). */
  retentionDays: number;
  requestTimeoutMs: number;
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    serviceUrl: (config.get<string>('serviceUrl') ?? '').trim().replace(/\/+$/, ''),
    upstreamUrl: (config.get<string>('localService.upstreamUrl') ?? '').trim(),
    retentionDays: Math.max(0, Math.floor(config.get<number>('localService.retentionDays', 90))),
    requestTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
  };
}
