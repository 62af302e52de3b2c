// A text to continue, read into the engine's request: OpenAI's legacy text completion (POST
// /v1/completions) and Mistral's fill in the middle (POST /v1/fim/completions), as code completion
// tools send them. The prompt is the one user message, marked to be continued as it is (a model server
// is sent it on its own /v1/completions, Codestral and DeepSeek on their fill-in-the-middle APIs,
// Together's, Fireworks' and OpenRouter's models on their text completion; another hosted chat model
// answers it as a message), with the text after the cursor when one is given.
import type { z } from 'zod';
import type { FimCompletionsBody, TextCompletionsBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { requestedSpace, type Body } from './request';

export function textCompletionRequest(caller: Caller, body: z.output<typeof TextCompletionsBody>): Body {
  return {
    ...continued(caller, body, typeof body.prompt === 'string' ? body.prompt : body.prompt[0]!, body.seed),
    includeUsage: body.stream_options?.include_usage === true,
    obfuscate: body.stream_options?.include_obfuscation === true,
  };
}

/** Mistral's fill in the middle, answered as its API does: in a chat completion's shape. */
export function fimRequest(caller: Caller, body: z.output<typeof FimCompletionsBody>): Body {
  return { ...continued(caller, body, body.prompt, body.random_seed), asChat: true };
}

type Continued = Pick<
  z.output<typeof TextCompletionsBody>,
  'app_id' | 'model' | 'temperature' | 'max_tokens' | 'stream' | 'stop' | 'top_p' | 'suffix'
> &
  Partial<Pick<z.output<typeof TextCompletionsBody>, 'frequency_penalty' | 'presence_penalty'>>;

function continued(caller: Caller, body: Continued, prompt: string, seed: number | null | undefined): Body {
  return {
    app_id: requestedSpace(caller, body.app_id),
    prompt,
    model: body.model ?? null,
    temperature: body.temperature ?? null,
    max_tokens: body.max_tokens ?? null,
    stream: body.stream ?? undefined,
    completion: {
      messages: [{ role: 'user', content: prompt }],
      stop: body.stop,
      topP: body.top_p,
      seed,
      frequencyPenalty: body.frequency_penalty,
      presencePenalty: body.presence_penalty,
      textCompletion: { suffix: body.suffix ?? null },
    },
  };
}
