// A provider's failures in words: which provider, what it answered (never the key), and when to try
// again.
import { APICallError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { Cooldown } from '../../../providers/cooldown';
import { ReachFailure } from '../reach';
import { networkWords } from '../../../../shared/networkWords';
import { throughProxy } from '../../../providers/proxy';
import type { ProviderName } from '../../../../shared/providerNames';
/** A failed request in words: which provider, what it answered (never the key), and when to try again. */
export class ProviderFailure extends ReachFailure {
  constructor(
    message: string,
    status: number | undefined,
    unreachable: boolean,
    /** What a 429 or 503 said to wait. */
    readonly retryAfterMs: number | null,
  ) {
    super(message, status, unreachable);
  }
}

/**
 * The failure of a request not sent because its provider cools down (cooldown.ts), with how long it
 * still does; null when the provider may be asked (which, once the wait is over, makes this one the probe).
 */
export function notAskedWhileCooling(cooldown: Cooldown, provider: string, label: string): ProviderFailure | null {
  if (cooldown.allows(provider)) return null;
  const until = cooldown.coolingUntil(provider);
  return new ProviderFailure(
    `${label} is cooling down after repeated failures; not asked`,
    503,
    false,
    until === null ? null : until - Date.now(),
  );
}

/**
 * Azure's 404 for a model no deployment is named as: its models answer only through deployments named
 * as them. The key was taken.
 */
export class NoDeployment extends ProviderFailure {
  constructor(modelId: string, namespace: string) {
    super(
      `your Azure OpenAI resource has no deployment named ${modelId}: deploy the model under that name, or turn ${namespace} off in the Spaces that use it`,
      404,
      false,
      null,
    );
  }
}

export function failureOf(error: unknown, provider: ProviderName, secrets: string[]): ProviderFailure {
  const label = provider.label;
  const scrub = (text: string) => scrubbed(text, secrets);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryAfter = Number(error.responseHeaders?.['retry-after']);
    const retryAfterMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : null;
    if (status === 401 || status === 403)
      return new ProviderFailure(
        `the ${label} key was refused (HTTP ${status}): check it with Add Provider Key`,
        status,
        false,
        null,
      );
    if (status === 429 && outOfCredit(error))
      return new ProviderFailure(
        `${label} refused: the account has no credit left for this (HTTP 429: ${scrub(error.message).slice(0, 200)})${
          provider.plans
            ? `. A ${label} key answers only at its own plan's address: if it is for another plan, add it again and choose that plan`
            : ''
        }`,
        429,
        false,
        null,
      );
    if (status === 429)
      return new ProviderFailure(
        `${label} is rate limiting (HTTP 429${retryAfterMs !== null ? `, retry after ${retryAfter} s` : ''})`,
        429,
        false,
        retryAfterMs,
      );
    const said = scrub(error.message).slice(0, 300);
    if (status) return new ProviderFailure(`${label} answered HTTP ${status}: ${said}`, status, false, retryAfterMs);
    return new ProviderFailure(`${label} could not be reached: ${unreachable(error, said)}`, undefined, true, null);
  }
  if (error instanceof ReachFailure)
    return new ProviderFailure(scrub(error.message), error.status, error.unreachable, null);
  // The provider's package could not write the request in its API's terms: nothing was sent, and the
  // provider is not at fault (a 400: not counted against it).
  if (UnsupportedFunctionalityError.isInstance(error))
    return new ProviderFailure(
      `${label} cannot take this request as it is: ${scrub(error.functionality).slice(0, 200)}`,
      400,
      false,
      null,
    );
  const message = scrub((error as Error).message ?? String(error)).slice(0, 300);
  // Bedrock's package could not have the credentials to sign with (an AWS profile gone, its SSO login
  // expired): nothing was sent, and the provider is not at fault; said without the package's wrapping.
  const unsigned = NO_AWS_CREDENTIALS.exec(message);
  if (unsigned) return new ProviderFailure(`${label} was not asked: ${unsigned[1]}`, 401, false, null);
  return new ProviderFailure(`${label} could not be reached: ${unreachable(error, message)}`, undefined, true, null);
}

/** How Bedrock's package says the credentials it was given to sign with could not be had. */
const NO_AWS_CREDENTIALS = /^AWS credential provider failed: (.+?)\.? Please ensure your credential provider/s;

/**
 * The codes with which a provider's 429 says the account is out of credit rather than busy, which
 * waiting does not mend: OpenAI's `insufficient_quota`, Z.ai's 1113 (also its answer to a key of
 * another plan), each as its API reference lists it.
 */
const NO_CREDIT = new Set(['insufficient_quota', '1113']);

function outOfCredit(error: APICallError): boolean {
  try {
    const code = (JSON.parse(error.responseBody ?? '') as { error?: { code?: unknown } } | null)?.error?.code;
    return (typeof code === 'string' || typeof code === 'number') && NO_CREDIT.has(String(code));
  } catch {
    return false;
  }
}

/**
 * Why a provider could not be reached, in words (of the proxy, where the request went through one);
 * the library's own text when no code says.
 */
function unreachable(error: unknown, said: string): string {
  const words = networkWords(error, said);
  return words ? throughProxy((error as { url?: string }).url, words) : said;
}

/** Takes the keys, and anything shaped like a key, out of a provider's text. */
export function scrubbed(text: string, secrets: string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret.length >= 8) clean = clean.split(secret).join('[key]');
  return clean.replace(
    /\b(sk|sk-ant|gsk|xai|AIza)[-_A-Za-z0-9*.]{8,}|\bpa-[-_A-Za-z0-9]{8,}|\b[0-9a-f]{32}\.[A-Za-z0-9]{16}\b/g,
    '[key]',
  );
}
