// The typed /v1 client: one method per endpoint of service-interface.md and of conventions.md.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import { ApiError, BadResponseError, NetworkError, StreamError } from './errors';
import {
  AssistantSummary,
  AssistantVersion,
  ChatChunk,
  ChatCompletion,
  Conversation,
  ConversationWithRequests,
  DeleteResult,
  Health,
  ModelRecord,
  Organization,
  PromptRecord,
  RegeneratedKey,
  SpaceCreated,
  SpaceList,
  SpaceModels,
  SpaceUpdateResponse,
  StreamError as StreamErrorBody,
  ToggleResult,
  type AssistantCreateBody,
  type AssistantVersionCreateBody,
  type ChatBody,
  type ChatMetadata,
  type ConversationCreateBody,
  type ConversationUpdateBody,
  type IntegrationsBody,
  type PromptCreateBody,
  type PromptShow,
  type PromptUpdateBody,
  type SpaceCreateBody,
  type SpaceListQuery,
  type SpaceUpdateBody,
  type Usage,
} from './schemas';
import { Transport, parseBody, transportError, type TransportOptions } from './transport';

export type ClientOptions = TransportOptions;

export type ChatStreamEvent =
  | { type: 'delta'; content: string }
  | { type: 'done'; id: string; model: string; finishReason: 'stop' | 'length' | null; usage: Usage; metadata: ChatMetadata };

const seg = encodeURIComponent;

export class LlmSpacesClient {
  private readonly transport: Transport;

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

  updateSpace(body: SpaceUpdateBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'PUT', path: '/v1/apps/update', body, schema: SpaceUpdateResponse, signal });
  }

  updateIntegrations(body: IntegrationsBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'PUT', path: '/v1/orgs/integrations', body, schema: Organization, signal });
  }

  createPrompt(body: PromptCreateBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: '/v1/prompts', body, schema: PromptRecord, signal });
  }

  listPrompts(show: PromptShow = 'all', signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: '/v1/prompts', query: { show }, schema: z.array(PromptRecord), idempotent: true, signal });
  }

  listModels(signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: '/v1/internal/models', schema: z.array(ModelRecord), idempotent: true, signal });
  }

  updateConversation(appId: string, conversationId: string, body: ConversationUpdateBody, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations/${seg(conversationId)}`;
    return this.transport.send({ method: 'PUT', path, body, schema: Conversation, signal });
  }

  chat(body: ChatBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: '/v1/playground/chat', body: { ...body, stream: false }, schema: ChatCompletion, signal });
  }

  getAssistantVersion(appId: string, assistantId: string, versionId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants/${seg(assistantId)}/versions/${seg(versionId)}`;
    return this.transport.send({ method: 'GET', path, schema: AssistantVersion, idempotent: true, signal });
  }

  /**
   * The playground reply as it streams: `delta` events, then exactly one `done` with usage and metadata.
   * An error event, a cut connection or a stream without `[DONE]` throws a StreamError; it never hangs
   * longer than the transport's idle timeout.
   */
  async *chatStream(body: ChatBody, signal?: AbortSignal): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const endpoint = 'POST /v1/playground/chat';
    const stream = await this.transport.openStream({ method: 'POST', path: '/v1/playground/chat', body: { ...body, stream: true }, signal });
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
          yield* chunkEvents(data, endpoint);
        }
        if (finished) break;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const typed = transportError(error, endpoint, signal);
      throw typed instanceof NetworkError ? new StreamError('The reply stream was cut before it finished.', endpoint, undefined, { cause: error }) : typed;
    } finally {
      if (!finished) stream.destroy();
    }
    if (!finished) throw new StreamError('The reply stream was cut before it finished.', endpoint);
  }

  // ------------------------------------------------------------ conventions.md (extra endpoints)

  listSpaces(query: SpaceListQuery = {}, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: '/v1/apps/', query: { ...query }, body: {}, schema: SpaceList, idempotent: true, signal });
  }

  getSpace(appId: string, signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: `/v1/apps/${seg(appId)}`, schema: SpaceUpdateResponse, idempotent: true, signal });
  }

  createSpace(body: SpaceCreateBody, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: '/v1/apps/create', body, schema: SpaceCreated, signal });
  }

  /** A new key for a Space, shown only in this answer; the old key stops working. */
  regenerateSpaceKey(appId: string, signal?: AbortSignal) {
    return this.transport.send({ method: 'POST', path: `/v1/apps/${seg(appId)}/regenerate-key`, body: {}, schema: RegeneratedKey, signal });
  }

  getSpaceModels(appId: string, signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: `/v1/apps/${seg(appId)}/models`, schema: SpaceModels, idempotent: true, signal });
  }

  toggleModel(appId: string, modelId: string, enable: boolean, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/models/${seg(modelId)}/toggle`;
    return this.transport.send({ method: 'PUT', path, query: { enable }, schema: ToggleResult, idempotent: true, signal });
  }

  createConversation(appId: string, body: ConversationCreateBody, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations/create`;
    return this.transport.send({ method: 'POST', path, body, schema: Conversation, signal });
  }

  getConversation(appId: string, conversationId: string, includeRequests = false, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations/${seg(conversationId)}`;
    return this.transport.send({ method: 'POST', path, body: { include_requests: includeRequests }, schema: ConversationWithRequests, idempotent: true, signal });
  }

  listConversations(appId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/conversations`;
    return this.transport.send({ method: 'GET', path, schema: z.array(Conversation), idempotent: true, signal });
  }

  listAssistants(appId: string, signal?: AbortSignal) {
    const path = `/v1/apps/${seg(appId)}/assistants`;
    return this.transport.send({ method: 'GET', path, schema: z.array(AssistantSummary), idempotent: true, signal });
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
    return this.transport.send({ method: 'PUT', path: `/v1/prompts/${seg(promptId)}`, body, schema: PromptRecord, signal });
  }

  deletePrompt(promptId: string, signal?: AbortSignal) {
    return this.transport.send({ method: 'DELETE', path: `/v1/prompts/${seg(promptId)}`, schema: DeleteResult, signal });
  }

  getOrganization(signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: '/v1/orgs/self', schema: Organization, idempotent: true, signal });
  }

  health(signal?: AbortSignal) {
    return this.transport.send({ method: 'GET', path: '/healthz', schema: Health, idempotent: true, signal });
  }
}

function* chunkEvents(data: string, endpoint: string): Generator<ChatStreamEvent> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new BadResponseError('The reply stream sent an event that is not JSON.', endpoint, 200, '');
  }
  const failure = StreamErrorBody.safeParse(json);
  if (failure.success) throw new StreamError(failure.data.error.detail, endpoint);
  const chunk = parseBody(ChatChunk, data, endpoint, 200);
  const choice = chunk.choices[0];
  const content = choice?.delta.content ?? '';
  if (content) yield { type: 'delta', content };
  if (chunk.metadata && chunk.usage) {
    yield { type: 'done', id: chunk.id, model: chunk.model, finishReason: choice?.finish_reason ?? null, usage: chunk.usage, metadata: chunk.metadata };
  }
}
