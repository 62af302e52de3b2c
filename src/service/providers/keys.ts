// The providers' keys, in this process's memory only: read from the standard environment variables at
// start, or handed over by the extension (from VS Code's SecretStorage) through PUT
// /v1/providers/{id}/key. A key is never written to the database, a log line, an answer or an error.
import {
  AWS_PROFILE_KEY,
  AWS_PROFILE_VAR,
  GOOGLE_ADC_KEY,
  GOOGLE_PROJECT_ID,
  isAwsRegion,
  type ProviderName,
} from '../../shared/providerNames';
import { normalizeBaseUrl, PROVIDERS, providerSpec, type Reach } from './providers';

/**
 * A regional provider's address in the region the environment names (Bedrock's in `AWS_REGION`), or a
 * Google Cloud provider's for the project and location it names (Vertex AI's, in the global location
 * unless `GOOGLE_VERTEX_LOCATION` names another) where the environment gives it no API key.
 */
function regionalBaseUrl(spec: ProviderName, env: NodeJS.ProcessEnv): string | undefined {
  const region = spec.regions && env[spec.regions.variable]?.trim();
  if (region && isAwsRegion(region)) return spec.regions!.baseUrl(region);
  const cloud = spec.googleCloud;
  const project = cloud && googleProject(spec, env);
  // An API key of the environment (GOOGLE_VERTEX_API_KEY) answers in express mode, at the provider's
  // default address without a project, as the AI SDK sends it.
  if (!cloud || !project || spec.keyVars.some((name) => !!env[name]?.trim())) return undefined;
  const location = env[cloud.locationVar]?.trim() || Object.keys(cloud.locations)[0]!;
  return /^[a-z][a-z0-9-]{0,62}$/.test(location) ? cloud.baseUrl(project.id, location) : undefined;
}

/** The Google Cloud project the environment names for a provider, with the variable that named it. */
function googleProject(spec: ProviderName, env: NodeJS.ProcessEnv): { id: string; variable: string } | undefined {
  const variable = spec.googleCloud?.projectVars.find((name) => GOOGLE_PROJECT_ID.test(env[name]?.trim() ?? ''));
  return variable ? { id: env[variable]!.trim(), variable } : undefined;
}

/**
 * Vertex AI's key where the environment names a project: the machine's application default credentials
 * (the key file GOOGLE_APPLICATION_CREDENTIALS names, else gcloud's login), read when a request needs
 * them. Not without a project: a machine's Google login is not taken as a wish to reach Vertex AI.
 */
function googleCloudKey(spec: ProviderName, env: NodeJS.ProcessEnv): { key: string; variable: string } | undefined {
  const project = googleProject(spec, env);
  if (!project) return undefined;
  const file = 'GOOGLE_APPLICATION_CREDENTIALS';
  return { key: GOOGLE_ADC_KEY, variable: env[file]?.trim() ? file : project.variable };
}

/** A key made of several variables (keyParts), where its first two are set: their values joined by `:`. */
function keyOfParts(spec: ProviderName, env: NodeJS.ProcessEnv): string | undefined {
  const parts = (spec.keyParts ?? []).map((name) => env[name]?.trim());
  if (!parts[0] || !parts[1]) return undefined;
  return parts.filter((part) => !!part).join(':');
}

/**
 * Bedrock's key where the environment gives none of its own: the AWS profile `AWS_PROFILE` names, whose
 * credentials are read from the machine's AWS configuration (providers.ts). Not the default profile
 * unasked: a machine's AWS login is not taken as a wish to reach Bedrock.
 */
function profileKey(spec: ProviderName, env: NodeJS.ProcessEnv): string | undefined {
  const key = spec.id === 'bedrock' && `profile:${env[AWS_PROFILE_VAR]?.trim() ?? ''}`;
  return key && AWS_PROFILE_KEY.test(key) ? key : undefined;
}

