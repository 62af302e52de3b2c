// Model servers found on this computer: a fake Ollama on its real port (11434) is found at start,
// its models offered as local/<name> with their context windows and capabilities, the first Space
// routes to them and says so, a reply comes from them; when the server goes away a refresh (or a
// failed request) marks them unavailable, and no Space loses them. Servers named with --upstream
// are asked too, in the dialects of vLLM and llama.cpp.
import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ModelRecord } from '../../../src/api/schemas';
import { openDataFolder } from '../../../src/service/dataFolder';
import { DB_FILE } from '../../../src/service/db';
import { listModels, syncCatalogueModels } from '../../../src/service/domain/models';
import { defaultOrganizationId } from '../../../src/service/domain/orgs';
import { refreshModelServers } from '../../../src/service/modelServers';
import { DATASET, datasetModels } from '../../../src/service/providers/dataset';
import { turnsOf } from '../../../src/webviews/panels/playgroundData';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { raw } from '../support/http';
import { removeDir, startService, tempDir, type RunningService } from '../support/service';

const byNamespace = (models: ModelRecord[], namespace: string) => models.find((m) => m.namespace === namespace);

describe('model servers on this computer', function () {
  this.timeout(60_000);
  let ollama: FakeUpstream;
  let service: RunningService;

  before(async () => {
    ollama = await startFakeUpstream({
      port: 11434,
      ollama: true,
      models: [
        { id: 'llama3.2:latest', context: 131_072, capabilities: ['completion', 'tools'] },
        { id: 'qwen3:8b', context: 40_960, capabilities: ['completion', 'vision', 'thinking'] },
        { id: 'nomic-embed-text:latest', context: 8192, capabilities: ['embedding'] },
      ],
    }).catch((error: Error) => {
      throw new Error(`This test plays Ollama on its port 11434, which is in use here (${error.message}).`);
    });
    service = await startService({ discover: true });
  });

  after(async () => {
    await ollama?.close();
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it('offers the models of an Ollama on port 11434 as local models, with context windows and capabilities', async () => {
    const models = await service.client().listModels();
    const llama = byNamespace(models, 'local/llama3.2')!;
    assert.equal(llama.answers_here, true);
    assert.equal(llama.served_by, 'Ollama (port 11434)');
    assert.deepEqual([llama.supports_functions, llama.supports_reasoning], [true, false]);
    const qwen = byNamespace(models, 'local/qwen3:8b')!;
    assert.deepEqual(
      [
        qwen.context_window,
        qwen.supports_vision,
        qwen.supports_reasoning,
        qwen.prompt_token_cost,
        qwen.completion_token_cost,
        qwen.answers_here,
      ],
      [40_960, true, true, 0, 0, true],
    );
    assert.match(qwen.description, /Found on Ollama \(port 11434\), 3\.2B parameters/);
    assert.equal(
      byNamespace(models, 'local/nomic-embed-text'),
      undefined,
      'an embedding model cannot chat and is not offered',
    );
    const cloud = byNamespace(models, 'openai/gpt-4o-mini')!;
    assert.deepEqual([cloud.answers_here, cloud.served_by], [false, null]);
    assert.deepEqual(
      [byNamespace(models, 'test/echo')!.answers_here, byNamespace(models, 'test/echo')!.served_by],
      [true, 'this service'],
    );
  });

  it('gives the first Space only the models that answer here, says so in its description, and answers from them', async () => {
    const c = service.client();
    const first = (await c.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const detail = (await c.getSpace(first.id)).main;
    assert.deepEqual(
      detail.base_model_settings.filter((s) => s.active).map((s) => s.namespace),
      ['local/llama3.2', 'local/qwen3:8b'],
    );
    assert.equal(detail.app.description, 'Routes to llama3.2 and qwen3:8b, the models that answer here.');
    const reply = await c.chat({ app_id: first.id, prompt: 'hello' });
    assert.equal(
      reply.choices[0]!.message.content,
      'upstream:llama3.2:latest:hello',
      'the server gets the model by its own name',
    );
    // Claude Code's prompt-cache marks and thinking are Anthropic's: a model server is not sent them.
    const res = await raw(service.url, 'POST', '/v1/messages', {
      token: service.token,
      body: {
        app_id: first.id,
        model: 'local/llama3.2',
        max_tokens: 50,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: 'Hello' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'A greeting.', signature: 'sig-from-anthropic' },
              { type: 'text', text: 'Hi.' },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'cached?', cache_control: { type: 'ephemeral' } }] },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    // Neither Anthropic's cache marks nor an Anthropic model's thinking reach a model server.
    assert.doesNotMatch(JSON.stringify(ollama.received.at(-1)), /cache_control|thinking|sig-from-anthropic/);
    assert.match(JSON.stringify(ollama.received.at(-1)), /cached\?/);
    /** A chat completion (of llama3.2 unless told), answered 200, with what the server received. */
    const complete = async (content: string, extra: Record<string, unknown>, model = 'local/llama3.2') => {
      const res = await raw(service.url, 'POST', '/v1/chat/completions', {
        token: service.token,
        body: { app_id: first.id, model, messages: [{ role: 'user', content }], ...extra },
      });
      assert.equal(res.status, 200, res.text);
      return res;
    };
    // Efforts above high are OpenAI's largest models' and Anthropic's: a model server is asked for high.
    const thought = await complete('x', { reasoning_effort: 'xhigh' }, 'local/qwen3:8b');
    assert.equal(ollama.received.at(-1)!.reasoning_effort, 'high');
    // What the model thought is shown as OpenAI-compatible clients read it, whole and streamed.
    const said = (thought.json as { choices: Array<{ message: Record<string, unknown> }> }).choices[0]!.message;
    assert.deepEqual([said.reasoning_content, said.content], ['thinking over x', 'upstream:qwen3:8b:x']);
    const streamed = await complete('y', { reasoning_effort: 'low', stream: true }, 'local/qwen3:8b');
    /** The data of a stream's events. */
    const events = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    const deltas = events(streamed.text).map(
      (e) => (e as { choices: Array<{ delta?: Record<string, string> }> }).choices[0]?.delta,
    );
    assert.equal(deltas.map((d) => d?.reasoning_content ?? '').join(''), 'thinking over y');
    // In OpenAI's Responses as a reasoning item's summary, carried back nowhere: nobody signed it.
    const response = await raw(service.url, 'POST', '/v1/responses', {
      token: service.token,
      body: {
        app_id: first.id,
        model: 'local/qwen3:8b',
        input: 'z',
        reasoning: { effort: 'low', summary: 'auto' },
        include: ['reasoning.encrypted_content'],
        store: false,
      },
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual((response.json as { output: Array<Record<string, unknown>> }).output[0], {
      type: 'reasoning',
      id: (response.json as { output: Array<{ id: string }> }).output[0]!.id,
      summary: [{ type: 'summary_text', text: 'thinking over z' }],
    });
    // Not to Anthropic's clients: Claude Code would send it back, and Anthropic refuses it unsigned.
    const messages = await raw(service.url, 'POST', '/v1/messages', {
      token: service.token,
      body: {
        app_id: first.id,
        model: 'local/qwen3:8b',
        max_tokens: 50,
        stream: true,
        output_config: { effort: 'low' },
        messages: [{ role: 'user', content: 'w' }],
      },
    });
    assert.equal(messages.status, 200, messages.text);
    const blocks = events(messages.text).flatMap((e) =>
      e.type === 'content_block_delta' ? [(e as { delta: { type: string; text?: string } }).delta] : [],
    );
    assert.deepEqual([...new Set(blocks.map((d) => d.type))], ['text_delta']);
    assert.equal(blocks.map((d) => d.text).join(''), 'upstream:qwen3:8b:w');
    // A model Ollama says does not think is sent no effort (Ollama refuses one), as Claude Code asks.
    const claudeCode = await raw(service.url, 'POST', '/v1/messages', {
      token: service.token,
      body: {
        app_id: first.id,
        model: 'local/llama3.2',
        max_tokens: 50,
        thinking: { type: 'adaptive' },
        output_config: { effort: 'high' },
        messages: [{ role: 'user', content: 'Think hard.' }],
      },
    });
    assert.equal(claudeCode.status, 200, claudeCode.text);
    assert.deepEqual(
      [ollama.received.at(-1)!.model, ollama.received.at(-1)!.reasoning_effort],
      ['llama3.2:latest', undefined],
    );
    // One tool call a reply, when asked (Codex does): asked of the server, and held to here.
    const calls = async (parallel?: boolean) => {
      const res = await complete('use every tool', {
        tools: ['read', 'grep'].map((name) => ({ type: 'function', function: { name, parameters: {} } })),
        ...(parallel === undefined ? {} : { parallel_tool_calls: parallel }),
      });
      const sent = ollama.received.at(-1) as { parallel_tool_calls?: boolean };
      const answer = res.json as { choices: Array<{ message: { tool_calls: Array<{ function: { name: string } }> } }> };
      return {
        sent: sent.parallel_tool_calls,
        names: answer.choices[0]!.message.tool_calls.map((c) => c.function.name),
      };
    };
    assert.deepEqual(await calls(), { sent: undefined, names: ['read', 'grep'] });
    assert.deepEqual(await calls(false), { sent: false, names: ['read'] });
  });

  it("bills a reply by the server's own count of its tokens, with the part it reasoned in, whole and streamed", async () => {
    const c = service.client();
    const first = (await c.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const body = {
      app_id: first.id,
      model: 'local/qwen3:8b',
      reasoning_effort: 'low',
      messages: [{ role: 'user', content: 'count these four words' }],
    };
    type Usage = {
      prompt_tokens: number;
      completion_tokens: number;
      completion_tokens_details?: { reasoning_tokens: number };
    };
    // The fake counts a word a token and 5 for its template: 9 in; "upstream:qwen3:8b:count these four
    // words" and "thinking over count these four words" are 4 and 6 out, 6 of them reasoning.
    const whole = await raw(service.url, 'POST', '/v1/chat/completions', { token: service.token, body });
    assert.equal(whole.status, 200, whole.text);
    const answer = whole.json as {
      usage: Usage;
      metadata: { routing: { usage: string } };
    };
    assert.deepEqual(
      [answer.usage.prompt_tokens, answer.usage.completion_tokens, answer.usage.completion_tokens_details],
      [9, 10, { reasoning_tokens: 6, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 }],
    );
    assert.equal(answer.metadata.routing.usage, 'provider');
    // The log keeps the server's counts (a reply the service counted itself, a test model's, says
    // nothing of cache or reasoning), and a playground conversation read again gives them as its live
    // reply did.
    const log = new DatabaseSync(path.join(service.dataDir, DB_FILE), { readOnly: true });
    const kept = (id: string) =>
      log.prepare('SELECT cached_tokens, reasoning_tokens FROM requests WHERE id = ?').get(id) as object;
    assert.deepEqual({ ...kept((whole.json as { id: string }).id) }, { cached_tokens: 0, reasoning_tokens: 6 });
    for (const [model, counted] of [
      ['local/qwen3:8b', { cached_tokens: 0, reasoning_tokens: 0 }],
      ['test/echo', {}],
    ] as const) {
      const conversation = await c.createConversation(first.id, { name: model });
      const played = await c.chat({
        app_id: first.id,
        conversation_id: conversation.id,
        prompt: 'count these four words',
        model,
      });
      assert.deepEqual({ ...kept(played.id) }, { cached_tokens: null, reasoning_tokens: null, ...counted });
      const read = await c.getConversation(first.id, conversation.id, true);
      const usage = turnsOf(read)[0]?.reply?.usage;
      assert.deepEqual(
        [usage?.prompt_tokens_details?.cached_tokens, usage?.completion_tokens_details?.reasoning_tokens],
        [counted.cached_tokens, counted.reasoning_tokens],
      );
    }
    log.close();
    // A stream's count comes in its last chunk, which the server sends when asked.
    const streamed = await raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { ...body, stream: true, stream_options: { include_usage: true } },
    });
    assert.deepEqual(ollama.received.at(-1)!.stream_options, { include_usage: true });
    const last = streamed.text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { usage?: Usage })
      .at(-1)!;
    assert.deepEqual([last.usage?.prompt_tokens, last.usage?.completion_tokens], [9, 10]);
    assert.equal(last.usage?.completion_tokens_details?.reasoning_tokens, 6);
  });

  it('marks the models unavailable when the server goes away, keeps them for the Spaces that use them, and finds them again', async () => {
    const c = service.client();
    const created = await c.createSpace({ name: 'uses llama' });
    // Changed by hand, so the service no longer changes its models by what answers.
    const settings = (await c.getSpaceModels(created.id)).base_model_settings;
    await c.toggleModel(created.id, settings.find((s) => s.namespace === 'local/qwen3:8b')!.id, false);
    await ollama.close();

    // A request finds the server gone: its models stop being candidates at once.
    const failed = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: created.id, prompt: 'anyone?' },
    });
    assert.ok(failed.status >= 500, `a reply nothing could give fails (${failed.status})`);
    assert.match(failed.text, /the model server could not be reached: nothing answers at its address/);
    assert.equal(byNamespace(await c.listModels(), 'local/llama3.2')!.answers_here, false);

    const refreshed = await raw(service.url, 'POST', '/v1/models/refresh', { token: service.token, body: {} });
    assert.equal(refreshed.status, 200);
    const report = (
      refreshed.json as { servers: Array<{ name: string; answered: boolean; problem: string | null }> }
    ).servers.find((s) => s.name === 'Ollama (port 11434)')!;
    assert.deepEqual([report.answered, report.problem], [false, 'nothing answers there']);
    const kept = (await c.getSpaceModels(created.id)).base_model_settings.find(
      (s) => s.namespace === 'local/llama3.2',
    )!;
    assert.deepEqual([kept.active, kept.answers_here], [true, false], 'the Space keeps its model, marked');
    const first = (await c.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const untouched = (await c.getSpace(first.id)).main;
    assert.deepEqual(
      untouched.base_model_settings.filter((s) => s.active).map((s) => s.namespace),
      ['test/echo', 'test/lorem'],
      'an untouched Space follows what answers',
    );
    assert.match(untouched.app.description ?? '', /^Routes only to the test models/);

    ollama = await startFakeUpstream({
      port: 11434,
      ollama: true,
      models: [{ id: 'llama3.2:latest', context: 131_072 }],
    });
    await raw(service.url, 'POST', '/v1/models/refresh', { token: service.token, body: {} });
    assert.equal(byNamespace(await c.listModels(), 'local/llama3.2')!.answers_here, true);
    assert.equal(
      (await c.chat({ app_id: created.id, prompt: 'back?' })).choices[0]!.message.content,
      'upstream:llama3.2:latest:back?',
    );
  });
});

