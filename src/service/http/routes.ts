// The route table of /v1: each entry names its inputs and output by zod schema. It drives both the
// Fastify registration (app.ts) and the OpenAPI document (openapi.ts). Handlers stay thin: parse,
// call the domain, return.
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import * as S from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import * as assistants from '../domain/assistants';
import * as conversations from '../domain/conversations';
import * as models from '../domain/models';
import * as orgs from '../domain/orgs';
import * as prompts from '../domain/prompts';
import * as spaces from '../domain/spaces';
import { completionRequest } from '../chat/completions';
import { fimRequest, textCompletionRequest } from '../chat/textCompletions';
import { embed, embeddingCatalogue } from '../chat/embeddings';
import { compactionRequest, messagesOrCompaction, responseOrCompaction } from '../chat/compaction';
import { deleteResponse, readResponse, responseInputItems } from '../chat/keptResponses';
import { cancelResponse, replayOf } from '../chat/backgroundResponses';
import {
  addItems,
  createConversation,
  listItems,
  readConversation,
  readItem,
  removeConversation,
  removeItem,
  updateConversation,
} from '../chat/openAiConversations';
import { modelById, modelList } from '../chat/modelList';
import { countMessageTokens, countResponseTokens } from '../chat/inputTokens';
import { withPlugins } from '../chat/plugins';
import { previewRoute } from '../chat/preview';
import { messageThreads } from '../chat/threads';
import { promptPrint } from '../chat/cacheDiagnostics';
import type { EngineOptions } from '../chat/reach/reaches';
import type { Body as ChatRequest } from '../chat/request';
import { parseInput } from '../problem';
import { followReplay } from './chatRoute';
import { refreshModelServers } from '../modelServers';
import { integrationsChanged } from '../observability';
import { checkProvider, listProviders, removeProviderKey, setProviderKey } from '../providers/endpoints';
import { addAzureDeployment, removeAzureDeployment } from '../providers/azureDeployments';
import { AZURE_DEPLOYMENT_NAME } from '../../shared/providerNames';

export interface RouteContext<P, Q, B> {
  db: Database;
  caller: Caller;
  params: P;
  query: Q;
  body: B;
  engine: EngineOptions;
  /** The caller is Anthropic's client (it sent `anthropic-version`): on a route for both vendors, its shapes. */
  anthropic: boolean;
  /** Names the request's log entry in the answer (or its error), where OpenAI's SDK reads a request's id. */
  logged: (requestId: string) => void;
  /** The reply, for a handler that answers with events (it returns the reply once it has taken it over). */
  reply: FastifyReply;
}

export interface RouteSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  summary: string;
  /** From conventions.md rather than service-interface.md. */
  extra?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** A body may be left out entirely (it then parses as `{}`). */
  bodyOptional?: boolean;
  /** Takes a body as large as a chat's (a batch of texts to embed), not the 1 MB of the rest. */
  largeBody?: true;
  response: z.ZodType;
  /** Changes data: runs in one transaction, answered only once it is on disk. */
  writes?: boolean;
  /** The answer depends only on the data (and the day): kept, serialized, until the next write. */
  cacheable?: boolean;
  /**
   * What a Space key may do here (an organization token may do everything): act on its own Space
   * only, read the organization's shared catalogue and prompts, or nothing (403). See the README.
   */
  spaceKey: 'own Space' | 'read' | 'refused';
  handler?: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => unknown;
  /**
   * A chat route (http/chatRoute.ts) instead of a handler: reads its body into the engine's request,
   * which runs a model and answers as JSON or as server-sent events.
   */
  chat?: (caller: Caller, body: unknown, db: Database) => ChatRequest;
  /** Answers in another vendor's shapes for its clients (conventions.md): OpenAI's (Chat Completions, Responses) or Anthropic's. */
  dialect?: 'openai' | 'responses' | 'anthropic';
  /** Read by both vendors' clients (the model list): Anthropic's, which send `anthropic-version`, get its shapes. */
  anthropicWhenAsked?: true;
  /** Its last path parameter may hold slashes, as a model's id does (openai/gpt-5-mini). */
  slashes?: true;
}

