// The pure logic behind the webviews: the fenced block "Send Selection" builds, the estimate shown
// before sending, and the changes the settings editor sends (only what differs).
import assert from 'node:assert/strict';
import type { ModelBrief } from '../../../src/shared/protocol/playground';
import { fencedCode } from '../../../src/prompts/promptState';
import { conversationName } from '../../../src/shared/conversationName';
import {
  cannotAnswerNote,
  describeBand,
  describeEstimate,
  promptCost,
} from '../../../src/webviews/playground/page/estimate';
import { changesBetween, valuesOf } from '../../../src/webviews/spaceSettings/page/settingsSpecs';
import { rulesOf } from '../../../src/shared/protocol/envelope';
import { SpaceChanges } from '../../../src/shared/protocol/spaceSettings';
import { checkRules } from '../../../src/shared/rules';

const model = (namespace: string, promptCost: number, byCharacters = false): ModelBrief => ({
  namespace,
  model: namespace.split('/')[1]!,
  provider: namespace.split('/')[0]!,
  vision: false,
  promptCost,
  completionCost: promptCost * 2,
  baseCost: 0,
  byCharacters,
  contextWindow: 8000,
  deprecatedOn: null,
  retired: false,
  answersHere: true,
  notOffered: false,
  tools: false,
});

describe('Send Selection: the fenced block', () => {
  it('names the language and the file, and ends the block', () => {
    assert.equal(fencedCode('const a = 1;\n', 'typescript', 'src/a.ts'), '```typescript src/a.ts\nconst a = 1;\n```');
  });

  it('uses a longer fence than any run of backticks in the code', () => {
    const code = 'Use ```js fences``` or ````four````.';
    const block = fencedCode(code, 'markdown', 'README.md');
    assert.ok(block.startsWith('`````markdown README.md\n') && block.endsWith('\n`````'), block);
  });

  it('keeps a file name with spaces on the info line', () => {
    assert.equal(fencedCode('x', 'plaintext', 'my notes.txt').split('\n')[0], '```plaintext my_notes.txt');
  });
});

describe('the name of a new conversation', () => {
  it('is the first line of prose, not code', () => {
    assert.equal(conversationName('```ts src/a.ts\nconst x = 1;\n```\n\nWhy is x one?'), 'Why is x one?');
  });

  it('names the file when the prompt is only code, and stays within 60 characters', () => {
    assert.equal(conversationName('```typescript src/cart.ts\nexport const a = 1;\n```'), 'Code from src/cart.ts');
    const long = conversationName('word '.repeat(40));
    assert.ok(long.length <= 60 && long.length > 50, long);
    assert.ok(long.endsWith('word…'), 'cut after a whole word');
  });
});

