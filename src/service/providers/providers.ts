// How the built-in service reaches each hosted provider of src/shared/providerNames.ts: through the AI
// SDK's provider package for its wire format (at the model level: one request, no agent loop). A
// provider is named as the catalogue names it (`openai/gpt-5-mini` is OpenAI's), its key and base URL
// come from the variables its own SDK reads, and its base URL includes the API's version path.
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAmazonBedrockAnthropic } from '@ai-sdk/amazon-bedrock/anthropic';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createVertex } from '@ai-sdk/google-vertex';
import { createVertexAnthropic } from '@ai-sdk/google-vertex/anthropic';
import { createMistral } from '@ai-sdk/mistral';
import { createMoonshotAI } from '@ai-sdk/moonshotai';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { fromIni } from '@aws-sdk/credential-provider-ini';
import { FetchHttpHandler } from '@smithy/fetch-http-handler';
import { GoogleAuth } from 'google-auth-library';
import {
  AWS_ACCESS_KEY,
  AWS_PROFILE_KEY,
  awsRegionOf,
  claudeOnCloud,
  GOOGLE_ADC_KEY,
  isGoogleApiKey,
  PROVIDER_NAMES,
  type ProviderName,
} from '../../shared/providerNames';
import { poolFetch } from './poolFetch';

export interface Reach {
  apiKey: string;
  baseURL: string;
}

export interface ProviderSpec extends ProviderName {
  /**
   * The model, reached with this key at this base URL; `responses` for a reasoning model of OpenAI's
   * (at OpenAI or Azure) where the Responses API is spoken.
   */
  model: (reach: Reach, modelId: string, responses: boolean) => LanguageModelV4;
}

/** What a provider package is made with: the key, the address, and the pooled fetch (poolFetch.ts). */
export const settings = (reach: Reach) => ({ ...reach, fetch: poolFetch });

/** AWS credentials to sign a request with (Signature Version 4). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * How a reach of Bedrock's signs its requests, with the region of its address: with the IAM access key
 * it holds (AWS_ACCESS_KEY), or with the credentials of the AWS profile it names (AWS_PROFILE_KEY);
 * undefined for a Bedrock API key, which goes as a bearer token.
 */
export function awsSigningOf(reach: Reach): { region: string; credentials: () => Promise<AwsCredentials> } | undefined {
  const region = awsRegionOf(reach.baseURL);
  const profile = AWS_PROFILE_KEY.exec(reach.apiKey);
  if (profile) return { region, credentials: profileCredentials(profile[1]!) };
  const iam = AWS_ACCESS_KEY.exec(reach.apiKey);
  if (!iam) return undefined;
  const credentials = { accessKeyId: iam[1]!, secretAccessKey: iam[2]!, sessionToken: iam[3] };
  return { region, credentials: () => Promise.resolve(credentials) };
}

/** How long credentials that say no expiry are kept before the profile is read again (its file edited meanwhile). */
const PROFILE_READ_EVERY_MS = 10 * 60_000;
/** Credentials that expire are read again this long before they do. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

const profileReaders = new Map<string, () => Promise<AwsCredentials>>();

/**
 * The credentials of a profile of this machine's AWS configuration, read by AWS's own provider as its
 * tools read them (an access key, an SSO login, a role to assume, a process), kept until shortly before
 * they expire; a failure (no such profile, an SSO login expired) is said by AWS's own words and read
 * again at the next request. Its own requests (to AWS's sign-in and STS) are sent by fetch, which goes
 * through the environment's proxy as the service's other requests do (proxy.ts); AWS's default
 * handler, node:https, would go around it.
 */
function profileCredentials(profile: string): () => Promise<AwsCredentials> {
  let reader = profileReaders.get(profile);
  if (reader) return reader;
  const read = fromIni({ profile, ignoreCache: true, clientConfig: { requestHandler: new FetchHttpHandler() } });
  let held: Promise<AwsCredentials> | undefined;
  let until = 0;
  reader = () => {
    if (held && Date.now() < until) return held;
    until = Number.POSITIVE_INFINITY;
    held = read().then(
      (identity) => {
        const expires = identity.expiration?.getTime();
        until = expires ? expires - EXPIRY_MARGIN_MS : Date.now() + PROFILE_READ_EVERY_MS;
        return identity;
      },
      (error: unknown) => {
        until = 0;
        throw new Error(`the AWS profile ${profile} gave no credentials (${(error as Error).message})`);
      },
    );
    return held;
  };
  profileReaders.set(profile, reader);
  return reader;
}

/**
 * What Bedrock's package is made with: a Bedrock API key as a bearer token, or the credentials with which
 * it signs each request. Its key is given either way ('' for none), so that it never falls back on the
 * process's own AWS variables.
 */
