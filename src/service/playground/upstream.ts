// Forwards a request to an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LiteLLM…) given with
// --upstream, under the model's api_target, streaming the reply through.
import { createParser } from 'eventsource-parser';
import { request } from 'undici';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string | Array<Record<string, unknown>> };

export interface UpstreamCall {
  baseUrl: string;
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  onDelta?: (text: string) => void;
  signal: AbortSignal;
}

export interface UpstreamReply {
  text: string;
  finishReason: 'stop' | 'length';
}

export class UpstreamFailure extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

export async function callUpstream(call: UpstreamCall): Promise<UpstreamReply> {
  const stream = call.onDelta !== undefined;
  let response;
  try {
    response = await request(`${call.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' },
      body: JSON.stringify({ model: call.model, messages: call.messages, max_tokens: call.maxTokens, temperature: call.temperature, stream }),
      signal: call.signal,
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
  } catch (error) {
    throw new UpstreamFailure(`upstream unreachable (${(error as { code?: string }).code ?? (error as Error).name})`);
  }
  if (response.statusCode >= 400) {
    const text = await response.body.text().catch(() => '');
    throw new UpstreamFailure(`upstream answered ${response.statusCode}${text ? `: ${text.slice(0, 200)}` : ''}`, response.statusCode);
  }
  return stream ? readStream(response.body, call.onDelta!) : readJson(await response.body.text());
}

function finish(reason: unknown): 'stop' | 'length' {
  return reason === 'length' ? 'length' : 'stop';
}

function readJson(text: string): UpstreamReply {
  try {
    const json = JSON.parse(text) as { choices?: Array<{ message?: { content?: string }; finish_reason?: string }> };
    const choice = json.choices?.[0];
    if (typeof choice?.message?.content !== 'string') throw new Error('no message');
    return { text: choice.message.content, finishReason: finish(choice.finish_reason) };
  } catch {
    throw new UpstreamFailure('upstream answered with an unexpected body');
  }
}

async function readStream(body: AsyncIterable<unknown>, onDelta: (text: string) => void): Promise<UpstreamReply> {
  let text = '';
  let reason: unknown = null;
  let done = false;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === '[DONE]') {
        done = true;
        return;
      }
      try {
        const chunk = JSON.parse(event.data) as { choices?: Array<{ delta?: { content?: string }; finish_reason?: string | null }> };
        const choice = chunk.choices?.[0];
        if (choice?.delta?.content) {
          text += choice.delta.content;
          onDelta(choice.delta.content);
        }
        if (choice?.finish_reason) reason = choice.finish_reason;
      } catch {
        // A keep-alive or vendor event that is not a chunk.
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const bytes of body) parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
  } catch (error) {
    throw new UpstreamFailure(`upstream stream broke (${(error as { code?: string }).code ?? (error as Error).name})`);
  }
  if (!done && reason === null) throw new UpstreamFailure('upstream stream ended early');
  return { text, finishReason: finish(reason) };
}
