// The extension's settings, read in one place.
import * as vscode from 'vscode';

export const SECTION = 'llmSpaces';

export interface Settings {
  /** Empty: the built-in local service. */
  serviceUrl: string;
  /** OpenAI-compatible servers the built-in service asks for models; the first also serves the catalogue. */
  upstreamUrls: string[];
  /** Whether the built-in service looks for model servers on the usual local ports. */
  discoverModelServers: boolean;
  /** Days the built-in service keeps a logged request (0: always). */
  retentionDays: number;
  requestTimeoutMs: number;
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    serviceUrl: (config.get<string>('serviceUrl') ?? '').trim().replace(/\/+$/, ''),
    upstreamUrls: upstreams(config),
    discoverModelServers: config.get<boolean>('localService.discoverModelServers', true),
    retentionDays: Math.max(0, Math.floor(config.get<number>('localService.retentionDays', 90))),
    requestTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
  };
}

/** The list setting, after the single URL of earlier versions (still honoured); only http(s) URLs. */
function upstreams(config: vscode.WorkspaceConfiguration): string[] {
  const list = config.get<unknown>('localService.upstreamUrls', []);
  const all = [config.get<string>('localService.upstreamUrl') ?? '', ...(Array.isArray(list) ? list : [])];
  return [...new Set(all.filter((u): u is string => typeof u === 'string').map((u) => u.trim()).filter((u) => /^https?:\/\//.test(u)))];
}
