// Synthetic catalogue and prompts of any size, shaped like the service's records.
import { randomUUID } from 'node:crypto';
import type { ModelRecord, PromptRecord } from '../../src/api/schemas';

export function syntheticModels(count: number): ModelRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const provider = `provider-${i % 50}`;
    const model = `model-${i}`;
    return {
      supports_functions: i % 2 === 0,
      supports_json: true,
      supports_n: false,
      supports_penalties: i % 3 === 0,
      supports_stream: true,
      supports_vision: i % 5 === 0,
      completion_token_cost: (i % 97) / 1e6,
      prompt_token_cost: (i % 89) / 1e6,
      base_cost: 0,
      price_unit: 'tokens',
      model,
      namespace: `${provider}/${model}`,
      context_window: 8192 * (1 + (i % 16)),
      until: '2025-01',
      description: `Synthetic model ${i} for benchmarks.`,
      url: 'https://example.com',
      is_rag: false,
      is_ft: false,
      is_open_source: i % 4 === 0,
      is_gdpr: i % 2 === 1,
      is_chat: true,
      id: randomUUID(),
      app_id: null,
      org_id: null,
      added_by: null,
      added_on: null,
      modified_on: null,
      is_public: true,
      is_test_model: false,
      is_service_owner: true,
      default_active: false,
      provider,
      owner: provider,
      at: null,
      api_target: model,
      deprecated_on: null,
      parent_id: null,
      prompt_id: null,
    } satisfies ModelRecord;
  });
}

export function syntheticPrompts(count: number): PromptRecord[] {
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    prompt: `Prompt ${i}: explain {{prompt}} in plain words. `.repeat(8),
    title: `Prompt ${i}`,
    description: `Synthetic prompt ${i}`,
    added_on: now,
    modified_on: now,
    org_id: randomUUID(),
    tokens: 120,
    published_on: null,
    reviewed_on: null,
    approved_on: null,
    decline_reason: null,
  }));
}
