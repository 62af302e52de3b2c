// The hosted providers the built-in service reaches with the user's own keys, each through the AI
// SDK's provider package for its wire format (at the model level: one request, no agent loop). A
// provider is named as the catalogue names it (`openai/gpt-5-mini` is OpenAI's), its key and base URL
// come from the variables its own SDK reads, and its base URL includes the API's version path.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';

export interface Reach {
  apiKey: string;
  baseURL: string;
}

export interface ProviderSpec {
  /** As the catalogue names it (the first part of a namespace). */
  id: string;
  /** As people name it. */
  label: string;
  /** The variables a key is read from, first found wins (as the provider's own SDK names them). */
  keyVars: string[];
  /** The variable that points the provider elsewhere (a proxy, a test's fake). */
  baseUrlVar: string;
  defaultBaseUrl: string;
  /** Where people get a key, for the words of a refused or missing key. */
  keysPage: string;
  /** The model, reached with this key at this base URL. */
  model: (reach: Reach, modelId: string) => LanguageModelV4;
}

/** A provider whose API is OpenAI's Chat Completions at its own base URL. */
function openAiCompatible(id: string, label: string, defaultBaseUrl: string, keysPage: string): ProviderSpec {
  const upper = id.toUpperCase();
  return {
    id,
    label,
    keyVars: [`${upper}_API_KEY`],
    baseUrlVar: `${upper}_BASE_URL`,
    defaultBaseUrl,
    keysPage,
    model: (reach, modelId) => createOpenAICompatible({ name: id, ...reach, includeUsage: true }).chatModel(modelId),
  };
}

export const PROVIDERS: readonly ProviderSpec[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    keyVars: ['OPENAI_API_KEY'],
    baseUrlVar: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    keysPage: 'https://platform.openai.com/api-keys',
    // Chat Completions, which proxies and OpenAI-compatible servers behind OPENAI_BASE_URL also speak.
    model: (reach, modelId) => createOpenAI(reach).chat(modelId),
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    keyVars: ['ANTHROPIC_API_KEY'],
    baseUrlVar: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    keysPage: 'https://console.anthropic.com/settings/keys',
    model: (reach, modelId) => createAnthropic(reach).messages(modelId),
  },
  {
    id: 'google',
    label: 'Google Gemini',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    baseUrlVar: 'GEMINI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keysPage: 'https://aistudio.google.com/app/apikey',
    model: (reach, modelId) => createGoogleGenerativeAI(reach).languageModel(modelId),
  },
  {
    id: 'mistral',
    label: 'Mistral',
    keyVars: ['MISTRAL_API_KEY'],
    baseUrlVar: 'MISTRAL_BASE_URL',
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    keysPage: 'https://console.mistral.ai/api-keys',
    model: (reach, modelId) => createMistral(reach).languageModel(modelId),
  },
  {
    id: 'azure',
    label: 'Azure OpenAI',
    keyVars: ['AZURE_API_KEY', 'AZURE_OPENAI_API_KEY'],
    baseUrlVar: 'AZURE_BASE_URL',
    defaultBaseUrl: '',
    keysPage: 'https://portal.azure.com/',
    // The catalogue's model id is the deployment's name.
    model: (reach, modelId) => createAzure(reach).chat(modelId),
  },
  openAiCompatible('deepseek', 'DeepSeek', 'https://api.deepseek.com/v1', 'https://platform.deepseek.com/api_keys'),
  openAiCompatible('groq', 'Groq', 'https://api.groq.com/openai/v1', 'https://console.groq.com/keys'),
  openAiCompatible('xai', 'xAI', 'https://api.x.ai/v1', 'https://console.x.ai/'),
  openAiCompatible('openrouter', 'OpenRouter', 'https://openrouter.ai/api/v1', 'https://openrouter.ai/settings/keys'),
  openAiCompatible(
    'together',
    'Together AI',
    'https://api.together.xyz/v1',
    'https://api.together.ai/settings/api-keys',
  ),
  openAiCompatible(
    'fireworks',
    'Fireworks',
    'https://api.fireworks.ai/inference/v1',
    'https://fireworks.ai/account/api-keys',
  ),
  openAiCompatible('cerebras', 'Cerebras', 'https://api.cerebras.ai/v1', 'https://cloud.cerebras.ai/'),
];

export const providerSpec = (id: string | null | undefined): ProviderSpec | undefined =>
  PROVIDERS.find((p) => p.id === id);

/** A base URL as the provider's SDK wants it: Anthropic's with `/v1` (either spelling is accepted). */
export function normalizeBaseUrl(spec: ProviderSpec, url: string): string {
  const clean = url.trim().replace(/\/+$/, '');
  return spec.id === 'anthropic' && !/\/v1$/.test(clean) ? `${clean}/v1` : clean;
}
