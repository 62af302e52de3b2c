// Images and documents in a request: images counted in its input tokens before it is sent, by the rule
// of the vendor whose API it came by (chat/imageTokens.ts); an image or a PDF a tool gave back (Claude
// Code's Read of a picture or a PDF, a screenshot) taken in an Anthropic tool_result and sent on as each
// provider's API takes it; OpenAI's `detail` passed on; Anthropic's documents and the playground's
// attached files read by the model, and a PDF only by a model that reads one.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
import type { ModelRecord, RoutePreview } from '../../../src/api/schemas';
import { anthropicImageTokens, dataImageSize, openaiImageTokens } from '../../../src/service/chat/imageTokens';
import { HostedProviders } from '../../../src/service/chat/reach/hostedProviders';
import type { Generation } from '../../../src/service/chat/reach/reach';
import type { ChatMessage } from '../../../src/service/chat/request';
import { Cooldown } from '../../../src/service/providers/cooldown';
import { ProviderKeys } from '../../../src/service/providers/keys';
import { capabilityRefusal } from '../../../src/service/chat/routing';
import { raw } from '../support/http';
import { inflatingPdf, pdfBase64, slowPdf } from '../support/pdf';
import { pngBase64, pngDataUrl } from '../support/png';
import { startAnthropicFake, startOpenAiFake, type ProviderFake } from '../support/providerFakes';
import { echoSpace, removeDir, spaceOf, startService, type RunningService } from '../support/service';

describe("an image's tokens by the vendors' published rules", () => {
  it("counts OpenAI's tiles as its guide's examples do", () => {
    assert.equal(openaiImageTokens({ width: 1024, height: 1024 }), 765, '768 square: four tiles');
    assert.equal(openaiImageTokens({ width: 2048, height: 4096 }), 1105, '768 by 1536: six tiles');
    assert.equal(openaiImageTokens({ width: 4096, height: 8192 }, 'low'), 85, 'low detail is one small copy');
    assert.equal(
      openaiImageTokens({ width: 300, height: 200 }, 'high'),
      255,
      'a small image is one tile, not enlarged',
    );
  });

  it("counts Anthropic's area, scaled to its limits", () => {
    assert.equal(anthropicImageTokens({ width: 1000, height: 1000 }), 1334, '1,000,000 pixels / 750');
    assert.equal(anthropicImageTokens({ width: 200, height: 200 }), 54);
    // Larger images are scaled down to about 1,600 tokens, their long edge to 1,568 pixels at most.
    assert.ok(Math.abs(anthropicImageTokens({ width: 4000, height: 3000 }) - 1600) <= 2);
    assert.ok(Math.abs(anthropicImageTokens({ width: 8000, height: 400 }) - (1568 * 78) / 750) <= 2);
  });

  it("reads an image's size from its data URL, and nothing from what is not an image", () => {
    assert.deepEqual(dataImageSize(pngDataUrl(640, 480)), { width: 640, height: 480 });
    assert.equal(dataImageSize(`data:image/png;base64,${Buffer.from('not an image').toString('base64')}`), null);
    assert.equal(dataImageSize('https://example.com/a.png'), null);
  });
});

