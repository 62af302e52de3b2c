// The Models view's arrangement: one list across providers answers "what is cheapest?", capability
// names are words, and a model nothing serves says how to change that.
import assert from 'node:assert/strict';
import { EmbeddingModelRecord, ModelRecord } from '../../../src/api/schemas';
import {
  arrange,
  arrangeEmbeddings,
  arrangeFlat,
  embeddingMarkdown,
  embeddingToSuggest,
  autocompleteToSuggest,
  modelMarkdown,
  type ModelFilter,
} from '../../../src/shared/modelCatalog';
import { priceLine } from '../../../src/shared/models';
import { providerLabel } from '../../../src/shared/providerNames';

const model = (namespace: string, input: number, output: number, extra: Record<string, unknown> = {}) =>
  ModelRecord.parse({
    namespace,
    model: namespace.split('/')[1],
    provider: namespace.split('/')[0],
    prompt_token_cost: input / 1e6,
    completion_token_cost: output / 1e6,
    context_window: 128_000,
    ...extra,
  });

const CATALOGUE = [
  model('openai/gpt-4o', 2.5, 10, { supports_vision: true }),
  model('openai/gpt-4o-mini', 0.15, 0.6, { supports_vision: true, supports_functions: true }),
  model('mistral/mistral-small', 0.1, 0.3),
  model('local/llama3.2', 0, 0, { answers_here: false }),
  model('anthropic/claude-3-5-haiku', 0.8, 4, { context_window: 200_000 }),
];

