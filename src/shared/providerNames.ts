// The hosted providers the built-in service can reach, as people and the standard variables name
// them: one table for the service (which adds how each is reached, src/service/providers) and the
// extension (Add Provider Key…, the Models view). No SDK here.

export interface ProviderName {
  /** As the catalogue names it (the first part of a namespace). */
  id: string;
  label: string;
  /**
   * The variables a key is read from, first found wins (as the provider's own SDK names them); a
   * googleCloud provider's key may also be the machine's credentials, where its project is named.
   */
  keyVars: string[];
  /**
   * Where none of `keyVars` is set: the variables whose values together are a key, joined by `:` (AWS's
   * access key ID, secret access key and, for temporary ones, session token); the first two required.
   */
  keyParts?: readonly string[];
  /** The variable that points the provider elsewhere (a proxy, a test's fake). */
  baseUrlVar: string;
  /**
   * Its own address, with the API's version path where its documentation gives one (DeepSeek's has
   * none); '' when each user has their own (Azure).
   */
  defaultBaseUrl: string;
  /** Where people get a key. */
  keysPage: string;
  /** The embedding model to suggest with its key (for a tool's codebase index), where it has one here. */
  embeddingModel?: string;
  /** It has embedding models only (no chat model): its key is tried with one, and suggested first for an index. */
  embeddingsOnly?: true;
  /**
   * The plans whose keys answer at addresses of their own (Z.ai's GLM Coding Plan), asked after the
   * key; `baseUrl` null for the default address.
   */
  plans?: readonly ProviderPlan[];
  /**
   * A provider answering in each region of its own at an address of the region's (Amazon Bedrock): the
   * region is asked after the key, or read from `variable` where the environment gives the key.
   */
  regions?: ProviderRegions;
  /**
   * A provider reached in one Google Cloud project and location with Google Cloud's credentials (Vertex
   * AI): its key is a service account's key (its JSON) or the machine's own credentials (GOOGLE_ADC_KEY),
   * and its address names the project and location, asked after the key; or an API key (isGoogleApiKey),
   * which answers at the provider's default address (Vertex AI's express mode) with no project asked.
   */
  googleCloud?: GoogleCloudReach;
}

export interface GoogleCloudReach {
  /**
   * The variables that name the project, first found wins: with one set, the standalone service reaches
   * the provider with the machine's application default credentials.
   */
  projectVars: readonly string[];
  /** The variable that names the location (the first of `locations` where unset). */
  locationVar: string;
  /** The locations people pick from, by their code, each with its name for people. */
  locations: Readonly<Record<string, string>>;
  /** The address of the provider for a project in a location. */
  baseUrl: (project: string, location: string) => string;
}

export interface ProviderRegions {
  variable: string;
  /** The regions people pick from, by their code, each with its name for people. */
  names: Readonly<Record<string, string>>;
  /** The address of the provider in a region. */
  baseUrl: (region: string) => string;
}

export interface ProviderPlan {
  label: string;
  /** What the plan is, for people. */
  detail: string;
  baseUrl: string | null;
}

const compatible = (id: string, label: string, defaultBaseUrl: string, keysPage: string): ProviderName => ({
  id,
  label,
  keyVars: [`${id.toUpperCase()}_API_KEY`],
  baseUrlVar: `${id.toUpperCase()}_BASE_URL`,
  defaultBaseUrl,
  keysPage,
});

