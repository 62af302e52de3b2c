// The tools agents can call: the same five in VS Code (language model tools) and through the bundled
// MCP server. Each has a description for the model, a JSON input schema (package.json repeats them;
// a test keeps the two equal) and an answer in plain sentences. No vscode here.
import type { ModelRecord, Organization, RoutePreview, Space, SpaceUpdateResponse } from '../api/schemas';
import { estimateCost as costOf } from '../service/chat/pricing';
import { money } from '../shared/money';
import { cheapestFirst, isRetired, priceLine, todayIso } from '../shared/models';

/** What the tools read; the extension's stores in VS Code, a client in the MCP server. */
export interface ToolData {
  spaces(): Promise<Space[]>;
  detail(spaceId: string): Promise<SpaceUpdateResponse>;
  models(): Promise<ModelRecord[]>;
  organization(): Promise<Organization | undefined>;
  /** The service's own explanation of a route; undefined where the service does not offer one. */
  route(spaceId: string, prompt: string, maxTokens: number): Promise<RoutePreview | undefined>;
  countTokens(text: string): number;
}

export interface ToolSpec {
  name: string;
  toolReferenceName: string;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  /** What the answer's data holds (MCP's structuredContent); absent for a tool that only acts. */
  outputSchema?: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
}

/** A tool's answer: sentences for the model, and the same as data for clients that read it (MCP). */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

const MONEY = { type: 'number', description: 'US dollars.' };
const NAMED_COST = {
  type: 'object',
  properties: { model: { type: ['string', 'null'] }, cost: MONEY },
  required: ['model', 'cost'],
};

const SPACE = {
  type: 'string',
  description: 'The Space, by its name or id. Optional when the organization has one Space.',
};
const PROMPT = { type: 'string', description: 'The prompt text, as it would be sent.' };

export const TOOL_SPECS = [
  {
    name: 'llmSpaces_estimateCost',
    toolReferenceName: 'spaceCost',
    displayName: 'Estimate Prompt Cost',
    userDescription: 'What a prompt would cost in a Space: the minimum, expected and maximum',
    modelDescription:
      'Estimates what sending a prompt through an LLM Spaces Space would cost: the minimum, expected and maximum over the models the Space may route to and its failover chain, from the token count of the prompt and the reply length allowed. Use it before sending a long or repeated prompt, or to compare Spaces.',
    inputSchema: {
      type: 'object',
      properties: {
        space: SPACE,
        prompt: PROMPT,
        maxTokens: {
          type: 'integer',
          minimum: 1,
          maximum: 10_000_000,
          description: "The longest reply allowed, in tokens (default: the Space's setting).",
        },
      },
      required: ['prompt'],
    },
    outputSchema: {
      type: 'object',
      properties: {
        space: { type: 'string' },
        promptTokens: { type: 'integer' },
        maxTokens: { type: 'integer' },
        minimum: NAMED_COST,
        expected: NAMED_COST,
        maximum: NAMED_COST,
        models: { type: 'integer', description: 'How many models the estimate is over (0: none is active).' },
      },
      required: ['space', 'models'],
    },
  },
  {
    name: 'llmSpaces_explainRoute',
    toolReferenceName: 'spaceRoute',
    displayName: 'Explain Space Routing',
    userDescription: 'Which model a Space would pick for a prompt, and why',
    modelDescription:
      "Explains which model an LLM Spaces Space would pick for a prompt and why: the candidates with their cost, latency and quality scores under the Space's weights, and the active models left out with the reason (deprecated, over the cost cap, cannot read images, cannot answer here).",
    inputSchema: { type: 'object', properties: { space: SPACE, prompt: PROMPT }, required: ['prompt'] },
    outputSchema: {
      type: 'object',
      properties: {
        space: { type: 'string' },
        weights: {
          type: ['object', 'null'],
          properties: { cost: { type: 'number' }, latency: { type: 'number' }, quality: { type: 'number' } },
        },
        chosen: { type: ['string', 'null'], description: 'The model it would pick; null: none can answer.' },
        candidates: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              model: { type: 'string' },
              score: { type: 'number' },
              costScore: { type: 'number' },
              latencyScore: { type: 'number' },
              qualityScore: { type: 'number' },
              estimatedCost: MONEY,
            },
          },
        },
        leftOut: {
          type: 'array',
          items: { type: 'object', properties: { model: { type: 'string' }, reason: { type: 'string' } } },
        },
        failover: { type: 'array', items: { type: 'string' } },
      },
      required: ['space', 'chosen'],
    },
  },
  {
    name: 'llmSpaces_findModels',
    toolReferenceName: 'findModels',
    displayName: 'Find Models',
    userDescription: 'Find models by capability, price and context window',
    modelDescription:
      'Finds models in the LLM Spaces catalogue by words, capabilities, price and context window, cheapest first. Prices are in US dollars per million tokens.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'Words to find in the name, provider or description.' },
        capabilities: {
          type: 'array',
          items: { type: 'string', enum: ['vision', 'functions', 'json', 'stream', 'reasoning'] },
          description: 'Capabilities every model found must have.',
        },
        maxInputPrice: {
          type: 'number',
          minimum: 0,
          description: 'Highest price of input per million tokens, in dollars.',
        },
        minContextWindow: {
          type: 'integer',
          minimum: 0,
          maximum: 100_000_000,
          description: 'Smallest context window, in tokens.',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many models at most (default 10).' },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        matches: { type: 'integer', description: 'How many models match (more than listed when over the limit).' },
        models: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              model: { type: 'string' },
              inputPerMillion: MONEY,
              outputPerMillion: MONEY,
              contextWindow: { type: 'integer' },
              capabilities: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
      required: ['matches', 'models'],
    },
  },
  {
    name: 'llmSpaces_checkBudget',
    toolReferenceName: 'spaceBudget',
    displayName: 'Check Budget',
    userDescription: "The organization's spending against its limits",
    modelDescription:
      'Tells how much the LLM Spaces organization has spent this billing cycle against its soft and hard spending limits, and how much is left before each.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: {
      type: 'object',
      properties: {
        shared: { type: 'boolean', description: "Whether the service shares the organization's spending." },
        spent: MONEY,
        requests: { type: 'integer' },
        softLimit: { type: ['number', 'null'], description: 'US dollars; null: none set.' },
        hardLimit: { type: ['number', 'null'], description: 'US dollars; null: none set.' },
      },
      required: ['shared'],
    },
  },
  {
    name: 'llmSpaces_useSpace',
    toolReferenceName: 'useSpace',
    displayName: 'Use Space in Chat',
    userDescription: 'Switch the Space that the chat\'s "Current Space" model routes through',
    modelDescription:
      'Switches the Space that the "Current Space" model of LLM Spaces in VS Code\'s chat routes through. The user confirms the switch. Use it when the user asks to change how their chat requests are routed (another budget, privacy level or set of models).',
    inputSchema: {
      type: 'object',
      properties: { space: { type: 'string', description: 'The Space to use, by its name or id.' } },
      required: ['space'],
    },
  },
] as const satisfies readonly ToolSpec[];