describe('the model catalogue as the Models view arranges it', () => {
  it("lists every provider's models in one list, cheapest first, when asked for one list", () => {
    const flat = arrangeFlat(CATALOGUE, { text: '', capabilities: [], sort: 'price', flat: true });
    assert.deepEqual(
      flat.map((m) => m.namespace),
      ['local/llama3.2', 'mistral/mistral-small', 'openai/gpt-4o-mini', 'anthropic/claude-3-5-haiku', 'openai/gpt-4o'],
    );
    const widest = arrangeFlat(CATALOGUE, { text: '', capabilities: ['vision'], sort: 'context', flat: true });
    assert.deepEqual(
      widest.map((m) => m.namespace),
      ['openai/gpt-4o', 'openai/gpt-4o-mini'],
    );
  });

  it('groups by provider otherwise, each named for people and in the order of its name, each group in the chosen order', () => {
    const nova = model('bedrock/amazon.nova-micro-v1:0', 0.035, 0.14);
    const groups = arrange([...CATALOGUE, nova], { text: '', capabilities: [], sort: 'price', flat: false });
    assert.deepEqual(
      groups.map((g) => providerLabel(g.provider)),
      ['Amazon Bedrock', 'Anthropic', 'Local model servers', 'Mistral', 'OpenAI'],
    );
    assert.equal(providerLabel('test'), 'Test models');
    assert.equal(providerLabel('ai21'), 'ai21', 'a provider we have no name for is shown as the catalogue spells it');
    assert.deepEqual(
      groups.at(-1)!.models.map((m) => m.model),
      ['gpt-4o-mini', 'gpt-4o'],
    );
  });

  it('lists the models no longer served after the others, in the same order, and one retiring among them', () => {
    const catalogue = [
      model('anthropic/claude-2', 8, 24, { deprecated_on: '2025-07-21' }),
      model('anthropic/claude-3-opus-latest', 15, 75, { deprecated_on: '2026-01-05' }),
      model('anthropic/claude-haiku-4-5', 1, 5),
      model('anthropic/claude-opus-4-5', 5, 25, { deprecated_on: '2999-01-22' }),
      model('anthropic/claude-opus-4-6', 5, 25),
    ];
    for (const sort of ['name', 'price'] as const)
      assert.deepEqual(
        arrange(catalogue, { text: '', capabilities: [], sort, flat: false })[0]!.models.map((m) => m.model),
        ['claude-haiku-4-5', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-2', 'claude-3-opus-latest'],
        sort,
      );
    assert.deepEqual(
      arrangeFlat(catalogue, { text: 'opus', capabilities: [], sort: 'price', flat: true }).map((m) => m.model),
      ['claude-opus-4-5', 'claude-opus-4-6', 'claude-3-opus-latest'],
    );
  });

  it('describes a model in words: its price, its capabilities, and what to do when it cannot answer here', () => {
    assert.equal(priceLine(CATALOGUE[1]!), '$0.15 in / $0.60 out per M tokens');
    const card = modelMarkdown(CATALOGUE[1]!);
    assert.match(card, /reads images · calls tools|calls tools · .*reads images/);
    assert.doesNotMatch(card, /functions|vision/);
    assert.doesNotMatch(card, /training data until/, 'a cut-off nobody gave is left out, not "unknown"');
    assert.doesNotMatch(card, /fills in the middle/);
    assert.match(
      modelMarkdown(model('mistral/codestral', 0.3, 0.9, { api_target: 'codestral-latest' })),
      /\(`codestral-latest`\)[\s\S]*fills in the middle of code, for autocomplete through a Space/,
    );
    assert.match(
      modelMarkdown(model('openai/gpt-5-mini', 0.25, 2, { until: '2024-05' })),
      /training data until May 2024/,
    );
    // A longer prompt's prices, where the model has them.
    assert.match(
      modelMarkdown(
        model('openai/gpt-5.4', 2.5, 15, {
          long_prompt_prices: [{ above: 271_999, prompt_token_cost: 5e-6, completion_token_cost: 22.5e-6 }],
        }),
      ),
      /\$2\.50 in \/ \$15\.00 out per M tokens\n- \$\(credit-card\) from 272,000 prompt tokens: \$5\.00 in \/ \$22\.50 out per M tokens, the whole request\n/,
    );
    assert.doesNotMatch(card, /prompt tokens:/);
    const offline = modelMarkdown(CATALOGUE[3]!);
    assert.match(
      offline,
      /Cannot answer here.*Start the model server that serves it, then \[refresh the local models\]\(command:llmSpaces\.refreshLocalModels\)/s,
    );
    const noKey = modelMarkdown(model('anthropic/claude-haiku-4-5', 1, 5, { answers_here: false }));
    assert.match(
      noKey,
      /\[Add your Anthropic key\]\(command:llmSpaces\.addProviderKey\) \(ANTHROPIC_API_KEY for the standalone service\)/,
    );
    // The key is there, but the provider's list for it has not this model: no advice to add a key.
    const unlisted = modelMarkdown(
      model('groq/llama2-70b-4096', 0.7, 0.8, { answers_here: false, served_by: 'Groq', offered_to_key: false }),
    );
    assert.match(unlisted, /\*\*Not offered to your key:\*\* Groq does not list it among the models your key can use/);
    // Where the service says why (a kind of key that cannot reach it), its words instead.
    const why =
      "Claude on Google Vertex AI takes no API key: add its key again as your Google Cloud login or a service account's key file";
    const claude = modelMarkdown(
      model('vertex/claude-haiku-4-5', 1, 5, {
        answers_here: false,
        served_by: 'Google Vertex AI',
        offered_to_key: false,
        not_offered_because: why,
      }),
    );
    assert.ok(claude.includes(`**Not offered to your key:** ${why}.`), claude);
    assert.ok(!claude.includes('does not list it'));
    assert.doesNotMatch(unlisted, /Add your|answered by/);
    const retired = modelMarkdown(
      model('openai/gpt-3.5-turbo-0613', 1.5, 2, { answers_here: false, deprecated_on: '2024-09-13' }),
    );
    assert.match(retired, /Retired on 13 Sept? 2024: no longer served/);
    assert.doesNotMatch(retired, /Cannot answer here|model server|key/, 'no advice to make a retired model answer');
  });

  it('lists the embedding models by name or price, leaves them out under a chat capability, and says what they are for', () => {
    const embedding = (namespace: string, input: number, answers: boolean) =>
      EmbeddingModelRecord.parse({
        namespace,
        provider: namespace.split('/')[0],
        prompt_token_cost: input / 1e6,
        answers_here: answers,
      });
    const all = [
      embedding('openai/text-embedding-3-large', 0.13, true),
      embedding('test/embed', 0, true),
      embedding('mistral/mistral-embed', 0.1, false),
    ];
    const filter: ModelFilter = { text: '', capabilities: [], sort: 'name', flat: false };
    assert.deepEqual(
      arrangeEmbeddings(all, filter).map((m) => m.namespace),
      ['mistral/mistral-embed', 'openai/text-embedding-3-large', 'test/embed'],
    );
    assert.deepEqual(
      arrangeEmbeddings(all, { ...filter, sort: 'price' }).map((m) => m.namespace),
      ['test/embed', 'mistral/mistral-embed', 'openai/text-embedding-3-large'],
    );
    assert.deepEqual(
      arrangeEmbeddings(all, { ...filter, text: 'OpenAI large' }).map((m) => m.namespace),
      ['openai/text-embedding-3-large'],
    );
    assert.equal(arrangeEmbeddings(all, { ...filter, text: 'embedding' }).length, 3);
    assert.deepEqual(arrangeEmbeddings(all, { ...filter, capabilities: ['functions'] }), []);
    const card = embeddingMarkdown(all[2]!);
    assert.match(card, /\$0\.10 per M input tokens/);
    assert.match(card, /Cannot answer here.*Add your Mistral key/);
    assert.doesNotMatch(card, /hosted service/, 'the hosted service has no embeddings');
    assert.doesNotMatch(embeddingMarkdown(all[0]!), /Cannot answer here/);
    assert.match(embeddingMarkdown(all[0]!), /Copy Space Endpoint for Other Tools/);
    // A retired one says so, and offers no tool to be set up with it.
    const retired = { ...embedding('voyage/voyage-01', 0.1, false), deprecated_on: '2026-09-23' };
    const gone = embeddingMarkdown(retired, '2026-12-02');
    assert.match(gone, /Retired on 23 Sept 2026: no longer served/);
    assert.doesNotMatch(gone, /Copy Space Endpoint|Cannot answer here/);
  });

  it("suggests a tool the embedding model of a provider with a key (Voyage's first), else a model server's, never the test model", () => {
    const listed = (namespace: string, answers: boolean) =>
      EmbeddingModelRecord.parse({ namespace, provider: namespace.split('/')[0], answers_here: answers });
    const none = [listed('test/embed', true), listed('openai/text-embedding-3-small', false)];
    assert.deepEqual(embeddingToSuggest(none), { model: 'openai/text-embedding-3-small', answers: false });
    const ollama = [...none, listed('local/nomic-embed-text', true)];
    assert.deepEqual(embeddingToSuggest(ollama), { model: 'local/nomic-embed-text', answers: true });
    const bedrock = [...ollama, listed('bedrock/amazon.titan-embed-text-v1', true)];
    assert.deepEqual(embeddingToSuggest(bedrock), { model: 'bedrock/amazon.titan-embed-text-v1', answers: true });
    const gemini = [...ollama, listed('google/gemini-embedding-001', true)];
    assert.deepEqual(embeddingToSuggest(gemini), { model: 'google/gemini-embedding-001', answers: true });
    // A key of Voyage's, which has nothing but embeddings, was added for this: its model for code first.
    const voyage = [...gemini, listed('voyage/voyage-code-3', true)];
    assert.deepEqual(embeddingToSuggest(voyage), { model: 'voyage/voyage-code-3', answers: true });
    assert.deepEqual(embeddingToSuggest([]), { model: 'openai/text-embedding-3-small', answers: false });
  });

  it("offers Continue's autocomplete a code model of a model server, else a hosted model that fills in the middle", () => {
    assert.equal(autocompleteToSuggest(CATALOGUE), undefined, 'a model server not running, and hosted chat models');
    const running = [...CATALOGUE, model('local/llama3.1', 0, 0, { answers_here: true })];
    assert.deepEqual(autocompleteToSuggest(running), { model: 'local/llama3.1', fim: false });
    // DeepSeek's V4 models fill in the middle: the cheaper one, before a model server's chat model;
    // its retired chat model no more.
    const deepseek = [
      ...running,
      model('deepseek/deepseek-v4-pro', 1.74, 3.48, { answers_here: true }),
      model('deepseek/deepseek-v4-flash', 0.14, 0.28, { answers_here: true }),
      model('deepseek/deepseek-chat', 0.28, 0.42, { answers_here: true, deprecated_on: '2026-07-24' }),
    ];
    assert.deepEqual(autocompleteToSuggest(deepseek), { model: 'deepseek/deepseek-v4-flash', fim: true });
    // Codestral with a Mistral key first, as it is made for code completion.
    const keyed = [...deepseek, model('mistral/codestral-2508', 0.3, 0.9, { answers_here: true })];
    assert.deepEqual(autocompleteToSuggest(keyed), { model: 'mistral/codestral-2508', fim: true });
    const keyless = keyed.map((m) => (m.provider === 'local' ? m : { ...m, answers_here: false }));
    assert.deepEqual(autocompleteToSuggest(keyless), { model: 'local/llama3.1', fim: false }, 'no key: not offered');
    // Without one that fills in the middle, the cheapest code model where the prompt is continued as it
    // is (Together, Fireworks, OpenRouter), before a model server's chat model; not a chat model there.
    const continuing = [
      ...keyless,
      model('together/meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo', 0.18, 0.18, { answers_here: true }),
      model('together/Qwen/Qwen2.5-Coder-32B-Instruct', 0.8, 0.8, { answers_here: true }),
      model('openrouter/qwen/qwen-2.5-coder-32b-instruct', 0.06, 0.15, { answers_here: true }),
      model('fireworks/qwen2p5-coder-32b-instruct', 0.9, 0.9, { answers_here: false }),
    ];
    assert.deepEqual(autocompleteToSuggest(continuing), {
      model: 'openrouter/qwen/qwen-2.5-coder-32b-instruct',
      fim: false,
    });
    assert.deepEqual(
      autocompleteToSuggest([...continuing, model('mistral/codestral-2508', 0.3, 0.9, { answers_here: true })]),
      { model: 'mistral/codestral-2508', fim: true },
      'one that fills in the middle first',
    );
    const coder = [...keyed, model('local/qwen2.5-coder:1.5b', 0, 0, { answers_here: true })];
    assert.deepEqual(autocompleteToSuggest(coder), { model: 'local/qwen2.5-coder:1.5b', fim: false });
  });
});