export const PROVIDER_NAMES: readonly ProviderName[] = [
  {
    ...compatible('openai', 'OpenAI', 'https://api.openai.com/v1', 'https://platform.openai.com/api-keys'),
    embeddingModel: 'openai/text-embedding-3-small',
  },
  compatible('anthropic', 'Anthropic', 'https://api.anthropic.com/v1', 'https://console.anthropic.com/settings/keys'),
  {
    id: 'google',
    label: 'Google Gemini',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    baseUrlVar: 'GEMINI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keysPage: 'https://aistudio.google.com/app/apikey',
    embeddingModel: 'google/gemini-embedding-001',
  },
  {
    ...compatible('mistral', 'Mistral', 'https://api.mistral.ai/v1', 'https://console.mistral.ai/api-keys'),
    embeddingModel: 'mistral/mistral-embed',
  },
  {
    ...compatible('azure', 'Azure OpenAI', '', 'https://portal.azure.com/'),
    keyVars: ['AZURE_API_KEY', 'AZURE_OPENAI_API_KEY'],
    embeddingModel: 'azure/text-embedding-3-small',
  },
  compatible('deepseek', 'DeepSeek', 'https://api.deepseek.com', 'https://platform.deepseek.com/api_keys'),
  compatible('groq', 'Groq', 'https://api.groq.com/openai/v1', 'https://console.groq.com/keys'),
  compatible('xai', 'xAI', 'https://api.x.ai/v1', 'https://console.x.ai/'),
  compatible('openrouter', 'OpenRouter', 'https://openrouter.ai/api/v1', 'https://openrouter.ai/settings/keys'),
  compatible('together', 'Together AI', 'https://api.together.xyz/v1', 'https://api.together.ai/settings/api-keys'),
  compatible(
    'fireworks',
    'Fireworks',
    'https://api.fireworks.ai/inference/v1',
    'https://fireworks.ai/account/api-keys',
  ),
  compatible('cerebras', 'Cerebras', 'https://api.cerebras.ai/v1', 'https://cloud.cerebras.ai/'),
  {
    // Kimi's maker; named as the AI SDK's package and models.dev name it, its key as Moonshot's own docs do.
    ...compatible(
      'moonshotai',
      'Moonshot AI (Kimi)',
      'https://api.moonshot.ai/v1',
      'https://platform.moonshot.ai/console/api-keys',
    ),
    keyVars: ['MOONSHOT_API_KEY'],
    baseUrlVar: 'MOONSHOT_BASE_URL',
  },
  {
    // Zhipu's GLM models, from its international platform (its key and address as Z.ai's docs name
    // them; models.dev's as well). A GLM Coding Plan key answers only at the plan's own address.
    ...compatible('zai', 'Z.ai (GLM)', 'https://api.z.ai/api/paas/v4', 'https://z.ai/manage-apikey/apikey-list'),
    keyVars: ['ZAI_API_KEY', 'ZHIPU_API_KEY'],
    plans: [
      { label: 'Pay as you go', detail: 'Billed per token, at api.z.ai/api/paas', baseUrl: null },
      {
        label: 'GLM Coding Plan',
        detail: 'The coding subscription, at api.z.ai/api/coding (its use counted at API prices)',
        baseUrl: 'https://api.z.ai/api/coding/paas/v4',
      },
    ],
  },
  {
    // The same GLM models from Zhipu's China platform, BigModel: the same API as Z.ai's, at its own prices
    // (in yuan; the price list gives them in dollars) and with its own GLM Coding Plan. Its key under the
    // name LangChain's ChatZhipuAI reads (ZHIPU_API_KEY is Z.ai's here, as it was first).
    ...compatible(
      'zhipuai',
      'Zhipu AI (BigModel, China)',
      'https://open.bigmodel.cn/api/paas/v4',
      'https://bigmodel.cn/usercenter/proj-mgmt/apikeys',
    ),
    keyVars: ['ZHIPUAI_API_KEY'],
    plans: [
      { label: 'Pay as you go', detail: 'Billed per token, at open.bigmodel.cn/api/paas', baseUrl: null },
      {
        label: 'GLM Coding Plan',
        detail: 'The coding subscription, at open.bigmodel.cn/api/coding (its use counted at API prices)',
        baseUrl: 'https://open.bigmodel.cn/api/coding/paas/v4',
      },
    ],
  },
  // MiniMax's M-series models, through its Anthropic-compatible API (the address its docs give for
  // Anthropic's SDKs, and the AI SDK's MiniMax package's), from its international platform.
  compatible(
    'minimax',
    'MiniMax',
    'https://api.minimax.io/anthropic/v1',
    'https://platform.minimax.io/user-center/basic-information/interface-key',
  ),
  {
    // Cohere's Command models and its embeddings, through its v2 API. Its own SDKs read CO_API_KEY.
    ...compatible('cohere', 'Cohere', 'https://api.cohere.com/v2', 'https://dashboard.cohere.com/api-keys'),
    keyVars: ['COHERE_API_KEY', 'CO_API_KEY'],
    embeddingModel: 'cohere/embed-v4.0',
  },
  {
    // Amazon Bedrock's models in one AWS region, with a Bedrock API key (AWS's variable for it), or an
    // IAM access key with which each request is signed (AWS's variables for it).
    id: 'bedrock',
    label: 'Amazon Bedrock',
    keyVars: ['AWS_BEARER_TOKEN_BEDROCK'],
    keyParts: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'],
    baseUrlVar: 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
    defaultBaseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    keysPage: 'https://console.aws.amazon.com/bedrock/home#/api-keys',
    regions: {
      variable: 'AWS_REGION',
      names: {
        'us-east-1': 'US East (N. Virginia)',
        'us-east-2': 'US East (Ohio)',
        'us-west-2': 'US West (Oregon)',
        'ca-central-1': 'Canada (Central)',
        'sa-east-1': 'South America (São Paulo)',
        'eu-central-1': 'Europe (Frankfurt)',
        'eu-west-1': 'Europe (Ireland)',
        'eu-west-2': 'Europe (London)',
        'eu-west-3': 'Europe (Paris)',
        'eu-north-1': 'Europe (Stockholm)',
        'ap-northeast-1': 'Asia Pacific (Tokyo)',
        'ap-northeast-2': 'Asia Pacific (Seoul)',
        'ap-south-1': 'Asia Pacific (Mumbai)',
        'ap-southeast-1': 'Asia Pacific (Singapore)',
        'ap-southeast-2': 'Asia Pacific (Sydney)',
      },
      baseUrl: (region) => `https://bedrock-runtime.${region}.amazonaws.com`,
    },
    embeddingModel: 'bedrock/amazon.titan-embed-text-v1',
  },
  {
    // Gemini and Claude through Google Cloud's Vertex AI, in one project and location, with a service
    // account's key or the machine's Google Cloud login; the project and location as the AI SDK's Vertex
    // package and Google's own tools name them. Or Gemini alone with an API key, in express mode: at
    // Vertex AI's global address without a project, the key in the variable the AI SDK reads.
    id: 'vertex',
    label: 'Google Vertex AI',
    keyVars: ['GOOGLE_VERTEX_API_KEY'],
    baseUrlVar: 'GOOGLE_VERTEX_BASE_URL',
    defaultBaseUrl: 'https://aiplatform.googleapis.com/v1',
    keysPage: 'https://console.cloud.google.com/iam-admin/serviceaccounts',
    embeddingModel: 'vertex/gemini-embedding-001',
    googleCloud: {
      projectVars: ['GOOGLE_VERTEX_PROJECT', 'GOOGLE_CLOUD_PROJECT'],
      locationVar: 'GOOGLE_VERTEX_LOCATION',
      locations: {
        global: 'Global (any region Google chooses)',
        us: 'United States (multi-region)',
        eu: 'European Union (multi-region)',
        'us-central1': 'Iowa',
        'us-east4': 'Northern Virginia',
        'us-east5': 'Columbus, Ohio',
        'us-west1': 'Oregon',
        'europe-west1': 'Belgium',
        'europe-west2': 'London',
        'europe-west3': 'Frankfurt',
        'europe-west4': 'Netherlands',
        'europe-west9': 'Paris',
        'asia-northeast1': 'Tokyo',
        'asia-southeast1': 'Singapore',
        'australia-southeast1': 'Sydney',
      },
      baseUrl: (project, location) =>
        `https://${vertexHost(location)}/v1/projects/${encodeURIComponent(project)}/locations/${location}`,
    },
  },
  {
    ...compatible('voyage', 'Voyage AI', 'https://api.voyageai.com/v1', 'https://dashboard.voyageai.com/'),
    // Its model for code, which Continue's documentation recommends for a codebase index.
    embeddingModel: 'voyage/voyage-code-3',
    embeddingsOnly: true,
  },
];