export type ToolName = (typeof TOOL_SPECS)[number]['name'];

/** A tool input that does not match its schema: the message is for the model, so it can call again. */
export class ToolInputError extends Error {}

const count = (n: number) => n.toLocaleString('en-US');
/** A number of things, said with the thing in the plural unless there is one. */
const counted = (n: number, thing: string) => `${count(n)} ${thing}${n === 1 ? '' : 's'}`;

type Bounds = { type?: string; minimum?: number; maximum?: number };

/**
 * One field of a tool's input, checked against the tool's own schema: its type, and a number's bounds
 * (VS Code hands the model's input over unchecked; the MCP SDK checks it too).
 */
function field<T>(tool: ToolName, input: unknown, key: string, required: boolean): T | undefined {
  const spec = TOOL_SPECS.find((t) => t.name === tool)!;
  const schema = (spec.inputSchema.properties as Record<string, Bounds>)[key]!;
  const value = (input as Record<string, unknown> | null)?.[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolInputError(`"${key}" is required.`);
    return undefined;
  }
  if (schema.type === 'string') {
    if (typeof value !== 'string') throw new ToolInputError(`"${key}" must be text.`);
    return value as T;
  }
  const whole = schema.type === 'integer';
  if (typeof value !== 'number' || !Number.isFinite(value) || (whole && !Number.isInteger(value)))
    throw new ToolInputError(`"${key}" must be ${whole ? 'a whole number' : 'a number'}.`);
  if (schema.minimum !== undefined && value < schema.minimum)
    throw new ToolInputError(`"${key}" must be at least ${schema.minimum}.`);
  if (schema.maximum !== undefined && value > schema.maximum)
    throw new ToolInputError(`"${key}" must be at most ${count(schema.maximum)}.`);
  return value as T;
}

/** The Space named (by id, or by name ignoring case), or the only one there is. */
export async function findSpace(data: ToolData, named: string | undefined): Promise<Space> {
  const spaces = (await data.spaces()).filter((s) => !s.sandbox_of);
  if (!named) {
    if (spaces.length === 1) return spaces[0]!;
    throw new ToolInputError(`Name the Space: one of ${spaces.map((s) => `"${s.name}"`).join(', ')}.`);
  }
  const want = named.trim().toLowerCase();
  const found = spaces.find((s) => s.id === want) ?? spaces.find((s) => (s.name ?? '').toLowerCase() === want);
  if (!found)
    throw new ToolInputError(
      `There is no Space "${named}". The Spaces are: ${spaces.map((s) => `"${s.name}"`).join(', ')}.`,
    );
  return found;
}

