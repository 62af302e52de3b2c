// The price list the hosted providers' catalogue is built from (dataset.ts): the one this build ships
// in @pydantic/genai-prices, or a newer one read from where that package publishes its data (its
// REMOTE_DATA_JSON_URL, on GitHub: onlineList.ts), as the package's own auto-update is meant to be
// used. Models released and prices changed since this build then reach the catalogue without a new
// release.
//
// The list is read tolerantly: a provider or model of a shape this version does not know is left out
// (and counted), a kind of price it does not know is dropped, the shipped entry stands for a provider
// the list lacks, and a list that would leave the catalogue with less than half its models is not used.
import {
  REMOTE_DATA_JSON_URL,
  updatePrices,
  waitForUpdate,
  type ModelPrice,
  type Provider,
} from '@pydantic/genai-prices';
import { catalogueSourcesChanged, datasetModels, DATASET } from './dataset';
import { isEntry, type Entry, type ListKind } from './onlineList';

/** Where genai-prices publishes its current list. */
export const PRICES_URL = REMOTE_DATA_JSON_URL;
/** How deep a model's match rule may nest, and how many parts it may have. */
const MAX_MATCH_DEPTH = 16;
const MAX_MATCH_PARTS = 1_000;

/** The list this build ships, taken before anything replaces it. */
const SHIPPED: Promise<Provider[] | null> = waitForUpdate();

let install: (data: Provider[]) => unknown = () => {
  throw new Error('genai-prices took no update');
};
updatePrices(({ setProviderData }) => {
  install = setProviderData;
});

/** The price list, as the service reads it online (onlineList.ts). */
export const PRICE_LIST: ListKind<Provider[]> = {
  what: 'price list',
  file: 'prices.json',
  shipped: { label: `${DATASET.name} ${DATASET.version} (${DATASET.date})`, day: DATASET.date },
  check: checkedProviders,
  adopt: async (providers) => {
    const shipped = (await SHIPPED) ?? [];
    const kinds = priceKinds(shipped);
    const byId = new Map(providers.map((p) => [p.id, p]));
    const before = (await waitForUpdate()) ?? shipped;
    const now = new Date().toISOString();
    shippedModels ??= before === shipped ? datasetModels(now).length : undefined;
    let count: number;
    try {
      install([...providers.map((p) => knownKindsOnly(p, kinds)), ...shipped.filter((p) => !byId.has(p.id))]);
      catalogueSourcesChanged();
      count = datasetModels(now).length;
    } catch (error) {
      install(before);
      catalogueSourcesChanged();
      return `genai-prices could not read it (${(error as Error).message})`;
    }
    if (shippedModels !== undefined && count < shippedModels / 2) {
      install(before);
      catalogueSourcesChanged();
      return `it would leave ${count} models of the ${shippedModels} the shipped list gives`;
    }
    return undefined;
  },
};

/** How many models the shipped list gives the catalogue, counted before another list is put in its place. */
let shippedModels: number | undefined;

/** A provider's models with only the kinds of price this version knows (genai-prices warns of the others at each use). */
function knownKindsOnly(provider: Provider, kinds: ReadonlySet<string>): Provider {
  const known = (prices: ModelPrice) => Object.fromEntries(Object.entries(prices).filter(([kind]) => kinds.has(kind)));
  return {
    ...provider,
    models: provider.models.map((m) => ({
      ...m,
      prices: Array.isArray(m.prices) ? m.prices.map((c) => ({ ...c, prices: known(c.prices) })) : known(m.prices),
    })),
  };
}

const isPrice = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The kinds of price the shipped list has: the ones this version's genai-prices knows. */
function priceKinds(shipped: Provider[]): Set<string> {
  const kinds = new Set<string>();
  for (const p of shipped)
    for (const m of p.models)
      for (const prices of Array.isArray(m.prices) ? m.prices.map((c) => c.prices) : [m.prices])
        for (const kind of Object.keys(prices)) kinds.add(kind);
  return kinds;
}

/**
 * The providers of a list as genai-prices reads them, each model of a shape it knows; a list that is
 * not one, in words.
 */
