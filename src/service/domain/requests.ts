// The request log: every playground request, answered or failed, with its conversation and parent,
// and the retention that keeps the log from growing without end. What a row keeps follows the Space's
// privacy level when it was written (conventions.md): 1 everything; 2 no prompt or reply text;
// 3 only what billing needs (model, tokens, cost, Space, time), and it is never read back as a log.
import type { CitedPage } from '../../shared/citedPages';
import type { Database } from '../db';

export interface RequestLog {
  id: string;
  orgId: string;
  appId: string;
  conversationId: string | null;
  parentRequestId: string | null;
  model: string | null;
  prompt: string;
  /** The reply, or the part streamed before a failure. */
  response: string | null;
  /** The pages the reply cites, once each in the order first cited; kept with its text. */
  sources?: CitedPage[] | null;
  /** Google's Search Suggestions shown with a Gemini model's grounded reply (their HTML); kept with its text. */
  searchSuggestions?: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt's tokens, those read from the provider's cache; null when the provider did not count. */
  cachedTokens?: number | null;
  /** Of the completion's tokens, those the model reasoned in; null when the provider did not count. */
  reasoningTokens?: number | null;
  cost: number;
  savings: number;
  latency: number;
  status: number;
  error: string | null;
  /** The Space's privacy level: 1, 2 or 3. */
  privacyLevel: number;
}

export function insertRequest(db: Database, log: RequestLog): void {
  const keepsText = log.privacyLevel <= 1;
  const billingOnly = log.privacyLevel >= 3;
  db.run(
    `INSERT INTO requests (id, org_id, app_id, conversation_id, parent_request_id, model, prompt, response, prompt_tokens, completion_tokens, total_tokens,
       cost, cost_savings, latency, status_code, error, added_on, privacy_level, sources, search_suggestions,
       cached_tokens, reasoning_tokens)
     VALUES ($id, $org, $app, $conversation, $parent, $model, $prompt, $response, $pt, $ct, $tt, $cost, $savings, $latency, $status, $error, $now, $privacy, $sources, $suggestions,
       $cached, $reasoning)`,
    {
      id: log.id,
      org: log.orgId,
      app: log.appId,
      // Kept at level 3 only so that the next turn can name this one as its parent; never read back.
      conversation: log.conversationId,
      parent: log.parentRequestId,
      model: log.model,
      // The column predates the levels and is NOT NULL: an empty prompt, read back as null (no text kept).
      prompt: keepsText ? log.prompt : '',
      response: keepsText ? log.response : null,
      pt: log.promptTokens,
      ct: log.completionTokens,
      tt: log.promptTokens + log.completionTokens,
      cost: log.cost,
      savings: log.savings,
      latency: billingOnly ? 0 : log.latency,
      status: log.status,
      error: billingOnly ? null : log.error,
      now: new Date().toISOString(),
      privacy: log.privacyLevel,
      sources: keepsText && log.sources?.length ? JSON.stringify(log.sources) : null,
      suggestions: (keepsText && log.searchSuggestions) || null,
      cached: log.cachedTokens ?? null,
      reasoning: log.reasoningTokens ?? null,
    },
  );
}

export function requestInConversation(db: Database, requestId: string, conversationId: string): boolean {
  return (
    db.get('SELECT 1 AS x FROM requests WHERE id = $id AND conversation_id = $c', {
      id: requestId,
      c: conversationId,
    }) !== undefined
  );
}

/** The last `limit` answered turns of a conversation, oldest first. */
export function conversationTurns(
  db: Database,
  appId: string,
  conversationId: string,
  limit: number,
): Array<{ prompt: string; response: string }> {
  return db.all<{ prompt: string; response: string }>(
    `SELECT prompt, response FROM (SELECT prompt, response, added_on, rowid AS r FROM requests
       WHERE conversation_id = $c AND app_id = $app AND status_code = 200 AND privacy_level = 1 ORDER BY added_on DESC, r DESC LIMIT $n) ORDER BY added_on, r`,
    { c: conversationId, app: appId, n: limit },
  );
}

/** Rows deleted by one retention step: small enough that a write waiting behind it barely notices. */
export const RETENTION_BATCH = 2000;

/** Deletes one batch of requests logged before `cutoff` (ISO time); returns how many went. */
export function pruneRequests(db: Database, cutoff: string): number {
  return db.run(
    `DELETE FROM requests WHERE rowid IN (SELECT rowid FROM requests WHERE added_on < $cutoff LIMIT ${RETENTION_BATCH})`,
    { cutoff },
  );
}