const AppParams = z.object({ app_id: S.UuidInput });
const AppConversationParams = z.object({ app_id: S.UuidInput, conversation_id: z.string().min(1).max(200) });
const AppAssistantParams = z.object({ app_id: S.UuidInput, assistant_id: S.UuidInput });
const VersionParams = z.object({ app_id: S.UuidInput, assistant_id: S.UuidInput, version_id: S.UuidInput });
const PromptParams = z.object({ prompt_id: S.UuidInput });
const ProviderParams = z.object({ provider: z.string().min(1).max(40) });
/** An Azure deployment's name, as Azure allows it. */
const DeploymentParams = z.object({
  deployment: z.string().regex(AZURE_DEPLOYMENT_NAME, 'must be 2 to 64 letters, digits, dots, dashes or underscores'),
});
const ToggleParams = z.object({ app_id: S.UuidInput, model_id: S.UuidInput });
/** Anthropic's paging of the model list; OpenAI's clients send none of it. */
const ModelPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  after_id: z.string().max(300).optional(),
  before_id: z.string().max(300).optional(),
});

const ResponseParams = z.object({ response_id: z.string().min(1).max(200) });
/**
 * What a client may ask to have included in a response it reads back, as OpenAI's SDKs send it
 * (`include[]=`, or `include=`); what this service cannot include is refused by name.
 */
const IncludeQuery = z
  .union([S.ResponsesIncludable, z.array(S.ResponsesIncludable).max(10)], {
    error: 'may name reasoning.encrypted_content and web_search_call.action.sources, what this service includes',
  })
  .optional();
type Included = z.output<typeof S.ResponsesIncludable>;
const includedOf = (query: { include?: Included | Included[]; 'include[]'?: Included | Included[] }) =>
  [query.include ?? [], query['include[]'] ?? []].flat();
