// The seeded model catalogue and public prompts of the built-in service.
// Prices are USD per million tokens (per million characters where `unit` is characters), as the
// providers list them; `quality` (0–100) and `latencyMs` feed the router (see routing.ts).
import { createHash } from 'node:crypto';
import type { ModelRecord } from '../api/schemas';

export interface CatalogueEntry {
  provider: string;
  model: string;
  input: number;
  output: number;
  context: number;
  until: string | null;
  /** f functions, j json, n n/best_of, p penalties, s stream, v vision, o open source, g GDPR, r RAG, t fine-tuned */
  flags: string;
  quality: number;
  latencyMs: number;
  defaultActive?: boolean;
  deprecatedOn?: string;
  unit?: 'tokens' | 'characters';
  apiTarget?: string;
  parent?: string;
  test?: boolean;
  description: string;
  url: string;
}

const e = (entry: CatalogueEntry) => entry;

export const CATALOGUE: CatalogueEntry[] = [
  e({ provider: 'openai', model: 'gpt-4o', input: 2.5, output: 10, context: 128_000, until: '2023-10', flags: 'fjnpsv', quality: 88, latencyMs: 900, description: 'Multimodal flagship model of 2024.', url: 'https://platform.openai.com/docs/models/gpt-4o' }),
  e({ provider: 'openai', model: 'gpt-4o-mini', input: 0.15, output: 0.6, context: 128_000, until: '2023-10', flags: 'fjnpsv', quality: 78, latencyMs: 600, defaultActive: true, description: 'Small, fast and cheap multimodal model.', url: 'https://platform.openai.com/docs/models/gpt-4o-mini' }),
  e({ provider: 'openai', model: 'gpt-4.1', input: 2, output: 8, context: 1_047_576, until: '2024-06', flags: 'fjnpsv', quality: 90, latencyMs: 1000, description: 'Long-context model tuned for coding and instruction following.', url: 'https://platform.openai.com/docs/models/gpt-4.1' }),
  e({ provider: 'openai', model: 'gpt-4.1-mini', input: 0.4, output: 1.6, context: 1_047_576, until: '2024-06', flags: 'fjnpsv', quality: 82, latencyMs: 650, defaultActive: true, description: 'Balanced long-context model.', url: 'https://platform.openai.com/docs/models/gpt-4.1-mini' }),
  e({ provider: 'openai', model: 'gpt-4.1-nano', input: 0.1, output: 0.4, context: 1_047_576, until: '2024-06', flags: 'fjnpsv', quality: 72, latencyMs: 400, description: 'Fastest and cheapest of the 4.1 family.', url: 'https://platform.openai.com/docs/models/gpt-4.1-nano' }),
  e({ provider: 'openai', model: 'o4-mini', input: 1.1, output: 4.4, context: 200_000, until: '2024-06', flags: 'fjsv', quality: 91, latencyMs: 4000, description: 'Small reasoning model.', url: 'https://platform.openai.com/docs/models/o4-mini' }),
  e({ provider: 'openai', model: 'o3-mini', input: 1.1, output: 4.4, context: 200_000, until: '2023-10', flags: 'fjs', quality: 87, latencyMs: 3500, description: 'Reasoning model for science, maths and code.', url: 'https://platform.openai.com/docs/models/o3-mini' }),
  e({ provider: 'openai', model: 'gpt-4-turbo', input: 10, output: 30, context: 128_000, until: '2023-12', flags: 'fjnpsv', quality: 84, latencyMs: 1800, deprecatedOn: '2029-04-30', description: 'Previous-generation GPT-4 with vision; scheduled for retirement.', url: 'https://platform.openai.com/docs/models/gpt-4-turbo' }),
  e({ provider: 'openai', model: 'gpt-3.5-turbo-0613', input: 1.5, output: 2, context: 4_096, until: '2021-09', flags: 'fjnps', quality: 60, latencyMs: 500, deprecatedOn: '2024-09-13', description: 'Retired snapshot of GPT-3.5 Turbo.', url: 'https://platform.openai.com/docs/deprecations' }),
  e({ provider: 'openai', model: 'ft:gpt-4o-mini:acme:support', input: 0.3, output: 1.2, context: 128_000, until: '2023-10', flags: 'fjnpst', quality: 80, latencyMs: 650, parent: 'openai/gpt-4o-mini', apiTarget: 'ft:gpt-4o-mini-2024-07-18:acme:support:9x7Qz', description: 'GPT-4o mini fine-tuned on support transcripts.', url: 'https://platform.openai.com/docs/guides/fine-tuning' }),
  e({ provider: 'anthropic', model: 'claude-3-5-haiku', input: 0.8, output: 4, context: 200_000, until: '2024-07', flags: 'fs', quality: 80, latencyMs: 700, defaultActive: true, apiTarget: 'claude-3-5-haiku-20241022', description: 'Fast, compact Claude model.', url: 'https://docs.anthropic.com/en/docs/about-claude/models' }),
  e({ provider: 'anthropic', model: 'claude-3-7-sonnet', input: 3, output: 15, context: 200_000, until: '2024-10', flags: 'fsv', quality: 89, latencyMs: 1500, apiTarget: 'claude-3-7-sonnet-20250219', description: 'Hybrid reasoning Claude model.', url: 'https://docs.anthropic.com/en/docs/about-claude/models' }),
  e({ provider: 'anthropic', model: 'claude-sonnet-4', input: 3, output: 15, context: 200_000, until: '2025-03', flags: 'fsv', quality: 92, latencyMs: 1400, apiTarget: 'claude-sonnet-4-20250514', description: 'High-performance Claude model for coding.', url: 'https://docs.anthropic.com/en/docs/about-claude/models' }),
  e({ provider: 'anthropic', model: 'claude-opus-4', input: 15, output: 75, context: 200_000, until: '2025-03', flags: 'fsv', quality: 95, latencyMs: 2500, apiTarget: 'claude-opus-4-20250514', description: 'Most capable Claude model of 2025.', url: 'https://docs.anthropic.com/en/docs/about-claude/models' }),
  e({ provider: 'anthropic', model: 'claude-2.1', input: 8, output: 24, context: 200_000, until: '2023-01', flags: 's', quality: 65, latencyMs: 1600, deprecatedOn: '2025-07-21', description: 'Retired Claude 2.1.', url: 'https://docs.anthropic.com/en/docs/resources/model-deprecations' }),
  e({ provider: 'google', model: 'gemini-2.5-pro', input: 1.25, output: 10, context: 1_048_576, until: '2025-01', flags: 'fjsvg', quality: 93, latencyMs: 2000, description: 'Thinking model with a million-token context.', url: 'https://ai.google.dev/gemini-api/docs/models' }),
  e({ provider: 'google', model: 'gemini-2.5-flash', input: 0.3, output: 2.5, context: 1_048_576, until: '2025-01', flags: 'fjsvg', quality: 85, latencyMs: 700, description: 'Price-performance Gemini model.', url: 'https://ai.google.dev/gemini-api/docs/models' }),
  e({ provider: 'google', model: 'gemini-2.0-flash', input: 0.1, output: 0.4, context: 1_048_576, until: '2024-08', flags: 'fjsvg', quality: 79, latencyMs: 500, defaultActive: true, description: 'Fast multimodal Gemini model.', url: 'https://ai.google.dev/gemini-api/docs/models' }),
  e({ provider: 'google', model: 'gemini-1.5-pro', input: 0.3125, output: 1.25, unit: 'characters', context: 2_097_152, until: '2023-11', flags: 'fjsvg', quality: 83, latencyMs: 1500, deprecatedOn: '2029-09-24', description: 'Gemini 1.5 Pro, billed per character; scheduled for retirement.', url: 'https://cloud.google.com/vertex-ai/generative-ai/pricing' }),
  e({ provider: 'mistral', model: 'mistral-large', input: 2, output: 6, context: 131_072, until: '2024-11', flags: 'fjsg', quality: 84, latencyMs: 900, apiTarget: 'mistral-large-latest', description: 'Top-tier Mistral model.', url: 'https://docs.mistral.ai/getting-started/models/' }),
  e({ provider: 'mistral', model: 'mistral-small', input: 0.1, output: 0.3, context: 131_072, until: '2025-01', flags: 'fjsgo', quality: 74, latencyMs: 450, defaultActive: true, apiTarget: 'mistral-small-latest', description: 'Efficient open-weights Mistral model.', url: 'https://docs.mistral.ai/getting-started/models/' }),
  e({ provider: 'mistral', model: 'codestral', input: 0.3, output: 0.9, context: 262_144, until: '2025-01', flags: 'fjsg', quality: 80, latencyMs: 500, apiTarget: 'codestral-latest', description: 'Mistral model for code completion.', url: 'https://docs.mistral.ai/getting-started/models/' }),
  e({ provider: 'mistral', model: 'open-mistral-nemo', input: 0.15, output: 0.15, context: 131_072, until: '2024-07', flags: 'fjsgo', quality: 70, latencyMs: 400, description: '12B open model built with NVIDIA.', url: 'https://docs.mistral.ai/getting-started/models/' }),
  e({ provider: 'meta', model: 'llama-3.3-70b-instruct', input: 0.59, output: 0.79, context: 131_072, until: '2023-12', flags: 'fjso', quality: 81, latencyMs: 450, defaultActive: true, description: 'Open 70B instruction model.', url: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_3/' }),
  e({ provider: 'meta', model: 'llama-3.1-8b-instruct', input: 0.05, output: 0.08, context: 131_072, until: '2023-12', flags: 'fjso', quality: 66, latencyMs: 200, description: 'Small open instruction model.', url: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/' }),
  e({ provider: 'meta', model: 'llama-4-maverick', input: 0.27, output: 0.85, context: 1_048_576, until: '2024-08', flags: 'fjsvo', quality: 84, latencyMs: 600, description: 'Open mixture-of-experts multimodal model.', url: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama4/' }),
  e({ provider: 'cohere', model: 'command-r-plus', input: 2.5, output: 10, context: 128_000, until: '2024-03', flags: 'fjsrg', quality: 78, latencyMs: 1100, description: 'Retrieval-augmented generation model.', url: 'https://docs.cohere.com/docs/models' }),
  e({ provider: 'cohere', model: 'command-r', input: 0.15, output: 0.6, context: 128_000, until: '2024-03', flags: 'fjsrg', quality: 70, latencyMs: 600, description: 'Compact RAG model.', url: 'https://docs.cohere.com/docs/models' }),
  e({ provider: 'deepseek', model: 'deepseek-chat', input: 0.27, output: 1.1, context: 65_536, until: '2024-07', flags: 'fjso', quality: 85, latencyMs: 1200, description: 'DeepSeek V3 chat model.', url: 'https://api-docs.deepseek.com/quick_start/pricing' }),
  e({ provider: 'deepseek', model: 'deepseek-reasoner', input: 0.55, output: 2.19, context: 65_536, until: '2024-07', flags: 'jso', quality: 89, latencyMs: 5000, description: 'DeepSeek R1 reasoning model.', url: 'https://api-docs.deepseek.com/quick_start/pricing' }),
  e({ provider: 'local', model: 'llama3.2', input: 0, output: 0, context: 131_072, until: '2023-12', flags: 'sog', quality: 62, latencyMs: 300, defaultActive: true, apiTarget: 'llama3.2', description: 'Meta\'s small open model, run on this computer by a local model server such as Ollama.', url: 'https://ollama.com/library/llama3.2' }),
  e({ provider: 'local', model: 'qwen2.5-coder', input: 0, output: 0, context: 32_768, until: '2024-09', flags: 'sog', quality: 70, latencyMs: 400, apiTarget: 'qwen2.5-coder:7b', description: 'Open coding model, run on this computer by a local model server such as Ollama.', url: 'https://ollama.com/library/qwen2.5-coder' }),
  e({ provider: 'test', model: 'echo', input: 0.1, output: 0.2, context: 1_000_000, until: null, flags: 'fjnpsvg', quality: 10, latencyMs: 5, defaultActive: true, test: true, description: 'Test model: answers with the prompt itself. Makes no model request.', url: 'https://github.com/llm-spaces/llm-spaces#test-models' }),
  e({ provider: 'test', model: 'lorem', input: 0.05, output: 0.1, context: 1_000_000, until: null, flags: 'fjnpsvg', quality: 5, latencyMs: 5, defaultActive: true, test: true, description: 'Test model: answers with deterministic lorem ipsum derived from the prompt. Makes no model request.', url: 'https://github.com/llm-spaces/llm-spaces#test-models' }),
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
    price_unit: m.unit ?? 'tokens',
    model: m.model,
    namespace,
    context_window: m.context,
    until: m.until,
    description: m.description,
    url: m.url,
    is_rag: m.flags.includes('r'),
    is_ft: m.flags.includes('t'),
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
    owner: m.parent ? 'acme' : null,
    at: null,
    api_target: m.apiTarget ?? m.model,
    deprecated_on: m.deprecatedOn ?? null,
    parent_id: m.parent ? stableId('model', m.parent) : null,
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
  { title: 'Explain this code', description: 'Explains what a piece of code does, step by step, for a reviewer new to it.', prompt: 'Explain what the following code does, step by step. Point out anything surprising.\n\n{{prompt}}', state: 'approved' },
  { title: 'Write unit tests', description: 'Writes focused unit tests for the given code, covering edge cases.', prompt: 'Write unit tests for the following code. Cover the edge cases and name each test after the behaviour it checks.\n\n{{prompt}}', state: 'approved' },
  { title: 'Find bugs', description: 'Reviews code for bugs, race conditions and unhandled errors.', prompt: 'Review the following code for bugs, race conditions and unhandled errors. List each finding with the line it concerns.\n\n{{prompt}}', state: 'approved' },
  { title: 'Summarize a diff', description: 'Turns a diff into a short, reviewer-friendly summary.', prompt: 'Summarize this diff for a reviewer in at most five bullet points.\n\n{{prompt}}', state: 'review' },
  { title: 'Add documentation comments', description: 'Adds doc comments that say why, not what.', prompt: 'Add documentation comments to the following code. Explain intent and constraints, not the obvious.\n\n{{prompt}}', state: 'approved' },
];

export const ORG_PROMPTS: SeedPrompt[] = [
  { title: 'Team review checklist', description: 'Our code review checklist applied to a change.', prompt: 'Check this change against our checklist: tests, error handling, naming, docs.\n\n{{prompt}}', state: 'draft' },
  { title: 'Release notes', description: 'Drafts user-facing release notes from commit messages.', prompt: 'Write release notes for users from these commit messages:\n\n{{prompt}}', state: 'review' },
  { title: 'Marketing tagline', description: 'Suggests a product tagline.', prompt: 'Suggest five taglines for {{prompt}}.', state: 'declined', declineReason: 'Off-topic for an engineering organization.' },
];
