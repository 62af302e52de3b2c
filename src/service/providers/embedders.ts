// The providers' embedding models (POST /v1/embeddings, chat/embeddings.ts), each through its AI SDK
// package, reached with the same key and address as its chat models (providers.ts); where a package
// takes what was asked in other words than OpenAI's (Voyage's, Cohere's, Bedrock's), they are put in
// its words first.
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAzure } from '@ai-sdk/azure';
import { createCohere } from '@ai-sdk/cohere';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, UnsupportedFunctionalityError, type EmbeddingModelV4 } from '@ai-sdk/provider';
import { createVoyage } from 'voyage-ai-provider';
import { bedrockSettings, settings, vertexGoogle, type Reach } from './providers';

/**
 * The providers whose embedding models the service reaches (POST /v1/embeddings), each through its
 * package's embedding model: OpenAI's, Azure's (a deployment's name), Google's (at Google and Vertex
 * AI), Mistral's, Voyage's, Cohere's and Bedrock's.
 */
const EMBEDDERS: Record<string, (reach: Reach, modelId: string) => EmbeddingModelV4> = {
  openai: (reach, modelId) => createOpenAI(settings(reach)).embedding(modelId),
  azure: (reach, modelId) => createAzure(settings(reach)).embedding(modelId),
  google: (reach, modelId) => createGoogleGenerativeAI(settings(reach)).embedding(modelId),
  vertex: (reach, modelId) => vertexGoogle(reach).embeddingModel(modelId),
  mistral: (reach, modelId) => createMistral(settings(reach)).embedding(modelId),
  voyage: voyageEmbedding,
  cohere: cohereEmbedding,
  bedrock: bedrockEmbedding,
};

/**
 * What an embeddings request may ask beyond OpenAI's fields, in Voyage's words (its API's): whether
 * the texts are queries or documents, and whether an over-long text is cut rather than refused.
 */
export type EmbeddingAsked = { inputType?: 'query' | 'document'; truncation?: boolean };

/**
 * A package's embedding model whose call is first put in its API's words (`doEmbed`): its provider,
 * batch size and parallelism are the package's own.
 */
function embeddingAs(
  model: Pick<EmbeddingModelV4, 'provider' | 'maxEmbeddingsPerCall' | 'supportsParallelCalls'>,
  modelId: string,
  doEmbed: EmbeddingModelV4['doEmbed'],
): EmbeddingModelV4 {
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId,
    maxEmbeddingsPerCall: model.maxEmbeddingsPerCall,
    supportsParallelCalls: model.supportsParallelCalls,
    doEmbed,
  };
}

/**
 * Voyage's embedding model (the AI SDK's community provider, `voyage-ai-provider`), which speaks the
 * SDK's previous embedding interface: the same call, with the dimensions asked for as its option
 * (`output_dimension` on Voyage's API) beside the options of its own asked (`input_type`, `truncation`).
 */
function voyageEmbedding(reach: Reach, modelId: string): EmbeddingModelV4 {
  const model = createVoyage(settings(reach)).textEmbeddingModel(modelId);
  return embeddingAs(model, modelId, async ({ dimensions, providerOptions, ...options }) => {
    const voyage = { ...providerOptions?.voyage, ...(dimensions ? { outputDimension: dimensions } : {}) };
    try {
      return await model.doEmbed({
        ...options,
        providerOptions: Object.keys(voyage).length ? { voyage } : undefined,
      });
    } catch (error) {
      throw withVoyageReason(error);
    }
  });
}

/** The numbers of dimensions Cohere's embed-v4.0 makes (its API reference's `output_dimension`). */
const COHERE_DIMENSIONS = [256, 512, 1024, 1536];

/** Refuses, before anything is sent, a number of dimensions the model does not make. */
function checkSize(modelId: string, sizes: readonly number[], dimensions: number | undefined): void {
  if (dimensions !== undefined && !sizes.includes(dimensions))
    throw new UnsupportedFunctionalityError({
      functionality: sizes.length
        ? `${modelId} makes ${sizes.join(', ')} dimensions, not ${dimensions}`
        : `${modelId} makes vectors of one size: dimensions cannot be asked of it`,
    });
}