export async function estimateCost(data: ToolData, input: unknown): Promise<ToolAnswer> {
  const tool = 'llmSpaces_estimateCost';
  const prompt = field<string>(tool, input, 'prompt', true)!;
  const space = await findSpace(data, field<string>(tool, input, 'space', false));
  const [view, models] = await Promise.all([data.detail(space.id), data.models()]);
  const maxTokens = field<number>(tool, input, 'maxTokens', false) ?? view.main.app.settings?.max_tokens ?? 1024;
  const byName = new Map(models.map((m) => [m.namespace, m]));
  const active = [...view.main.base_model_settings, ...view.main.custom_model_settings]
    .filter((s) => s.active && !s.globally_disabled)
    .flatMap((s) => byName.get(s.namespace) ?? []);
  const chain = view.main.app.has_failover_chain ? view.main.failover_models : [];
  const all = [...new Map([...active, ...chain].map((m) => [m.namespace, m])).values()];
  if (all.length === 0)
    return {
      text: `"${space.name}" has no active model, so nothing would answer. Turn a model on in the Spaces view.`,
      data: { space: space.name, models: 0 },
    };
  const promptTokens = data.countTokens(prompt);
  const costs = all
    .map((m) => ({ m, cost: costOf(m, promptTokens, prompt.length, maxTokens) }))
    .sort((a, b) => a.cost - b.cost);
  const min = costs[0]!;
  const max = costs.at(-1)!;
  const route = await data.route(space.id, prompt, maxTokens);
  const chosen = route?.chosen ? costs.find((c) => c.m.namespace === route.chosen) : undefined;
  const mean = costs.reduce((n, c) => n + c.cost, 0) / costs.length;
  const expected = chosen
    ? `expected ${money(chosen.cost)} (${chosen.m.namespace}, the model the Space picks for this prompt now)`
    : `expected ${money(mean)} (the mean over its models; this service does not say which one it would pick)`;
  return {
    text: [
      `Cost of this prompt in "${space.name}" (${count(promptTokens)} prompt tokens, up to ${count(maxTokens)} tokens of reply):`,
      `minimum ${money(min.cost)} (${min.m.namespace}), ${expected}, maximum ${money(max.cost)} (${max.m.namespace}${chain.includes(max.m) && !active.includes(max.m) ? ', on the failover chain' : ''}).`,
      `Over ${counted(all.length, 'model')}: the Space's active models${chain.length ? ' and its failover chain' : ''}.`,
    ].join('\n'),
    data: {
      space: space.name,
      promptTokens,
      maxTokens,
      minimum: { model: min.m.namespace, cost: min.cost },
      expected: chosen ? { model: chosen.m.namespace, cost: chosen.cost } : { model: null, cost: mean },
      maximum: { model: max.m.namespace, cost: max.cost },
      models: all.length,
    },
  };
}

export async function explainRoute(data: ToolData, input: unknown): Promise<ToolAnswer> {
  const tool = 'llmSpaces_explainRoute';
  const prompt = field<string>(tool, input, 'prompt', true)!;
  const space = await findSpace(data, field<string>(tool, input, 'space', false));
  const view = await data.detail(space.id);
  const weights = view.main.app.weights;
  const w = weights ? `cost ${weights.cost}, latency ${weights.latency}, quality ${weights.quality}` : 'not set';
  const route = await data.route(space.id, prompt, view.main.app.settings?.max_tokens ?? 1024);
  const known = { space: space.name, weights: weights ?? null };
  if (!route)
    return {
      text: `This service does not explain its routing. "${space.name}" weighs ${w}; its active models are ${
        view.main.base_model_settings
          .filter((s) => s.active)
          .map((s) => s.namespace)
          .join(', ') || 'none'
      }.`,
      data: { ...known, chosen: null },
    };
  const lines = [`"${space.name}" weighs ${w}.`];
  if (route.chosen) {
    const best = route.candidates[0]!;
    lines.push(
      `It would pick ${route.chosen}: the best score (${best.score.toFixed(2)}) of ${counted(route.candidates.length, 'candidate')}, estimated ${money(best.estimated_cost)}.`,
    );
  } else {
    lines.push('No model of it can answer this prompt now.');
  }
  for (const c of route.candidates)
    lines.push(
      `- ${c.namespace}: score ${c.score.toFixed(2)} (cost ${c.cost_score.toFixed(2)}, latency ${c.latency_score.toFixed(2)}, quality ${c.quality_score.toFixed(2)}), about ${money(c.estimated_cost)}`,
    );
  for (const r of route.rejected) lines.push(`- ${r.namespace}: left out, ${r.reason}`);
  if (route.failover.length) lines.push(`If it fails: ${route.failover.map((f) => f.namespace).join(' → ')}.`);
  return {
    text: lines.join('\n'),
    data: {
      ...known,
      chosen: route.chosen,
      candidates: route.candidates.map((c) => ({
        model: c.namespace,
        score: c.score,
        costScore: c.cost_score,
        latencyScore: c.latency_score,
        qualityScore: c.quality_score,
        estimatedCost: c.estimated_cost,
      })),
      leftOut: route.rejected.map((r) => ({ model: r.namespace, reason: r.reason })),
      failover: route.failover.map((f) => f.namespace),
    },
  };
}

