// The connection to the /v1 service: the built-in local service (default) or a remote URL with a
// token in SecretStorage. Views and commands go through `call`, which keeps `state` current.
import path from 'node:path';
import * as vscode from 'vscode';
import type { ClientOptions, LlmSpacesClient } from '../api/client';
import { ApiError, CancelledError, NetworkError, TimeoutError, UnauthorizedError } from '../api/errors';
import type { Logger } from '../logger';
import { readSettings } from '../settings';
import { LOCAL_TOKEN_KEY, LocalService } from './localService';

export type Mode = 'local' | 'remote';

export type ConnectionState =
  | { kind: 'connecting'; mode: Mode; url?: string }
  | { kind: 'ready'; mode: Mode; url: string }
  | { kind: 'signed-out'; mode: 'remote'; url: string }
  | { kind: 'unreachable'; mode: Mode; url?: string; message: string };

/** A remote service is configured but no token is stored for it. */
export class NotSignedInError extends Error {
  constructor(readonly url: string) {
    super(vscode.l10n.t('Not signed in to {0}.', url));
  }
}

export const remoteTokenKey = (url: string) => `llmSpaces.token:${url}`;
/** Where the key of one Space of one remote service is kept (chat completions on the hosted service need it). */
export const spaceKeyKey = (url: string, spaceId: string) => `llmSpaces.spaceKey:${url}:${spaceId}`;

const causeCode = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code;
const refused = (error: unknown) => causeCode(error) === 'ECONNREFUSED';
/** A request on a client closed under it (by a reset while it was being made): it never went out. */
const notSent = (error: unknown) =>
  error instanceof NetworkError && ['UND_ERR_CLOSED', 'UND_ERR_DESTROYED'].includes(causeCode(error) ?? '');

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

