// Z.ai's GLM models through a Space, with the official OpenAI SDK as a client: its key from ZAI_API_KEY,
// its models under the lower-case ids its API takes, tried with a current GLM its list names; a chat
// whole, streamed and with a tool, billed at Z.ai's own counts; its thinking passed on; a GLM Coding
// Plan key at the plan's own address, and the same key at the pay-as-you-go address refused in words
// that say what to do. Z.ai's fake checks each request against its API reference.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { raw } from '../support/http';
import { chatsWholeAndStreamed } from '../support/openAiChat';
import { fakeEnv, startZaiFake, ZAI_NO_BALANCE, type ProviderFake } from '../support/providerFakes';
import { removeDir, startService, type RunningService } from '../support/service';
import { keyCheck, keyKeptOut, throughASpace } from '../support/throughASpace';

const FLASH = 'zai/glm-5.3-flash';

describe('Z.ai (GLM) through a Space', function () {
  this.timeout(60_000);
  const zai = throughASpace('zai', startZaiFake, { name: 'GLM', active: [FLASH] }, (fake) => {
    // What Z.ai's GET …/models names for this key.
    fake.listed = ['glm-5.3-flash', 'glm-5.3', 'glm-5.2'];
  });
  const { said } = zai;

  it("lists the GLM models under the ids Z.ai's API takes, at their list prices once a launch promotion ended", () => {
    const glm = zai.models.filter((m) => m.provider === 'zai').map((m) => m.namespace);
    assert.deepEqual(glm.sort(), ['zai/glm-5.2', 'zai/glm-5.3', 'zai/glm-5.3-flash']);
    const flash = zai.models.find((m) => m.namespace === FLASH)!;
    assert.equal(flash.answers_here, true);
    assert.equal(flash.context_window, 1_000_000);
    // The price list gives GLM-5.3 Flash's launch price, which ended on 2026-09-09: the list prices since.
    assert.deepEqual(
      [flash.prompt_token_cost, flash.cache_read_token_cost, flash.completion_token_cost].map((p) =>
        Math.round(p! * 1e8),
      ),
      [15, 3, 50],
    );
    // GLM-4.5 and later think; Z.ai's reference has no penalties.
    assert.equal(flash.supports_reasoning, true);
    assert.equal(flash.supports_penalties, false);
  });

  it("tries the key with GLM-5.3 Flash, which Z.ai's list names", async () => {
    assert.deepEqual(await keyCheck(zai), {
      ok: true,
      message: 'The Z.ai (GLM) key works: zai/glm-5.3-flash answered.',
      model: FLASH,
    });
    assert.ok(zai.fake.listings > 0, 'its list of models was read');
    const sent = zai.fake.seen.at(-1)!;
    assert.deepEqual([sent.path, sent.body.model], ['/api/paas/v4/chat/completions', 'glm-5.3-flash']);
    assert.equal(sent.headers.authorization, `Bearer ${zai.fake.key}`);
  });

  it("answers through the OpenAI SDK, whole and streamed, with GLM's thinking, billed at Z.ai's counts", async () => {
    const flash = zai.models.find((m) => m.namespace === FLASH)!;
    said.push(await chatsWholeAndStreamed(zai.sdk, flash, { asked: 'glm-5.3-flash', text: 'hello GLM', thinks: true }));
    assert.equal(zai.fake.seen.at(-1)!.body.stream, true);
  });

  it('passes a tool call on, whole and streamed', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      },
    ];
    const whole = await zai.sdk.chat.completions.create({
      model: FLASH,
      messages: [{ role: 'user', content: 'call lookup {"q":"gateway"}' }],
      tools,
    });
    const call = whole.choices[0]!.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall | undefined;
    assert.deepEqual([call?.function.name, call?.function.arguments], ['lookup', '{"q":"gateway"}']);
    assert.equal(whole.choices[0]!.finish_reason, 'tool_calls');

    const stream = await zai.sdk.chat.completions.create({
      model: FLASH,
      messages: [{ role: 'user', content: 'call lookup {"q":"streamed"}' }],
      tools,
      stream: true,
    });
    let args = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      for (const c of chunk.choices[0]?.delta.tool_calls ?? []) args += c.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.deepEqual([args, finish], ['{"q":"streamed"}', 'tool_calls']);
  });

  it('sends Z.ai only the fields it takes, whatever else of OpenAI’s a client asked for', async () => {
    // What Codex and Cline send with OpenAI's models: a prompt cache key, one tool call at a time, a
    // verbosity, a penalty. Z.ai takes none of them (the fake flags any field it does not know).
    const answer = await zai.sdk.chat.completions.create({
      model: FLASH,
      messages: [{ role: 'user', content: 'only what it takes' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
      parallel_tool_calls: false,
      prompt_cache_key: 'conversation-1',
      verbosity: 'low',
      frequency_penalty: 0.5,
    });
    assert.equal(answer.choices[0]!.message.content, 'echo: only what it takes');
    assert.deepEqual(Object.keys(zai.fake.seen.at(-1)!.body).sort(), [
      'max_tokens',
      'messages',
      'model',
      'temperature',
      'tools',
    ]);
  });

  it("turns GLM's thinking off for an effort of none and asks it for any other, in Z.ai's words", async () => {
    const ask = async (effort: 'none' | 'low') => {
      const answer = await zai.sdk.chat.completions.create({
        model: FLASH,
        messages: [{ role: 'user', content: `effort ${effort}` }],
        reasoning_effort: effort,
      });
      const sent = zai.fake.seen.at(-1)!.body;
      assert.equal(sent.reasoning_effort, undefined);
      return [
        (sent.thinking as { type?: string } | undefined)?.type,
        'reasoning_content' in answer.choices[0]!.message,
      ];
    };
    assert.deepEqual(await ask('none'), ['disabled', false]);
    assert.deepEqual(await ask('low'), ['enabled', true]);
  });

  keyKeptOut(zai, 'Z.ai');
});