describe('images through the built-in service, from the vendors’ SDKs', function () {
  this.timeout(60_000);
  let service: RunningService;
  let anthropic: Anthropic;
  let openai: OpenAI;

  before(async () => {
    service = await startService();
    const created = await echoSpace(service, 'For images');
    anthropic = new Anthropic({ baseURL: service.url, apiKey: created.key, maxRetries: 0 });
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: created.key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  const image = (width: number, height: number) => ({
    type: 'image' as const,
    source: { type: 'base64' as const, media_type: 'image/png' as const, data: pngBase64(width, height) },
  });

  it("counts an image in Anthropic's count of input tokens by Anthropic's rule", async () => {
    const ask = { type: 'text' as const, text: 'What is in this picture?' };
    const alone = await anthropic.messages.countTokens({
      model: 'test/echo',
      messages: [{ role: 'user', content: [ask] }],
    });
    const withImage = await anthropic.messages.countTokens({
      model: 'test/echo',
      messages: [{ role: 'user', content: [ask, image(1000, 1000)] }],
    });
    assert.equal(withImage.input_tokens - alone.input_tokens, 1334);
  });

  it('takes an image a tool gave back, as Claude Code sends a picture it read, and counts it', async () => {
    const turn = (result: Anthropic.ToolResultBlockParam['content']): Anthropic.MessageCreateParamsNonStreaming => ({
      model: 'test/echo',
      max_tokens: 100,
      tools: [{ name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'What does logo.png show?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'logo.png' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: result }] },
      ],
    });
    const text = (await anthropic.messages.countTokens(turn([{ type: 'text', text: 'logo.png' }]))).input_tokens;
    const read = turn([{ type: 'text', text: 'logo.png' }, image(800, 600)]);
    assert.equal((await anthropic.messages.countTokens(read)).input_tokens - text, 640);
    const answered = await anthropic.messages.create(read);
    assert.equal(answered.stop_reason, 'end_turn');
    assert.equal(answered.usage.input_tokens - text, 640, 'billed as counted');
  });

  it("counts OpenAI's input_image by OpenAI's rule, at the detail asked", async () => {
    const input = (detail: 'low' | 'high') => [
      {
        role: 'user' as const,
        content: [
          { type: 'input_text' as const, text: 'What is in this picture?' },
          { type: 'input_image' as const, image_url: pngDataUrl(1024, 1024), detail },
        ],
      },
    ];
    const alone = await openai.responses.inputTokens.count({ model: 'test/echo', input: 'What is in this picture?' });
    const low = await openai.responses.inputTokens.count({ model: 'test/echo', input: input('low') });
    const high = await openai.responses.inputTokens.count({ model: 'test/echo', input: input('high') });
    assert.equal(low.input_tokens - alone.input_tokens, 85);
    assert.equal(high.input_tokens - alone.input_tokens, 765);
    // An image by its address (its size not known here) counts as the largest OpenAI bills.
    const byAddress = await openai.responses.inputTokens.count({
      model: 'test/echo',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this picture?' },
            { type: 'input_image', image_url: 'https://example.com/photo.png', detail: 'auto' },
          ],
        },
      ],
    });
    assert.equal(byAddress.input_tokens - alone.input_tokens, 1445);
  });

  it("counts the image in a function call's output, as a tool's screenshot comes back on the Responses API", async () => {
    const turn = (output: string | OpenAI.Responses.ResponseFunctionCallOutputItemList) =>
      openai.responses.inputTokens.count({
        model: 'test/echo',
        tools: [{ type: 'function', name: 'screenshot', parameters: { type: 'object' }, strict: false }],
        input: [
          { role: 'user', content: 'What is on the screen?' },
          { type: 'function_call', call_id: 'call_1', name: 'screenshot', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output },
        ],
      });
    const text = await turn([{ type: 'input_text', text: 'The screen:' }]);
    const shot = await turn([
      { type: 'input_text', text: 'The screen:' },
      { type: 'input_image', image_url: pngDataUrl(1024, 1024), detail: 'high' },
    ]);
    assert.equal(shot.input_tokens - text.input_tokens, 765);
  });

  it("bills a chat completion's image as counted, with the detail OpenAI's SDK sends", async () => {
    const ask = (detail: 'low' | 'high') =>
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe it.' },
              { type: 'image_url', image_url: { url: pngDataUrl(1024, 1024), detail } },
            ],
          },
        ],
      });
    const low = await ask('low');
    const high = await ask('high');
    assert.equal(high.usage!.prompt_tokens - low.usage!.prompt_tokens, 765 - 85);
  });
});