describe('the estimate before sending', () => {
  it('prices the prompt at the chosen model, by tokens or by characters', () => {
    const text = 'x'.repeat(400);
    assert.equal(promptCost(model('a/tok', 0.001), text), 0.1);
    assert.equal(promptCost(model('a/chr', 0.001, true), text), 0.4);
    assert.equal(describeEstimate(text, model('a/tok', 0.001), []), '≈ 100 prompt tokens · $0.10 at a/tok');
    assert.equal(describeEstimate('abc', model('a/tok', 0.001), []), '≈ 1 prompt token · $0.0010 at a/tok');
  });

  it('warns before sending that a chosen model cannot answer here', () => {
    assert.equal(cannotAnswerNote(model('a/ok', 1e-6)), null);
    assert.equal(
      cannotAnswerNote({ ...model('anthropic/claude-haiku-4-5', 1e-6), answersHere: false }),
      'anthropic/claude-haiku-4-5 cannot answer here now: no provider key or model server here reaches it.',
    );
    // The key is there, but the provider's list for it has not the model: no word of a missing key.
    assert.equal(
      cannotAnswerNote({ ...model('groq/llama2-70b-4096', 1e-6), answersHere: false, notOffered: true }),
      'groq/llama2-70b-4096 cannot answer here: its provider does not list it among the models your key can use.',
    );
    assert.equal(
      cannotAnswerNote({
        ...model('vertex/claude-haiku-4-5', 1e-6),
        answersHere: false,
        notOffered: true,
        notOfferedWhy: 'Claude on Google Vertex AI takes no API key',
      }),
      'vertex/claude-haiku-4-5 cannot answer here: Claude on Google Vertex AI takes no API key.',
    );
    assert.equal(cannotAnswerNote(undefined), null, 'routing picks only models that answer');
  });

  it('gives the range over the active models when routing', () => {
    const text = 'x'.repeat(4000);
    assert.equal(
      describeEstimate(text, undefined, [model('a/cheap', 0.000001), model('b/dear', 0.001)]),
      '≈ 1,000 prompt tokens · $0.0010–$1.00 across 2 active models (routing)',
    );
    assert.match(describeEstimate(text, undefined, []), /no active model/);
  });

  it("says the service's band in words, and that one the extension estimated is an estimate", () => {
    const band = {
      min: 0.0001,
      expected: 0.0003,
      max: 0.0009,
      model: 'openai/gpt-4o-mini',
      prompt_tokens: 412,
      max_tokens: 100,
    };
    assert.equal(describeBand(band), '412 tokens to send · $0.00010–$0.00090, expected $0.00030 at openai/gpt-4o-mini');
    assert.equal(
      describeBand({ ...band, model: '', estimated: true }),
      '≈ 412 prompt tokens · $0.00010–$0.00090, expected ≈ $0.00030 routing among the active models (estimated from the prices; earlier turns not counted)',
    );
  });
});

describe('the settings editor: what it sends', () => {
  const space = {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'A',
    description: 'd',
    weights: { cost: 1, latency: 1, quality: 1 },
    policies: {
      privacy_level: 0,
      max_cost: 0,
      max_same_model_retries: 1,
      max_switch_model_retries: 2,
      optimize_internal_requests: 0,
      prompt_id: null,
    },
    settings: { max_tokens: 256, temperature: 0.5 },
    has_failover_chain: true,
  };

  it('sends nothing when nothing changed', () => {
    const base = valuesOf(space, null);
    assert.deepEqual(changesBetween(base, { ...base }, { base: ['m1'], now: ['m1'] }), { changes: {}, dirty: false });
  });

  it("sends only the changed leaves, nested as the body has them, with the body's types", () => {
    const base = valuesOf(space, null);
    const now = {
      ...base,
      'weights.cost': 0.5,
      'policies.privacy_level': '2',
      'policies.optimize_internal_requests': true,
      has_failover_chain: false,
    };
    assert.deepEqual(changesBetween(base, now, { base: ['m1', 'm2'], now: ['m2', 'm1'] }), {
      changes: {
        weights: { cost: 0.5 },
        policies: { privacy_level: 2, optimize_internal_requests: 1 },
        has_failover_chain: false,
        failover_model_ids: ['m2', 'm1'],
      },
      dirty: true,
    });
  });

  it('lays a kept draft over the Space, and an emptied or unreadable number is refused at its field', () => {
    const values = valuesOf(space, { name: 'Draft name', settings: { temperature: 0.9 } });
    assert.equal(values.name, 'Draft name');
    assert.equal(values['settings.temperature'], 0.9);
    assert.equal(values['settings.max_tokens'], 256);
    const base = valuesOf(space, null);
    // What the form reads from an emptied field and from "abc" (settingsControls.ts): the text as typed.
    const { changes } = changesBetween(
      base,
      { ...base, 'weights.latency': '', 'settings.temperature': 'abc', 'settings.max_tokens': 1e20, name: '' },
      { base: [], now: [] },
    );
    assert.deepEqual(checkRules(rulesOf(SpaceChanges), changes), {
      name: 'must not be empty',
      'weights.latency': 'needs a number',
      'settings.temperature': 'must be a number',
      'settings.max_tokens': 'is too large',
    });
  });
});