function checkedProviders(data: unknown): { list: Provider[]; leftOut: number } | string {
  if (!Array.isArray(data)) return 'it is not a list of providers';
  const providers: Provider[] = [];
  let leftOut = 0;
  for (const p of data) {
    if (
      !isEntry(p) ||
      typeof p.id !== 'string' ||
      typeof p.name !== 'string' ||
      typeof p.api_pattern !== 'string' ||
      !compiles(p.api_pattern) ||
      !Array.isArray(p.models) ||
      (p.model_match !== undefined && !isMatch(p.model_match)) ||
      (p.provider_match !== undefined && !isMatch(p.provider_match))
    ) {
      leftOut++;
      continue;
    }
    const models = [];
    for (const m of p.models) {
      const model = checkedModel(m);
      if (model) models.push(model);
      else leftOut++;
    }
    const fallbacks = p.fallback_model_providers;
    providers.push({
      ...(p as unknown as Provider),
      models,
      // What reads usage from answers is not used here, and a kind it does not know would be warned of.
      extractors: undefined,
      fallback_model_providers:
        Array.isArray(fallbacks) && fallbacks.every((f) => typeof f === 'string') ? fallbacks : undefined,
    });
  }
  if (!providers.length) return 'it has no provider of a shape this version knows';
  return { list: providers, leftOut };
}

function checkedModel(m: unknown): Provider['models'][number] | undefined {
  if (!isEntry(m) || typeof m.id !== 'string' || !isMatch(m.match)) return undefined;
  let prices: unknown;
  if (Array.isArray(m.prices)) {
    const conditional = [];
    for (const c of m.prices) {
      const at = isEntry(c) ? checkedPrices(c.prices) : undefined;
      if (!at || !isEntry(c) || (c.constraint !== undefined && !isConstraint(c.constraint))) return undefined;
      conditional.push({ ...c, prices: at });
    }
    if (!conditional.length) return undefined;
    prices = conditional;
  } else {
    prices = checkedPrices(m.prices);
    if (!prices) return undefined;
  }
  return {
    ...(m as unknown as Provider['models'][number]),
    prices: prices as Provider['models'][number]['prices'],
    context_window: typeof m.context_window === 'number' ? m.context_window : undefined,
    deprecated: m.deprecated === true ? true : undefined,
  };
}

/** A model's prices; undefined when one is not a price. */
function checkedPrices(prices: unknown): Entry | undefined {
  if (!isEntry(prices)) return undefined;
  const kept: Entry = {};
  for (const [kind, price] of Object.entries(prices)) {
    if (price === undefined) continue;
    const tiered =
      isEntry(price) &&
      isPrice(price.base) &&
      Array.isArray(price.tiers) &&
      price.tiers.every(
        (t) => isEntry(t) && Number.isSafeInteger(t.start) && (t.start as number) >= 0 && isPrice(t.price),
      );
    if (!isPrice(price) && !tiered) return undefined;
    kept[kind] = price;
  }
  return kept;
}

function isConstraint(c: unknown): boolean {
  if (!isEntry(c)) return false;
  if (c.start_date !== undefined) return typeof c.start_date === 'string' && DAY.test(c.start_date);
  return (
    typeof c.start_time === 'string' &&
    TIME.test(c.start_time) &&
    typeof c.end_time === 'string' &&
    TIME.test(c.end_time)
  );
}

/** A match rule genai-prices knows (`equals`, `starts_with`, … within `or` and `and`), walked without recursion. */
function isMatch(rule: unknown): boolean {
  const stack: Array<[unknown, number]> = [[rule, 0]];
  let parts = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isEntry(node) || depth > MAX_MATCH_DEPTH || ++parts > MAX_MATCH_PARTS) return false;
    const keys = Object.keys(node);
    if (keys.length !== 1) return false;
    const [key] = keys as [string];
    const value = node[key];
    if (key === 'or' || key === 'and') {
      if (!Array.isArray(value) || !value.length) return false;
      for (const child of value) stack.push([child, depth + 1]);
    } else if (key === 'regex') {
      if (typeof value !== 'string' || !compiles(value)) return false;
    } else if (!['equals', 'starts_with', 'ends_with', 'contains'].includes(key) || typeof value !== 'string')
      return false;
  }
  return true;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
