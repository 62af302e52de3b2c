// /v1/providers (built-in service only): which hosted providers have a key, a key handed over by the
// extension (kept in memory), and a check that a key works. Never answers a key.
import type { ModelRecord, ProviderCheck, ProviderKeyBody, ProviderState } from '../../api/schemas';
import { isRetired } from '../../shared/models';
import {
  GOOGLE_ADC_KEY,
  GOOGLE_API_KEY,
  GOOGLE_KEY_FILES,
  isGoogleApiKey,
  keyVariableOf,
} from '../../shared/providerNames';
import { HostedProviders } from '../chat/reach/hostedProviders';
import { NoDeployment, failureOf } from '../chat/reach/hosted/providerFailure';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { visibleModels } from '../domain/models';
import { keyReaches } from '../domain/serving';
import { STARTERS, settleUntouchedSpaces } from '../domain/spaces';
import { Problem, invalid } from '../problem';
import { Cooldown, providerCooldown } from './cooldown';
import { byListing } from './dataset';
import { providerKeys } from './keys';
import { offeredModels } from './offered';
import { embeddingModel } from './embedders';
import { PROVIDERS, providerSpec, type ProviderSpec } from './providers';

/** How long a key's check may take: answered within the extension's request timeout (30 s by default). */
const CHECK_TIMEOUT_MS = 20_000;

export function listProviders(): ProviderState[] {
  return PROVIDERS.map((spec) => {
    const until = providerCooldown.coolingUntil(spec.id);
    return {
      id: spec.id,
      label: spec.label,
      has_key: providerKeys.has(spec.id),
      key_source: providerKeys.source(spec.id),
      key_variable: providerKeys.variable(spec.id) ?? keyVariableOf(spec),
      cooling_until: until ? new Date(until).toISOString() : null,
      keys_page: spec.keysPage,
    };
  });
}

function known(provider: string): ProviderSpec {
  const spec = providerSpec(provider);
  if (!spec) throw new Problem(404, `No provider is called "${provider}".`);
  return spec;
}

export function setProviderKey(db: Database, provider: string, body: ProviderKeyBody): ProviderState {
  const spec = known(provider);
  if (spec.id === 'azure' && !body.base_url)
    throw invalid(['body', 'base_url'], 'Azure OpenAI needs the base URL of your resource', 'missing');
  if (spec.googleCloud) checkGoogleCloudKey(spec, body);
  providerKeys.set(spec.id, body.key, body.base_url ?? null);
  providerCooldown.succeeded(spec.id);
  // Which models the key reaches is read in the background; a key check waits for it.
  void offeredModels.follow(spec.id);
  // A Space nobody has changed follows what answers now, this provider's models too, once the key is
  // known to work: a new key is tried first (checkProvider), so a mistyped one routes nothing to it.
  if (body.verified) settleUntouchedSpaces(db);
  return listProviders().find((p) => p.id === spec.id)!;
}

/**
 * A Google Cloud provider's key (Vertex AI's): an API key, at the address given or its default one
 * (express mode); or the machine's own credentials (GOOGLE_ADC_KEY) or a key file's JSON of a kind
 * Google's library reads (a service account's with its email and private key), for the project and
 * location its address names.
 */
function checkGoogleCloudKey(spec: ProviderSpec, body: ProviderKeyBody): void {
  if (isGoogleApiKey(body.key)) {
    if (!GOOGLE_API_KEY.test(body.key))
      throw invalid(
        ['body', 'key'],
        `is not a Google Cloud API key, a key file (the JSON of a service account's key), nor ${GOOGLE_ADC_KEY}`,
        'invalid',
      );
    return;
  }
  if (!body.base_url)
    throw invalid(['body', 'base_url'], `${spec.label} needs the address of your project and location`, 'missing');
  if (body.key === GOOGLE_ADC_KEY) return;
  let file: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(body.key);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) file = parsed as Record<string, unknown>;
  } catch {
    // Said below.
  }
  if (!file || typeof file.type !== 'string' || !GOOGLE_KEY_FILES.has(file.type))
    throw invalid(
      ['body', 'key'],
      `is not a Google Cloud key file (the JSON of a service account's key), nor ${GOOGLE_ADC_KEY}`,
      'invalid',
    );
  if (
    file.type === 'service_account' &&
    (typeof file.client_email !== 'string' || typeof file.private_key !== 'string')
  )
    throw invalid(['body', 'key'], "is a service account's key file without its email or private key", 'invalid');
}