const CAPABILITY_FIELDS = {
  vision: 'supports_vision',
  functions: 'supports_functions',
  json: 'supports_json',
  stream: 'supports_stream',
  reasoning: 'supports_reasoning',
} as const;

export async function findModels(data: ToolData, input: unknown): Promise<ToolAnswer> {
  const tool = 'llmSpaces_findModels';
  const text = field<string>(tool, input, 'text', false)?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
  const raw = (input as { capabilities?: unknown } | null)?.capabilities;
  if (raw !== undefined && (!Array.isArray(raw) || raw.some((c) => !(c in CAPABILITY_FIELDS))))
    throw new ToolInputError(`"capabilities" must be a list of: ${Object.keys(CAPABILITY_FIELDS).join(', ')}.`);
  const capabilities = (raw ?? []) as Array<keyof typeof CAPABILITY_FIELDS>;
  const maxInput = field<number>(tool, input, 'maxInputPrice', false);
  const minContext = field<number>(tool, input, 'minContextWindow', false) ?? 0;
  const limit = field<number>(tool, input, 'limit', false) ?? 10;
  const today = todayIso();
  const found = (await data.models())
    .filter((m) => !isRetired(m, today))
    .filter((m) => text.every((w) => `${m.namespace} ${m.provider ?? ''} ${m.description}`.toLowerCase().includes(w)))
    .filter((m) => capabilities.every((c) => m[CAPABILITY_FIELDS[c]]))
    .filter((m) => maxInput === undefined || m.prompt_token_cost * 1_000_000 <= maxInput)
    .filter((m) => m.context_window >= minContext)
    .sort(cheapestFirst);
  if (found.length === 0) return { text: 'No model in the catalogue matches.', data: { matches: 0, models: [] } };
  const listed = found.slice(0, limit).map((m) => ({
    m,
    caps: (Object.keys(CAPABILITY_FIELDS) as Array<keyof typeof CAPABILITY_FIELDS>).filter(
      (c) => m[CAPABILITY_FIELDS[c]],
    ),
  }));
  const lines = listed.map(
    ({ m, caps }) =>
      `- ${m.namespace}: ${priceLine(m)}, context ${count(m.context_window)} tokens${caps.length ? `, ${caps.join(', ')}` : ''}`,
  );
  return {
    text: [
      `${counted(found.length, 'model')} match${found.length === 1 ? 'es' : ''}, cheapest first${found.length > limit ? ` (the first ${limit})` : ''}:`,
      ...lines,
    ].join('\n'),
    data: {
      matches: found.length,
      models: listed.map(({ m, caps }) => ({
        model: m.namespace,
        inputPerMillion: m.prompt_token_cost * 1_000_000,
        outputPerMillion: m.completion_token_cost * 1_000_000,
        contextWindow: m.context_window,
        capabilities: caps,
      })),
    },
  };
}

export async function checkBudget(data: ToolData): Promise<ToolAnswer> {
  const org = await data.organization();
  if (!org) return { text: "This service does not share the organization's spending.", data: { shared: false } };
  const spent = org.total_tokens_cost;
  const soft = org.spending_limit_soft ?? 0;
  const hard = org.spending_limit_hard ?? 0;
  const left = (limit: number) =>
    spent >= limit ? `reached (over by ${money(spent - limit)})` : `${money(limit - spent)} left`;
  return {
    text: [
      `${org.org_display_name || org.org_name || 'The organization'} has spent ${money(spent)} this billing cycle over ${counted(org.num_requests, 'request')}.`,
      soft ? `Soft limit ${money(soft)}: ${left(soft)}.` : 'No soft limit is set.',
      hard ? `Hard limit ${money(hard)}: ${left(hard)}; past it, requests are refused.` : 'No hard limit is set.',
    ].join('\n'),
    data: { shared: true, spent, requests: org.num_requests, softLimit: soft || null, hardLimit: hard || null },
  };
}
