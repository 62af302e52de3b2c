// The typed /v1 client: one method per endpoint of service-interface.md and of conventions.md.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import { ApiError, BadResponseError, NetworkError, StreamError, ValidationError, isMissingEndpoint } from './errors';
import {
  AssistantSummary,
  AssistantVersion,
  ChatChunk,
  ChatCompletion,
  citedPageOf,
  Conversation,
  ConversationWithRequests,
  DeleteResult,
  EmbeddingModelRecord,
  Health,
  ModelRecord,
  Organization,
  PromptRecord,
  OpenAiErrorBody,
  ProviderCheck,
  ProviderState,
  RegeneratedKey,
  RoutePreview,
  ModelServersRefreshed,
  SpaceCreated,
  SpaceList,
  SpaceModels,
  SpaceUpdateResponse,
  StreamError as StreamErrorBody,
  records,
  ToggleResult,
  type AssistantCreateBody,
  type AssistantVersionCreateBody,
  type ChatBody,
  type ChatCompletionsBody,
  type ChatMetadata,
  type ConversationCreateBody,
  type ConversationUpdateBody,
  type IntegrationsBody,
  type PromptCreateBody,
  type PromptShow,
  type PromptUpdateBody,
  type ProviderKeyBody,
  type RouteQuestion,
  type SpaceCreateBody,
  type SpaceListQuery,
  type SpaceUpdateBody,
  type Usage,
} from './schemas';
import type { CitedPage } from '../shared/citedPages';
import { Transport, parseBody, transportError, type TransportOptions } from './transport';
import { integrationsToWire, type Dialect } from './wire';

export type ClientOptions = TransportOptions;

export type { CitedPage } from '../shared/citedPages';

export type ChatStreamEvent =
  | { type: 'delta'; content: string }
  /** A piece of the model's reasoning, before its reply (where the model and the service show it). */
  | { type: 'thinking'; content: string }
  /** A tool call the model asks for, whole (its pieces are put together before it is handed on). */
  | { type: 'toolCall'; id: string; name: string; arguments: string }
  /** Pages the reply's text cites (a web search's), as the service annotates the text. */
  | { type: 'sources'; pages: CitedPage[] }
  /** Google's Search Suggestions for a Gemini model's grounded reply (their HTML), to show with it. */
  | { type: 'searchSuggestions'; html: string }
  | { type: 'done'; id: string; model: string; finishReason: string | null; usage: Usage; metadata: ChatMetadata };

const seg = encodeURIComponent;

/** The fields the hosted service may insist on in an update of a Space (conventions.md). */
const INSISTED = ['description', 'weights', 'policies'] as const;

export class LlmSpacesClient {
  private readonly transport: Transport;
  private organizationRead = false;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  // ------------------------------------------------------------ service-interface.md

  /**
   * Sends the fields given. A service that insists on `description`, `weights` or `policies` (a 422
   * saying one of them is missing) gets the update once more with their current values filled in.
   */
  async updateSpace(body: SpaceUpdateBody, signal?: AbortSignal) {
    const send = (b: SpaceUpdateBody) =>
      this.transport.send({ method: 'PUT', path: '/v1/apps/update', body: b, schema: SpaceUpdateResponse, signal });
    try {
      return await send(body);
    } catch (error) {
      const missing = error instanceof ValidationError ? insistedFields(error, body) : [];
      if (missing.length === 0) throw error;
      const current = (await this.getSpace(body.id, signal)).main.app;
      const filled = Object.fromEntries(
        missing.map((field) => [field, current[field] ?? (field === 'description' ? '' : {})]),
      );
      return send({ ...filled, ...body });
    }
  }

  /** Sets or clears the observability integrations, in the group names the service reads. */
  async updateIntegrations(body: IntegrationsBody, signal?: AbortSignal) {
    const wire = integrationsToWire(body, await this.dialect(signal));
    const answer = await this.transport.send({
      method: 'PUT',
      path: '/v1/orgs/integrations',
      body: wire,
      schema: Organization,
      signal,
    });
    this.organizationRead = true;
    return answer;
  }

  /**
   * Which names the service uses. The hosted service's organization record always carries
   * `org_stripe_id`, so one read of it decides; before that, any answer in hosted names does.
   */
  async dialect(signal?: AbortSignal): Promise<Dialect> {
    if (!this.transport.sawHostedNames && !this.organizationRead) {
      try {
        await this.getOrganization(signal);
      } catch (error) {
        if (!isMissingEndpoint(error)) throw error;
        this.organizationRead = true;
      }
    }
    return this.transport.sawHostedNames ? 'hosted' : 'interface';
  }

