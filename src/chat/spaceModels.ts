// What VS Code's model picker shows for a Space (routed by the Space) and for a model pinned from a
// Space: the price band of its candidates, the smallest context window, and the capabilities every
// candidate has. No vscode here: unit tested.
import type { ModelRecord, Space, SpaceUpdateResponse } from '../api/schemas';
import { money } from '../shared/money';

const perMillion = (perToken: number) => perToken * 1_000_000;

export const CHAT_VENDOR = 'llm-spaces';
export const CHAT_FAMILY = 'llm-spaces';

/** A chat model entry: a whole Space, or one model of a Space pinned by the user. */
export interface SpaceChatModel {
  id: string;
  name: string;
  family: string;
  version: string;
  detail: string;
  tooltip: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  /** Only what every model has is named: a key present with `false` reads as supported in some hosts. */
  capabilities: { imageInput?: true; toolCalling?: true };
  spaceId: string;
  /** The namespace of a pinned model; null when the Space routes. */
  model: string | null;
}

/** "$0.15" or "$0.15–$2.50", per million tokens. */
export function band(values: number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? money(min) : `${money(min)}–${money(max)}`;
}

/** The Space's active models that the catalogue knows, and are not switched off everywhere. */
export function candidatesOf(view: SpaceUpdateResponse, catalogue: ReadonlyMap<string, ModelRecord>): ModelRecord[] {
  const main = view.main;
  return [...main.base_model_settings, ...main.custom_model_settings]
    .filter((s) => s.active && !s.globally_disabled)
    .flatMap((s) => catalogue.get(s.namespace) ?? []);
}

function describe(
  candidates: ModelRecord[],
): Pick<SpaceChatModel, 'detail' | 'maxInputTokens' | 'capabilities'> & { lines: string[] } {
  if (candidates.length === 0)
    return {
      detail: 'no active model',
      maxInputTokens: 0,
      capabilities: {},
      lines: ['No model of it is active: turn one on in the Spaces view.'],
    };
  const input = band(candidates.map((m) => perMillion(m.prompt_token_cost)));
  const output = band(candidates.map((m) => perMillion(m.completion_token_cost)));
  const context = Math.min(...candidates.map((m) => m.context_window || Number.MAX_SAFE_INTEGER));
  const imageInput = candidates.every((m) => m.supports_vision);
  const toolCalling = candidates.every((m) => m.supports_functions);
  const abilities = [imageInput && 'images', toolCalling && 'tools'].filter(Boolean).join(' · ');
  return {
    detail: `${input} in · ${output} out per M tokens`,
    maxInputTokens: context === Number.MAX_SAFE_INTEGER ? 0 : context,
    capabilities: {
      ...(imageInput ? { imageInput: true as const } : {}),
      ...(toolCalling ? { toolCalling: true as const } : {}),
    },
    lines: [
      `Price: ${input} in, ${output} out per million tokens.`,
      `Context window: ${context === Number.MAX_SAFE_INTEGER ? 'not known' : `${context.toLocaleString('en-US')} tokens`}${candidates.length > 1 ? ' (the smallest of its models)' : ''}.`,
      `Reads images: ${imageInput ? 'yes' : 'no'}. Calls tools: ${toolCalling ? 'yes' : 'no'}${abilities || candidates.length === 1 ? '' : ' (not every model can)'}.`,
    ],
  };
}

const maxOutput = (view: SpaceUpdateResponse) => view.main.app.settings?.max_tokens ?? 4096;

/** The entry of a Space, routed by its weights, policies and failover chain. */
export function spaceEntry(view: SpaceUpdateResponse, catalogue: ReadonlyMap<string, ModelRecord>): SpaceChatModel {
  const space: Space = view.main.app;
  const candidates = candidatesOf(view, catalogue);
  const d = describe(candidates);
  const name = space.name || 'Unnamed Space';
  return {
    id: `space:${space.id}`,
    name,
    family: CHAT_FAMILY,
    version: space.modified_on ?? '1',
    detail: d.detail,
    tooltip: [
      `${name}: routed by the Space over ${candidates.length} model${candidates.length === 1 ? '' : 's'}, with its policies and failover chain.`,
      ...d.lines,
    ].join('\n'),
    maxInputTokens: d.maxInputTokens,
    maxOutputTokens: maxOutput(view),
    capabilities: d.capabilities,
    spaceId: space.id,
    model: null,
  };
}

/** The entry of one model of a Space, pinned by the user: the Space's policies, always that model. */
export function pinnedEntry(view: SpaceUpdateResponse, record: ModelRecord): SpaceChatModel {
  const space = view.main.app;
  const d = describe([record]);
  return {
    id: `space:${space.id}|model:${record.namespace}`,
    name: `${record.namespace} (${space.name || 'Unnamed Space'})`,
    family: CHAT_FAMILY,
    version: space.modified_on ?? '1',
    detail: d.detail,
    tooltip: [
      `${record.namespace} through the Space "${space.name ?? ''}": its policies, this model only.`,
      ...d.lines,
    ].join('\n'),
    maxInputTokens: d.maxInputTokens,
    maxOutputTokens: maxOutput(view),
    capabilities: d.capabilities,
    spaceId: space.id,
    model: record.namespace,
  };
}
