// Claude Code and Codex from npm, run as their users run them (`claude -p`, `codex exec`), against the
// built-in service through a Space, set up with what Copy Space Endpoint for Other Tools… gives a user
// to paste (shared/toolSnippets.ts), with fakes of Anthropic's and OpenAI's APIs behind it
// (providerFakes.ts, which check every request against the providers' references). Each once found a
// request the service refused that the provider takes: Codex 0.171's turn metadata, Claude Code's
// longest tool description and its system message for a model it does not know; these runs keep them
// honest as both move on. Claude Code defers WebSearch and most of its tools behind its ToolSearch, as
// at Anthropic's own API: a tool is declared once ToolSearch finds it, sent deferred (`defer_loading`)
// and loaded by the tool reference ToolSearch answers. To have the fake call WebSearch at once, that
// test turns ToolSearch off (ENABLE_TOOL_SEARCH=false).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pngBase64 } from '../support/png';
import {
  fakeEnv,
  startAnthropicFake,
  startBedrockFake,
  startCohereFake,
  startGeminiFake,
  startMiniMaxFake,
  startOpenAiFake,
  type ProviderFake,
} from '../support/providerFakes';
import { removeDir, SERVICE, spaceOf, startService, tempDir, type RunningService } from '../support/service';
import { SNIPPET_TEXTS } from '../../../src/shared/toolSnippets';