  createPrompt(body: PromptCreateBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: '/v1/prompts', body, schema: PromptRecord, signal });
  }

  listPrompts(show: PromptShow = 'all', signal?: AbortSignal) {
    return this.transport.send({
      method: 'GET',
      path: '/v1/prompts',
      query: { show },
      schema: records(PromptRecord),
      idempotent: true,
      signal,
    });
  }

  listModels(signal?: AbortSignal) {
    return this.transport.send({
      method: 'GET',
      path: '/v1/internal/models',
      schema: records(ModelRecord),
      idempotent: true,
      signal,
    });
  }

  /** The built-in service's embedding models (POST /v1/embeddings); the hosted service has none. */
  listEmbeddingModels(signal?: AbortSignal) {
    return this.transport.send({
      method: 'GET',
      path: '/v1/internal/embedding-models',
      schema: records(EmbeddingModelRecord),
      idempotent: true,
      signal,
    });
  }

  updateConversation(appId: string, conversationId: string, body: ConversationUpdateBody, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations/${seg(conversationId)}`;
    return this.transport.send({ method: 'PUT', path, body, schema: Conversation, signal });
  }

  chat(body: ChatBody, signal?: AbortSignal) {
    return this.transport.send({
      method: 'POST',
      path: '/v1/playground/chat',
      body: { ...body, stream: false },
      schema: ChatCompletion,
      signal,
    });
  }

  getAssistantVersion(appId: string, assistantId: string, versionId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants/${seg(assistantId)}/versions/${seg(versionId)}`;
    return this.transport.send({ method: 'GET', path, schema: AssistantVersion, idempotent: true, signal });
  }

  /**
   * The playground reply as it streams: `thinking` and `delta` events, then exactly one `done` with usage
   * and metadata.
   * An error event, a cut connection or a stream without `[DONE]` throws a StreamError; it never hangs
   * longer than the transport's idle timeout.
   */
  chatStream(body: ChatBody, signal?: AbortSignal): AsyncGenerator<ChatStreamEvent, void, undefined> {
    return this.events('/v1/playground/chat', { ...body, stream: true }, signal);
  }

  /** A chat completion as it streams (conventions.md): reasoning and text deltas, whole tool calls, then `done`. */
  completionStream(body: ChatCompletionsBody, signal?: AbortSignal): AsyncGenerator<ChatStreamEvent, void, undefined> {
    return this.events('/v1/chat/completions', { ...body, stream: true }, signal);
  }

  private async *events(
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const endpoint = `POST ${path}`;
    const stream = await this.transport.openStream({ method: 'POST', path, body, signal });
    const calls = new ToolCallPieces();
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => pending.push(event) });
    const decoder = new TextDecoder();
    let finished = false;
    try {
      for await (const bytes of stream) {
        parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
        while (pending.length > 0 && !finished) {
          const data = pending.shift()!.data;
          if (data === '[DONE]') {
            finished = true;
            break;
          }
          yield* chunkEvents(data, endpoint, calls);
        }
        if (finished) break;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const typed = transportError(error, endpoint, signal);
      throw typed instanceof NetworkError
        ? new StreamError('The reply stream was cut before it finished.', endpoint, undefined, { cause: error })
        : typed;
    } finally {
      if (!finished) stream.destroy();
    }
    if (!finished) throw new StreamError('The reply stream was cut before it finished.', endpoint);
  }

  // ------------------------------------------------------------ conventions.md (extra endpoints)

  listSpaces(query: SpaceListQuery = {}, signal?: AbortSignal) {
    return this.transport.send({
      method: 'POST',
      path: '/v1/apps/',
      query: { ...query },
      body: {},
      schema: SpaceList,
      idempotent: true,
      signal,
    });
  }

  getSpace(appId: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'GET',
      path: `/v1/apps/${seg(appId)}`,
      schema: SpaceUpdateResponse,
      idempotent: true,
      signal,
    });
  }

  createSpace(body: SpaceCreateBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: '/v1/apps/create', body, schema: SpaceCreated, signal });
  }

  /** A new key for a Space, shown only in this answer; the old key stops working. */
  regenerateSpaceKey(appId: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'POST',
      path: `/v1/apps/${seg(appId)}/regenerate-key`,
      body: {},
      schema: RegeneratedKey,
      signal,
    });
  }

  /** Which model the Space would pick for a prompt, and why (the built-in service's own endpoint). */
  previewRoute(appId: string, body: RouteQuestion, signal?: AbortSignal) {
    return this.transport.send({
      method: 'POST',
      path: `/v1/apps/${seg(appId)}/route`,
      body,
      schema: RoutePreview,
      idempotent: true,
      signal,
    });
  }

  /** Looks again for model servers and offers their models (the built-in service's own endpoint). */
  refreshModelServers(signal?: AbortSignal) {
    return this.transport.send({
      method: 'POST',
      path: '/v1/models/refresh',
      body: {},
      schema: ModelServersRefreshed,
      signal,
    });
  }

  /** The hosted providers the built-in service can reach, and which have a key (its own endpoint). */
  listProviders(signal?: AbortSignal) {
    return this.transport.send({
      method: 'GET',
      path: '/v1/providers',
      schema: records(ProviderState),
      idempotent: true,
      signal,
    });
  }

  /** Hands a provider's key to the built-in service, which keeps it in memory only. */
  setProviderKey(provider: string, body: ProviderKeyBody, signal?: AbortSignal) {
    return this.transport.send({
      method: 'PUT',
      path: `/v1/providers/${seg(provider)}/key`,
      body,
      schema: ProviderState,
      idempotent: true,
      signal,
    });
  }

  removeProviderKey(provider: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'DELETE',
      path: `/v1/providers/${seg(provider)}/key`,
      schema: ProviderState,
      idempotent: true,
      signal,
    });
  }

  /** Adds an Azure deployment named otherwise than its model, as the organization's `azure/<deployment>`. */
  addAzureDeployment(deployment: string, model: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'PUT',
      path: `/v1/providers/azure/deployments/${seg(deployment)}`,
      body: { model },
      schema: ModelRecord,
      idempotent: true,
      signal,
    });
  }

  removeAzureDeployment(deployment: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'DELETE',
      path: `/v1/providers/azure/deployments/${seg(deployment)}`,
      schema: DeleteResult,
      idempotent: true,
      signal,
    });
  }

  /** Tries a provider's key with a one-word request; the answer says in words whether it works. */
  checkProvider(provider: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'POST',
      path: `/v1/providers/${seg(provider)}/check`,
      body: {},
      schema: ProviderCheck,
      signal,
    });
  }

  getSpaceModels(appId: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'GET',
      path: `/v1/apps/${seg(appId)}/models`,
      schema: SpaceModels,
      idempotent: true,
      signal,
    });
  }

  toggleModel(appId: string, modelId: string, enable: boolean, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/models/${seg(modelId)}/toggle`;
    return this.transport.send({
      method: 'PUT',
      path,
      query: { enable },
      schema: ToggleResult,
      idempotent: true,
      signal,
    });
  }

  createConversation(appId: string, body: ConversationCreateBody, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations/create`;
    return this.transport.send({ method: 'POST', path, body, schema: Conversation, signal });
  }

  getConversation(appId: string, conversationId: string, includeRequests = false, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations/${seg(conversationId)}`;
    return this.transport.send({
      method: 'POST',
      path,
      body: { include_requests: includeRequests },
      schema: ConversationWithRequests,
      idempotent: true,
      signal,
    });
  }

  listConversations(appId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations`;
    return this.transport.send({ method: 'GET', path, schema: records(Conversation), idempotent: true, signal });
  }

  listAssistants(appId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants`;
    return this.transport.send({ method: 'GET', path, schema: records(AssistantSummary), idempotent: true, signal });
  }

  getAssistant(appId: string, assistantId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants/${seg(assistantId)}`;
    return this.transport.send({ method: 'GET', path, schema: AssistantSummary, idempotent: true, signal });
  }

  createAssistant(appId: string, body: AssistantCreateBody, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants`;
    return this.transport.send({ method: 'POST', path, body, schema: AssistantSummary, signal });
  }

  createAssistantVersion(appId: string, assistantId: string, body: AssistantVersionCreateBody, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants/${seg(assistantId)}/versions`;
    return this.transport.send({ method: 'POST', path, body, schema: AssistantVersion, signal });
  }

  updatePrompt(promptId: string, body: PromptUpdateBody, signal?: AbortSignal) {
    return this.transport.send({
      method: 'PUT',
      path: `/v1/prompts/${seg(promptId)}`,
      body,
      schema: PromptRecord,
      signal,
    });
  }

  deletePrompt(promptId: string, signal?: AbortSignal) {
    return this.transport.send({
      method: 'DELETE',
      path: `/v1/prompts/${seg(promptId)}`,
      schema: DeleteResult,
      signal,
    });
  }

  async getOrganization(signal?: AbortSignal) {
    const org = await this.transport.send({
      method: 'GET',
      path: '/v1/orgs/self',
      schema: Organization,
      idempotent: true,
      signal,
    });
    this.organizationRead = true;
    return org;
  }

  /**
   * Checks that the token is accepted: the organization's record where the service has it, else the
   * catalogue, read without checking the answer's shape. Only a 401 or 403 means a wrong token.
   */
  async checkToken(signal?: AbortSignal): Promise<void> {
    try {
      await this.transport.send({
        method: 'GET',
        path: '/v1/orgs/self',
        schema: z.unknown(),
        idempotent: true,
        signal,
      });
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
      await this.transport.send({
        method: 'GET',
        path: '/v1/internal/models',
        schema: z.unknown(),
        idempotent: true,
        signal,
      });
    }
  }

  health(signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: '/healthz', schema: Health, idempotent: true, signal });
  }
}