describe('model servers at the upstream URLs', function () {
  this.timeout(30_000);

  it('asks each URL for its models in the vLLM dialect, the first server keeping a model both offer', async () => {
    const vllm = await startFakeUpstream({
      models: [
        { id: 'Qwen/Qwen2.5-7B-Instruct', context: 32_768 },
        { id: 'shared-model', context: 4096 },
      ],
    });
    const other = await startFakeUpstream({ models: [{ id: 'shared-model', context: 9999 }] });
    const dir = tempDir();
    const db = openDataFolder(dir);
    try {
      // The hosted providers' models, as a start of the service brings them in.
      db.transactionNow(() =>
        syncCatalogueModels(db, datasetModels('2026-11-24T00:00:00.000Z'), DATASET.name, '2026-11-24'),
      );
      const reports = await refreshModelServers(db, { upstreams: [vllm.url, other.url], discover: false });
      assert.deepEqual(
        reports.map((r) => [r.answered, r.models]),
        [
          [true, ['local/Qwen/Qwen2.5-7B-Instruct', 'local/shared-model']],
          [true, []],
        ],
      );
      const models = listModels(db, { orgId: defaultOrganizationId(db), appId: null, identity: 'test' });
      assert.equal(byNamespace(models, 'local/Qwen/Qwen2.5-7B-Instruct')!.context_window, 32_768);
      assert.equal(byNamespace(models, 'local/shared-model')!.context_window, 4096);
      assert.equal(byNamespace(models, 'local/shared-model')!.served_by, new URL(vllm.url).host);
      // The first URL answers for the catalogue's own models too (a LiteLLM proxy, say).
      assert.equal(byNamespace(models, 'openai/gpt-4o')!.answers_here, true);
    } finally {
      await db.close();
      await vllm.close();
      await other.close();
      removeDir(dir);
    }
  });

  it('says why a named server did not answer, and one that is not a model server', async () => {
    const notModels = await startFakeUpstream();
    const dir = tempDir();
    const db = openDataFolder(dir);
    try {
      const reports = await refreshModelServers(db, {
        upstreams: [notModels.url, 'http://127.0.0.1:9/v1'],
        discover: false,
      });
      assert.deepEqual(
        reports.map((r) => r.problem),
        ['answered 404', 'nothing answers there'],
      );
    } finally {
      await db.close();
      await notModels.close();
      removeDir(dir);
    }
  });
});
