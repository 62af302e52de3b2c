// The address a provider is reached at, from what a person gives: an Azure resource's endpoint as the
// Azure portal shows it, or with /openai, /openai/v1, or a whole request's URL pasted from a sample,
// reaches the same place through Azure's package; Anthropic's base URL with or without /v1.
import { createAzure } from '@ai-sdk/azure';
import assert from 'node:assert/strict';
import { normalizeBaseUrl, providerSpec } from '../../../src/service/providers/providers';

const azure = providerSpec('azure')!;

/** The URL Azure's package asks, for a chat model `gpt-4o-mini` reached at `baseURL`. */
async function askedAt(baseURL: string): Promise<string> {
  let asked = '';
  const model = createAzure({
    apiKey: 'azure-test-key',
    baseURL,
    fetch: (input) => {
      asked = String(input instanceof Request ? input.url : input);
      return Promise.reject(new Error('not sent'));
    },
  }).chat('gpt-4o-mini');
  await Promise.resolve(
    model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }),
  ).catch(() => undefined);
  return asked;
}

describe("a provider's address as given", () => {
  it("reaches an Azure resource's OpenAI API from any of the addresses people paste", async () => {
    const at = 'https://acme.openai.azure.com/openai/v1/chat/completions?api-version=v1';
    for (const given of [
      'https://acme.openai.azure.com/',
      'https://acme.openai.azure.com',
      'https://acme.openai.azure.com/openai',
      ' https://acme.openai.azure.com/openai/v1/ ',
      'https://acme.openai.azure.com/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21',
    ])
      assert.equal(await askedAt(normalizeBaseUrl(azure, given)), at, given);
    assert.equal(
      await askedAt(normalizeBaseUrl(azure, 'https://acme.cognitiveservices.azure.com/')),
      'https://acme.cognitiveservices.azure.com/openai/v1/chat/completions?api-version=v1',
    );
  });

  it('leaves alone an address that is not an Azure resource, and a Foundry project', () => {
    for (const given of [
      'https://gateway.example.com/azure/openai',
      'https://acme.services.ai.azure.com/api/projects/demo',
      'http://127.0.0.1:8080/openai/v1',
    ])
      assert.equal(normalizeBaseUrl(azure, given), given);
  });

  it("gives Anthropic's base URL its /v1, and nothing else of another provider", () => {
    const anthropic = providerSpec('anthropic')!;
    assert.equal(normalizeBaseUrl(anthropic, 'https://api.anthropic.com'), 'https://api.anthropic.com/v1');
    assert.equal(normalizeBaseUrl(anthropic, 'https://api.anthropic.com/v1/'), 'https://api.anthropic.com/v1');
    assert.equal(normalizeBaseUrl(providerSpec('openai')!, 'https://api.openai.com/v1/'), 'https://api.openai.com/v1');
  });
});
