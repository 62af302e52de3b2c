// POST /v1/completions, OpenAI's legacy text completion, read into the engine's request: the prompt is
// the one user message, marked to be continued as it is (a model server is sent it on its own
// /v1/completions; a hosted chat model answers it as a message), with the text after the cursor when a
// code completion tool asks to fill in the middle.
import type { z } from 'zod';
import type { TextCompletionsBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { requestedSpace, type Body } from './request';

export function textCompletionRequest(caller: Caller, body: z.output<typeof TextCompletionsBody>): Body {
  const prompt = typeof body.prompt === 'string' ? body.prompt : body.prompt[0]!;
  return {
    app_id: requestedSpace(caller, body.app_id),
    prompt,
    model: body.model ?? null,
    temperature: body.temperature ?? null,
    max_tokens: body.max_tokens ?? null,
    stream: body.stream ?? undefined,
    includeUsage: body.stream_options?.include_usage === true,
    completion: {
      messages: [{ role: 'user', content: prompt }],
      stop: body.stop,
      topP: body.top_p,
      seed: body.seed,
      frequencyPenalty: body.frequency_penalty,
      presencePenalty: body.presence_penalty,
      textCompletion: { suffix: body.suffix ?? null },
    },
  };
}