export function bedrockSettings(reach: Reach) {
  const signing = awsSigningOf(reach);
  return signing
    ? {
        baseURL: reach.baseURL,
        fetch: poolFetch,
        apiKey: '',
        region: signing.region,
        credentialProvider: signing.credentials,
      }
    : settings(reach);
}

/** The scope of Google Cloud's APIs, Vertex AI's among them. */
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

/** Google Cloud's credentials of each key held (a service account's JSON, or GOOGLE_ADC_KEY). */
const googleAuths = new Map<string, GoogleAuth>();

/**
 * Google Cloud's credentials for a key, read by Google's own library as its tools read them: a service
 * account's key, or the machine's application default credentials (GOOGLE_ADC_KEY). A service account
 * signs its own token for each hour (a self-signed JWT with the scope, as Google's client libraries for
 * Vertex AI send it), so no token exchange waits before its first request; a user's login is
 * exchanged for an access token as gcloud's is, and kept until shortly before it expires.
 */
function googleAuthOf(key: string): GoogleAuth {
  let auth = googleAuths.get(key);
  if (auth) return auth;
  const scopes = [CLOUD_PLATFORM];
  auth =
    key === GOOGLE_ADC_KEY
      ? new GoogleAuth({ scopes })
      : new GoogleAuth({ scopes, credentials: JSON.parse(key) as Record<string, string> });
  auth.useJWTAccessWithScope = true;
  googleAuths.set(key, auth);
  return auth;
}

/**
 * The headers that carry a key's Google Cloud credentials (its bearer token, and the project a user's
 * login bills its quota to); a failure (no credentials found, a login expired) in Google's words.
 */
export async function googleCloudHeaders(key: string): Promise<Record<string, string>> {
  try {
    const client = await googleAuthOf(key).getClient();
    return Object.fromEntries((await client.getRequestHeaders()).entries());
  } catch (error) {
    throw new Error(`Google Cloud gave no credentials (${(error as Error).message})`);
  }
}

/**
 * What Vertex AI's packages are made with: the address of a publisher's models (Google's, Anthropic's)
 * in the key's project and location, and its credentials as the headers of each request. Gemini's
 * package asks its own token of an auth client before each request: it is given the one of those
 * headers, which makes no token exchange of its own.
 */
function vertexSettings(reach: Reach, publisher: string) {
  // An API key goes in express mode's own header, which Vertex AI's package sets (vertexGoogle).
  const headers = async (): Promise<Record<string, string>> =>
    isGoogleApiKey(reach.apiKey) ? {} : googleCloudHeaders(reach.apiKey);
  const token = async () => (await headers()).authorization?.replace(/^Bearer /, '') ?? null;
  const others = async () =>
    Object.fromEntries(Object.entries(await headers()).filter(([name]) => name !== 'authorization'));
  return {
    baseURL: `${reach.baseURL}/publishers/${publisher}`,
    fetch: poolFetch,
    headers: others,
    token,
  };
}