export const providerName = (id: string | null | undefined): ProviderName | undefined =>
  PROVIDER_NAMES.find((p) => p.id === id);

/**
 * Whether the provider speaks Z.ai's API (its GLM models in lower case, thinking switched on or off, no
 * penalties): Z.ai's international platform and Zhipu's China one, BigModel.
 */
export const speaksZaiApi = (provider: string | null | undefined): boolean =>
  provider === 'zai' || provider === 'zhipuai';

/** Vertex AI's host for a location: the global one, a multi-region's (`us`, `eu`), or a region's. */
const vertexHost = (location: string) =>
  location === 'global'
    ? 'aiplatform.googleapis.com'
    : location === 'us' || location === 'eu'
      ? `aiplatform.${location}.rep.googleapis.com`
      : `${location}-aiplatform.googleapis.com`;

/**
 * The key that stands for the machine's own Google Cloud credentials, found as Google's tools find them
 * (application default credentials: the key file GOOGLE_APPLICATION_CREDENTIALS names, the login of
 * `gcloud auth application-default login`, or the credentials of the machine Google Cloud runs it on).
 */
export const GOOGLE_ADC_KEY = 'application-default';

/**
 * Whether a Google Cloud provider's key is an API key (Vertex AI's express mode, or a key bound to a
 * service account), sent as itself in `x-goog-api-key`: neither the machine's credentials nor a key
 * file's JSON.
 */
