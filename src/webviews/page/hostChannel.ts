// The webview's end of the protocol: typed calls that resolve with the host's one reply, events from
// the host, and the state VS Code keeps for this panel across hiding and reloads.
import type { z } from 'zod';
import type { CallError, Calls, ToWebview } from '../../shared/protocol/envelope';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** A failed call: the message for the user and the fields it concerns. */
export class CallFailed extends Error {
  constructor(readonly error: CallError) {
    super(error.message);
  }
}

export class HostChannel<C extends Calls, R extends { [K in keyof C]: unknown }, E> {
  private readonly vscode = acquireVsCodeApi();
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: CallFailed) => void }
  >();
  private readonly listeners: Array<(event: E) => void> = [];

  constructor() {
    window.addEventListener('message', (e: MessageEvent<ToWebview<E>>) => this.receive(e.data));
  }

  /** Tells the host the page is listening; call once the UI is built. */
  ready(): void {
    this.vscode.postMessage({ type: 'ready' });
  }

  /** Sends a call; `onId` learns its id before the reply (to stop a streaming call). */
  call<K extends keyof C & string>(method: K, params: z.input<C[K]>, onId?: (id: number) => void): Promise<R[K]> {
    const id = this.nextId++;
    onId?.(id);
    return new Promise<R[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.vscode.postMessage({ type: 'call', id, method, params });
    });
  }

  onEvent(listener: (event: E) => void): void {
    this.listeners.push(listener);
  }

  getState<S>(): S | undefined {
    return this.vscode.getState() as S | undefined;
  }

  setState<S>(state: S): void {
    this.vscode.setState(state);
  }

  private receive(message: ToWebview<E>): void {
    if (message.type === 'event') {
      this.listeners.forEach((l) => l(message.event));
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(new CallFailed(message.error));
  }
}
