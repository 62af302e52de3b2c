// A data folder written by the sql.js service (0.1.0) is carried over on first start with nothing lost.
// The fixture was made by that version: 30 prompts, a second Space and 12 chats in 3 conversations,
// then a weight change; its image was written when the journal passed 20 KB, and the last chat and the
// weight change were only in the journal when the process was killed. The image is kept as SQL text
// (test/fixtures/legacy-0.1.0/image.sql) and rebuilt here into the SQLite file that version wrote.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { raw } from '../support/http';
import { removeDir, startService, tempDir } from '../support/service';
import { dayLabel } from '../../../src/shared/labels';
import { todayIso } from '../../../src/shared/models';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/legacy-0.1.0');
const TOKEN = 'lls_legacy_fixture_token_0123456789';

function legacyFolder(): string {
  const dir = tempDir('llm-spaces-legacy-');
  const image = new DatabaseSync(path.join(dir, 'llm-spaces.sqlite'));
  image.exec(readFileSync(path.join(FIXTURE, 'image.sql'), 'utf8'));
  image.close();
  copyFileSync(path.join(FIXTURE, 'llm-spaces.journal'), path.join(dir, 'llm-spaces.journal'));
  return dir;
}

describe('a data folder of the sql.js service', function () {
  this.timeout(60_000);

  it('is carried over on first start: the image and the journal after it, nothing twice', async () => {
    const dir = legacyFolder();
    const first = await startService({ dataDir: dir, orgs: [], token: TOKEN });
    assert.match(first.output(), /Carried the data folder over.*2 journal transaction/);
    const client = first.client();
    const prompts = (await client.listPrompts('org')).filter((p) => p.title.startsWith('Legacy prompt '));
    assert.equal(prompts.length, 30);
    const spaces = (await client.listSpaces()).items;
    assert.ok(spaces.some((s) => s.name === 'Legacy Space'));
    const main = spaces.find((s) => s.name === 'My first Space')!;
    // The weight change was only in the journal.
    assert.deepEqual(
      { ...(await client.getSpace(main.id)).main.app.weights },
      { cost: 0.5, latency: 0.2, quality: 0.3 },
    );
    const org = await client.getOrganization();
    assert.equal(org.num_requests, 12, 'every chat, the last one from the journal included');
    const conversations = (await client.listConversations(main.id)).filter((c) => c.id.startsWith('0000000'));
    assert.equal(conversations.length, 3);
    assert.ok(
      !existsSync(path.join(dir, 'llm-spaces.journal')) && existsSync(path.join(dir, 'llm-spaces.journal.imported')),
      'the old journal is kept aside',
    );
    await first
      .client()
      .createPrompt({ prompt: 'new', title: 'After the carry-over', description: 'written by node:sqlite' });
    await first.stop('SIGKILL');

    const second = await startService({ dataDir: dir, orgs: [], token: TOKEN });
    assert.doesNotMatch(second.output(), /Carried/);
    const again = await second.client().listPrompts('org');
    assert.equal(again.filter((p) => p.title.startsWith('Legacy prompt ')).length, 30);
    assert.ok(again.some((p) => p.title === 'After the carry-over'));
    assert.equal((await second.client().getOrganization()).num_requests, 12, 'the journal was not applied twice');
    await second.stop();
    removeDir(dir);
  });

  it("keeps the hand-written catalogue's models its Spaces name: those of the dataset take its record, the others stay, retired", async () => {
    const dir = legacyFolder();
    const service = await startService({ dataDir: dir, orgs: [], token: TOKEN });
    try {
      const client = service.client();
      const models = await client.listModels();
      const byName = (ns: string) => models.find((m) => m.namespace === ns);
      const today = todayIso();
      const mini = byName('openai/gpt-4o-mini')!;
      assert.equal(mini.added_by, '@pydantic/genai-prices', 'a model the dataset has takes its record');
      assert.equal(mini.deprecated_on, '2027-01-14', "with OpenAI's announced retirement");
      const haiku = byName('anthropic/claude-3-5-haiku')!;
      assert.ok(haiku, 'a model the dataset does not have stays');
      assert.equal(haiku.deprecated_on, today, 'marked retired from today');
      assert.match(haiku.description, /No longer in the catalogue's dataset \(@pydantic\/genai-prices\)/);
      assert.equal(byName('anthropic/claude-2.1')!.deprecated_on, '2025-07-21', 'an earlier retirement keeps its date');

      // Every Space still opens with all its models, and one that named a dropped model still answers.
      for (const space of (await client.listSpaces()).items) {
        const view = await client.getSpace(space.id);
        for (const setting of view.main.base_model_settings)
          assert.ok(byName(setting.namespace), `${space.name}: ${setting.namespace} is still in the catalogue`);
      }
      const main = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
      const reply = await client.chat({ app_id: main.id, prompt: 'still here?' });
      assert.ok(reply.model.startsWith('test/'), reply.model);
      const retired = await raw(service.url, 'POST', '/v1/playground/chat', {
        token: TOKEN,
        body: { app_id: main.id, prompt: 'x', model: 'anthropic/claude-3-5-haiku' },
      });
      assert.equal(retired.status, 422);
      assert.match(retired.text, new RegExp(`anthropic/claude-3-5-haiku was retired on ${dayLabel(today)}`));

      // A second start writes nothing again.
      await service.stop();
      const again = await startService({ dataDir: dir, orgs: [], token: TOKEN });
      assert.match(again.output(), /Catalogue: \d+ models of hosted providers from [^,]+\)\.\n/);
      await again.stop();
    } finally {
      await service.stop().catch(() => undefined);
      removeDir(dir);
    }
  });
});