/** How each provider's models are made; the OpenAI-compatible ones share one package. */
const MODELS: Record<string, ProviderSpec['model']> = {
  // A reasoning model through the Responses API, where OpenAI lets it reason while it calls tools (on
  // Chat Completions GPT-5.6 and later are held to no reasoning when a request has function tools)
  // and writes a summary of its reasoning; any other through Chat Completions, which proxies and
  // OpenAI-compatible servers behind OPENAI_BASE_URL also speak, with stop sequences and penalties.
  // (A server there that does not know the Responses API gets reasoning models that way too.)
  openai: (reach, modelId, responses) =>
    responses ? createOpenAI(settings(reach)).responses(modelId) : createOpenAI(settings(reach)).chat(modelId),
  anthropic: (reach, modelId) => createAnthropic(settings(reach)).messages(modelId),
  google: (reach, modelId) => createGoogleGenerativeAI(settings(reach)).languageModel(modelId),
  mistral: (reach, modelId) => createMistral(settings(reach)).languageModel(modelId),
  // The catalogue's model id is the deployment's name; as at OpenAI, a reasoning model's deployment
  // through the Responses API (Azure's v1 API speaks both).
  azure: (reach, modelId, responses) =>
    responses ? createAzure(settings(reach)).responses(modelId) : createAzure(settings(reach)).chat(modelId),
  // DeepSeek's own package: its V4 models think unless `thinking` turns it off (an effort of none), and
  // it reports the input read from its cache as `prompt_cache_hit_tokens`, which OpenAI's shape lacks.
  deepseek: (reach, modelId) => createDeepSeek(settings(reach)).chat(modelId),
  // Moonshot's own package: Kimi's thinking (on by default for K2.6, always for K2.7 Code) and the
  // reasoning it sends back as `reasoning_content`, and its cached input, which OpenAI's shape lacks.
  moonshotai: (reach, modelId) => createMoonshotAI(settings(reach)).chatModel(modelId),
  // MiniMax's Anthropic-compatible API through Anthropic's package under MiniMax's name, as the AI SDK's
  // MiniMax package makes it (which pins an older copy of Anthropic's): its options and metadata are
  // read under `minimax`.
  minimax: (reach, modelId) => createAnthropic({ ...settings(reach), name: 'minimax.messages' }).messages(modelId),
  // Cohere's own package: its v2 Chat API is not OpenAI's (its messages, `p` and `k`, its stream's events).
  cohere: (reach, modelId) => createCohere(settings(reach)).languageModel(modelId),
  // Bedrock's own package, the key as a bearer token (with an address, no region or AWS credentials are
  // read): Claude through Anthropic's Messages API as Bedrock serves it (InvokeModel), as Anthropic's own
  // package speaks it (its thinking, cache and documents as at Anthropic); any other model through the
  // Converse API (one shape for every model it serves). Both stream in AWS's binary event frames.
  bedrock: (reach, modelId) =>
    claudeOnCloud('bedrock', modelId)
      ? createAmazonBedrockAnthropic(bedrockSettings(reach)).languageModel(modelId)
      : createAmazonBedrock(bedrockSettings(reach)).languageModel(modelId),
  // Vertex AI's own package, in the key's project and location: Claude through Anthropic's Messages API
  // as Vertex AI serves it (rawPredict, as Anthropic's own package speaks it), any other model (Gemini)
  // through Gemini's API as Vertex AI serves it.
  vertex: (reach, modelId) => {
    if (claudeOnCloud('vertex', modelId)) {
      const { token, ...vertex } = vertexSettings(reach, 'anthropic');
      return createVertexAnthropic({ ...vertex, baseURL: `${vertex.baseURL}/models`, generateAuthToken: token })(
        modelId,
      );
    }
    return vertexGoogle(reach).languageModel(modelId);
  },
};

/**
 * Vertex AI's package for Google's models (Gemini, its embeddings), in the key's project and location;
 * with an API key, in express mode (the key in `x-goog-api-key`). Never with the environment's
 * GOOGLE_VERTEX_API_KEY unasked, which the package reads when given no key.
 */
export function vertexGoogle(reach: Reach) {
  const { token, ...vertex } = vertexSettings(reach, 'google');
  if (isGoogleApiKey(reach.apiKey)) return createVertex({ ...vertex, apiKey: reach.apiKey });
  const authClient = { getAccessToken: async () => ({ token: await token() }) } as never;
  return createVertex({ ...vertex, apiKey: '', googleAuthOptions: { authClient } });
}

/**
 * Whether the provider is reached through the OpenAI-compatible package, which puts the options it does
 * not know into the request as they are (named as the AI SDK names them).
 */
export const passesOptionsAsTheyAre = (provider: string): boolean => !(provider in MODELS);

const compatible =
  (id: string): ProviderSpec['model'] =>
  (reach, modelId) =>
    createOpenAICompatible({ name: id, ...settings(reach), includeUsage: true }).chatModel(modelId);

export const PROVIDERS: readonly ProviderSpec[] = PROVIDER_NAMES.map((name) => ({
  ...name,
  model: MODELS[name.id] ?? compatible(name.id),
}));

export const providerSpec = (id: string | null | undefined): ProviderSpec | undefined =>
  PROVIDERS.find((p) => p.id === id);

/** Azure's hosts of a resource's OpenAI API, which is under `/openai` (a Foundry project's is not). */
const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/;

/** Providers whose base URL ends in `/v1`, as Anthropic's package wants it: Anthropic's, and MiniMax's Anthropic-compatible API. */
const ANTHROPIC_SHAPED = new Set(['anthropic', 'minimax']);

/**
 * A base URL as the provider's SDK wants it: Anthropic's and MiniMax's with `/v1` (either spelling is
 * accepted: MiniMax's docs give `https://api.minimax.io/anthropic` for Anthropic's SDKs);
 * an Azure resource's as `https://<resource>…azure.com/openai`, whichever of its addresses was given
 * (the endpoint the Azure portal shows, with `/openai` or `/openai/v1`, or a whole request's URL).
 */
export function normalizeBaseUrl(spec: ProviderSpec, url: string): string {
  const clean = url.trim().replace(/\/+$/, '');
  if (ANTHROPIC_SHAPED.has(spec.id)) return /\/v1$/.test(clean) ? clean : `${clean}/v1`;
  const azure = spec.id === 'azure' && URL.canParse(clean) ? new URL(clean) : undefined;
  if (azure && AZURE_HOST.test(azure.hostname) && !azure.pathname.startsWith('/api/projects/'))
    return `${azure.origin}/openai`;
  return clean;
}