/** Tool calls stream in pieces by index; they are handed on whole, before the reply's figures. */
class ToolCallPieces {
  private readonly calls: Array<{ id: string; name: string; arguments: string }> = [];

  add(pieces: ReadonlyArray<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>): void {
    for (const piece of pieces) {
      const call = (this.calls[piece.index] ??= { id: '', name: '', arguments: '' });
      if (piece.id) call.id = piece.id;
      call.name += piece.function?.name ?? '';
      call.arguments += piece.function?.arguments ?? '';
    }
  }

  *flush(): Generator<ChatStreamEvent> {
    for (const call of this.calls.splice(0)) if (call) yield { type: 'toolCall', ...call };
  }
}

function* chunkEvents(data: string, endpoint: string, calls: ToolCallPieces): Generator<ChatStreamEvent> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new BadResponseError('The reply stream sent an event that is not JSON.', endpoint, 200, '');
  }
  const failure = StreamErrorBody.safeParse(json);
  if (failure.success) throw new StreamError(failure.data.error.detail, endpoint);
  const openAiFailure = OpenAiErrorBody.safeParse(json);
  if (openAiFailure.success) throw new StreamError(openAiFailure.data.error.message, endpoint);
  const chunk = parseBody(ChatChunk, data, endpoint, 200);
  const choice = chunk.choices[0];
  const thought = choice?.delta.reasoning_content || choice?.delta.reasoning;
  if (thought) yield { type: 'thinking', content: thought };
  const content = choice?.delta.content ?? '';
  if (content) yield { type: 'delta', content };
  if (choice?.delta.tool_calls) calls.add(choice.delta.tool_calls);
  const pages = citedPages(choice?.delta.annotations);
  if (pages.length) yield { type: 'sources', pages };
  if (choice?.delta.search_suggestions) yield { type: 'searchSuggestions', html: choice.delta.search_suggestions };
  if (choice?.finish_reason) yield* calls.flush();
  if (chunk.metadata && chunk.usage) {
    yield* calls.flush();
    yield {
      type: 'done',
      id: chunk.id,
      model: chunk.model,
      finishReason: choice?.finish_reason ?? null,
      usage: chunk.usage,
      metadata: chunk.metadata,
    };
  }
}

/**
 * The pages among a chunk's annotations (OpenAI's url_citation), read tolerantly: an annotation of
 * another kind, or without an address on the web, is passed over.
 */
function citedPages(annotations: readonly unknown[] | null | undefined): CitedPage[] {
  return (annotations ?? []).flatMap((a): CitedPage[] => {
    const said = a !== null && typeof a === 'object' ? (a as { type?: unknown; url_citation?: unknown }) : {};
    const page = said.type === 'url_citation' ? citedPageOf(said.url_citation) : undefined;
    return page ? [page] : [];
  });
}

/** The insisted-on fields a 422 says are missing and the update did not carry; empty if it named anything else. */
function insistedFields(error: ValidationError, body: SpaceUpdateBody): (typeof INSISTED)[number][] {
  const named = error.issues.map((issue) => issue.loc.at(-1));
  const missing = INSISTED.filter((field) => named.includes(field) && body[field] === undefined);
  return missing.length === named.length ? missing : [];
}
