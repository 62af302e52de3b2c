// Moonshot AI (Kimi) through a Space, with the official OpenAI SDK as a client: its key from
// MOONSHOT_API_KEY, tried with a current Kimi model its list of models names; a chat whole and streamed,
// billed at Moonshot's own counts and the price list's prices. Moonshot's API is OpenAI's Chat
// Completions, so OpenAI's fake plays it, checking each request against that reference.
import assert from 'node:assert/strict';
import { chatsWholeAndStreamed } from '../support/openAiChat';
import { startOpenAiFake } from '../support/providerFakes';
import { keyCheck, keyKeptOut, throughASpace } from '../support/throughASpace';

const KIMI = 'moonshotai/kimi-k2.6';

describe('Moonshot AI (Kimi) through a Space', function () {
  this.timeout(60_000);
  const moonshot = throughASpace(
    'moonshotai',
    () => startOpenAiFake('sk-fake-moonshot-0123456789abcdef', { responses: false }),
    { name: 'Kimi', active: [KIMI] },
    (fake) => {
      // What Moonshot's GET /v1/models names for this key: two current Kimi models and an old one.
      fake.listed = ['kimi-k2.6', 'kimi-k2.5', 'moonshot-v1-8k'];
    },
  );
  const { said } = moonshot;

  it("lists Kimi's current models at the price list's prices, and not its retired previews", () => {
    const kimi = moonshot.models.find((m) => m.namespace === KIMI);
    assert.ok(kimi, moonshot.models.map((m) => m.namespace).join(', '));
    assert.equal(kimi.provider, 'moonshotai');
    assert.equal(kimi.answers_here, true);
    assert.equal(kimi.context_window, 262_144);
    assert.ok(
      Math.abs(kimi.prompt_token_cost * 1e6 - 0.95) < 1e-9 && Math.abs(kimi.completion_token_cost * 1e6 - 4) < 1e-9,
    );
    // Kimi K2.5 and later think; Moonshot's older models do not.
    assert.equal(kimi.supports_reasoning, true);
    assert.equal(moonshot.models.find((m) => m.namespace === 'moonshotai/moonshot-v1-8k')?.supports_reasoning, false);
    const preview = moonshot.models.find((m) => m.namespace === 'moonshotai/kimi-k2-0711-preview');
    assert.ok(preview?.deprecated_on, 'the preview Moonshot retired is marked so');
  });

  it('tries the key with Kimi K2.6, which its list names', async () => {
    assert.deepEqual(await keyCheck(moonshot), {
      ok: true,
      message: 'The Moonshot AI (Kimi) key works: moonshotai/kimi-k2.6 answered.',
      model: KIMI,
    });
    assert.ok(moonshot.fake.listings > 0, 'its list of models was read');
    const sent = moonshot.fake.seen.at(-1)!;
    assert.deepEqual([sent.path, sent.body.model], ['/v1/chat/completions', 'kimi-k2.6']);
    assert.equal(sent.headers.authorization, `Bearer ${moonshot.fake.key}`);
  });

  it("answers through the OpenAI SDK, whole and streamed, billed at Moonshot's counts", async () => {
    const kimi = moonshot.models.find((m) => m.namespace === KIMI)!;
    said.push(
      await chatsWholeAndStreamed(moonshot.sdk, kimi, { asked: 'kimi-k2.6', text: 'hello Kimi', thinks: false }),
    );
    assert.equal(moonshot.fake.seen.at(-2)!.body.model, 'kimi-k2.6');
    assert.equal(moonshot.fake.seen.at(-1)!.body.stream, true);
  });

  keyKeptOut(moonshot, 'Moonshot');
});
