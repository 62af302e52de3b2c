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
  /** Whether the built-in service reads the current lists of its catalogue (prices, capabilities) online. */
  updateCatalogue: boolean;
  /** Days the built-in service keeps a logged request (0: always). */
  retentionDays: number;
  /** The built-in service's port; 0 takes a free one at each start. */
  localServicePort: number;
  requestTimeoutMs: number;
  /** VS Code's proxy (`http.proxy`) and the hosts reached without it (`http.noProxy`): the service's way out. */
  proxy: { url: string; noProxy: string[] };
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    serviceUrl: (config.get<string>('serviceUrl') ?? '').trim().replace(/\/+$/, ''),
    upstreamUrls: upstreams(config),
    discoverModelServers: config.get<boolean>('localService.discoverModelServers', true),
    updateCatalogue: config.get<boolean>('localService.updateCatalogue', true),
    retentionDays: Math.max(0, Math.floor(config.get<number>('localService.retentionDays', 90))),
    localServicePort: Math.min(65535, Math.max(0, Math.floor(config.get<number>('localService.port', 0)))),
    requestTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
    proxy: {
      url: (vscode.workspace.getConfiguration('http').get<string>('proxy') ?? '').trim(),
      noProxy: vscode.workspace.getConfiguration('http').get<string[]>('noProxy') ?? [],
    },
  };
}

/** Gives the built-in service a fixed port in the user's settings (it restarts on it). */
export async function setLocalServicePort(port: number): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('localService.port', port, vscode.ConfigurationTarget.Global);
}

/** Chooses the service in the user's settings ('' is the built-in one). */
export async function setServiceUrl(url: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('serviceUrl', url, vscode.ConfigurationTarget.Global);
}

/** The list setting, after the single URL of earlier versions (still honoured); only http(s) URLs. */
function upstreams(config: vscode.WorkspaceConfiguration): string[] {
  const list = config.get<unknown>('localService.upstreamUrls', []);
  const all = [config.get<string>('localService.upstreamUrl') ?? '', ...(Array.isArray(list) ? list : [])];
  return [
    ...new Set(
      all
        .filter((u): u is string => typeof u === 'string')
        .map((u) => u.trim())
        .filter((u) => /^https?:\/\//.test(u)),
    ),
  ];
}

/** A model of a Space offered in VS Code's chat on its own (setting llmSpaces.chat.pinnedModels). */
export interface PinnedModel {
  /** The Space's id. */
  space: string;
  /** The model's namespace. */
  model: string;
}

export const PINNED_MODELS = 'chat.pinnedModels';

/** The pinned models, only the well-formed entries. */
export function pinnedModels(): PinnedModel[] {
  const value = vscode.workspace.getConfiguration(SECTION).get<unknown>(PINNED_MODELS, []);
  return Array.isArray(value)
    ? value.filter((p): p is PinnedModel => typeof p?.space === 'string' && typeof p?.model === 'string')
    : [];
}

/** Pins a model of a Space to VS Code's chat, or unpins it, in the user's settings. */
export async function setPinned(pin: PinnedModel, pinned: boolean): Promise<void> {
  const others = pinnedModels().filter((p) => !(p.space === pin.space && p.model === pin.model));
  await vscode.workspace
    .getConfiguration(SECTION)
    .update(PINNED_MODELS, pinned ? [...others, pin] : others, vscode.ConfigurationTarget.Global);
}
