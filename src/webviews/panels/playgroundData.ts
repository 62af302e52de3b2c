// What the playground panel shows, shaped from the service's records: model briefs with prices, a
// Space's active models, assistants and conversations, and earlier turns of a conversation.
import type { ChatStreamEvent, CitedPage } from '../../api/client';
import type { ConversationWithRequests, ModelRecord, SpaceUpdateResponse } from '../../api/schemas';
import { eachPageOnce } from '../../shared/citedPages';
import type { ModelBrief, ReplyInfo, SpaceBrief, Turn } from '../../shared/protocol/playground';
import { isRetired } from '../../shared/models';
import { receiptView } from '../../shared/receipt';

export function modelBrief(m: ModelRecord): ModelBrief {
  return {
    namespace: m.namespace,
    model: m.model,
    provider: m.provider ?? m.namespace.split('/')[0] ?? '',
    vision: m.supports_vision,
    promptCost: m.prompt_token_cost,
    completionCost: m.completion_token_cost,
    baseCost: m.base_cost,
    byCharacters: m.price_unit === 'characters',
    contextWindow: m.context_window,
    deprecatedOn: m.deprecated_on ?? null,
    retired: isRetired(m),
    answersHere: m.answers_here !== false,
    notOffered: m.offered_to_key === false,
    ...(m.not_offered_because ? { notOfferedWhy: m.not_offered_because } : {}),
    tools: m.supports_functions,
  };
}

/** Namespaces of the models routing may choose in this Space. */
export function activeModels(view: SpaceUpdateResponse): string[] {
  const settings = [...view.main.base_model_settings, ...view.main.custom_model_settings];
  return [...new Set(settings.filter((s) => s.active && !s.globally_disabled).map((s) => s.namespace))];
}

export function spaceBrief(
  view: SpaceUpdateResponse,
  extras: Pick<SpaceBrief, 'assistants' | 'conversations'>,
): SpaceBrief {
  const app = view.main.app;
  return {
    id: app.id,
    name: app.name ?? app.id,
    activeModels: activeModels(view),
    canChat: view.main.current_user_permissions.includes('use_playground'),
    defaults: { temperature: app.settings?.temperature ?? null, maxTokens: app.settings?.max_tokens ?? null },
    ...extras,
  };
}

export function replyInfo(
  content: string,
  done: Extract<ChatStreamEvent, { type: 'done' }>,
  cited: readonly CitedPage[] = [],
  searchSuggestions?: string,
): ReplyInfo {
  const meta = done.metadata;
  const sources = eachPageOnce(cited);
  return {
    id: done.id,
    content,
    finishReason: done.finishReason,
    namespace: meta.model.namespace,
    usage: done.usage,
    costs: meta.costs,
    savings: meta.cost_savings,
    latencySeconds: meta.latency,
    retries: meta.retries,
    warning: meta.warning,
    conversationId: meta.conversation_id,
    routing: meta.routing ? receiptView(meta.routing, meta.model.namespace) : null,
    ...(sources.length ? { sources } : {}),
    ...(searchSuggestions ? { searchSuggestions } : {}),
  };
}

/**
 * The logged requests of a conversation, oldest first, as turns of the transcript. Requests logged
 * without their text (privacy level 2) cannot be shown as turns and are left out.
 */
export function turnsOf(conversation: ConversationWithRequests): Turn[] {
  return (conversation.requests ?? [])
    .flatMap((r) => (r.prompt === null ? [] : [r]))
    .map((r) => {
      const failed = r.status_code >= 400 || r.response === null;
      const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
      return {
        prompt: r.prompt ?? '',
        error: failed ? (r.error ?? `HTTP ${r.status_code}`) : null,
        reply: failed
          ? null
          : {
              id: r.id,
              content: r.response ?? '',
              finishReason: null,
              namespace: r.model ?? '',
              usage: {
                prompt_tokens: r.prompt_tokens,
                completion_tokens: r.completion_tokens,
                total_tokens: r.total_tokens,
                ...(r.cached_tokens !== undefined ? { prompt_tokens_details: { cached_tokens: r.cached_tokens } } : {}),
                ...(r.reasoning_tokens !== undefined
                  ? { completion_tokens_details: { reasoning_tokens: r.reasoning_tokens } }
                  : {}),
              },
              costs: { ...zero, total_tokens: r.cost },
              savings: { ...zero, total_tokens: r.cost_savings },
              latencySeconds: r.latency,
              retries: 0,
              warning: null,
              conversationId: conversation.id,
              // The log keeps no receipt.
              routing: null,
              ...(r.sources.length ? { sources: r.sources } : {}),
              ...(r.search_suggestions ? { searchSuggestions: r.search_suggestions } : {}),
            },
      };
    });
}