/** The provider's key in the environment, with the variable that gave it (the first of several). */
function environmentKey(spec: ProviderName, env: NodeJS.ProcessEnv): { key: string; variable: string } | undefined {
  const named = spec.keyVars.find((name) => !!env[name]?.trim());
  if (named) return { key: env[named]!.trim(), variable: named };
  const parts = keyOfParts(spec, env);
  if (parts) return { key: parts, variable: spec.keyParts![0]! };
  const profile = profileKey(spec, env);
  return profile ? { key: profile, variable: AWS_PROFILE_VAR } : googleCloudKey(spec, env);
}

/** A service account key's private key (its JSON's `private_key`) and each line of it; none of any other key. */
function privateKeyOf(key: string): string[] {
  if (!key.startsWith('{')) return [];
  try {
    const pem = (JSON.parse(key) as { private_key?: unknown }).private_key;
    return typeof pem === 'string' ? [pem, ...pem.split('\n').filter((line) => line.length >= 16)] : [];
  } catch {
    return [];
  }
}

export type KeySource = 'environment' | 'extension';

interface Entry {
  key: string;
  baseUrl: string | null;
  source: KeySource;
  /** The environment's variable it came from. */
  variable?: string;
}

export class ProviderKeys {
  private readonly entries = new Map<string, Entry>();
  /** `<PROVIDER>_BASE_URL` of the environment: where a provider is reached, whoever gave its key. */
  private readonly environmentBaseUrls = new Map<string, string>();
  /** Moves on every change: answers that say which models can answer are kept until it moves. */
  version = 0;

  /** Takes the keys and base URLs of the environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, …). */
  loadEnvironment(env: NodeJS.ProcessEnv): void {
    for (const spec of PROVIDERS) {
      const found = environmentKey(spec, env);
      const baseUrl = env[spec.baseUrlVar]?.trim() || regionalBaseUrl(spec, env) || null;
      if (baseUrl) this.environmentBaseUrls.set(spec.id, baseUrl);
      if (found) this.entries.set(spec.id, { ...found, baseUrl, source: 'environment' });
    }
    this.version++;
  }

  set(provider: string, key: string, baseUrl: string | null): void {
    this.entries.set(provider, { key, baseUrl, source: 'extension' });
    this.version++;
  }

  /** Forgets a key the extension handed over (one from the environment stays: it is the process's). */
  remove(provider: string): boolean {
    const entry = this.entries.get(provider);
    if (entry?.source !== 'extension') return false;
    this.entries.delete(provider);
    this.version++;
    return true;
  }

  has(provider: string | null | undefined): boolean {
    return !!provider && this.entries.has(provider);
  }

  source(provider: string): KeySource | null {
    return this.entries.get(provider)?.source ?? null;
  }

  /** The environment's variable the provider's key came from (`AWS_PROFILE`), where it came from there. */
  variable(provider: string): string | undefined {
    return this.entries.get(provider)?.variable;
  }

  /** The key and base URL to reach a provider with, or undefined without a key. */
  reach(provider: string): Reach | undefined {
    const entry = this.entries.get(provider);
    const spec = providerSpec(provider);
    if (!entry || !spec) return undefined;
    const baseUrl = entry.baseUrl ?? this.environmentBaseUrls.get(provider) ?? spec.defaultBaseUrl;
    return { apiKey: entry.key, baseURL: normalizeBaseUrl(spec, baseUrl) };
  }

  /**
   * Every key held, to take out of any text that might carry one (a provider's error message): a key
   * made of parts (an IAM access key's secret, its session token) each part too, and a service
   * account's private key and each line of it.
   */
  secrets(): string[] {
    return [...this.entries.values()].flatMap((e) => [
      e.key,
      ...e.key.split(':').filter((part) => part.length >= 16),
      ...privateKeyOf(e.key),
    ]);
  }
}

/** This process's keys (the service is one process; main.ts loads the environment's at start). */
export const providerKeys = new ProviderKeys();
