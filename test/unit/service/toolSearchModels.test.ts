// Which models a tool search runs on, by the catalogue's names: OpenAI's from GPT-5.4 on (at OpenAI, or
// an Azure deployment of one, whatever its name), Anthropic's from Claude 4.5 on for a search the client
// asked in OpenAI's words (Anthropic's model compatibility list for its tool search tool).
import assert from 'node:assert/strict';
import type { ModelRecord } from '../../../src/api/schemas';
import { claudeRunsToolSearch, openAiToolSearchRuns } from '../../../src/service/chat/webSearches';

const model = (provider: string, name: string, more: Partial<ModelRecord> = {}) =>
  ({ provider, model: name, api_target: name, supports_reasoning: true, ...more }) as ModelRecord;

describe('the models a tool search runs on', () => {
  it("runs OpenAI's on GPT-5.4 and later, at OpenAI or as an Azure deployment of one", () => {
    const runs = (r: ModelRecord) => openAiToolSearchRuns(r);
    assert.deepEqual(
      ['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.5', 'gpt-6-luna', 'gpt-5', 'gpt-5.1', 'o3'].map((n) =>
        runs(model('openai', n)),
      ),
      [true, true, true, true, false, false, false],
    );
    assert.equal(runs(model('openai', 'gpt-5.4', { supports_reasoning: false })), false);
    // A deployment named as its owner chose runs as the model it was made of.
    assert.equal(runs(model('azure', 'prod-54', { parent: model('openai', 'gpt-5.4') })), true);
    assert.equal(runs(model('azure', 'prod-5', { parent: model('openai', 'gpt-5') })), false);
    assert.equal(runs(model('azure', 'gpt-5.4')), true);
    assert.equal(runs(model('azure', 'prod-54')), false, 'nothing says what a deployment without its model runs');
    assert.equal(runs(model('google', 'gpt-5.4')), false);
  });

  it("runs Anthropic's, for OpenAI's, on Claude 4.5 and the models after it, at Anthropic", () => {
    const yes = [
      'claude-haiku-4-5',
      'claude-haiku-4-5-20251001',
      'claude-sonnet-4-5',
      'claude-opus-4-6',
      'claude-opus-5',
      'claude-sonnet-5-5',
      'claude-fable-5-1',
      'claude-mythos-preview',
    ];
    const no = [
      'claude-sonnet-4-20250514',
      'claude-sonnet-4-0',
      'claude-opus-4-1',
      'claude-3-5-haiku-latest',
      'claude-2',
    ];
    assert.deepEqual(
      yes.map((n) => claudeRunsToolSearch(model('anthropic', n))),
      yes.map(() => true),
    );
    assert.deepEqual(
      no.map((n) => claudeRunsToolSearch(model('anthropic', n))),
      no.map(() => false),
    );
    assert.equal(claudeRunsToolSearch(model('bedrock', 'claude-sonnet-4-5')), false, 'at Anthropic only');
  });
});
