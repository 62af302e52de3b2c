// Helpers for tests inside the extension host: the extension's services, an independent client to
// check effects on the real service, and waiting for asynchronous UI state.
import * as vscode from 'vscode';
import { LlmSpacesClient } from '../../src/api/client';
import type { ExtensionApi } from '../../src/extension';
import type { CallError, ToWebview } from '../../src/shared/protocol/envelope';

export const EXTENSION_ID = 'llm-spaces.llm-spaces';

export async function extension(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  return ext.activate();
}

/** A client of our own against the service the extension uses, to check effects there. */
export async function serviceClient(api: ExtensionApi): Promise<LlmSpacesClient> {
  await api.connection.client();
  const token = await api.connection.remoteToken();
  return new LlmSpacesClient({ baseUrl: api.connection.url!, token: () => token });
}

export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Collects what the extension reports to the user while `fn` runs. */
export async function reportsDuring(
  api: ExtensionApi,
  fn: () => Thenable<unknown>,
): Promise<Array<{ message: string; actions: string[] }>> {
  const seen: Array<{ message: string; actions: string[] }> = [];
  const sub = api.errors.onDidReport((r) => seen.push(r));
  try {
    await fn();
  } finally {
    sub.dispose();
  }
  return seen;
}

/**
 * The information messages shown while `fn` runs. The test and the extension under test share one
 * vscode API object in the host, so replacing the function there catches the extension's calls.
 */
export async function messagesDuring(fn: () => Thenable<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const window = vscode.window as { showInformationMessage: (...args: unknown[]) => Thenable<unknown> };
  const original = window.showInformationMessage;
  window.showInformationMessage = (message: unknown) => {
    seen.push(String(message));
    return Promise.resolve(undefined);
  };
  try {
    await fn();
  } finally {
    window.showInformationMessage = original;
  }
  return seen;
}

/** The host end of a webview, as the tests drive it: messages in as if the page posted them, and all that goes out. */
export interface HostEnd {
  receive(raw: unknown): Promise<void>;
  onDidPost: vscode.Event<ToWebview<unknown>>;
}

export interface CallOutcome<T> {
  ok: boolean;
  result: T;
  error: CallError | undefined;
  /** Events posted while the call ran (streamed deltas, drafts). */
  events: unknown[];
}

let nextCallId = 1_000_000;

/** Sends one call through the panel's real protocol handler and waits for its one reply. */
export function callWebview<T = unknown>(
  channel: HostEnd,
  method: string,
  params: unknown,
  /** Told every message the panel posts, this call's or another's, with this call's id to tell them apart. */
  onPosted?: (posted: ToWebview<unknown>, id: number) => void,
): Promise<CallOutcome<T>> {
  const id = nextCallId++;
  const events: unknown[] = [];
  return new Promise((resolve) => {
    const sub = channel.onDidPost((message) => {
      onPosted?.(message, id);
      if (message.type === 'event') events.push(message.event);
      else if (message.id === id) {
        sub.dispose();
        resolve({
          ok: message.ok,
          result: (message.ok ? message.result : undefined) as T,
          error: message.ok ? undefined : message.error,
          events,
        });
      }
    });
    void channel.receive({ type: 'call', id, method, params });
  });
}
