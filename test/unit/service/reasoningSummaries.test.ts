// What an OpenAI reasoning model thought, as OpenAI summarises it on its Responses API: asked for on
// every request (the summary a Responses client names, else `auto`), so the playground and OpenAI-shaped
// clients show it even when no effort is given; and for an organization OpenAI has not verified, which
// it refuses summaries with a 400, the request goes again without one, the reply says why once, and the
// key is not asked for one again. A fake of OpenAI's Responses API, driven by the official SDK.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { raw } from '../support/http';
import { startOpenAiFake, type ProviderFake } from '../support/providerFakes';
import { removeDir, startService, type RunningService } from '../support/service';

const NS = 'openai/gpt-5.4-mini';

describe("an OpenAI reasoning model's thinking", function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let service: RunningService;
  let app: string;
  let sdk: OpenAI;

  const summaryAsked = (from: number) =>
    openai.seen.slice(from).map((r) => (r.body.reasoning as { summary?: string } | undefined)?.summary ?? null);
  const ask = (prompt: string) =>
    raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { app_id: app, model: NS, messages: [{ role: 'user', content: prompt }] },
    });
  async function streamed(prompt: string): Promise<{ reasoning: string; text: string }> {
    let reasoning = '';
    let text = '';
    for await (const piece of await sdk.chat.completions.create({
      model: NS,
      stream: true,
      messages: [{ role: 'user', content: prompt }],
    })) {
      const delta = piece.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    return { reasoning, text };
  }

  before(async () => {
    openai = await startOpenAiFake();
    service = await startService({ env: { OPENAI_API_KEY: openai.key, OPENAI_BASE_URL: openai.baseUrl } });
    const client = service.client();
    const space = await client.createSpace({ name: 'Reasoning shown' });
    for (const s of (await client.getSpaceModels(space.id)).base_model_settings)
      if (s.active !== (s.namespace === NS)) await client.toggleModel(space.id, s.id, s.namespace === NS);
    app = space.id;
    sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: space.created_key!, maxRetries: 0 });
  });
  afterEach(() => assert.deepEqual(openai.problems, [], 'every request followed the reference'));
  after(async () => {
    await service?.stop();
    await openai?.close();
    if (service) removeDir(service.dataDir);
  });

  it('is asked for with no effort given, and reaches OpenAI-shaped clients; a Responses client names its own summary', async () => {
    const before = openai.seen.length;
    const { reasoning, text } = await streamed('Why is the sky blue?');
    assert.deepEqual([reasoning, text], ['Thinking about: Why is the sky blue?', 'echo: Why is the sky blue?']);
    const sent = openai.seen.at(-1)!;
    assert.equal(sent.path, '/v1/responses');
    assert.deepEqual(sent.body.reasoning, { summary: 'auto' }, 'a summary, and no effort nobody asked for');
    const response = await sdk.responses.create({
      model: NS,
      reasoning: { effort: 'low', summary: 'detailed' },
      input: 'And at sunset?',
    });
    assert.equal(response.output_text, 'echo: And at sunset?');
    assert.deepEqual(summaryAsked(before), ['auto', 'detailed']);
  });

  it('for an organization OpenAI has not verified, answers without it, says why once, and asks for no more summaries', async () => {
    openai.unverified = true;
    try {
      const before = openai.seen.length;
      const first = await ask('Why is the sky blue?');
      assert.equal(first.status, 200, first.text);
      // Refused with a summary, answered without one.
      assert.deepEqual(summaryAsked(before), ['auto', null]);
      const said = first.json as {
        choices: Array<{ message: { content: string; reasoning_content?: string } }>;
        metadata: { warning: string | null };
      };
      assert.equal(said.choices[0]!.message.content, 'echo: Why is the sky blue?');
      assert.equal(said.choices[0]!.message.reasoning_content, undefined);
      assert.match(
        said.metadata.warning ?? '',
        /^OpenAI shows a reasoning model's thinking only to organizations it has verified, so this reply comes without it\. Verify yours at https:\/\/platform\.openai\.com\/settings\/organization\/general/,
      );
      // From then on, one request each, none asking for a summary, and no warning.
      assert.deepEqual(await streamed('And at sunset?'), { reasoning: '', text: 'echo: And at sunset?' });
      const again = await ask('And at night?');
      assert.equal(again.status, 200, again.text);
      assert.equal((again.json as { metadata: { warning: unknown } }).metadata.warning, null);
      assert.deepEqual(summaryAsked(before), ['auto', null, null, null]);
      assert.ok(!service.output().includes(openai.key), 'the key is not in the output');
    } finally {
      openai.unverified = false;
    }
  });
});