describe("Z.ai's GLM Coding Plan", function () {
  this.timeout(60_000);
  let coding: ProviderFake;
  const services: RunningService[] = [];

  before(async () => {
    coding = await startZaiFake(undefined, 'coding');
    coding.listed = ['glm-5.3-flash', 'glm-5.3'];
  });
  after(async () => {
    for (const service of services) {
      await service.stop();
      removeDir(service.dataDir);
    }
    await coding?.close();
  });

  const check = async (baseUrl: string) => {
    const service = await startService({ env: { ...fakeEnv({ zai: coding }), ZAI_BASE_URL: baseUrl } });
    services.push(service);
    const res = await raw(service.url, 'POST', '/v1/providers/zai/check', { token: service.token, body: {} });
    assert.ok(!res.text.includes(coding.key) && !service.output().includes(coding.key), 'no key in what was said');
    return res.json as { ok: boolean; message: string };
  };

  it("answers a Coding Plan key at the plan's address", async () => {
    assert.deepEqual(await check(coding.baseUrl), {
      ok: true,
      message: 'The Z.ai (GLM) key works: zai/glm-5.3-flash answered.',
      model: FLASH,
    });
    assert.equal(coding.seen.at(-1)!.path, '/api/coding/paas/v4/chat/completions');
    assert.deepEqual(coding.problems, []);
  });

  it("says in words that a Coding Plan key at the pay-as-you-go address is another plan's, not a rate limit", async () => {
    const answer = await check(coding.baseUrl.replace('/api/coding/', '/api/'));
    assert.equal(answer.ok, false);
    assert.equal(
      answer.message,
      `The Z.ai (GLM) key did not work: Z.ai (GLM) refused: the account has no credit left for this (HTTP 429: ${ZAI_NO_BALANCE}). ` +
        "A Z.ai (GLM) key answers only at its own plan's address: if it is for another plan, add it again and choose that plan.",
    );
    assert.equal(coding.seen.at(-1)!.path, '/api/paas/v4/chat/completions');
  });
});

describe("Zhipu AI's China platform (BigModel): the same GLM models at its own prices", function () {
  this.timeout(60_000);
  const ZHIPU_FLASH = 'zhipuai/glm-5.3-flash';
  // BigModel speaks Z.ai's API at its own address: Z.ai's fake plays it.
  const bigmodel = throughASpace(
    'zhipuai',
    () => startZaiFake('0123456789abcdef0123456789abcdef.zhipuFakeSecret1'),
    { name: 'BigModel', active: [ZHIPU_FLASH] },
    (fake) => {
      fake.listed = ['glm-5.3-flash', 'glm-5.3', 'glm-4.7'];
    },
  );
  const { said } = bigmodel;

  it('lists its GLM models under their own names, at its prices (not Z.ai’s), a launch promotion ended', () => {
    const price = (ns: string) => {
      const m = bigmodel.models.find((r) => r.namespace === ns)!;
      return [m.prompt_token_cost, m.cache_read_token_cost, m.completion_token_cost].map((p) => Math.round(p! * 1e9));
    };
    // The price list's yuan prices in dollars (8, 2 and 28 yuan a million tokens for GLM-5.3).
    assert.deepEqual(price('zhipuai/glm-5.3'), [1103, 276, 3862]);
    assert.deepEqual(price('zai/glm-5.3'), [1400, 260, 4400]);
    // GLM-5.3 Flash's two-week launch discount is over: its list prices (0.8, 0.23 and 2.8 yuan).
    assert.deepEqual(price(ZHIPU_FLASH), [110, 32, 386]);
    const flash = bigmodel.models.find((m) => m.namespace === ZHIPU_FLASH)!;
    assert.deepEqual([flash.answers_here, flash.supports_reasoning, flash.supports_penalties], [true, true, false]);
    assert.equal(bigmodel.models.find((m) => m.namespace === 'zhipuai/glm-5.2')?.answers_here, false, 'not listed');
  });

  it('tries the key with GLM-5.3 Flash at BigModel’s address', async () => {
    assert.deepEqual(await keyCheck(bigmodel), {
      ok: true,
      message: `The Zhipu AI (BigModel, China) key works: ${ZHIPU_FLASH} answered.`,
      model: ZHIPU_FLASH,
    });
    assert.equal(bigmodel.fake.seen.at(-1)!.headers.authorization, `Bearer ${bigmodel.fake.key}`);
  });

  it('answers through the OpenAI SDK, whole and streamed, with its thinking, billed at its prices', async () => {
    const flash = bigmodel.models.find((m) => m.namespace === ZHIPU_FLASH)!;
    // Named with the provider: the bare name is Z.ai's, whose models the same names have.
    said.push(
      await chatsWholeAndStreamed(bigmodel.sdk, flash, { asked: ZHIPU_FLASH, text: 'hello BigModel', thinks: true }),
    );
    const none = await bigmodel.sdk.chat.completions.create({
      model: ZHIPU_FLASH,
      messages: [{ role: 'user', content: 'no thinking' }],
      reasoning_effort: 'none',
    });
    assert.equal('reasoning_content' in none.choices[0]!.message, false);
    assert.equal((bigmodel.fake.seen.at(-1)!.body.thinking as { type: string }).type, 'disabled');
  });

  keyKeptOut(bigmodel, 'Zhipu AI');
});
