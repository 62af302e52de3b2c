// A hosted provider's models through a Space, as the provider tests set it up: its fake, the service
// pointed at it by the provider's own variables (as a user's would be), a Space with the models named
// active, and the official OpenAI and Anthropic SDKs with the Space's key. The fake's problems are
// checked after each test; `keyKeptOut` checks at the end that nothing said carries the provider's key,
// and `keyCheck` asks the service to try the key, as Add Provider Key does.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ModelRecord } from '../../../src/api/schemas';
import { raw } from './http';
import { fakeEnv, type ProviderFake } from './providerFakes';
import { removeDir, spaceOf, startService, type RunningService } from './service';

export interface ThroughASpace {
  /** The provider's id, as the catalogue names it. */
  provider: string;
  fake: ProviderFake;
  service: RunningService;
  /** The catalogue as the service lists it once started. */
  models: ModelRecord[];
  sdk: OpenAI;
  claude: Anthropic;
  /** What the service answered, for `keyKeptOut` to read. */
  said: string[];
}

/**
 * Sets up `provider`'s fake (`start`, then `prepare`, before the service reads its list) and the rest
 * before the tests of the `describe` it is called in, and takes them down after.
 */
export function throughASpace(
  provider: string,
  start: () => Promise<ProviderFake>,
  space: { name: string; active: readonly string[] },
  prepare?: (fake: ProviderFake) => void,
): ThroughASpace {
  const s = { provider, said: [] as string[] } as ThroughASpace;
  before(async () => {
    s.fake = await start();
    prepare?.(s.fake);
    s.service = await startService({ env: fakeEnv({ [provider]: s.fake }) });
    s.models = await s.service.client().listModels();
    const { key } = await spaceOf(s.service, space.name, space.active);
    s.sdk = new OpenAI({ baseURL: `${s.service.url}/v1`, apiKey: key, maxRetries: 0 });
    s.claude = new Anthropic({ baseURL: s.service.url, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await s.service?.stop();
    await s.fake?.close();
    if (s.service) removeDir(s.service.dataDir);
  });
  afterEach(() => assert.deepEqual(s.fake.problems, []));
  return s;
}

/** The last test: the provider's key is in none of the answers and not in the service's output. */
export function keyKeptOut(s: ThroughASpace, label: string): void {
  it(`keeps ${label}'s key out of every answer and the service's output`, () => {
    for (const text of [...s.said, s.service.output()])
      assert.ok(!text.includes(s.fake.key), 'no key in what was said');
  });
}

/** The service's check of the provider's key (POST /v1/providers/{id}/check), as the extension asks it: its answer. */
export async function keyCheck(s: ThroughASpace): Promise<unknown> {
  const res = await raw(s.service.url, 'POST', `/v1/providers/${s.provider}/check`, {
    token: s.service.token,
    body: {},
  });
  s.said.push(res.text);
  return res.json;
}
