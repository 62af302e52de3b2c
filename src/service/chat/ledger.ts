// What a request leaves behind: its log row, the organization's usage and costs, and its conversation,
// in one transaction (logEntry.ts, written by the writer thread: ledgerThread.ts); and the answer in the
// chat completion's shape with its routing receipt.
import type { ChatCompletion, ModelRecord } from '../../api/schemas';
import type { Database } from '../db';
import { eachPageOnce, type CitedPage } from '../../shared/citedPages';
import { retiresSoon } from '../../shared/models';
import type { CatalogueModel } from '../domain/models';
import { record } from '../ledgerThread';
import { pricedAt } from '../providers/dataset';
import { countTokens } from '../tokenizer';
import { costOf, savingsOf, type Counts } from './pricing';
import { deprecationWarning } from './prepare';
import type { Attempt, Cited, Prepared, Reply } from './request';

export interface Outcome {
  retries: number;
  failures: string[];
  attempts: Attempt[];
  latency: number;
}

/** What a reply is billed by: what its provider counted, or the tokenizer's count when it reported nothing. */
function countsOf(prepared: Prepared, reply: Reply): Counts {
  // A tool call is output the model produced: its name and arguments are billed as completion text.
  const produced = reply.text + (reply.toolCalls ?? []).map((c) => c.function.name + c.function.arguments).join('');
  return {
    promptTokens: reply.usage?.input ?? prepared.promptTokens,
    completionTokens: reply.usage?.output ?? countTokens(produced),
    promptChars: prepared.promptChars,
    completionChars: produced.length,
    cachedTokens: reply.usage?.cachedInput ?? 0,
    cacheWriteTokens: reply.usage?.cacheWrites ?? 0,
    hourCacheWriteTokens: reply.usage?.hourCacheWrites ?? 0,
    webSearches: reply.webSearches ?? 0,
  };
}

/** What a reply of this model costs as it would be billed now (remote MCP rounds stop at the cost cap: remoteMcp.ts). */
export function replyCost(prepared: Prepared, r: ModelRecord, reply: Reply): number {
  const counts = countsOf(prepared, reply);
  return costOf(pricedAt(r, new Date(), counts.promptTokens, prepared.body.completion?.inferenceGeo), counts).total;
}

export async function finishChat(
  db: Database,
  prepared: Prepared,
  model: CatalogueModel,
  reply: Reply,
  outcome: Outcome,
): Promise<ChatCompletion> {
  const r = model.record;
  const counts = countsOf(prepared, reply);
  // Billed at the prices of the moment it was answered (a provider's peak hours cost more).
  const now = new Date();
  const costs = costOf(pricedAt(r, now, counts.promptTokens, prepared.body.completion?.inferenceGeo), counts);
  const savings = savingsOf(
    costs,
    prepared.benchmark && pricedAt(prepared.benchmark, now, counts.promptTokens),
    counts,
  );
  const warnings = [...prepared.warnings];
  if (model !== prepared.first) {
    warnings.push(
      `Failed over from ${prepared.first.record.namespace} to ${r.namespace} after ${outcome.retries === 1 ? '1 failed attempt' : `${outcome.retries} failed attempts`}: ${summarize(outcome.failures)}.`,
    );
    if (retiresSoon(r)) warnings.push(deprecationWarning(r));
  }
  if (reply.warning) warnings.push(reply.warning);
  const warning = warnings.length ? warnings.join(' ') : null;
  await record(db, {
    request: {
      ...logOf(prepared),
      model: r.namespace,
      response:
        reply.text +
        (reply.toolCalls ?? [])
          .map((c) => `${reply.text ? '\n' : ''}[asked for ${c.function.name}(${c.function.arguments})]`)
          .join(''),
      sources: citedPages(reply.cited),
      searchSuggestions: reply.searchSuggestions ?? null,
      promptTokens: counts.promptTokens,
      completionTokens: counts.completionTokens,
      cachedTokens: reply.usage ? counts.cachedTokens : null,
      reasoningTokens: reply.usage?.reasoning ?? null,
      cost: costs.total,
      savings: savings.total,
      latency: outcome.latency,
      status: 200,
      error: null,
    },
    usage: {
      promptTokens: counts.promptTokens,
      completionTokens: counts.completionTokens,
      promptCost: costs.prompt,
      completionCost: costs.completion,
      totalCost: costs.total,
      promptSavings: savings.prompt,
      completionSavings: savings.completion,
      totalSavings: savings.total,
    },
  });
  return {
    id: prepared.requestId,
    object: 'chat.completion',
    created: Date.now(),
    model: r.namespace,
    choices: [
      {
        index: 0,
        finish_reason: reply.finishReason,
        message: {
          role: 'assistant',
          content: reply.text,
          ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}),
        },
        ...(reply.logprobs ? { logprobs: { content: reply.logprobs, refusal: null } } : {}),
      },
    ],
    usage: {
      prompt_tokens: counts.promptTokens,
      completion_tokens: counts.completionTokens,
      total_tokens: counts.promptTokens + counts.completionTokens,
      // cache_write_tokens as OpenRouter adds it: OpenAI's own answers have no such count.
      prompt_tokens_details: {
        cached_tokens: counts.cachedTokens ?? 0,
        cache_write_tokens: counts.cacheWriteTokens ?? 0,
      },
      ...(reply.usage
        ? {
            completion_tokens_details: {
              reasoning_tokens: reply.usage.reasoning,
              accepted_prediction_tokens: reply.usage.prediction?.accepted ?? 0,
              rejected_prediction_tokens: reply.usage.prediction?.rejected ?? 0,
            },
          }
        : {}),
    },
    metadata: {
      app_id: prepared.config.row.id,
      conversation_id: prepared.conversationId,
      parent_request_id: prepared.body.parent_request_id ?? null,
      model: {
        model: r.model,
        namespace: r.namespace,
        provider: r.provider ?? null,
        owner: r.owner ?? null,
        at: r.at ?? null,
      },
      costs: { prompt_tokens: costs.prompt, completion_tokens: costs.completion, total_tokens: costs.total },
      cost_savings: {
        prompt_tokens: savings.prompt,
        completion_tokens: savings.completion,
        total_tokens: savings.total,
      },
      latency: outcome.latency,
      retries: outcome.retries,
      status_code: 200,
      error: null,
      warning,
      routing: {
        ...prepared.routing,
        strategy: model === prepared.first ? prepared.routing.strategy : 'failover',
        attempts: outcome.attempts,
        usage: reply.usage ? 'provider' : 'estimated',
      },
    },
  };
}

