// The extension's settings, read in one place.
import * as vscode from 'vscode';

export const SECTION = 'llmSpaces';

export interface Settings {
  /** Empty: the built-in local service. */
  serviceUrl: string;
  upstreamUrl: string;
  requestTimeoutMs: number;
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    serviceUrl: (config.get<string>('serviceUrl') ?? '').trim().replace(/\/+$/, ''),
    upstreamUrl: (config.get<string>('localService.upstreamUrl') ?? '').trim(),
    requestTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
  };
}
