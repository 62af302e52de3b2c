// The organization panel's cost line: what is billed beside the tokens (web searches, fees) shown
// apart, so that its parts add up to the total.
import assert from 'node:assert/strict';
import { costLine } from '../../../src/webviews/organization/page/costLine';

describe('the organization panel cost line', () => {
  it('splits the cost into prompts and replies', () => {
    assert.equal(
      costLine({ total_tokens_cost: 0.3, prompt_tokens_cost: 0.1, completion_tokens_cost: 0.2 }),
      '$0.30 ($0.10 prompt, $0.20 completion)',
    );
  });

  it('says what web searches and fees cost beside the tokens', () => {
    assert.equal(
      costLine({ total_tokens_cost: 0.33, prompt_tokens_cost: 0.1, completion_tokens_cost: 0.2 }),
      '$0.33 ($0.10 prompt, $0.20 completion, $0.030 web searches and fees)',
    );
  });
});
