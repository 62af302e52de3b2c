// Models of OpenAI-compatible model servers: found on this computer (Ollama, LM Studio, llama.cpp,
// vLLM) or named with --upstream. Where each model is served is the database's (domain/serving.ts).
import type { ModelRecord } from '../../../api/schemas';
import type { Database } from '../../db';
import { markServerGone, servingOf } from '../../domain/serving';
import { howToReach } from '../prepare';
import type { Reply } from '../request';
import { callUpstream } from './openaiCompatible';
import { ReachFailure, type Generation, type ModelReach } from './reach';

export class ModelServers implements ModelReach {
  constructor(private readonly db: Database) {}

  /** A server on this computer answers as fast as the computer lets it at the time: its prior stands. */
  readonly measured = false;

  reaches(model: ModelRecord): boolean {
    return !model.is_test_model;
  }

  async generate(g: Generation): Promise<Reply> {
    const r = g.model;
    const serving = servingOf(this.db, r);
    // Not served here (a hosted model without its provider's key, a server not running): said how to
    // reach it, as unavailable (503), so that the request does not ask it again.
    if (!serving?.available) throw new ReachFailure(`cannot answer here: ${howToReach(r)}`, 503);
    try {
      return await callUpstream({
        baseUrl: serving.baseUrl,
        model: serving.target ?? (r.api_target || r.model),
        messages: g.messages,
        maxTokens: g.maxTokens,
        temperature: g.temperature,
        // Tools and sampling go to the server whatever the catalogue says of the model: it says if it cannot.
        options: g.tools,
        onDelta: g.onDelta,
        onReasoning: g.onThinking && ((text) => g.onThinking!({ reasoning: text })),
        signal: g.signal,
      });
    } catch (error) {
      // A local server that went away: its models stop being candidates until a refresh finds it again.
      if (error instanceof ReachFailure && error.unreachable && r.provider === 'local')
        await this.db.transaction(() => markServerGone(this.db, serving.baseUrl));
      throw error;
    }
  }
}
