// The webviews check fields against the host's schemas turned into JSON Schema, without zod in their
// bundles: the same limits, the messages in words.
import assert from 'node:assert/strict';
import { rulesOf } from '../../../src/shared/protocol/envelope';
import { IntegrationGroup } from '../../../src/shared/protocol/organization';
import { ChatDraft } from '../../../src/shared/protocol/playground';
import { SpaceChanges } from '../../../src/shared/protocol/spaceSettings';
import { checkRules } from '../../../src/shared/rules';

const APP = '0b7f1c1e-8a3a-4c55-9d7e-3f1e2a4b5c6d';

describe('field rules in the webviews', () => {
  const chat = rulesOf(ChatDraft);

  it('accepts what the host accepts', () => {
    const draft = { prompt: 'hi', app_id: APP, temperature: 0.3, max_tokens: 10, plugins: ['web'] };
    assert.equal(ChatDraft.safeParse(draft).success, true);
    assert.deepEqual(checkRules(chat, draft), {});
  });

  it('refuses what the host refuses, field by field, in words', () => {
    const draft = { prompt: 'hi', app_id: APP, temperature: 3, max_tokens: 0 };
    assert.equal(ChatDraft.safeParse(draft).success, false);
    assert.deepEqual(checkRules(chat, draft), {
      temperature: 'must be between 0 and 1',
      max_tokens: 'must be at least 1',
    });
    assert.deepEqual(checkRules(chat, { prompt: 'hi', app_id: APP, max_tokens: 1.5 }), {
      max_tokens: 'must be a whole number',
    });
    assert.deepEqual(checkRules(chat, { app_id: APP }), { prompt: 'is required' });
  });

  it('checks nested fields of a Space and an integration', () => {
    const space = rulesOf(SpaceChanges);
    assert.deepEqual(checkRules(space, { weights: { cost: -1 } }), { 'weights.cost': 'must be 0 or more' });
    assert.deepEqual(checkRules(space, { weights: { cost: 1, latency: 2 } }), {});
    const integration = checkRules(rulesOf(IntegrationGroup), { id: '', token: 't', endpoint: 'https://example.com' });
    assert.ok(integration.id, 'an empty id is refused');
  });
});
