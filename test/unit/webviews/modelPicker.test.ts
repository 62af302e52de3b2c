// The playground's model picker: typed names rank exact, then prefix, then word and substring
// matches; each model described with its price, context, state and capabilities; one money format.
import assert from 'node:assert/strict';
import { money, perMillion } from '../../../src/shared/money';
import { dayLabel } from '../../../src/shared/labels';
import { stoppedNote } from '../../../src/webviews/playground/page/estimate';
import {
  contextLabel,
  describeModel,
  matchRank,
  rankModels,
  type PickerModel,
} from '../../../src/webviews/panels/modelPicker';

const model = (namespace: string, extra: Partial<PickerModel> = {}): PickerModel => ({
  namespace,
  model: namespace.split('/').slice(1).join('/'),
  provider: namespace.split('/')[0]!,
  vision: false,
  tools: false,
  promptCost: 0.15 / 1e6,
  completionCost: 0.6 / 1e6,
  baseCost: 0,
  byCharacters: false,
  contextWindow: 128_000,
  deprecatedOn: null,
  retired: false,
  answersHere: true,
  notOffered: false,
  active: false,
  ...extra,
});

const CATALOGUE = [
  model('openai/ft:gpt-4o-mini:acme:support'),
  model('openai/gpt-4o'),
  model('openai/gpt-4o-mini'),
  model('azure/gpt-4o-mini-eu'),
  model('test/echo', { active: true }),
  model('openai/gpt-3.5-turbo-0613', { deprecatedOn: '2024-09-13', retired: true }),
];

describe('the playground model picker', () => {
  it('puts the exact name first: typing gpt-4o-mini picks openai/gpt-4o-mini, not a fine-tune of it', () => {
    assert.deepEqual(
      rankModels(CATALOGUE, 'gpt-4o-mini').map((m) => m.namespace),
      ['openai/gpt-4o-mini', 'azure/gpt-4o-mini-eu', 'openai/ft:gpt-4o-mini:acme:support'],
    );
    assert.equal(rankModels(CATALOGUE, 'openai/gpt-4o')[0]!.namespace, 'openai/gpt-4o');
  });

  it("ranks a model that answers here first, then its maker's before the same model Azure serves under its name", () => {
    const same = [model('azure/gpt-4o-mini'), model('openai/gpt-4o-mini')];
    assert.deepEqual(
      rankModels(same, 'gpt-4o-mini').map((m) => m.namespace),
      ['openai/gpt-4o-mini', 'azure/gpt-4o-mini'],
    );
    const onlyAzure = [model('azure/gpt-4o-mini'), model('openai/gpt-4o-mini', { answersHere: false })];
    assert.equal(rankModels(onlyAzure, 'gpt-4o-mini')[0]!.namespace, 'azure/gpt-4o-mini');
  });

  it('ranks exact, then prefix, then a word start, then anywhere', () => {
    const m = model('openai/ft:gpt-4o-mini:acme:support');
    assert.equal(matchRank(m, 'openai/ft:gpt-4o-mini:acme:support'), 0);
    assert.equal(matchRank(m, 'ft:gpt'), 1);
    assert.equal(matchRank(m, 'acme'), 2);
    assert.equal(matchRank(m, 'cme'), 3);
    assert.equal(matchRank(m, 'claude'), null);
  });

  it("with nothing typed, shows the Space's active models first and leaves retired ones out", () => {
    const ranked = rankModels(CATALOGUE, '').map((m) => m.namespace);
    assert.equal(ranked[0], 'test/echo');
    assert.ok(!ranked.includes('openai/gpt-3.5-turbo-0613'));
  });

  it('describes a model by its price in and out, context, state and capabilities, in words', () => {
    assert.deepEqual(describeModel(model('openai/gpt-4o', { vision: true, tools: true, active: true })), {
      description: '$0.15 in · $0.60 out per M tokens · 128K context',
      detail: '$(pass-filled) active in this Space  $(eye) reads images  $(tools) calls tools',
    });
    const local = describeModel(
      model('local/llama3.2', { promptCost: 0, completionCost: 0, contextWindow: 131_072, answersHere: false }),
    );
    assert.deepEqual(local, { description: 'free · 131K context', detail: '$(debug-disconnect) cannot answer here' });
    assert.equal(
      describeModel(model('groq/llama2-70b-4096', { answersHere: false, notOffered: true })).detail,
      '$(debug-disconnect) not offered to your key',
    );
    // Its provider's retirement in words and a day for people, not the catalogue's date.
    assert.equal(
      describeModel(model('openai/gpt-4o', { deprecatedOn: '2027-01-14' })).detail,
      `$(warning) retires on ${dayLabel('2027-01-14')}`,
    );
    assert.equal(
      describeModel(model('openai/o4-mini', { deprecatedOn: '2026-10-23', retired: true })).detail,
      `$(error) retired on ${dayLabel('2026-10-23')}`,
    );
    assert.equal(contextLabel(1_048_576), '1M');
    assert.equal(contextLabel(2_097_152), '2.1M');
  });

  it('writes money one way: cents from a dime up, two significant digits below', () => {
    assert.deepEqual([0, 12.5, 0.6, 0.15, 0.075, 0.0042, 0.00017, -2.5].map(money), [
      '$0.00',
      '$12.50',
      '$0.60',
      '$0.15',
      '$0.075',
      '$0.0042',
      '$0.00017',
      '-$2.50',
    ]);
    assert.equal(perMillion(0.15 / 1e6), '$0.15');
  });
});

describe('a stopped reply', () => {
  it('says how far it got and what that is worth at the chosen model', () => {
    assert.equal(stoppedNote('', undefined), 'Stopped before the first tokens.');
    assert.equal(
      stoppedNote('x'.repeat(400), (0.6 / 1e6) * 100),
      "Stopped after ≈ 100 tokens, worth ≈ $0.000060 at the model's price.",
    );
    assert.equal(stoppedNote('x'.repeat(40), undefined), 'Stopped after ≈ 10 tokens.');
  });
});
