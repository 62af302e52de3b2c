// A chat completion in the shapes of OpenAI's Responses API: the response object, its named
// server-sent events (response.created … response.completed, each with its sequence number) and an
// error event. What the request asked is echoed as OpenAI does; the routing receipt and the costs
// ride along as `llm_spaces`, an extra field of the response (`metadata` is the caller's own there).
import type { z } from 'zod';
import type { ChatCompletion, ResponsesBody } from '../../api/schemas';
import { openAiError } from './errorAnswers';
import type { EventStream } from './eventStream';

type Request = z.output<typeof ResponsesBody>;

const usageOf = (c: ChatCompletion) => {
  const cached = c.usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: c.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: c.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: c.usage.prompt_tokens + c.usage.completion_tokens,
  };
};

const compact = (id: string) => id.replace(/-/g, '');

/** The output items of a reply: its message (when it wrote text), then each function it calls. */
function outputOf(c: ChatCompletion): Array<Record<string, unknown>> {
  const message = c.choices[0]?.message;
  const text = message?.content
    ? [
        {
          type: 'message',
          id: `msg_${compact(c.id)}`,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: message.content, annotations: [], logprobs: [] }],
        },
      ]
    : [];
  const calls = (message?.tool_calls ?? []).map((call, i) => ({
    type: 'function_call',
    id: `fc_${compact(c.id)}_${i}`,
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
    status: 'completed',
  }));
  return [...text, ...calls];
}

/** The fields of a response that echo what was asked, before and after it ran. */
function echoed(request: Request) {
  return {
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    metadata: request.metadata ?? {},
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: null },
    safety_identifier: request.safety_identifier ?? null,
    // The tier it ran in: auto runs in the default one, the only one taken here.
    service_tier: 'default',
    store: false,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: 'disabled',
    user: request.user ?? null,
  };
}

/** The response object; a reply cut at max_output_tokens is `incomplete`, as OpenAI marks it. */
export function responseObject(c: ChatCompletion, request: Request, createdAt: number): Record<string, unknown> {
  const cut = c.choices[0]?.finish_reason === 'length';
  return {
    id: `resp_${compact(c.id)}`,
    object: 'response',
    created_at: createdAt,
    status: cut ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    model: c.model,
    output: outputOf(c),
    usage: usageOf(c),
    ...echoed(request),
    llm_spaces: c.metadata,
  };
}

/** Writes a reply as the Responses stream: text as it comes, then the function calls, then the end. */
export class ResponsesStream {
  private sequence = 0;
  private text = '';
  private textOpen = false;
  private readonly responseId: string;
  private readonly messageId: string;

  constructor(
    private readonly events: EventStream,
    requestId: string,
    private readonly model: string,
    private readonly request: Request,
    private readonly createdAt: number,
  ) {
    this.responseId = `resp_${compact(requestId)}`;
    this.messageId = `msg_${compact(requestId)}`;
  }

  private send(type: string, data: Record<string, unknown>): void {
    this.events.sendNamed(type, { type, sequence_number: this.sequence++, ...data });
  }

  start(): void {
    const response = {
      id: this.responseId,
      object: 'response',
      created_at: this.createdAt,
      status: 'in_progress',
      error: null,
      incomplete_details: null,
      model: this.model,
      output: [],
      usage: null,
      ...echoed(this.request),
    };
    this.send('response.created', { response });
    this.send('response.in_progress', { response });
  }

  delta(text: string): void {
    const at = { item_id: this.messageId, output_index: 0 };
    if (!this.textOpen) {
      this.send('response.output_item.added', {
        output_index: 0,
        item: { type: 'message', id: this.messageId, status: 'in_progress', role: 'assistant', content: [] },
      });
      this.send('response.content_part.added', {
        ...at,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      this.textOpen = true;
    }
    this.text += text;
    this.send('response.output_text.delta', { ...at, content_index: 0, delta: text, logprobs: [] });
  }

  finish(c: ChatCompletion): void {
    const response = responseObject(c, this.request, this.createdAt);
    const output = response.output as Array<Record<string, unknown>>;
    let index = 0;
    if (this.textOpen) {
      const at = { item_id: this.messageId, output_index: index };
      this.send('response.output_text.done', { ...at, content_index: 0, text: this.text, logprobs: [] });
      this.send('response.content_part.done', {
        ...at,
        content_index: 0,
        part: { type: 'output_text', text: this.text, annotations: [] },
      });
      this.send('response.output_item.done', { output_index: index, item: output[index] });
      index++;
    }
    for (const item of output.filter((o) => o.type === 'function_call')) {
      const at = { item_id: item.id, output_index: index };
      this.send('response.output_item.added', {
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      this.send('response.function_call_arguments.delta', { ...at, delta: item.arguments });
      this.send('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments });
      this.send('response.output_item.done', { output_index: index, item });
      index++;
    }
    this.send(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  }

  /** A failure after the stream began: OpenAI's error event, which its clients raise as an error. */
  error(status: number, detail: string): void {
    const { message, type, code, param } = openAiError(status, detail).error;
    this.send('error', { code: code ?? type, message, param });
  }
}