describe('an image a tool gave back, sent on to each provider as its API takes it', function () {
  this.timeout(30_000);
  let openaiFake: ProviderFake;
  let anthropicFake: ProviderFake;
  let reach: HostedProviders;
  const picture = pngDataUrl(64, 48);

  const screenshotTurn = (): ChatMessage[] => [
    { role: 'user', content: 'Take a screenshot and tell me what it shows.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
    },
    {
      role: 'tool',
      tool_call_id: 'call_1',
      content: [
        { type: 'text', text: 'The screen:' },
        { type: 'image_url', image_url: { url: picture } },
      ],
    },
  ];
  const generation = (model: Partial<ModelRecord>, messages: ChatMessage[]): Generation => ({
    model: { supports_vision: true, namespace: `${model.provider}/${model.model}`, ...model } as ModelRecord,
    messages,
    prompt: 'Take a screenshot and tell me what it shows.',
    images: 0,
    files: 0,
    maxTokens: 64,
    temperature: 0,
    tools: { tools: [{ type: 'function', function: { name: 'screenshot', parameters: { type: 'object' } } }] },
    signal: new AbortController().signal,
  });

  before(async () => {
    openaiFake = await startOpenAiFake();
    anthropicFake = await startAnthropicFake();
    const keys = new ProviderKeys();
    keys.set('openai', openaiFake.key, openaiFake.baseUrl);
    keys.set('anthropic', anthropicFake.key, anthropicFake.baseUrl);
    reach = new HostedProviders(keys, new Cooldown());
  });
  after(async () => {
    await openaiFake.close();
    await anthropicFake.close();
  });

  it('to Anthropic, in the tool_result itself', async () => {
    await reach.generate(generation({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, screenshotTurn()));
    const messages = anthropicFake.seen.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    const result = (messages.at(-1)!.content as Array<{ type: string; content: unknown }>)[0]!;
    assert.equal(result.type, 'tool_result');
    assert.deepEqual(result.content, [
      { type: 'text', text: 'The screen:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: picture.split(',')[1] } },
    ]);
    assert.deepEqual(anthropicFake.problems, []);
  });

  it("to OpenAI's chat API, whose tool results are text: in a message after them", async () => {
    await reach.generate(generation({ provider: 'openai', model: 'gpt-4o-mini' }, screenshotTurn()));
    const messages = openaiFake.seen.at(-1)!.body.messages as Array<Record<string, unknown>>;
    assert.deepEqual(messages.slice(-2), [
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: "The screen:\n(The tool's images and documents follow in the next message.)",
      },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: picture } }] },
    ]);
    assert.deepEqual(openaiFake.problems, []);
  });

  it("to OpenAI's Responses API, in the function call's output", async () => {
    await reach.generate(
      generation({ provider: 'openai', model: 'gpt-5.4-mini', supports_reasoning: true }, screenshotTurn()),
    );
    const input = openaiFake.seen.at(-1)!.body.input as Array<{ type?: string; output?: unknown }>;
    const output = input.find((item) => item.type === 'function_call_output')!.output;
    assert.deepEqual(output, [
      { type: 'input_text', text: 'The screen:' },
      { type: 'input_image', image_url: picture },
    ]);
    assert.deepEqual(openaiFake.problems, []);
  });

  it("passes OpenAI's detail on", async () => {
    await reach.generate(
      generation({ provider: 'openai', model: 'gpt-4o-mini' }, [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: picture, detail: 'low' } },
          ],
        },
      ]),
    );
    const messages = openaiFake.seen.at(-1)!.body.messages as Array<{ content: unknown }>;
    assert.deepEqual(messages.at(-1)!.content, [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: picture, detail: 'low' } },
    ]);
    assert.deepEqual(openaiFake.problems, []);
  });
});

/** A one-page PDF (the service reads its pages to count them; providers get it whole). */
const PDF = pdfBase64(['The specification: Spaces route by price.']);