const run = promisify(execFile);
const CHECKOUT = path.dirname(path.dirname(SERVICE));
const CLAUDE = path.join(CHECKOUT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');
const CODEX = path.join(CHECKOUT, 'node_modules/@openai/codex/bin/codex.js');
const CLAUDE_MODEL = 'anthropic/claude-haiku-4-5';
const CODEX_MODEL = 'openai/gpt-5.4-mini';
/** A model Codex offers its tool search to (GPT-5.5 and later), with its MCP servers' tools deferred behind it. */
const TOOL_SEARCH_MODEL = 'openai/gpt-5.5';
const MINIMAX_MODEL = 'minimax/MiniMax-M2.7';
const GEMINI_MODEL = 'google/gemini-3.5-flash';
const COHERE_MODEL = 'cohere/command-a-03-2025';
const BEDROCK_MODEL = 'bedrock/global.anthropic.claude-haiku-4-5-20251001-v1:0';

/** The variables a snippet's shell lines export (`export NAME=value`). */
const exported = (snippet: string) =>
  Object.fromEntries([...snippet.matchAll(/^export (\w+)="?([^"\n]*)"?$/gm)].map((m) => [m[1]!, m[2]!]));

/** What a command wrote, whether it succeeded or not (an agent that got an error exits with 1). */
async function output(command: Promise<{ stdout: string }>): Promise<string> {
  try {
    return (await command).stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
}

describe('Claude Code and Codex against the built-in service', function () {
  this.timeout(120_000);
  let openai: ProviderFake;
  let anthropic: ProviderFake;
  let minimax: ProviderFake;
  let gemini: ProviderFake;
  let cohere: ProviderFake;
  let bedrock: ProviderFake;
  let service: RunningService;
  /** The Space both agents send through: Claude Haiku 4.5, GPT-5.4 mini and test/echo, no cost cap. */
  let key: string;
  /** What a user pastes for Claude Code and for Codex (its shell line's key aside). */
  let claudeEnv: Record<string, string>;
  let codexEnv: Record<string, string>;
  let home: string;
  let work: string;

  before(async () => {
    [openai, anthropic, minimax, gemini, cohere, bedrock] = await Promise.all([
      startOpenAiFake(),
      startAnthropicFake(),
      startMiniMaxFake(),
      startGeminiFake(),
      startCohereFake(),
      startBedrockFake(),
    ]);
    service = await startService({ env: fakeEnv({ openai, anthropic, minimax, google: gemini, cohere, bedrock }) });
    const space = await spaceOf(service, 'Agents', [
      CLAUDE_MODEL,
      CODEX_MODEL,
      TOOL_SEARCH_MODEL,
      MINIMAX_MODEL,
      GEMINI_MODEL,
      COHERE_MODEL,
      BEDROCK_MODEL,
      'test/echo',
    ]);
    // An agent's request is priced at its whole max_tokens (Claude Code asks 32,000), far over the $0.02
    // a new Space allows a request.
    await service.client().updateSpace({ id: space.id, policies: { max_cost: 0 } });
    key = space.key;
    home = tempDir('llm-spaces-agent-home-');
    work = tempDir('llm-spaces-agent-work-');
    const v1 = `${service.url}/v1`;
    claudeEnv = exported(SNIPPET_TEXTS.claudeCode(v1, key, 'Agents'));
    // Codex's configuration as the snippet gives it (with the smallest context window of the Space's
    // models, as the extension finds it), and its web search live (Codex's own setting).
    const windows = (await service.client().listModels())
      .filter((m) => [CLAUDE_MODEL, CODEX_MODEL, 'test/echo'].includes(m.namespace))
      .map((m) => m.context_window);
    const [toml, shell] = SNIPPET_TEXTS.codex(v1, key, 'Agents', { contextWindow: Math.min(...windows) }).split(
      '# and in the shell',
    );
    assert.match(toml!, /\nmodel_context_window = \d+\n/);
    // The service's own MCP server too, behind the Space's key, as a user adds it to Codex.
    codexEnv = { ...exported(shell!), LLM_SPACES_MCP_KEY: key };
    const mcp = `[mcp_servers.llm-spaces]\nurl = "${service.url}/mcp"\nbearer_token_env_var = "LLM_SPACES_MCP_KEY"\n`;
    mkdirSync(path.join(home, '.codex'));
    writeFileSync(path.join(home, '.codex', 'config.toml'), `web_search = "live"\n${toml}\n${mcp}`);
  });
  after(async () => {
    await service?.stop();
    await Promise.all([openai, anthropic, minimax, gemini, cohere, bedrock].map((fake) => fake?.close()));
    for (const dir of [service?.dataDir, home, work]) if (dir) removeDir(dir);
  });
  afterEach(() => {
    assert.deepEqual(
      [openai, anthropic, minimax, gemini, cohere, bedrock].flatMap((fake) => fake.problems),
      [],
      'every request followed its reference',
    );
  });

  /** Claude Code in print mode, as ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY point it at a Space. */
  const claude = (args: string[], spaceKey = key, extraEnv: Record<string, string> = {}) =>
    run(CLAUDE, ['-p', ...args], {
      cwd: work,
      timeout: 90_000,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ...claudeEnv,
        ANTHROPIC_API_KEY: spaceKey,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...extraEnv,
      },
    });

  /** Claude Code's answer (its JSON) to a prompt on Claude Haiku 4.5, in three turns at most, the tool named allowed. */
  const claudeTurns = async (
    prompt: string,
    allowed?: string,
    extraEnv?: Record<string, string>,
    model = 'claude-haiku-4-5',
  ) =>
    JSON.parse(
      (
        await claude(
          [
            prompt,
            '--model',
            model,
            ...(allowed ? ['--allowedTools', allowed] : []),
            '--max-turns',
            '3',
            '--output-format',
            'json',
          ],
          key,
          extraEnv,
        )
      ).stdout,
    ) as { is_error: boolean; num_turns: number; result: string };

  /**
   * Claude Code's tool loop on `model`: the fake calls Bash to write `greeting` to `file` (its text
   * asks it to), Claude Code runs it, and the model answers from its result, in two turns.
   */
  const greetsWithBash = async (model: string, file: string, greeting: string) => {
    const command = `printf "${greeting}" > ${file}`;
    const said = JSON.parse(
      (
        await claude([
          `Please | call Bash ${JSON.stringify({ command, description: 'Write the greeting' })}`,
          '--model',
          model,
          '--allowedTools',
          'Bash',
          '--max-turns',
          '3',
          '--output-format',
          'json',
        ])
      ).stdout,
    ) as { is_error: boolean; num_turns: number };
    assert.equal(said.is_error, false);
    assert.equal(said.num_turns, 2, 'the tool call, then the answer from its result');
    assert.equal(readFileSync(path.join(work, file), 'utf8'), greeting);
  };

  /**
   * Codex's `exec`, its events as JSON lines. Its sandbox is Codex's own business, not this test's:
   * the work folder is a temporary one, and the sandbox needs what a container may not give.
   */
  const codex = async (args: string[]) => {
    const running = run(
      process.execPath,
      [CODEX, 'exec', '--skip-git-repo-check', '--json', '--sandbox', 'danger-full-access', ...args],
      {
        cwd: work,
        timeout: 90_000,
        env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: path.join(home, '.codex'), ...codexEnv },
      },
    );
    // Codex reads more of the prompt from its input until it ends.
    running.child.stdin?.end();
    const { stdout } = await running;
    return stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string; item?: Record<string, unknown> });
  };
  const completed = (events: Awaited<ReturnType<typeof codex>>, type: string) =>
    events.flatMap((e) => (e.type === 'item.completed' && e.item?.type === type ? [e.item] : []));

  it("runs Claude Code's turn and its tool loop through the Space: the tool runs, and its result goes back", async () => {
    const command = 'printf "Hello from Claude Code through a Space" > hello.txt';
    const said = await claudeTurns(
      `Please | call Bash ${JSON.stringify({ command, description: 'Write the greeting' })}`,
      'Bash',
    );
    assert.equal(said.is_error, false);
    assert.equal(said.num_turns, 2, 'the tool call, then the answer from its result');
    assert.equal(readFileSync(path.join(work, 'hello.txt'), 'utf8'), 'Hello from Claude Code through a Space');
    // Anthropic got Claude Code's request as it sent it (its tools among them), then the tool's result.
    const [first, second] = anthropic.seen.slice(-2).map((r) => r.body);
    assert.equal(first!.model, 'claude-haiku-4-5');
    assert.ok((first!.tools as Array<{ name: string }>).some((t) => t.name === 'Bash'));
    const last = (second!.messages as Array<{ content: Array<{ type: string }> | string }>).at(-1)!;
    assert.ok(Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result'));
  });

  it("runs Claude Code's Read of a picture through the Space: the image goes back to the model in the tool's result", async () => {
    const picture = path.join(work, 'logo.png');
    writeFileSync(picture, Buffer.from(pngBase64(64, 48), 'base64'));
    const said = await claudeTurns(`Please | call Read ${JSON.stringify({ file_path: picture })}`, 'Read');
    assert.equal(said.is_error, false, said.result);
    assert.equal(said.num_turns, 2, 'the tool call, then the answer from its result');
    const messages = anthropic.seen.at(-1)!.body.messages as Array<{ content: unknown }>;
    const result = (messages.at(-1)!.content as Array<{ type: string; content?: unknown }>).find(
      (b) => b.type === 'tool_result',
    )!;
    const image = (result.content as Array<{ type: string; source?: { media_type?: string; data?: string } }>).find(
      (b) => b.type === 'image',
    );
    assert.ok(image, `an image in the tool's result: ${JSON.stringify(result).slice(0, 300)}`);
    assert.match(image.source!.media_type!, /^image\//);
    assert.ok((image.source!.data ?? '').length > 0);
  });

  it("runs Claude Code's ToolSearch through the Space: the tools it loads come declared, deferred and loaded by reference", async () => {
    const from = anthropic.seen.length;
    const said = await claudeTurns(
      `Find it | call ToolSearch ${JSON.stringify({ query: 'select:WebSearch', max_results: 1 })}`,
    );
    assert.equal(said.is_error, false, said.result);
    assert.equal(said.num_turns, 2, 'the search for tools, then the answer');
    type Sent = { tools: Array<{ name: string; defer_loading?: boolean }>; messages: Array<{ content: unknown }> };
    const [first, last] = [anthropic.seen[from]!.body as Sent, anthropic.seen.at(-1)!.body as Sent];
    const deferred = (sent: Sent) => sent.tools.filter((t) => t.defer_loading).map((t) => t.name);
    // WebSearch is not declared until ToolSearch finds it, then declared deferred; Claude gets the tools
    // as Claude Code sends them (its placeholder deferred from the start), and ToolSearch's result as its
    // reference.
    assert.ok(first.tools.some((t) => t.name === 'ToolSearch'));
    assert.ok(!first.tools.some((t) => t.name === 'WebSearch') && deferred(first).length > 0, deferred(first).join());
    assert.ok(deferred(last).includes('WebSearch'));
    const result = (last.messages.at(-1)!.content as Array<{ type: string; content?: unknown }>).find(
      (b) => b.type === 'tool_result',
    );
    assert.deepEqual(result?.content, [{ type: 'tool_reference', tool_name: 'WebSearch' }]);
  });

  it("runs Claude Code's ToolSearch on an OpenAI model: it is shown a deferred tool once ToolSearch loads it", async () => {
    const from = openai.seen.length;
    const said = await claudeTurns(
      `Find it | call ToolSearch ${JSON.stringify({ query: 'select:WebSearch', max_results: 1 })}`,
      undefined,
      undefined,
      CODEX_MODEL,
    );
    assert.equal(said.is_error, false, said.result);
    // GPT-5.4 mini is asked on OpenAI's Responses API.
    type Sent = { tools: Array<{ name: string }>; input: Array<{ type?: string; output?: unknown }> };
    const sent = openai.seen.slice(from).map((r) => r.body as Sent);
    const names = sent.map((b) => b.tools.map((t) => t.name));
    // Not shown the deferred tools (Claude Code's placeholder among them) before, WebSearch after.
    assert.ok(names[0]!.includes('ToolSearch') && !names[0]!.includes('WebSearch'), names[0]!.join());
    assert.ok(!names.flat().includes('DeferredToolPlaceholder'));
    assert.ok(names[1]!.includes('WebSearch'), names[1]!.join());
    assert.deepEqual(
      sent[1]!.input.filter((item) => item.type === 'function_call_output').map((item) => item.output),
      ['The tool WebSearch is loaded: it can be called now.'],
    );
  });

  it("runs Claude Code's WebSearch through the Space: Anthropic searches, and its pages go back to the loop", async () => {
    const from = anthropic.seen.length;
    const said = await claudeTurns(
      `Look it up | call WebSearch ${JSON.stringify({ query: 'gateway news' })}`,
      'WebSearch',
      {
        ENABLE_TOOL_SEARCH: 'false',
      },
    );
    assert.equal(said.is_error, false, said.result);
    const asked = anthropic.seen.slice(from).map((r) => r.body);
    // WebSearch asked for Anthropic's web search in a request of its own, which the fake ran.
    const search = asked.find((b) =>
      (b.tools as Array<{ type?: string }> | undefined)?.some((t) => t.type?.startsWith('web_search_')),
    );
    assert.ok(search, 'a request with the web search tool');
    // The loop's last request carried WebSearch's result: the pages the search found, and its text.
    const last = (asked.at(-1)!.messages as Array<{ content: unknown }>).at(-1)!;
    const result = JSON.stringify(last.content);
    assert.match(result, /Page 1 on Perform a web search for the query: gateway news/);
    assert.match(result, /https:\/\/example\.com\/2\?q=Perform/);
    assert.match(said.result, /^echo: /);
  });

  it("runs Claude Code's WebSearch on a Gemini model through the Space: Google searches, and its pages go back to the loop", async () => {
    const from = gemini.seen.length;
    const said = await claudeTurns(
      `Look it up | call WebSearch ${JSON.stringify({ query: 'gateway news' })}`,
      'WebSearch',
      { ENABLE_TOOL_SEARCH: 'false' },
      GEMINI_MODEL,
    );
    assert.equal(said.is_error, false, said.result);
    const asked = gemini.seen.slice(from).map((r) => r.body);
    // WebSearch's request of its own reached Gemini with Google Search, which the fake ran.
    const search = asked.find((b) =>
      (b.tools as Array<Record<string, unknown>> | undefined)?.some((t) => 'googleSearch' in t),
    );
    assert.ok(search, JSON.stringify(asked.map((b) => b.tools)));
    // The loop's last request carried WebSearch's result: the pages Google found (its redirects).
    const last = JSON.stringify((asked.at(-1)!.contents as unknown[]).at(-1));
    assert.match(last, /vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\//);
    assert.match(said.result, /^echo: /);
  });

  it("runs Claude Code's tool loop on a MiniMax model through the Space: its thinking goes back to it with the tool's result", async () => {
    await greetsWithBash('MiniMax-M2.7', 'minimax.txt', 'Hello from MiniMax');
    // The second request has the first reply whole, its thinking first, as MiniMax gave it (its fake
    // checks the signature), then the tool's result.
    const [first, second] = minimax.seen.slice(-2).map((r) => r.body);
    assert.equal(first!.model, 'MiniMax-M2.7');
    const reply = (second!.messages as Array<{ role: string; content: Array<{ type: string }> | string }>).findLast(
      (m) => m.role === 'assistant',
    )!;
    assert.deepEqual(Array.isArray(reply.content) && reply.content.map((b) => b.type), ['thinking', 'tool_use']);
  });

  it("runs Claude Code's tool loop on a Cohere model through the Space: the call and its result go in Cohere's shapes", async () => {
    await greetsWithBash(COHERE_MODEL, 'cohere.txt', 'Hello from Cohere');
    // The second request has the call as the assistant's tool call and its result as a tool message
    // (its fake checks that the message answers a call before it), with Claude Code's tools as functions.
    const second = cohere.seen.at(-1)!.body as {
      model: string;
      messages: Array<{ role: string; tool_calls?: Array<{ function: { name: string } }> }>;
      tools: Array<{ function: { name: string } }>;
    };
    assert.equal(second.model, 'command-a-03-2025');
    const call = second.messages.findLast((m) => m.role === 'assistant')!;
    assert.deepEqual(
      call.tool_calls?.map((c) => c.function.name),
      ['Bash'],
    );
    assert.equal(second.messages.at(-1)!.role, 'tool');
    assert.ok(second.tools.some((t) => t.function.name === 'Bash'));
  });

  it("runs Claude Code's tool loop on Claude through Bedrock, its thinking sent back signed as Bedrock's Claude asks", async () => {
    await greetsWithBash(BEDROCK_MODEL, 'bedrock.txt', 'Hello from Bedrock');
    // Both turns went to Bedrock's Anthropic Messages API with the thinking Claude Code asks; the second
    // has the first reply whole, its thinking first (the fake checks the signature).
    const [first, second] = bedrock.seen.slice(-2);
    assert.deepEqual(
      [first!.path, second!.path].map((p) => p.replace(/^\/model\/[^/]+\//, '')),
      ['invoke-with-response-stream', 'invoke-with-response-stream'],
    );
    assert.equal((first!.body.thinking as { type: string }).type, 'enabled');
    const reply = (
      second!.body.messages as Array<{ role: string; content: Array<{ type: string }> | string }>
    ).findLast((m) => m.role === 'assistant')!;
    assert.deepEqual(Array.isArray(reply.content) && reply.content.map((b) => b.type), ['thinking', 'tool_use']);
  });

  it('runs Claude Code on an OpenAI model through the Space, with the instructions it adds for a model it does not know', async () => {
    const said = JSON.parse(
      (await claude(['Hello there', '--model', CODEX_MODEL, '--output-format', 'json'])).stdout,
    ) as { is_error: boolean; result: string };
    assert.equal(said.is_error, false);
    assert.match(said.result, /^echo: /);
    // Its environment came as a system message after the user's (Anthropic's mid-conversation kind),
    // and reached OpenAI in its place.
    const input = openai.seen.at(-1)!.body.input as Array<{ role?: string }>;
    assert.deepEqual(
      input.map((i) => i.role),
      ['developer', 'user', 'developer'],
    );
  });

  it('runs Claude Code on a Gemini model through the Space, its later system message joined to the first', async () => {
    const asked = gemini.seen.length;
    const said = JSON.parse(
      (await claude(['Hello Gemini', '--model', GEMINI_MODEL, '--output-format', 'json'])).stdout,
    ) as { is_error: boolean; result: string };
    assert.equal(said.is_error, false);
    assert.match(said.result, /^echo: /);
    assert.equal(gemini.seen.length, asked + 1, 'Gemini answered, not a model failed over to');
    // Gemini takes system instructions only at the start: Claude Code's environment, which it sends
    // after the user's message to a model it does not know, came within them.
    const sent = gemini.seen.at(-1)!.body as {
      systemInstruction?: { parts: Array<{ text: string }> };
      contents: Array<{ role: string }>;
    };
    assert.ok(sent.systemInstruction?.parts.length, 'its system prompt came as the system instruction');
    assert.ok(sent.contents.every((c) => c.role === 'user' || c.role === 'model'));
  });

  it("tells Claude Code in words what a request over a new Space's cost cap may cost, and how to lift the cap", async () => {
    const capped = await spaceOf(service, 'Capped', [CLAUDE_MODEL]);
    const said = await output(claude(['Hello', '--model', 'claude-haiku-4-5'], capped.key));
    assert.match(
      said,
      /may cost up to \$[\d.]+ for this request .*more than this Space's cost cap of \$0\.020 a request: raise the Space's cost cap per request/,
    );
  });

  it("runs Codex's turn with its web search on an OpenAI reasoning model, and its next turn sends the search back in its place", async () => {
    const turn = await codex(['-m', CODEX_MODEL, 'What is new in gateways?']);
    assert.deepEqual(
      completed(turn, 'web_search').map((i) => i.query),
      ['What is new in gateways?'],
    );
    assert.deepEqual(
      completed(turn, 'agent_message').map((i) => i.text),
      ['echo: What is new in gateways?'],
    );
    // Codex shows what the model did in its order: it reasoned, searched, reasoned on what it found, answered
    // (after its own warning that it knows nothing of a model by this name).
    assert.deepEqual(
      turn.flatMap((e) => (e.type === 'item.completed' && e.item?.type !== 'error' ? [e.item?.type] : [])),
      ['reasoning', 'web_search', 'reasoning', 'agent_message'],
    );
    assert.deepEqual(
      completed(turn, 'reasoning').map((i) => i.text),
      ['Thinking about: What is new in gateways?', 'Reading what it found on: What is new in gateways?'],
    );
    const asked = openai.seen.at(-1)!.body;
    assert.ok((asked.tools as Array<{ type: string }>).some((t) => t.type === 'web_search'));
    const next = await codex(['-m', CODEX_MODEL, 'resume', '--last', 'And what about routers?']);
    assert.deepEqual(
      completed(next, 'agent_message').map((i) => i.text),
      ['echo: And what about routers?'],
    );
    // OpenAI got the first turn's reasoning, its search, the reasoning after it and its answer, in that order.
    const items = (openai.seen.at(-1)!.body.input as Array<{ type?: string; role?: string }>).map(
      (i) => i.type ?? i.role,
    );
    const at = items.indexOf('reasoning');
    assert.deepEqual(items.slice(at), ['reasoning', 'web_search_call', 'reasoning', 'assistant', 'user']);
  });

  it("runs Codex's tool search through the Space: the MCP tools it finds are given to the model from its next turn", async () => {
    const from = openai.seen.length;
    // Codex offers GPT-5.5 its own tool search, with the tools of its MCP servers (here the service's)
    // deferred behind it. Its web search is off: the fake would search first.
    const search = { query: 'budget' };
    const turn = await codex([
      '-c',
      'web_search="disabled"',
      '-m',
      TOOL_SEARCH_MODEL,
      `Find it | call tool_search ${JSON.stringify(search)}`,
    ]);
    type Sent = {
      tools: Array<{ type: string; name: string }>;
      input: Array<{ type?: string; name?: string; arguments?: string; output?: unknown }>;
    };
    const [first, second, ...more] = openai.seen.slice(from).map((r) => r.body as Sent);
    assert.equal(more.length, 0, 'the search, then the answer');
    const names = (sent: Sent) => sent.tools.map((t) => t.name);
    const checkBudget = 'mcp__llm_spaces__llmSpaces_checkBudget';
    // The model is given the search as a function, and none of the MCP tools until the search loaded them.
    assert.ok(names(first!).includes('tool_search') && !names(first!).some((n) => n.startsWith('mcp__')));
    assert.ok(names(second!).includes(checkBudget), names(second!).join());
    const call = second!.input.find((i) => i.type === 'function_call');
    assert.deepEqual([call?.name, JSON.parse(call?.arguments ?? '{}')], ['tool_search', search]);
    const loaded = `These tools are loaded and can be called now: ${checkBudget}.`;
    assert.deepEqual(
      second!.input.filter((i) => i.type === 'function_call_output').map((i) => i.output),
      [loaded],
    );
    assert.deepEqual(
      completed(turn, 'agent_message').map((i) => i.text),
      [`echo: ${loaded}`],
    );
  });

  it("runs Codex's tool loop through the Space: its command runs, and its output goes back", async () => {
    const cmd = 'printf "Hello from Codex through a Space" > codex.txt && cat codex.txt';
    const turn = await codex(['-m', 'test/echo', `call exec_command ${JSON.stringify({ cmd })}`]);
    assert.equal(readFileSync(path.join(work, 'codex.txt'), 'utf8'), 'Hello from Codex through a Space');
    // test/echo answers from the tool's result, which Codex sent back.
    const [answer] = completed(turn, 'agent_message').map((i) => String(i.text));
    assert.match(answer ?? '', /Hello from Codex through a Space/);
  });
});