export class Connection implements vscode.Disposable {
  private current: { url: string; client: LlmSpacesClient } | undefined;
  private readonly local: LocalService;
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChangeState = this.changed.event;
  private readonly stale = new vscode.EventEmitter<void>();
  /** Fires when what the views show may be out of date: a reset, a failure, or a recovery from one. */
  readonly onDidNeedRefresh = this.stale.event;
  private stateValue: ConnectionState;
  /** The service URL setting the current state follows ('' for the built-in service). */
  private serviceUrl = readSettings().serviceUrl;
  private restartAttempt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly logger: Logger,
    /** Makes the /v1 client (the API door's, loaded on first use: see src/extension.ts). */
    private readonly newClient: (options: ClientOptions) => LlmSpacesClient,
  ) {
    this.stateValue = { kind: 'connecting', mode: this.mode };
    this.local = new LocalService({
      extensionPath: context.extensionPath,
      dataDir: path.join(context.globalStorageUri.fsPath, 'service'),
      getToken: () => context.secrets.get(LOCAL_TOKEN_KEY),
      storeToken: (token) => context.secrets.store(LOCAL_TOKEN_KEY, token),
      modelServers: () => ({ upstreams: readSettings().upstreamUrls, discover: readSettings().discoverModelServers }),
      retentionDays: () => readSettings().retentionDays,
      updateCatalogue: () => readSettings().updateCatalogue,
      proxy: () => readSettings().proxy,
      port: () => readSettings().localServicePort,
      log: (message) => logger.info(message),
      onExit: (code) => this.localServiceExited(code),
    });
    this.disposables.push(
      this.changed,
      this.stale,
      context.secrets.onDidChange((e) => {
        if (e.key === LOCAL_TOKEN_KEY || e.key === remoteTokenKey(readSettings().serviceUrl)) void this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // Only a change of service: choosing the one in use again must not cut the calls under way.
        if (e.affectsConfiguration('llmSpaces.serviceUrl') && readSettings().serviceUrl !== this.serviceUrl) {
          this.serviceUrl = readSettings().serviceUrl;
          void this.reset();
        }
        const restart = [
          'upstreamUrl',
          'upstreamUrls',
          'discoverModelServers',
          'updateCatalogue',
          'retentionDays',
          'port',
        ]
          .map((key) => `llmSpaces.localService.${key}`)
          .concat('http.proxy', 'http.noProxy')
          .some((section) => e.affectsConfiguration(section));
        if (restart && this.mode === 'local') void this.restartLocal();
        // A remote service is reached through VS Code's proxy: a new client for a new one.
        const proxy = e.affectsConfiguration('http.proxy') || e.affectsConfiguration('http.noProxy');
        if (proxy && this.mode === 'remote') void this.reset();
      }),
    );
  }

  get mode(): Mode {
    return readSettings().serviceUrl ? 'remote' : 'local';
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  get url(): string | undefined {
    return this.current?.url ?? (this.mode === 'remote' ? readSettings().serviceUrl : undefined);
  }

  /** Where the built-in service keeps its data. */
  get localDataDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'service');
  }

  private setState(state: ConnectionState): void {
    const before = JSON.stringify(this.stateValue);
    this.stateValue = state;
    void vscode.commands.executeCommand('setContext', 'llmSpaces.state', state.kind);
    void vscode.commands.executeCommand('setContext', 'llmSpaces.mode', state.mode);
    if (JSON.stringify(state) === before) return;
    this.changed.fire(state);
    const wasDown = ['unreachable', 'signed-out'].includes(JSON.parse(before).kind as string);
    if (state.kind !== 'ready' || wasDown) this.stale.fire();
  }

  private makeClient(url: string, token: () => Thenable<string | undefined> | string | undefined): LlmSpacesClient {
    return this.newClient({
      baseUrl: url,
      token: async () => token(),
      timeoutMs: readSettings().requestTimeoutMs,
      proxy: readSettings().proxy,
      onRequest: (entry) => this.logger.request(entry),
      onLeftOut: (endpoint, leftOut) => {
        for (const record of leftOut)
          this.logger.warn(
            `${endpoint}: record ${record.index} of a list could not be read and was left out (${record.field || 'the record'} ${record.message}).`,
          );
      },
    });
  }

  async client(): Promise<LlmSpacesClient> {
    if (this.current) return this.current.client;
    const settings = readSettings();
    if (settings.serviceUrl) {
      const url = settings.serviceUrl;
      const token = await this.context.secrets.get(remoteTokenKey(url));
      if (!token) {
        this.setState({ kind: 'signed-out', mode: 'remote', url });
        throw new NotSignedInError(url);
      }
      this.current = { url, client: this.makeClient(url, () => this.context.secrets.get(remoteTokenKey(url))) };
      return this.current.client;
    }
    this.setState({ kind: 'connecting', mode: 'local' });
    try {
      const endpoint = await this.local.ensure();
      this.current = { url: endpoint.url, client: this.makeClient(endpoint.url, () => endpoint.token) };
      return this.current.client;
    } catch (error) {
      this.setState({ kind: 'unreachable', mode: 'local', message: (error as Error).message });
      throw error;
    }
  }

  /** Runs a call against the service, keeping the connection state current. */
  async call<T>(fn: (client: LlmSpacesClient) => Promise<T>, again = false): Promise<T> {
    const url = readSettings().serviceUrl;
    const client = await this.client();
    try {
      const result = await fn(client);
      if (this.stateValue.kind !== 'ready') this.setState({ kind: 'ready', mode: this.mode, url: client.baseUrl });
      return result;
    } catch (error) {
      // The service was reconnected (the same one) while this call was made, so it never reached it.
      if (!again && notSent(error) && this.current?.client !== client && readSettings().serviceUrl === url)
        return this.call(fn, true);
      if (error instanceof UnauthorizedError && this.mode === 'remote') {
        this.setState({ kind: 'signed-out', mode: 'remote', url: client.baseUrl });
      } else if (
        (error instanceof NetworkError || (error instanceof TimeoutError && !(error instanceof CancelledError))) &&
        this.current?.client === client
      ) {
        if (this.mode === 'local' && refused(error)) {
          // The service is gone or moved (another window restarted it), and the request never reached
          // it, so sending it again cannot do anything twice: reconnect and retry once.
          this.dropClient();
          try {
            return await fn(await this.client());
          } catch (retryError) {
            this.setState({
              kind: 'unreachable',
              mode: 'local',
              url: client.baseUrl,
              message: (retryError as Error).message,
            });
            throw retryError;
          }
        }
        this.setState({ kind: 'unreachable', mode: 'remote', url: client.baseUrl, message: error.message });
      }
      throw error;
    }
  }

  /**
   * Checks a token with a call that fails only for a wrong token (401 or 403) before keeping it; an
   * answer of an unexpected shape does not make the token wrong.
   */
  async signIn(url: string, token: string): Promise<void> {
    const probe = this.makeClient(url, () => token);
    try {
      await probe.checkToken();
    } finally {
      await probe.close();
    }
    await this.context.secrets.store(remoteTokenKey(url), token);
    await this.reset();
  }

  /**
   * Checks that a URL is a /v1 service before switching to it, with the token stored for it if any.
   * Resolves to whether a sign-in is needed there; rejects with one sentence saying what is wrong.
   */
  async checkService(url: string): Promise<{ signInNeeded: boolean }> {
    const token = await this.context.secrets.get(remoteTokenKey(url));
    const probe = this.makeClient(url, () => token);
    try {
      await probe.checkToken();
      return { signInNeeded: false };
    } catch (error) {
      if (error instanceof ApiError && (error.kind === 'unauthorized' || error.kind === 'forbidden'))
        return { signInNeeded: true };
      throw new Error(serviceProblem(url, error));
    } finally {
      await probe.close();
    }
  }

  /** The key stored for a Space of the remote service in use; the built-in service needs none. */
  async spaceKey(spaceId: string): Promise<string | undefined> {
    const url = readSettings().serviceUrl;
    return url ? this.context.secrets.get(spaceKeyKey(url, spaceId)) : undefined;
  }

  async storeSpaceKey(spaceId: string, key: string): Promise<void> {
    const url = readSettings().serviceUrl;
    if (url) await this.context.secrets.store(spaceKeyKey(url, spaceId), key);
  }

  /** Runs a call with a Space's key instead of the organization's token (same service, same log). */
  async callWithKey<T>(key: string, fn: (client: LlmSpacesClient) => Promise<T>): Promise<T> {
    const url = (await this.client()).baseUrl;
    const client = this.makeClient(url, () => key);
    try {
      return await fn(client);
    } finally {
      await client.close();
    }
  }

  async signOut(): Promise<void> {
    const url = readSettings().serviceUrl;
    if (url) await this.context.secrets.delete(remoteTokenKey(url));
    await this.reset();
  }

  async remoteToken(): Promise<string | undefined> {
    const url = readSettings().serviceUrl;
    return url ? this.context.secrets.get(remoteTokenKey(url)) : this.context.secrets.get(LOCAL_TOKEN_KEY);
  }

  /** Forgets the current client; the next call connects again with the current settings. */
  async reset(): Promise<void> {
    this.dropClient();
    this.setState({ kind: 'connecting', mode: this.mode });
    this.stale.fire();
  }

  private dropClient(): void {
    const old = this.current;
    this.current = undefined;
    void old?.client.close();
  }

  /** Restarts the built-in service (e.g. after the upstream setting changed). */
  async restartLocal(): Promise<void> {
    this.dropClient();
    await this.local.stop();
    await this.reset();
  }

  private localServiceExited(code: number | null): void {
    this.dropClient();
    const wait = BACKOFF_MS[Math.min(this.restartAttempt, BACKOFF_MS.length - 1)]!;
    this.restartAttempt++;
    this.logger.error(`The built-in service stopped (exit code ${code}); restarting in ${wait / 1000} s.`);
    this.setState({
      kind: 'unreachable',
      mode: 'local',
      message: vscode.l10n.t('The built-in service stopped; restarting in {0} s…', wait / 1000),
    });
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.client().then(
        () => {
          this.restartAttempt = 0;
          this.setState({ kind: 'ready', mode: 'local', url: this.current!.url });
        },
        (error: unknown) => this.logger.error(`Restart failed: ${(error as Error).message}`),
      );
    }, wait);
  }

  dispose(): void {
    clearTimeout(this.restartTimer);
    this.dropClient();
    // Always let go of the lease: this window may have used the built-in service before switching.
    this.local.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}

/** What is wrong with a URL that was checked as a service, in one sentence. */
function serviceProblem(url: string, error: unknown): string {
  if (!(error instanceof ApiError))
    return vscode.l10n.t('{0} could not be checked: {1}', url, (error as Error).message);
  switch (error.kind) {
    case 'network':
      return vscode.l10n.t('Nothing answers at {0}.', url);
    case 'timeout':
      return vscode.l10n.t('{0} did not answer in time.', url);
    case 'not-found':
    case 'method-not-allowed':
      return vscode.l10n.t('{0} answers, but does not offer the LLM Spaces /v1 interface.', url);
    case 'bad-response':
      return vscode.l10n.t('{0} answers, but not as an LLM Spaces service.', url);
    case 'server':
      return vscode.l10n.t('{0} answers with a server error (HTTP {1}).', url, error.status ?? 500);
    default:
      return vscode.l10n.t('{0} answers with an error: {1}', url, error.message);
  }
}
