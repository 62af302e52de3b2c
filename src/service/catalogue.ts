// The built-in service's own models and public prompts. The hosted providers' models come from
// maintained public datasets (providers/dataset.ts); what is seeded here is only ours: the test models,
// which answer without any model, and the local models a model server on this computer may serve.
// Prices are USD per million tokens; `quality` (0–100) and `latencyMs` feed the router (routing.ts).
import { createHash } from 'node:crypto';
import type { ModelRecord } from '../api/schemas';

export interface CatalogueEntry {
  provider: string;
  model: string;
  input: number;
  output: number;
  context: number;
  until: string | null;
  /** f functions, j json, n n/best_of, p penalties, s stream, v vision, o open source, g GDPR */
  flags: string;
  quality: number;
  latencyMs: number;
  defaultActive?: boolean;
  apiTarget?: string;
  test?: boolean;
  description: string;
  url: string;
}

const e = (entry: CatalogueEntry) => entry;

export const CATALOGUE: CatalogueEntry[] = [
  e({
    provider: 'local',
    model: 'llama3.2',
    input: 0,
    output: 0,
    context: 131_072,
    until: '2023-12',
    flags: 'sog',
    quality: 62,
    latencyMs: 300,
    defaultActive: true,
    apiTarget: 'llama3.2',
    description: "Meta's small open model, run on this computer by a local model server such as Ollama.",
    url: 'https://ollama.com/library/llama3.2',
  }),
  e({
    provider: 'local',
    model: 'qwen2.5-coder',
    input: 0,
    output: 0,
    context: 32_768,
    until: '2024-09',
    flags: 'sog',
    quality: 70,
    latencyMs: 400,
    apiTarget: 'qwen2.5-coder:7b',
    description: 'Open coding model, run on this computer by a local model server such as Ollama.',
    url: 'https://ollama.com/library/qwen2.5-coder',
  }),
  e({
    provider: 'test',
    model: 'echo',
    input: 0.1,
    output: 0.2,
    context: 1_000_000,
    until: null,
    flags: 'fjnpsvg',
    quality: 10,
    latencyMs: 5,
    defaultActive: true,
    test: true,
    description: 'Test model: answers with the prompt itself. Makes no model request.',
    url: 'https://github.com/llm-spaces/llm-spaces#test-models',
  }),
  e({
    provider: 'test',
    model: 'lorem',
    input: 0.05,
    output: 0.1,
    context: 1_000_000,
    until: null,
    flags: 'fjnpsvg',
    quality: 5,
    latencyMs: 5,
    defaultActive: true,
    test: true,
    description: 'Test model: answers with deterministic lorem ipsum derived from the prompt. Makes no model request.',
    url: 'https://github.com/llm-spaces/llm-spaces#test-models',
  }),
];

/** The model record of a catalogue entry, as the service stores and lists it. */
export function catalogueRecord(m: CatalogueEntry, now: string): ModelRecord {
  const namespace = `${m.provider}/${m.model}`;
  const perUnit = 1_000_000;
  return {
    supports_functions: m.flags.includes('f'),
    supports_json: m.flags.includes('j'),
    supports_n: m.flags.includes('n'),
    supports_penalties: m.flags.includes('p'),
    supports_stream: m.flags.includes('s'),
    supports_vision: m.flags.includes('v'),
    completion_token_cost: m.output / perUnit,
    prompt_token_cost: m.input / perUnit,
    base_cost: 0,
    price_unit: 'tokens',
    model: m.model,
    namespace,
    context_window: m.context,
    until: m.until,
    description: m.description,
    url: m.url,
    is_rag: false,
    is_ft: false,
    is_open_source: m.flags.includes('o'),
    is_gdpr: m.flags.includes('g'),
    is_chat: true,
    id: stableId('model', namespace),
    app_id: null,
    org_id: null,
    added_by: 'llm-spaces',
    added_on: now,
    modified_on: now,
    is_public: true,
    is_test_model: m.test === true,
    is_service_owner: true,
    default_active: m.defaultActive === true,
    provider: m.provider,
    owner: null,
    at: null,
    api_target: m.apiTarget ?? m.model,
    deprecated_on: null,
    parent_id: null,
    prompt_id: null,
  };
}

/** Stable ids, so a model keeps its id across fresh databases (and tests can rely on it). */
export function stableId(kind: string, key: string): string {
  const hex = createHash('sha256').update(`${kind}:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const SERVICE_ORG_ID = stableId('org', 'llm-spaces-service');

export interface SeedPrompt {
  title: string;
  description: string;
  prompt: string;
  state: 'draft' | 'review' | 'approved' | 'declined';
  declineReason?: string;
}

export const PUBLIC_PROMPTS: SeedPrompt[] = [
  {
    title: 'Explain this code',
    description: 'Explains what a piece of code does, step by step, for a reviewer new to it.',
    prompt: 'Explain what the following code does, step by step. Point out anything surprising.\n\n{{prompt}}',
    state: 'approved',
  },
  {
    title: 'Write unit tests',
    description: 'Writes focused unit tests for the given code, covering edge cases.',
    prompt:
      'Write unit tests for the following code. Cover the edge cases and name each test after the behaviour it checks.\n\n{{prompt}}',
    state: 'approved',
  },
  {
    title: 'Find bugs',
    description: 'Reviews code for bugs, race conditions and unhandled errors.',
    prompt:
      'Review the following code for bugs, race conditions and unhandled errors. List each finding with the line it concerns.\n\n{{prompt}}',
    state: 'approved',
  },
  {
    title: 'Summarize a diff',
    description: 'Turns a diff into a short, reviewer-friendly summary.',
    prompt: 'Summarize this diff for a reviewer in at most five bullet points.\n\n{{prompt}}',
    state: 'review',
  },
  {
    title: 'Add documentation comments',
    description: 'Adds doc comments that say why, not what.',
    prompt:
      'Add documentation comments to the following code. Explain intent and constraints, not the obvious.\n\n{{prompt}}',
    state: 'approved',
  },
];

export const ORG_PROMPTS: SeedPrompt[] = [
  {
    title: 'Team review checklist',
    description: 'Our code review checklist applied to a change.',
    prompt: 'Check this change against our checklist: tests, error handling, naming, docs.\n\n{{prompt}}',
    state: 'draft',
  },
  {
    title: 'Release notes',
    description: 'Drafts user-facing release notes from commit messages.',
    prompt: 'Write release notes for users from these commit messages:\n\n{{prompt}}',
    state: 'review',
  },
  {
    title: 'Marketing tagline',
    description: 'Suggests a product tagline.',
    prompt: 'Suggest five taglines for {{prompt}}.',
    state: 'declined',
    declineReason: 'Off-topic for an engineering organization.',
  },
];