/**
 * Cohere's embedding model, with what was asked in its API's words: the dimensions as
 * `output_dimension`, a query or a document as `search_query` or `search_document` (a query unless
 * said, as its package sends), and a text cut at its end or refused when too long.
 */
function cohereEmbedding(reach: Reach, modelId: string): EmbeddingModelV4 {
  const model = createCohere(settings(reach)).embedding(modelId);
  return embeddingAs(model, modelId, async ({ dimensions, providerOptions, ...options }) => {
    checkSize(modelId, COHERE_DIMENSIONS, dimensions);
    const asked = (providerOptions?.cohere ?? {}) as EmbeddingAsked;
    const cohere = {
      ...(dimensions ? { outputDimension: dimensions } : {}),
      ...(asked.inputType ? { inputType: `search_${asked.inputType}` } : {}),
      ...(asked.truncation !== undefined ? { truncate: asked.truncation ? 'END' : 'NONE' } : {}),
    };
    return model.doEmbed({ ...options, ...(Object.keys(cohere).length ? { providerOptions: { cohere } } : {}) });
  });
}

/**
 * The sizes of vector Bedrock's embedding models make where one may be asked, by Bedrock's pages of
 * their request fields, and the option of the AI SDK's Bedrock package that asks it: Titan Text
 * Embeddings V2's `dimensions`, Cohere Embed v4's `output_dimension`, Nova's `embeddingDimension`.
 * The others (Titan's first, Cohere's v3) make one size.
 */
const BEDROCK_DIMENSIONS: ReadonlyArray<{ model: RegExp; sizes: readonly number[]; option: string }> = [
  { model: /^amazon\.titan-embed-text-v2/, sizes: [256, 512, 1024], option: 'dimensions' },
  { model: /(^|\.)cohere\.embed-v4/, sizes: COHERE_DIMENSIONS, option: 'outputDimension' },
  { model: /^amazon\.nova-.*embed/, sizes: [256, 384, 1024, 3072], option: 'embeddingDimension' },
];

/**
 * Bedrock's embedding model (Titan's, Cohere's and Nova's, through InvokeModel, signed as its chats
 * are), with the dimensions asked in its family's words; one that makes a single size says so.
 */
function bedrockEmbedding(reach: Reach, modelId: string): EmbeddingModelV4 {
  const model = createAmazonBedrock(bedrockSettings(reach)).embedding(modelId);
  const sized = BEDROCK_DIMENSIONS.find((family) => family.model.test(modelId));
  return embeddingAs(model, modelId, async ({ dimensions, ...options }) => {
    checkSize(modelId, sized?.sizes ?? [], dimensions);
    if (dimensions === undefined || !sized) return model.doEmbed(options);
    return model.doEmbed({ ...options, providerOptions: { bedrock: { [sized.option]: dimensions } } });
  });
}

/**
 * Voyage's refusal with its reason: its API answers `{"detail": "…"}` (its published OpenAPI), which
 * the package does not read (it expects OpenAI's `error.message`, and says only the HTTP status text).
 */
function withVoyageReason(error: unknown): unknown {
  if (!APICallError.isInstance(error) || !error.responseBody) return error;
  let detail: unknown;
  try {
    detail = (JSON.parse(error.responseBody) as { detail?: unknown }).detail;
  } catch {
    return error;
  }
  if (typeof detail !== 'string' || !detail) return error;
  return new APICallError({
    message: detail,
    url: error.url,
    requestBodyValues: error.requestBodyValues,
    statusCode: error.statusCode,
    responseHeaders: error.responseHeaders,
    responseBody: error.responseBody,
    isRetryable: error.isRetryable,
  });
}

/** The provider's embedding model, reached with this key at this base URL; undefined for a provider without. */
export const embeddingModel = (provider: string, reach: Reach, modelId: string): EmbeddingModelV4 | undefined =>
  EMBEDDERS[provider]?.(reach, modelId);

/** Whether the service reaches the provider's embedding models. */
export const embeds = (provider: string): boolean => provider in EMBEDDERS;