export const isGoogleApiKey = (key: string): boolean => key !== GOOGLE_ADC_KEY && !key.trimStart().startsWith('{');

/** A Google Cloud API key's shape, as its console makes them (`AIza…`, and the newer bound keys' `AQ.…`). */
export const GOOGLE_API_KEY = /^[A-Za-z0-9_.-]{30,200}$/;

/** The kinds of Google Cloud key file (their `type`) Google's library reads as credentials. */
export const GOOGLE_KEY_FILES: ReadonlySet<string> = new Set([
  'service_account',
  'authorized_user',
  'external_account',
  'external_account_authorized_user',
  'impersonated_service_account',
]);

/** A Google Cloud project's id, as Google allows it. */
export const GOOGLE_PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/** The variable the standalone service's key or a help text names for a provider. */
export const keyVariableOf = (p: ProviderName): string => p.keyVars[0] ?? p.googleCloud?.projectVars[0] ?? p.baseUrlVar;

/** An IAM access key's ID: an IAM user's (`AKIA…`), or a temporary one's (`ASIA…`). */
const ACCESS_KEY_ID = '(?:AKIA|ASIA)[A-Z0-9]{12,}';

/** An access key's ID alone, without its secret: not a key by itself. */
export const AWS_ACCESS_KEY_ID = new RegExp(`^${ACCESS_KEY_ID}$`);

/**
 * An IAM access key as one key: `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, and `:SESSION_TOKEN` for a temporary
 * one; AWS signs requests with it (Signature Version 4) rather than sending it.
 */
export const AWS_ACCESS_KEY = new RegExp(`^(${ACCESS_KEY_ID}):([A-Za-z0-9/+=]{16,})(?::([A-Za-z0-9/+=]+))?$`);

/**
 * A profile of this machine's AWS configuration (`~/.aws/config` and `~/.aws/credentials`) as a key,
 * `profile:<name>`: its credentials are read there (its access key, an SSO login, a role it assumes, a
 * process), as AWS's own tools read them, and each request signed with them. The name as AWS allows it.
 */
export const AWS_PROFILE_KEY = /^profile:([A-Za-z0-9_.+@-]{1,128})$/;