export function removeProviderKey(db: Database, provider: string): ProviderState {
  const spec = known(provider);
  if (providerKeys.source(spec.id) === 'environment')
    throw invalid(
      ['path', 'provider'],
      `The ${spec.label} key comes from the service's environment (${providerKeys.variable(spec.id) ?? keyVariableOf(spec)}); it stays`,
      'environment',
    );
  providerKeys.remove(spec.id);
  offeredModels.forget(spec.id);
  settleUntouchedSpaces(db);
  return listProviders().find((p) => p.id === spec.id)!;
}

/**
 * Asks a current model of the provider for a word, with the key it has, of those the provider lists
 * for the key (read first, offered.ts): the first of its starters it lists (STARTERS, our choice of its
 * current models; Azure's is the deployment most likely made, as its models answer only through
 * deployments named as them), else its cheapest that models.dev lists (byListing: the price list's
 * cheapest may be long retired), else its cheapest. Azure's answer that no such deployment exists
 * comes after it took the key: the key works.
 */
export async function checkProvider(db: Database, caller: Caller, provider: string): Promise<ProviderCheck> {
  const spec = known(provider);
  if (!providerKeys.has(spec.id)) return { ok: false, message: `There is no ${spec.label} key.`, model: null };
  if (spec.embeddingsOnly) return checkByEmbedding(spec);
  await offeredModels.refresh(spec.id);
  const model = modelToTry(db, caller, spec.id);
  if (!model && offeredModels.listed(spec.id))
    return {
      ok: false,
      message: `${spec.label} lists none of the catalogue's current models for this key, so it cannot be tried.`,
      model: null,
    };
  if (!model)
    return { ok: false, message: `The catalogue has no ${spec.label} model to try the key with.`, model: null };
  const reach = new HostedProviders(providerKeys, new Cooldown());
  let message: string;
  try {
    await reach.generate({
      model,
      messages: [{ role: 'user', content: 'Reply with the word OK.' }],
      prompt: 'Reply with the word OK.',
      images: 0,
      files: 0,
      maxTokens: 16,
      temperature: 0,
      tools: {},
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    message = `The ${spec.label} key works: ${model.namespace} answered.`;
  } catch (error) {
    if (error instanceof NoDeployment) message = `The ${spec.label} key works, but ${error.message}.`;
    else
      return {
        ok: false,
        message: `The ${spec.label} key did not work: ${(error as Error).message}.`,
        model: model.namespace,
      };
  }
  await db.transaction(() => settleUntouchedSpaces(db));
  return { ok: true, message, model: model.namespace };
}

/**
 * A provider of embedding models only (no list of models to read, no chat model): its key is tried by
 * embedding one word with the model suggested for it.
 */
async function checkByEmbedding(spec: ProviderSpec): Promise<ProviderCheck> {
  const namespace = spec.embeddingModel!;
  const model = embeddingModel(spec.id, providerKeys.reach(spec.id)!, namespace.slice(spec.id.length + 1))!;
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    await model.doEmbed({ values: ['OK'], abortSignal: signal });
  } catch (error) {
    const why = signal.aborted
      ? `${spec.label} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`
      : failureOf(error, spec, providerKeys.secrets()).message;
    return { ok: false, message: `The ${spec.label} key did not work: ${why}.`, model: namespace };
  }
  return { ok: true, message: `The ${spec.label} key works: ${namespace} answered.`, model: namespace };
}

function modelToTry(db: Database, caller: Caller, provider: string): ModelRecord | undefined {
  const current = visibleModels(db, caller)
    .map((m) => m.record)
    .filter((r) => r.provider === provider && !r.is_test_model && !isRetired(r) && r.is_chat && keyReaches(r));
  const starter = STARTERS[provider]?.flatMap((ns) => current.find((r) => r.namespace === ns) ?? [])[0];
  const { listed, unlisted } = byListing(current);
  return starter ?? listed[0] ?? unlisted[0];
}