describe('documents: read by the model, and a PDF only by a model that reads one', function () {
  this.timeout(60_000);
  let service: RunningService;
  let anthropic: Anthropic;
  let openaiFake: ProviderFake;
  let anthropicFake: ProviderFake;
  let spaceId: string;
  let openai: OpenAI;

  before(async () => {
    [openaiFake, anthropicFake] = await Promise.all([startOpenAiFake(), startAnthropicFake()]);
    service = await startService({
      env: {
        OPENAI_API_KEY: openaiFake.key,
        OPENAI_BASE_URL: openaiFake.baseUrl,
        ANTHROPIC_API_KEY: anthropicFake.key,
        ANTHROPIC_BASE_URL: anthropicFake.baseUrl,
      },
    });
    const created = await echoSpace(service, 'For documents');
    spaceId = created.id;
    anthropic = new Anthropic({ baseURL: service.url, apiKey: created.key, maxRetries: 0 });
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: created.key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    await Promise.all([openaiFake?.close(), anthropicFake?.close()]);
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => assert.deepEqual([...openaiFake.problems, ...anthropicFake.problems], []));

  /** A chat completion of a prompt and a file named spec.pdf, as OpenAI's SDK sends one. */
  const askFile = (fileData: string) =>
    openai.chat.completions.create({
      model: 'test/echo',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarize it.' },
            { type: 'file', file: { file_data: fileData, filename: 'spec.pdf' } },
          ],
        },
      ],
    });
  const pdfBlock = {
    type: 'document' as const,
    source: { type: 'base64' as const, media_type: 'application/pdf' as const, data: PDF },
  };
  /** Asks a model, by a Space's key, to summarize a document: (model) => the answer. */
  const summarize = (key: string, document: Anthropic.DocumentBlockParam) => {
    const reader = new Anthropic({ baseURL: service.url, apiKey: key, maxRetries: 0 });
    return (model: string) =>
      reader.messages.create({
        model,
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarize it.' }, document] }],
      });
  };
  const notes = (text: string) => ({
    type: 'document' as const,
    title: 'Release notes',
    source: { type: 'text' as const, media_type: 'text/plain' as const, data: text },
  });

  it("takes Anthropic's documents, a PDF and a text, and counts the text's tokens", async () => {
    const ask = (blocks: Anthropic.ContentBlockParam[]) =>
      anthropic.messages.countTokens({
        model: 'test/echo',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarize these.' }, ...blocks] }],
      });
    const pdfOnly = (await ask([pdfBlock])).input_tokens;
    const both = (await ask([pdfBlock, notes('Version 2 adds routing by price. '.repeat(20))])).input_tokens;
    assert.ok(both - pdfOnly > 100, `${pdfOnly} then ${both}`);
    const answered = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarize these.' }, pdfBlock, notes('v2')] }],
    });
    assert.equal(answered.stop_reason, 'end_turn');
  });

  it("counts a PDF's text and an image of each page, by the rule of the API it came by", async () => {
    const anthropicCount = async (data: string) =>
      (
        await anthropic.messages.countTokens({
          model: 'test/echo',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Summarize it.' },
                { ...pdfBlock, source: { ...pdfBlock.source, data } },
              ],
            },
          ],
        })
      ).input_tokens;
    const openaiCount = async (data: string) =>
      (
        await openai.responses.inputTokens.count({
          model: 'test/echo',
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: 'Summarize it.' },
                { type: 'input_file', file_data: `data:application/pdf;base64,${data}`, filename: 'spec.pdf' },
              ],
            },
          ],
        })
      ).input_tokens;
    const page = 'Routing.';
    const one = pdfBase64([page]);
    const three = pdfBase64([page, page, page]);
    // A US Letter page (612 by 792 points) as an image of 1,224 by 1,584 pixels.
    const letter = { width: 1224, height: 1584 };
    for (const [count, image] of [
      [anthropicCount, anthropicImageTokens(letter)],
      [openaiCount, openaiImageTokens(letter)],
    ] as const) {
      const [oneCounted, threeCounted] = [await count(one), await count(three)];
      // Two more pages: two more images, and the few tokens of their text.
      const added = threeCounted - oneCounted - 2 * image;
      assert.ok(added >= 2 && added <= 12, `one page ${oneCounted}, three ${threeCounted}, a page's image ${image}`);
    }
    // The text on the page counts: a page of prose against a page of one word.
    const prose = pdfBase64([
      Array(12).fill('Spaces route each request to the cheapest model that can answer it.').join('\n'),
    ]);
    const more = (await anthropicCount(prose)) - (await anthropicCount(one));
    assert.ok(more > 100, `${more} more tokens for a page of prose`);
  });

  it('refuses a PDF that cannot be read, in words, before any model is paid to try', async () => {
    const broken = Buffer.from('%PDF-1.4\nnot a document\n%%EOF\n').toString('base64');
    await assert.rejects(
      anthropic.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ ...pdfBlock, source: { ...pdfBlock.source, data: broken } }] }],
      }),
      (error: unknown) =>
        error instanceof Anthropic.APIError &&
        error.status === 422 &&
        /This PDF cannot be read: it is not a valid PDF\./.test(error.message),
    );
    await assert.rejects(
      askFile(`data:application/pdf;base64,${broken}`),
      (error: unknown) =>
        error instanceof OpenAI.APIError &&
        /The PDF spec\.pdf cannot be read: it is not a valid PDF\./.test(error.message),
    );
  });

  /**
   * Sends a PDF the reader must give up on, and another while it is read: the first is refused with
   * `why` (then `refused` checks more), and the other is not refused with it but read next, on a new
   * reader.
   */
  const refusedAlone = async (data: string, why: string, refused?: () => void) => {
    const refusal = assert.rejects(
      askFile(`data:application/pdf;base64,${data}`),
      (error: unknown) =>
        error instanceof OpenAI.APIError &&
        error.status === 422 &&
        error.message.includes(`The PDF spec.pdf cannot be read: ${why}.`),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const meanwhile = askFile(`data:application/pdf;base64,${pdfBase64([`Sent while one that ${why} is read.`])}`);
    await refusal;
    refused?.();
    assert.equal((await meanwhile).choices[0]!.finish_reason, 'stop');
  };

  it('refuses a PDF that unpacks to more memory than a PDF may take, in words, and reads the next one', async () => {
    const bomb = (await inflatingPdf(1200)).toString('base64');
    const memory = async () =>
      Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${service.child.pid}/status`, 'utf8'))![1]) * 1024;
    const before = await memory();
    let most = before;
    const watch = setInterval(() => void memory().then((now) => (most = Math.max(most, now))), 20);
    try {
      await refusedAlone(bomb, 'it takes more memory to read than a PDF may');
    } finally {
      clearInterval(watch);
    }
    // Stopped near its limit (512 MB, about 600 MB of the service's measured), long before the 1,200 MB
    // it unpacks to (read whole, such a page took the service to more than twice that).
    assert.ok(most - before < 900 * 2 ** 20, `the service grew by ${((most - before) / 2 ** 20).toFixed(0)} MB`);
    // The next PDF gets a new reader.
    assert.equal((await askFile(`data:application/pdf;base64,${PDF}`)).choices[0]!.finish_reason, 'stop');
  });

  it('refuses a PDF that takes longer than 30 seconds to read, in words, and reads the one sent meanwhile', async function () {
    this.timeout(120_000);
    const slow = slowPdf(40_000).toString('base64');
    const why = 'it took longer than 30 seconds to read';
    const started = Date.now();
    await refusedAlone(slow, why, () => {
      const waited = Date.now() - started;
      assert.ok(waited >= 30_000 && waited < 60_000, `refused after ${waited} ms`);
    });
    // Sent again, as an agent sends its whole conversation each turn: refused at once, the reader free.
    const again = Date.now();
    await refusedAlone(slow, why);
    assert.ok(Date.now() - again < 5_000, `refused again after ${Date.now() - again} ms`);
  });

  it("takes a PDF a tool gave back, as Claude Code's Read of a PDF sends it", async () => {
    const answered = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      tools: [{ name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'What does spec.pdf say?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'spec.pdf' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [pdfBlock] }] },
      ],
    });
    assert.equal(answered.stop_reason, 'end_turn');
  });

  it("refuses a document's citations in words: only Anthropic's models give them", async () => {
    await assert.rejects(
      anthropic.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ ...notes('v2'), citations: { enabled: true } }] }],
      }),
      (error: unknown) =>
        error instanceof Anthropic.APIError &&
        /citations.*cannot be enabled here: a document's citations come only from Anthropic's models/.test(
          error.message,
        ),
    );
  });

  it('sends a PDF to Anthropic as a document and to OpenAI as a file, from the Messages API', async () => {
    const readers = await spaceOf(service, 'PDF readers', ['anthropic/claude-sonnet-4-6', 'openai/gpt-4o-mini']);
    const read = summarize(readers.key, { ...pdfBlock, title: 'spec.pdf' });
    await read('anthropic/claude-sonnet-4-6');
    const sentToAnthropic = anthropicFake.seen.at(-1)!.body.messages as Array<{
      content: Array<Record<string, unknown>>;
    }>;
    assert.deepEqual(
      sentToAnthropic.at(-1)!.content.find((b) => b.type === 'document'),
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'spec.pdf' },
    );
    await read('openai/gpt-4o-mini');
    const sentToOpenAi = openaiFake.seen.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    const file = sentToOpenAi.at(-1)!.content.find((p) => p.type === 'file') as { file: Record<string, unknown> };
    assert.equal(file.file.file_data, `data:application/pdf;base64,${PDF}`);
  });

  it('says which active models cannot read a PDF when none of a Space can', async () => {
    const none = await spaceOf(service, 'No PDF readers', ['local/llama3.2', 'local/qwen2.5-coder']);
    const reader = new Anthropic({ baseURL: service.url, apiKey: none.key, maxRetries: 0 });
    await assert.rejects(
      reader.messages.create({
        model: 'No PDF readers',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarize it.' }, pdfBlock] }],
      }),
      (error: unknown) =>
        error instanceof Anthropic.APIError &&
        error.message.includes(
          "No active model of this Space can serve this request (local/llama3.2 and local/qwen2.5-coder: cannot read PDFs). Turn on one that can in the Space's settings.",
        ),
    );
  });

  it('keeps a PDF from a Claude model that reads fewer of its pages, as Anthropic publishes them, and routes it to one that reads them all', async () => {
    const readers = await spaceOf(service, 'Long PDF readers', [
      'anthropic/claude-haiku-4-5',
      'anthropic/claude-sonnet-4-6',
    ]);
    // No cap per request: 101 pages are about $0.50 of input at Claude Sonnet's price.
    await service.client().updateSpace({ id: readers.id, policies: { max_cost: 0 } });
    // 101 pages: more than a model with a context window of 200,000 tokens reads (100), though they fit in it.
    const long = pdfBase64(Array.from({ length: 101 }, (_, i) => `Page ${i + 1}`));
    const read = summarize(readers.key, { ...pdfBlock, source: { ...pdfBlock.source, data: long } });
    const before = anthropicFake.seen.length;
    await assert.rejects(
      read('anthropic/claude-haiku-4-5'),
      (error: unknown) =>
        error instanceof Anthropic.APIError &&
        error.status === 422 &&
        error.message.includes(
          'anthropic/claude-haiku-4-5 reads at most 100 pages of PDF in a request, and this one has 101: send fewer pages, or another model',
        ),
    );
    assert.equal(anthropicFake.seen.length, before, 'no model was paid to refuse it');
    await read('Long PDF readers');
    assert.equal(anthropicFake.seen.at(-1)!.body.model, 'claude-sonnet-4-6');
    // The route preview of the playground's prompt with it attached says so too.
    const preview = await raw(service.url, 'POST', `/v1/apps/${readers.id}/route`, {
      token: service.token,
      body: { prompt: 'Summarize it.', files: [`data:application/pdf;base64,${long}`] },
    });
    assert.equal(preview.status, 200, preview.text);
    const { chosen, rejected } = preview.json as RoutePreview;
    assert.equal(chosen, 'anthropic/claude-sonnet-4-6');
    assert.deepEqual(
      rejected.filter((r) => r.reason !== 'inactive'),
      [{ namespace: 'anthropic/claude-haiku-4-5', reason: 'too many PDF pages' }],
    );
  });

  it("takes a PDF in OpenAI's file part on chat completions, and refuses any other file there in words", async () => {
    assert.equal((await askFile(`data:application/pdf;base64,${PDF}`)).choices[0]!.finish_reason, 'stop');
    await assert.rejects(
      askFile(`data:text/plain;base64,${Buffer.from('hello').toString('base64')}`),
      (error: unknown) =>
        error instanceof OpenAI.APIError &&
        /must be a PDF as a data URL \(data:application\/pdf;base64,/.test(error.message),
    );
  });

  it('takes a PDF as a Responses input_file, sends it to OpenAI as one, and refuses one named by file_id', async () => {
    const input = (file: Record<string, unknown>): OpenAI.Responses.ResponseInput => [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Summarize it.' },
          { type: 'input_file', ...file } as OpenAI.Responses.ResponseInputFile,
        ],
      },
    ];
    const pdf = { file_data: `data:application/pdf;base64,${PDF}`, filename: 'spec.pdf' };
    assert.equal((await openai.responses.create({ model: 'test/echo', input: input(pdf) })).status, 'completed');
    await openai.responses.create({ model: 'openai/gpt-5.4-mini', input: input(pdf), store: false });
    const sent = openaiFake.seen.at(-1)!.body.input as Array<{ content: Array<Record<string, unknown>> }>;
    assert.deepEqual(sent.at(-1)!.content.at(-1), {
      type: 'input_file',
      filename: 'spec.pdf',
      file_data: pdf.file_data,
    });
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', input: input({ file_id: 'file-abc' }) }),
      (error: unknown) =>
        error instanceof OpenAI.APIError && /files are not kept here to name by id/.test(error.message),
    );
  });

  it("reads the playground's attached files to the model: text as its text, a PDF whole", async () => {
    const csv = 'name,price\nrouting,0\n';
    const sent = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: {
        app_id: spaceId,
        model: 'openai/gpt-4o-mini',
        prompt: 'What do these say?',
        files: [`data:text/csv;base64,${Buffer.from(csv).toString('base64')}`, `data:application/pdf;base64,${PDF}`],
      },
    });
    assert.equal(sent.status, 200, sent.text);
    const content = (openaiFake.seen.at(-1)!.body.messages as Array<{ content: unknown }>).at(-1)!.content;
    assert.deepEqual(content, [
      { type: 'text', text: 'What do these say?' },
      { type: 'text', text: `\n\nAttached file 1 (text/csv):\n${csv}` },
      { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'part-2.pdf' } },
    ]);
  });

  it("counts the playground's attached files in the cost band before sending, as they would be sent", async () => {
    const band = async (files?: string[]) => {
      const preview = await raw(service.url, 'POST', `/v1/apps/${spaceId}/route`, {
        token: service.token,
        body: { prompt: 'What do these say?', model: 'test/echo', max_tokens: 50, files },
      });
      assert.equal(preview.status, 200, preview.text);
      return (preview.json as { band: { prompt_tokens: number } }).band.prompt_tokens;
    };
    const alone = await band();
    const notes = Array(40).fill('Spaces route each request to the cheapest model.').join('\n');
    const withText = await band([`data:text/plain;base64,${Buffer.from(notes).toString('base64')}`]);
    assert.ok(withText - alone > 300, `a text file: ${alone} then ${withText}`);
    const withImage = await band([pngDataUrl(1024, 1024)]);
    assert.equal(withImage - alone, openaiImageTokens({ width: 1024, height: 1024 }), 'an image by its tiles');
    const withPdf = await band([`data:application/pdf;base64,${PDF}`]);
    const page = openaiImageTokens({ width: 1224, height: 1584 });
    assert.ok(withPdf - alone >= page && withPdf - alone < page + 30, `a one-page PDF: ${alone} then ${withPdf}`);
    // A PDF that cannot be read: refused as the send would refuse it, so the playground says so first.
    const broken = Buffer.from('%PDF-1.4\nnot a document\n%%EOF\n').toString('base64');
    const refused = await raw(service.url, 'POST', `/v1/apps/${spaceId}/route`, {
      token: service.token,
      body: { prompt: 'And this?', model: 'test/echo', files: [`data:application/pdf;base64,${broken}`] },
    });
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.text, /This PDF cannot be read: it is not a valid PDF\./);
  });

  it('refuses an attached file that is not text, naming it, and a PDF for a model that cannot read one', async () => {
    const binary = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: {
        app_id: spaceId,
        prompt: 'What is this?',
        files: [`data:text/plain;base64,${Buffer.from([0x00, 0xff, 0xfe, 0x10]).toString('base64')}`],
      },
    });
    assert.equal(binary.status, 422, binary.text);
    assert.match(binary.text, /files\.0|"files",0/);
    assert.match(
      binary.text,
      /is a file of type text\/plain that is not text; a model here reads text files, PDFs and images/,
    );
    const record = (provider: string, vision: boolean) =>
      ({ provider, namespace: `${provider}/m`, supports_vision: vision }) as ModelRecord;
    const needs = { needsVision: false, needsPdf: true, needsJson: null, needsLogprobs: false };
    assert.equal(capabilityRefusal(record('anthropic', true), needs), null);
    assert.equal(capabilityRefusal(record('google', true), needs), null);
    assert.equal(capabilityRefusal(record('mistral', true), needs), 'cannot read PDFs');
    assert.equal(capabilityRefusal(record('openai', false), needs), 'cannot read PDFs');
    // Pages: Claude's limit is the request's, Gemini's each document's; OpenAI's is not checked.
    const pages = (total: number, longest: number) => ({ ...needs, pdfPages: { total, longest } });
    const cases: Array<
      [provider: string, model: string, window: number, total: number, longest: number, refused: boolean]
    > = [
      ['anthropic', 'claude-haiku-4-5', 200_000, 100, 60, false],
      ['anthropic', 'claude-haiku-4-5', 200_000, 101, 60, true],
      ['anthropic', 'claude-sonnet-4-6', 1_000_000, 600, 300, false],
      ['anthropic', 'claude-sonnet-4-6', 1_000_000, 601, 300, true],
      ['google', 'claude-sonnet-4-5', 200_000, 101, 101, true],
      ['google', 'gemini-2.5-pro', 1_000_000, 1800, 1000, false],
      ['google', 'gemini-2.5-pro', 1_000_000, 1001, 1001, true],
      ['openai', 'gpt-5.4', 1_000_000, 5000, 5000, false],
    ];
    for (const [provider, model, window, total, longest, refused] of cases) {
      const r = { ...record(provider, true), namespace: `${provider}/${model}`, context_window: window } as ModelRecord;
      assert.equal(
        capabilityRefusal(r, pages(total, longest)),
        refused ? 'too many PDF pages' : null,
        `${r.namespace} with ${total} pages, the longest ${longest}`,
      );
    }
  });
});