/** The variable that names the AWS profile to use, as AWS's tools read it. */
export const AWS_PROFILE_VAR = 'AWS_PROFILE';

/** An AWS region's code (`eu-west-1`, `us-gov-west-1`). */
const AWS_REGION = '[a-z]{2}(?:-[a-z]+)+-\\d+';

const ONE_REGION = new RegExp(`^${AWS_REGION}$`);
const BEDROCK_RUNTIME_REGION = new RegExp(`bedrock-runtime(?:-fips)?\\.(${AWS_REGION})\\.`);

export const isAwsRegion = (region: string): boolean => ONE_REGION.test(region);

/** The AWS region of a Bedrock address (`bedrock-runtime.eu-west-1.amazonaws.com`, a VPC endpoint's); else AWS's first. */
export const awsRegionOf = (baseURL: string): string => BEDROCK_RUNTIME_REGION.exec(baseURL)?.[1] ?? 'us-east-1';

/** The location of a Vertex AI address (`…/locations/us-east5`, `…/locations/global`), if it names one. */
export const vertexLocationOf = (baseURL: string): string | undefined => /\/locations\/([a-z0-9-]+)/.exec(baseURL)?.[1];

/**
 * The prefix of a Bedrock geography's inference profile (`eu`, `us`, `apac`, `jp`, `us-gov`): not the
 * `global` profiles, nor the price list's `regional` stand-in for these.
 */
export const BEDROCK_GEOGRAPHY = /^[a-z]{2,4}(?:-gov)?$/;

/**
 * A geography's inference profile of a Bedrock model as Bedrock names it (`eu.anthropic.claude-…`), with
 * or without the provider: its geography, and the model (`anthropic.claude-…`).
 */
export const BEDROCK_GEOGRAPHY_PROFILE = /^(?:bedrock\/)?([a-z]{2,4}(?:-gov)?)\.([a-z0-9-]+\.[^/]+)$/;

/**
 * Whether a model is Claude through a cloud's platform: Amazon Bedrock's
 * (`global.anthropic.claude-sonnet-4-5-20250929-v1:0`), reached there through Anthropic's Messages API
 * rather than the Converse API, or Vertex AI's (`claude-sonnet-4-5@20250929`), reached through
 * Anthropic's Messages API as Vertex AI serves it.
 */
export const claudeOnCloud = (provider: string | null | undefined, modelId: string): boolean =>
  (provider === 'bedrock' && /(^|\.)anthropic\.claude-/.test(modelId)) ||
  (provider === 'vertex' && modelId.startsWith('claude-'));

/**
 * Whose API's words a model speaks: Anthropic's for Claude on a cloud's platform, Google's for Vertex
 * AI's other models (Gemini, and the open models it serves through Gemini's API); else its provider's.
 */
export const dialectOf = (provider: string, modelId: string): string =>
  claudeOnCloud(provider, modelId) ? 'anthropic' : provider === 'vertex' ? 'google' : provider;

/**
 * Whether a model's bare name (`gpt-4o-mini`) is its own: not for a provider that serves its makers'
 * models under their names (Azure OpenAI serves OpenAI's, Vertex AI Google's and Anthropic's), nor for Zhipu's China platform, which
 * serves the GLM models Z.ai's does under the same names; their models are named with the provider
 * (`azure/gpt-4o-mini`, `zhipuai/glm-5.3`) unless no other model has the name.
 */
export const ownsBareNames = (provider: string | null | undefined): boolean =>
  provider !== 'azure' && provider !== 'zhipuai' && provider !== 'vertex';

/** A name Azure allows for a deployment. */
export const AZURE_DEPLOYMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/;

/** The built-in service's own groups of models, as people name them. */
const OWN_GROUPS: Readonly<Record<string, string>> = { local: 'Local model servers', test: 'Test models' };

/** A provider as people name it: a hosted one by its name, the service's own groups in words, any other as the catalogue spells it. */
export const providerLabel = (id: string): string => providerName(id)?.label ?? OWN_GROUPS[id] ?? id;
