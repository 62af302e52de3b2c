// Model ids found in the text of files against a catalogue as a hosted service answers it: namespaces and api targets,
// deprecated and to be retired, unknown ids of a known provider; what is not an id; and successors.
import assert from 'node:assert/strict';
import { ModelIndex } from '../../../src/workspace/modelIndex';
import { hostedCatalogue } from '../support/hostedCatalogue';

const models = hostedCatalogue('2026-01-01T00:00:00Z');
const index = new ModelIndex(models, '2026-11-21');
const texts = (text: string) => index.scan(text).map((f) => `${f.text}:${f.kind}`);

describe('model ids in a file', () => {
  it('finds namespaces and api targets where code and configuration write them, with their state', () => {
    const text = [
      'MODEL=openai/gpt-3.5-turbo-0613',
      'client.chat(model="claude-3-5-haiku-20241022")',
      'fallback: openai/gpt-4-turbo',
      '  "model": "gpt-4o",',
    ].join('\n');
    assert.deepEqual(texts(text), [
      'openai/gpt-3.5-turbo-0613:retired',
      'claude-3-5-haiku-20241022:current',
      'openai/gpt-4-turbo:soon',
      'gpt-4o:current',
    ]);
    const first = index.scan(text)[0]!;
    assert.equal(text.slice(first.start, first.end), 'openai/gpt-3.5-turbo-0613');
    assert.equal(first.model?.deprecated_on, '2024-09-13');
  });

  it("flags an unknown id of a provider the catalogue has, and leaves alone what is not a model's id", () => {
    assert.deepEqual(texts('use openai/gpt-9-mini here'), ['openai/gpt-9-mini:unknown']);
    assert.equal(index.scan('use openai/gpt-9-mini')[0]!.provider, 'openai');
    assert.deepEqual(
      texts('import x from "openai/utils.ts"; acme/gpt-4 other/thing command sonar'),
      [],
      'file names, unknown providers and plain words are not ids',
    );
    assert.deepEqual(
      texts('openai/text-embedding-3-small openai/whisper-1 openai/tts-1-hd google/gemini-embedding-001'),
      [],
      'models of other kinds than chat are none of the catalogue, and no typos',
    );
    assert.deepEqual(
      texts('https://example.com/v1/openai/gpt-4o-mini'),
      ['openai/gpt-4o-mini:current'],
      'a namespace at the end of a path or URL',
    );
    assert.deepEqual(texts('gpt-4o.'), ['gpt-4o:current'], 'punctuation after an id is not part of it');
  });

  it("takes a bare id as its maker's model, not as the same model another provider serves under its name", () => {
    const openai = models.find((m) => m.namespace === 'openai/gpt-4o')!;
    const azure = { ...openai, namespace: 'azure/gpt-4o', provider: 'azure' };
    for (const order of [
      [azure, openai],
      [openai, azure],
    ])
      assert.equal(new ModelIndex(order, '2026-11-21').scan('"model": "gpt-4o"')[0]?.model?.namespace, 'openai/gpt-4o');
    assert.equal(
      new ModelIndex([azure], '2026-11-21').scan('"model": "gpt-4o"')[0]?.model?.namespace,
      'azure/gpt-4o',
      'unless no other model has the name',
    );
  });

  it('finds the id under a cursor, for the hover', () => {
    const line = '  model: anthropic/claude-2.1 # old';
    assert.equal(index.at(line, 15)?.text, 'anthropic/claude-2.1');
    assert.equal(index.at(line, 15)?.kind, 'retired');
    assert.equal(index.at(line, 32), undefined);
  });

  it('offers successors of the same provider with the capabilities and context window, its own family first, then cheapest', () => {
    const old = models.find((m) => m.namespace === 'openai/gpt-3.5-turbo-0613')!;
    const successors = index.successors(old);
    assert.equal(successors[0]?.namespace, 'openai/gpt-4.1-nano');
    assert.ok(
      successors.every(
        (m) =>
          m.provider === 'openai' &&
          !m.deprecated_on &&
          m.context_window >= old.context_window &&
          m.supports_functions &&
          m.supports_n,
      ),
    );
    assert.ok(!successors.some((m) => m.namespace === 'openai/o4-mini'), 'o4-mini lacks n and penalties');
    // The GPT family (gpt-4.1-nano…) before OpenAI's others (o-series, chatgpt-…), each cheapest first.
    const family = (m: { model: string }) => (m.model.startsWith('gpt-') ? 0 : 1);
    const order = successors.map((m) => [family(m), m.prompt_token_cost + m.completion_token_cost] as const);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    );
    assert.ok(new Set(order.map(([f]) => f)).size === 2, 'both kinds are offered');
    // A retired preview is followed by its own model, not by an older one that costs less.
    const gemini = (model: string, price: number, deprecated_on: string | null = null) => ({
      ...models[0]!,
      provider: 'google',
      model,
      namespace: `google/${model}`,
      api_target: model,
      prompt_token_cost: price,
      completion_token_cost: price,
      deprecated_on,
    });
    const preview = gemini('gemini-2.5-flash-preview', 2e-7, '2026-09-23');
    const geminis = new ModelIndex(
      [
        preview,
        gemini('gemini-1.5-flash-8b', 1e-8),
        gemini('gemini-2.0-flash-lite', 5e-8),
        gemini('gemini-2.5-flash', 3e-7),
      ],
      '2026-11-21',
    );
    assert.deepEqual(
      geminis.successors(preview).map((m) => m.model),
      ['gemini-2.5-flash', 'gemini-2.0-flash-lite', 'gemini-1.5-flash-8b'],
    );
    assert.deepEqual(texts('model="claude-2.1"'), ['claude-2.1:retired'], 'by its api target too');
    const claude = index.scan('anthropic/claude-2.1')[0]!;
    const next = index.successors(claude.model!)[0]!;
    assert.equal(next.namespace, 'anthropic/claude-3-5-haiku');
    assert.equal(
      index.replacementFor(claude, next),
      'anthropic/claude-3-5-haiku',
      'a namespace is replaced by a namespace',
    );
    const target = index.scan('"gpt-4-turbo"')[0]!;
    assert.equal(
      index.replacementFor(target, index.successors(target.model!)[0]!),
      'gpt-4.1-nano',
      'an api target by an api target',
    );
  });
});