/** The pages a reply cites on the web, once each in the order first cited (a document's passages are not pages). */
function citedPages(cited: Cited[] | undefined): CitedPage[] | null {
  const pages = eachPageOnce(
    (cited ?? []).flatMap((stretch) =>
      stretch.pages.flatMap((page) => ('url' in page ? [{ url: page.url, title: page.title ?? page.url }] : [])),
    ),
  );
  return pages.length ? pages : null;
}

/** "a: x; a: x; b: y" becomes "a: x (2 times); b: y". */
export function summarize(failures: string[]): string {
  const counts = new Map<string, number>();
  for (const f of failures) counts.set(f, (counts.get(f) ?? 0) + 1);
  return [...counts].map(([f, n]) => (n > 1 ? `${f} (${n} times)` : f)).join('; ');
}

/** The parts of a log row that come from the request itself. */
function logOf(prepared: Prepared) {
  return {
    id: prepared.requestId,
    orgId: prepared.caller.orgId,
    appId: prepared.config.row.id,
    conversationId: prepared.conversationId,
    parentRequestId: prepared.body.parent_request_id ?? null,
    prompt: prepared.body.prompt,
    privacyLevel: prepared.config.policies.privacy_level ?? 1,
  };
}

export interface Failure {
  failures: string[];
  started: number;
  /** The model that broke off a streamed reply (or was left by the client); null when none could answer. */
  model: CatalogueModel | null;
  /** What was streamed before the failure. */
  partial: string | null;
}

/**
 * A request no model could answer is logged too, so the user can see why. What a model had already
 * streamed before it broke off or the client left was produced: it is billed as logged, the log row and
 * the organization's counters alike.
 */
export async function logFailure(db: Database, prepared: Prepared, failure: Failure): Promise<void> {
  const produced = failure.model && failure.partial ? failure.partial : null;
  const counts: Counts = {
    promptTokens: prepared.promptTokens,
    completionTokens: produced ? countTokens(produced) : 0,
    promptChars: prepared.promptChars,
    completionChars: produced?.length ?? 0,
  };
  const costs = produced
    ? costOf(
        pricedAt(failure.model!.record, new Date(), counts.promptTokens, prepared.body.completion?.inferenceGeo),
        counts,
      )
    : { prompt: 0, completion: 0, searches: 0, total: 0 };
  await record(db, {
    request: {
      ...logOf(prepared),
      model: failure.model?.record.namespace ?? null,
      response: failure.partial,
      promptTokens: counts.promptTokens,
      completionTokens: counts.completionTokens,
      cost: costs.total,
      savings: 0,
      latency: (Date.now() - failure.started) / 1000,
      status: 502,
      error: summarize(failure.failures),
    },
    usage: produced
      ? {
          promptTokens: counts.promptTokens,
          completionTokens: counts.completionTokens,
          promptCost: costs.prompt,
          completionCost: costs.completion,
          totalCost: costs.total,
          promptSavings: 0,
          completionSavings: 0,
          totalSavings: 0,
        }
      : null,
  });
}