const ResponseQuery = z.strictObject({
  include: IncludeQuery,
  'include[]': IncludeQuery,
  /** true: a streamed background response's events again (chat/backgroundResponses.ts), after `starting_after`. */
  stream: z.enum(['true', 'false']).optional(),
  starting_after: z
    .string()
    .regex(/^\d{1,9}$/, "must be an event's sequence number")
    .transform(Number)
    .optional(),
});
const ConversationParams = z.object({ conversation_id: z.string().min(1).max(200) });
const ConversationItemParams = ConversationParams.extend({ item_id: z.string().min(1).max(200) });
const IncludeOnlyQuery = z.strictObject({ include: IncludeQuery, 'include[]': IncludeQuery });
const InputItemsQuery = z.strictObject({
  include: IncludeQuery,
  'include[]': IncludeQuery,
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

function route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(spec: RouteSpec<P, Q, B>): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** Loads the Space first, so another organization's ids answer 404 before anything else happens. */
const inApp = (ctx: { db: Database; caller: Caller; params: { app_id: string } }) =>
  spaces.loadApp(ctx.db, ctx.caller, ctx.params.app_id).id;

export const ROUTES: RouteSpec[] = [
  // ---------------------------------------------------------------- service-interface.md
  route({
    method: 'PUT',
    url: '/v1/apps/update',
    spaceKey: 'refused',
    summary: 'Update a Space',
    body: S.SpaceUpdateBody,
    response: S.SpaceUpdateResponse,
    writes: true,
    handler: (ctx) => spaces.updateSpace(ctx.db, ctx.caller, ctx.body),
  }),
  route({
    method: 'PUT',
    url: '/v1/orgs/integrations',
    spaceKey: 'refused',
    summary: "Update the organization's observability integrations",
    body: S.IntegrationsBodyEither,
    response: S.Organization,
    writes: true,
    handler: (ctx) => {
      spaces.requirePermission(ctx.caller, 'edit');
      const org = orgs.updateIntegrations(ctx.db, ctx.caller.orgId, ctx.body);
      integrationsChanged(ctx.caller.orgId);
      return org;
    },
  }),
  route({
    method: 'POST',
    url: '/v1/prompts',
    spaceKey: 'refused',
    summary: 'Create a prompt',
    body: S.PromptCreateBody,
    response: S.PromptRecord,
    writes: true,
    handler: (ctx) => prompts.createPrompt(ctx.db, ctx.caller, ctx.body),
  }),
  route({
    method: 'GET',
    url: '/v1/prompts',
    spaceKey: 'read',
    summary: 'List prompts',
    query: S.PromptListQuery,
    response: z.array(S.PromptRecord),
    cacheable: true,
    handler: (ctx) => prompts.listPrompts(ctx.db, ctx.caller, ctx.query.show),
  }),
  route({
    method: 'GET',
    url: '/v1/internal/models',
    spaceKey: 'read',
    summary: 'List the models available to the caller',
    response: z.array(S.ModelRecord),
    cacheable: true,
    handler: (ctx) => models.listModels(ctx.db, ctx.caller),
  }),
  route({
    method: 'GET',
    url: '/v1/internal/embedding-models',
    spaceKey: 'read',
    summary:
      'The embedding models POST /v1/embeddings takes: each with its price per input token and whether it answers here',
    extra: true,
    response: z.array(S.EmbeddingModelRecord),
    handler: (ctx) => embeddingCatalogue(ctx.db),
  }),
  route({
    method: 'PUT',
    url: '/v1/apps/:app_id/conversations/:conversation_id',
    spaceKey: 'own Space',
    summary: 'Rename a conversation or change its assistant settings',
    params: AppConversationParams,
    body: S.ConversationUpdateBody,
    response: S.Conversation,
    writes: true,
    handler: (ctx) => conversations.updateConversation(ctx.db, inApp(ctx), ctx.params.conversation_id, ctx.body),
  }),
  route({
    method: 'POST',
    url: '/v1/playground/chat',
    spaceKey: 'own Space',
    summary: 'Send a chat prompt through a Space (JSON, or server-sent events with stream: true)',
    body: S.ChatBody,
    response: S.ChatCompletion,
    chat: (_caller, body) => withPlugins(parseInput(S.ChatBody, body, 'body')),
  }),
  route({
    method: 'POST',
    url: '/v1/messages',
    spaceKey: 'own Space',
    summary:
      "Anthropic's Messages API through a Space: a Space key's own (as x-api-key or a bearer token), or app_id with an organization token (JSON, or Anthropic's events with stream: true)",
    extra: true,
    body: S.AnthropicMessagesBody,
    response: z.looseObject({ type: z.literal('message') }),
    chat: (caller, body) => {
      const { given, turn } = messageThreads.read(caller, body);
      const asked = messagesOrCompaction(caller, given);
      const print = promptPrint(caller, given);
      return turn || print ? { ...asked, anthropicThread: turn, promptPrint: print } : asked;
    },
    dialect: 'anthropic',
  }),
  route({
    method: 'POST',
    url: '/v1/messages/count_tokens',
    spaceKey: 'own Space',
    summary: "Anthropic's token count of a Messages request as this service counts it (instructions included)",
    extra: true,
    body: S.AnthropicCountBody,
    response: z.object({ input_tokens: z.int() }),
    dialect: 'anthropic',
    handler: (ctx) => countMessageTokens(ctx.db, ctx.caller, ctx.body),
  }),
  route({
    method: 'GET',
    url: '/v1/models',
    spaceKey: 'read',
    summary:
      "OpenAI's or Anthropic's model list: the models that can answer here and each Space by its name (a Space key: its own Space and its active models)",
    extra: true,
    query: ModelPageQuery,
    response: z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) }),
    dialect: 'openai',
    anthropicWhenAsked: true,
    handler: (ctx) => modelList(ctx.db, ctx.caller, ctx.anthropic, ctx.query),
  }),
  route({
    method: 'GET',
    url: '/v1/models/:model',
    slashes: true,
    spaceKey: 'read',
    summary:
      "One model of the list, by its id (which may hold slashes: openai/gpt-5-mini), in OpenAI's or Anthropic's shape",
    extra: true,
    params: z.object({ model: z.string().min(1).max(300) }),
    response: z.looseObject({ id: z.string() }),
    dialect: 'openai',
    anthropicWhenAsked: true,
    handler: (ctx) => modelById(ctx.db, ctx.caller, ctx.params.model, ctx.anthropic),
  }),
  route({
    method: 'POST',
    url: '/v1/chat/completions',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI-compatible chat completion through a Space: a Space key's own, or app_id with an organization token (JSON, or server-sent events with stream: true)",
    body: S.ChatCompletionsBody,
    response: S.ChatCompletion,
    chat: (caller, body) => completionRequest(caller, parseInput(S.ChatCompletionsBody, body, 'body')),
    dialect: 'openai',
  }),
  route({
    method: 'POST',
    url: '/v1/completions',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI's legacy text completion through a Space, as code completion tools send it: a model server continues the prompt as it is (and fills in before suffix), a hosted chat model answers it (JSON, or server-sent events with stream: true)",
    body: S.TextCompletionsBody,
    response: z.looseObject({ object: z.literal('text_completion') }),
    chat: (caller, body) => textCompletionRequest(caller, parseInput(S.TextCompletionsBody, body, 'body')),
    dialect: 'openai',
  }),
  route({
    method: 'POST',
    url: '/v1/fim/completions',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "Mistral's fill in the middle through a Space, as Continue sends it for Codestral: Codestral, DeepSeek's V4 models or a model server's model write what goes between prompt and suffix (a chat completion's shape: JSON, or server-sent events with stream: true)",
    body: S.FimCompletionsBody,
    response: z.looseObject({ object: z.literal('chat.completion') }),
    chat: (caller, body) => fimRequest(caller, parseInput(S.FimCompletionsBody, body, 'body')),
    dialect: 'openai',
  }),
  route({
    method: 'POST',
    url: '/v1/responses',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI's Responses API through a Space: a Space key's own, or app_id with an organization token (JSON, or the Responses events with stream: true)",
    body: S.ResponsesBody,
    response: z.looseObject({ object: z.literal('response') }),
    chat: (caller, body, db) => responseOrCompaction(caller, parseInput(S.ResponsesBody, body, 'body'), db),
    dialect: 'responses',
  }),
  route({
    method: 'POST',
    url: '/v1/responses/input_tokens',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI's token count of a Responses request as this service counts it (instructions and a continued response's items included)",
    body: S.ResponsesCountBody,
    response: z.object({ object: z.literal('response.input_tokens'), input_tokens: z.int() }),
    dialect: 'openai',
    handler: (ctx) => countResponseTokens(ctx.db, ctx.caller, ctx.body),
  }),
  route({
    method: 'POST',
    url: '/v1/responses/compact',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI's compaction of a Responses conversation through a Space: a model of the Space sums it up, and the answer gives back the user's messages and a compaction item to send in place of the rest, which any model of the Space reads",
    body: S.ResponsesCompactBody,
    response: z.looseObject({ object: z.literal('response.compaction') }),
    chat: (caller, body, db) => compactionRequest(caller, parseInput(S.ResponsesCompactBody, body, 'body'), db),
    dialect: 'responses',
  }),
  route({
    method: 'GET',
    url: '/v1/responses/:response_id',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "A response the Space kept, as it was answered (OpenAI's responses.retrieve): a Space key's own Space's, or any of the organization's with its token",
    params: ResponseParams,
    query: ResponseQuery,
    response: z.looseObject({ object: z.literal('response') }),
    dialect: 'openai',
    handler: (ctx) => {
      const id = ctx.params.response_id;
      if (ctx.query.stream !== 'true') return readResponse(ctx.db, ctx.caller, id, includedOf(ctx.query));
      followReplay(replayOf(ctx.db, ctx.caller, id), ctx.reply, ctx.query.starting_after ?? -1);
      return ctx.reply;
    },
  }),
  route({
    method: 'POST',
    url: '/v1/responses/:response_id/cancel',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "Cancel a background response still running (OpenAI's responses.cancel): it stops, and is kept and answered as cancelled",
    params: ResponseParams,
    body: z.object({}),
    bodyOptional: true,
    response: z.looseObject({ object: z.literal('response') }),
    dialect: 'openai',
    handler: (ctx) => cancelResponse(ctx.db, ctx.caller, ctx.params.response_id),
  }),
  route({
    method: 'GET',
    url: '/v1/responses/:response_id/input_items',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "The input items of a response the Space kept, newest first unless order is asc, 20 a page unless limit says otherwise (OpenAI's responses.inputItems.list)",
    params: ResponseParams,
    query: InputItemsQuery,
    response: z.looseObject({ object: z.literal('list') }),
    dialect: 'openai',
    handler: (ctx) =>
      responseInputItems(ctx.db, ctx.caller, ctx.params.response_id, { ...ctx.query, include: includedOf(ctx.query) }),
  }),
  route({
    method: 'DELETE',
    url: '/v1/responses/:response_id',
    spaceKey: 'own Space',
    extra: true,
    summary:
      'Delete a response the Space kept, with its input and output items: it can no longer be read back, continued or referred to',
    params: ResponseParams,
    response: z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) }),
    writes: true,
    dialect: 'openai',
    handler: (ctx) => deleteResponse(ctx.db, ctx.caller, ctx.params.response_id),
  }),
  route({
    method: 'POST',
    url: '/v1/conversations',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI's Conversations API: a conversation in the Space, with its first items, which a Responses request names by conversation to go on from (a Space key's own Space, or app_id with an organization token)",
    body: S.OpenAiConversationCreateBody,
    response: z.looseObject({ object: z.literal('conversation') }),
    writes: true,
    dialect: 'openai',
    handler: (ctx) => createConversation(ctx.db, ctx.caller, ctx.body),
  }),
  route({
    method: 'GET',
    url: '/v1/conversations/:conversation_id',
    spaceKey: 'own Space',
    extra: true,
    summary: "A conversation the Space keeps (OpenAI's conversations.retrieve)",
    params: ConversationParams,
    response: z.looseObject({ object: z.literal('conversation') }),
    dialect: 'openai',
    handler: (ctx) => readConversation(ctx.db, ctx.caller, ctx.params.conversation_id),
  }),
  route({
    method: 'POST',
    url: '/v1/conversations/:conversation_id',
    spaceKey: 'own Space',
    extra: true,
    summary: "A conversation's metadata, replaced (OpenAI's conversations.update)",
    params: ConversationParams,
    body: S.OpenAiConversationUpdateBody,
    response: z.looseObject({ object: z.literal('conversation') }),
    writes: true,
    dialect: 'openai',
    handler: (ctx) => updateConversation(ctx.db, ctx.caller, ctx.params.conversation_id, ctx.body.metadata),
  }),
  route({
    method: 'DELETE',
    url: '/v1/conversations/:conversation_id',
    spaceKey: 'own Space',
    extra: true,
    summary: "Delete a conversation and its items (OpenAI's conversations.delete)",
    params: ConversationParams,
    response: z.object({ id: z.string(), object: z.literal('conversation.deleted'), deleted: z.literal(true) }),
    writes: true,
    dialect: 'openai',
    handler: (ctx) => removeConversation(ctx.db, ctx.caller, ctx.params.conversation_id),
  }),
  route({
    method: 'POST',
    url: '/v1/conversations/:conversation_id/items',
    spaceKey: 'own Space',
    extra: true,
    summary: "Items added at a conversation's end, 20 at a time (OpenAI's conversations.items.create)",
    params: ConversationParams,
    query: IncludeOnlyQuery,
    body: S.OpenAiConversationItemsBody,
    response: z.looseObject({ object: z.literal('list') }),
    writes: true,
    dialect: 'openai',
    handler: (ctx) => addItems(ctx.db, ctx.caller, ctx.params.conversation_id, ctx.body, includedOf(ctx.query)),
  }),
  route({
    method: 'GET',
    url: '/v1/conversations/:conversation_id/items',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "A conversation's items, newest first unless order is asc, 20 a page unless limit says otherwise (OpenAI's conversations.items.list)",
    params: ConversationParams,
    query: InputItemsQuery,
    response: z.looseObject({ object: z.literal('list') }),
    dialect: 'openai',
    handler: (ctx) =>
      listItems(ctx.db, ctx.caller, ctx.params.conversation_id, { ...ctx.query, include: includedOf(ctx.query) }),
  }),
  route({
    method: 'GET',
    url: '/v1/conversations/:conversation_id/items/:item_id',
    spaceKey: 'own Space',
    extra: true,
    summary: "One item of a conversation (OpenAI's conversations.items.retrieve)",
    params: ConversationItemParams,
    query: IncludeOnlyQuery,
    response: z.looseObject({ id: z.string() }),
    dialect: 'openai',
    handler: (ctx) =>
      readItem(ctx.db, ctx.caller, ctx.params.conversation_id, ctx.params.item_id, includedOf(ctx.query)),
  }),
  route({
    method: 'DELETE',
    url: '/v1/conversations/:conversation_id/items/:item_id',
    spaceKey: 'own Space',
    extra: true,
    summary: "Delete one item of a conversation; the answer is the conversation (OpenAI's conversations.items.delete)",
    params: ConversationItemParams,
    response: z.looseObject({ object: z.literal('conversation') }),
    writes: true,
    dialect: 'openai',
    handler: (ctx) => removeItem(ctx.db, ctx.caller, ctx.params.conversation_id, ctx.params.item_id),
  }),
  route({
    method: 'POST',
    url: '/v1/embeddings',
    spaceKey: 'own Space',
    extra: true,
    summary:
      "OpenAI's Embeddings API through a Space, logged and billed there: the embedding model named (OpenAI's, Azure's, Google's, Mistral's, or a model server's), never another",
    body: S.EmbeddingsBody,
    largeBody: true,
    response: z.looseObject({ object: z.literal('list') }),
    dialect: 'openai',
    handler: (ctx) => embed(ctx.db, ctx.caller, ctx.body, ctx.logged),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/:app_id/route',
    spaceKey: 'own Space',
    extra: true,
    summary: 'Which model the Space would pick for a prompt, and why (built-in service only; runs no model)',
    // The cost band counts the files the prompt would go with.
    largeBody: true,
    params: AppParams,
    body: S.RouteQuestion,
    response: S.RoutePreview,
    handler: (ctx) => previewRoute(ctx.db, ctx.caller, inApp(ctx), ctx.body),
  }),
  route({
    method: 'POST',
    url: '/v1/models/refresh',
    spaceKey: 'refused',
    extra: true,
    summary:
      'Look again for model servers on this computer and at the upstream URLs, and offer their models (built-in service only)',
    body: z.object({}),
    bodyOptional: true,
    response: S.ModelServersRefreshed,
    handler: async (ctx) => {
      const servers = await refreshModelServers(ctx.db, ctx.engine.servers);
      return {
        servers: servers.map((s) => ({
          name: s.name,
          base_url: s.baseUrl,
          answered: s.answered,
          models: s.models,
          problem: s.problem ?? null,
        })),
      };
    },
  }),
  route({
    method: 'GET',
    url: '/v1/apps/:app_id/assistants/:assistant_id/versions/:version_id',
    spaceKey: 'own Space',
    summary: 'Read one version of an assistant',
    params: VersionParams,
    response: S.AssistantVersion,
    handler: (ctx) => assistants.getVersion(ctx.db, inApp(ctx), ctx.params.assistant_id, ctx.params.version_id),
  }),

  // ---------------------------------------------------------------- conventions.md
  route({
    method: 'POST',
    url: '/v1/apps/',
    spaceKey: 'own Space',
    summary: 'List Spaces',
    extra: true,
    query: S.SpaceListQuery,
    body: z.object({}),
    bodyOptional: true,
    response: S.SpaceList,
    handler: (ctx) => spaces.listSpaces(ctx.db, ctx.caller, ctx.query),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/create',
    spaceKey: 'refused',
    summary: 'Create a Space',
    extra: true,
    body: S.SpaceCreateBody,
    bodyOptional: true,
    response: S.SpaceCreated,
    writes: true,
    handler: (ctx) => spaces.createSpace(ctx.db, ctx.caller, ctx.body),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/:app_id/regenerate-key',
    spaceKey: 'refused',
    summary: 'Make a new key for a Space (the old one stops working)',
    extra: true,
    params: AppParams,
    body: z.object({}),
    bodyOptional: true,
    response: S.RegeneratedKey,
    writes: true,
    handler: (ctx) => spaces.regenerateKey(ctx.db, ctx.caller, ctx.params.app_id),
  }),
  route({
    method: 'GET',
    url: '/v1/apps/:app_id',
    spaceKey: 'own Space',
    summary: 'Read a Space with its sandbox',
    extra: true,
    params: AppParams,
    response: S.SpaceUpdateResponse,
    handler: (ctx) => spaces.spaceView(ctx.db, ctx.caller, ctx.params.app_id),
  }),
  route({
    method: 'GET',
    url: '/v1/apps/:app_id/models',
    spaceKey: 'own Space',
    summary: 'Models of a Space',
    extra: true,
    params: AppParams,
    response: S.SpaceModels,
    handler: (ctx) => {
      const view = models.spaceModels(ctx.db, ctx.caller, inApp(ctx));
      return {
        active_models: view.active_models,
        base_model_settings: view.base_model_settings,
        failover_models: view.failover_models,
      };
    },
  }),
  route({
    method: 'PUT',
    url: '/v1/apps/:app_id/models/:model_id/toggle',
    spaceKey: 'refused',
    summary: 'Turn a model of a Space on or off',
    extra: true,
    params: ToggleParams,
    query: S.ToggleQuery,
    response: S.ToggleResult,
    writes: true,
    handler: (ctx) => {
      const appId = inApp(ctx);
      spaces.requirePermission(ctx.caller, 'edit');
      spaces.touchSpace(ctx.db, appId);
      return models.toggleModel(ctx.db, ctx.caller, appId, ctx.params.model_id, ctx.query.enable === 'true');
    },
  }),
  route({
    method: 'GET',
    url: '/v1/apps/:app_id/conversations',
    spaceKey: 'own Space',
    summary: 'List conversations, newest first',
    extra: true,
    params: AppParams,
    response: z.array(S.Conversation),
    handler: (ctx) => conversations.listConversations(ctx.db, inApp(ctx)),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/:app_id/conversations/create',
    spaceKey: 'own Space',
    summary: 'Create a conversation',
    extra: true,
    params: AppParams,
    body: S.ConversationCreateBody,
    response: S.Conversation,
    writes: true,
    handler: (ctx) => conversations.createConversation(ctx.db, inApp(ctx), ctx.body),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/:app_id/conversations/:conversation_id',
    spaceKey: 'own Space',
    summary: 'Read a conversation, optionally with its requests',
    extra: true,
    params: AppConversationParams,
    body: S.ConversationReadBody,
    bodyOptional: true,
    response: S.ConversationWithRequests,
    handler: (ctx) =>
      conversations.getConversation(ctx.db, inApp(ctx), ctx.params.conversation_id, ctx.body.include_requests),
  }),
  route({
    method: 'GET',
    url: '/v1/apps/:app_id/assistants',
    spaceKey: 'own Space',
    summary: 'List assistants',
    extra: true,
    params: AppParams,
    response: z.array(S.AssistantSummary),
    handler: (ctx) => assistants.listAssistants(ctx.db, inApp(ctx)),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/:app_id/assistants',
    spaceKey: 'refused',
    summary: 'Create an assistant',
    extra: true,
    params: AppParams,
    body: S.AssistantCreateBody,
    response: S.AssistantSummary,
    writes: true,
    handler: (ctx) => {
      const appId = inApp(ctx);
      spaces.requirePermission(ctx.caller, 'edit');
      return assistants.createAssistant(ctx.db, appId, ctx.body);
    },
  }),
  route({
    method: 'GET',
    url: '/v1/apps/:app_id/assistants/:assistant_id',
    spaceKey: 'own Space',
    summary: 'Read an assistant',
    extra: true,
    params: AppAssistantParams,
    response: S.AssistantSummary,
    handler: (ctx) => assistants.getAssistant(ctx.db, inApp(ctx), ctx.params.assistant_id),
  }),
  route({
    method: 'POST',
    url: '/v1/apps/:app_id/assistants/:assistant_id/versions',
    spaceKey: 'refused',
    summary: 'Add a version to an assistant',
    extra: true,
    params: AppAssistantParams,
    body: S.AssistantVersionCreateBody,
    response: S.AssistantVersion,
    writes: true,
    handler: (ctx) => {
      const appId = inApp(ctx);
      spaces.requirePermission(ctx.caller, 'edit');
      return assistants.createVersion(ctx.db, ctx.caller, appId, ctx.params.assistant_id, ctx.body);
    },
  }),
  route({
    method: 'PUT',
    url: '/v1/prompts/:prompt_id',
    spaceKey: 'refused',
    summary: "Update a prompt of the caller's organization",
    extra: true,
    params: PromptParams,
    body: S.PromptUpdateBody,
    response: S.PromptRecord,
    writes: true,
    handler: (ctx) => prompts.updatePrompt(ctx.db, ctx.caller, ctx.params.prompt_id, ctx.body),
  }),
  route({
    method: 'DELETE',
    url: '/v1/prompts/:prompt_id',
    spaceKey: 'refused',
    summary: "Delete a prompt of the caller's organization",
    extra: true,
    params: PromptParams,
    response: S.DeleteResult,
    writes: true,
    handler: (ctx) => prompts.deletePrompt(ctx.db, ctx.caller, ctx.params.prompt_id),
  }),
  route({
    method: 'GET',
    url: '/v1/orgs/self',
    spaceKey: 'read',
    summary: "Read the caller's organization",
    extra: true,
    response: S.Organization,
    // A Space key sees usage and limits, never the integration tokens.
    handler: (ctx) =>
      (ctx.caller.appId ? orgs.withoutIntegrationTokens : (o: S.Organization) => o)(
        orgs.getOrganization(ctx.db, ctx.caller.orgId),
      ),
  }),
  // ---------------------------------------------------------------- provider keys (built-in service)
  route({
    method: 'GET',
    url: '/v1/providers',
    spaceKey: 'refused',
    summary: 'The hosted providers this service can reach, and which have a key (never the key itself)',
    extra: true,
    response: z.array(S.ProviderState),
    handler: () => listProviders(),
  }),
  route({
    method: 'PUT',
    url: '/v1/providers/:provider/key',
    spaceKey: 'refused',
    summary: "Hand a provider's key to this service: kept in its memory only, never stored or answered",
    extra: true,
    params: ProviderParams,
    body: S.ProviderKeyBody,
    response: S.ProviderState,
    writes: true,
    handler: (ctx) => setProviderKey(ctx.db, ctx.params.provider, ctx.body),
  }),
  route({
    method: 'DELETE',
    url: '/v1/providers/:provider/key',
    spaceKey: 'refused',
    summary: 'Forget a key handed over for a provider',
    extra: true,
    params: ProviderParams,
    response: S.ProviderState,
    writes: true,
    handler: (ctx) => removeProviderKey(ctx.db, ctx.params.provider),
  }),
  route({
    method: 'PUT',
    url: '/v1/providers/azure/deployments/:deployment',
    spaceKey: 'refused',
    summary:
      "Add an Azure OpenAI deployment named otherwise than its model, as the organization's model azure/<deployment>, priced as the OpenAI model it runs",
    extra: true,
    params: DeploymentParams,
    body: S.AzureDeploymentBody,
    response: S.ModelRecord,
    writes: true,
    handler: (ctx) => addAzureDeployment(ctx.db, ctx.caller, ctx.params.deployment, ctx.body),
  }),
  route({
    method: 'DELETE',
    url: '/v1/providers/azure/deployments/:deployment',
    spaceKey: 'refused',
    summary: "Forget an Azure OpenAI deployment added, and take it out of the organization's Spaces",
    extra: true,
    params: DeploymentParams,
    response: S.DeleteResult,
    writes: true,
    handler: (ctx) => removeAzureDeployment(ctx.db, ctx.caller, ctx.params.deployment),
  }),
  route({
    method: 'POST',
    url: '/v1/providers/:provider/check',
    spaceKey: 'refused',
    summary: "Try a provider's key with a one-word request to its cheapest current model",
    extra: true,
    params: ProviderParams,
    body: z.object({}),
    bodyOptional: true,
    response: S.ProviderCheck,
    handler: (ctx) => checkProvider(ctx.db, ctx.caller, ctx.params.provider),
  }),
];
