// The retirements providers announced that the price list does not mark (it still lists the models as
// current), by the day each model stops being served. A key's own list of models (offered.ts) leaves
// out what its provider no longer serves; this table says it before any key is added, and ahead of the
// day, so a Space, a file or a picker naming the model is warned in time.

/** Each of the models, retired on the day. */
const on = (day: string, ids: readonly string[]): Record<string, string> =>
  Object.fromEntries(ids.map((id) => [id, day]));

const GEMINI_SHUT_DOWN: Readonly<Record<string, string>> = {
  'gemini-2.0-flash': '2026-06-01',
  'gemini-2.0-flash-lite': '2026-06-01',
  ...on('2025-09-24', [
    'gemini-pro',
    'gemini-1.0-pro-vision-001',
    'gemini-1.5-flash',
    'gemini-1.5-pro',
    'gemini-flash-1.5',
    'gemini-flash-1.5-8b',
    'gemini-pro-1.5',
  ]),
};
/**
 * Retirements by provider:
 *   - DeepSeek's V4 announcement of 2026-04-24 retired its names deepseek-chat and deepseek-reasoner on
 *     2026-07-24, for deepseek-v4-flash and deepseek-v4-pro;
 *   - xAI retired Grok 3, Grok 4 (0709) and its Fast models on 2026-05-15 (its migration guide): their
 *     names are answered by Grok 4.3 since, at Grok 4.3's price;
 *   - Google shut Gemini 2.0 Flash and Flash-Lite down on 2026-06-01 on the Gemini API and Vertex AI
 *     alike, and the Gemini 1.0 and 1.5 models in 2025 (dated here by the last of them, 1.5's, on
 *     2025-09-24); on the Gemini API alone (its deprecations page), Gemini 3 Pro Preview on 2026-03-09,
 *     and Gemini 2.5 Pro and 2.5 Flash on 2026-12-01 (their names then answered by Gemini 3.8 Flash and
 *     3.5 Flash-Lite at those models' prices). Vertex AI keeps those on its own, later schedule; of
 *     the Claude models it serves, its deprecations page for partner models (MaaS) dates Claude 3.5
 *     Haiku's shutdown on 2026-07-05 (the others' days there were not found: not marked);
 *   - OpenAI (its deprecations page, which GET /v1/models repeats as each model's `shutdown_date`):
 *     the GPT-3 models and text-davinci-003 shut down on 2024-01-04, gpt-3.5-turbo-0301 on 2024-06-13,
 *     gpt-3.5-turbo-0613 and -16k on 2024-09-13, gpt-4-vision-preview on 2024-12-06, gpt-4-32k on
 *     2025-06-06, GPT-4.5 Preview on 2025-07-14, o1-preview on 2025-07-28, o1-mini on 2025-10-27,
 *     codex-mini on 2026-01-16, chatgpt-4o-latest on 2026-02-17, gpt-5.1-codex-mini on 2026-07-23,
 *     GPT-5.3 Chat (gpt-5.3-chat-latest) on 2026-08-10, and GPT-3.5 Turbo, GPT-4, GPT-4 Turbo, the
 *     first GPT-4o (2024-05-13), o1, o1-pro, o3-mini, o4-mini and GPT-4.1 nano on 2026-10-23
 *     (gpt-3.5-turbo-1106, whose own date was not found, by then at the latest: its family's name went
 *     then). GPT-5, its mini, nano and pro, o3 and o3-pro retire on 2026-12-11; GPT-4o, GPT-4o mini,
 *     GPT-4.1 and GPT-4.1 mini on 2027-01-14; GPT-5.1, GPT-5.3 Codex and GPT-5.4 nano on 2027-04-01.
 *     Azure OpenAI keeps its own schedule, not marked here;
 *   - Anthropic (its deprecations page, for the Claude API; Bedrock and Vertex AI keep their own
 *     schedules) retired Claude 1 on 2024-11-06, Claude 2 and Claude 3 Sonnet on 2025-07-21, Claude 3.5
 *     Sonnet on 2025-10-22, Claude 3 Opus on 2026-01-05, Claude 3.7 Sonnet and 3.5 Haiku on 2026-02-19,
 *     Claude 3 Haiku on 2026-04-19, Claude Sonnet 4 and Opus 4 (and their aliases `-4-0`) on
 *     2026-06-15, Claude Opus 4.1 on 2026-08-05 and Claude Sonnet 4.5 on 2026-11-30; it deprecated
 *     Claude Opus 4.5 on 2026-11-23, to retire on 2027-01-22 (the days of Sonnet 4.5 and Opus 4.5 are
 *     also those its own SDK warns of, in `internal/data/deprecated-models`; Claude Mythos Preview,
 *     retired there on 2026-06-30, is not in the price list).
 */
const ANNOUNCED_RETIREMENTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  google: {
    ...GEMINI_SHUT_DOWN,
    'gemini-3-pro-preview': '2026-03-09',
    'gemini-2.5-pro': '2026-12-01',
    'gemini-2.5-flash': '2026-12-01',
  },
  vertex: { ...GEMINI_SHUT_DOWN, 'claude-3-5-haiku': '2026-07-05' },
  openai: {
    ...on('2024-01-04', ['ada', 'babbage', 'curie', 'davinci', 'text-davinci-003']),
    'gpt-3.5-0301': '2024-06-13',
    ...on('2024-09-13', ['gpt-3.5-turbo-0613', 'gpt-3.5-turbo-16k']),
    'gpt-4-vision-preview': '2024-12-06',
    'gpt-4-32k': '2025-06-06',
    'gpt-4.5-preview': '2025-07-14',
    'o1-preview': '2025-07-28',
    'o1-mini': '2025-10-27',
    'codex-mini': '2026-01-16',
    'chatgpt-4o-latest': '2026-02-17',
    'gpt-5.1-codex-mini': '2026-07-23',
    'gpt-5.3': '2026-08-10',
    ...on('2026-10-23', [
      'gpt-3.5-turbo',
      'gpt-3.5-turbo-1106',
      'gpt-4',
      'gpt-4-turbo',
      'gpt-4o-2024-05-13',
      'o1',
      'o1-pro',
      'o3-mini',
      'o4-mini',
      'gpt-4.1-nano',
    ]),
    ...on('2026-12-11', ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5-pro', 'o3', 'o3-pro']),
    ...on('2027-01-14', ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini']),
    ...on('2027-04-01', ['gpt-5.1', 'gpt-5.3-codex', 'gpt-5.4-nano']),
  },
  anthropic: {
    'claude-v1': '2024-11-06',
    'claude-2': '2025-07-21',
    'claude-3-sonnet': '2025-07-21',
    'claude-3-5-sonnet': '2025-10-22',
    'claude-3-opus-latest': '2026-01-05',
    'claude-3-7-sonnet-latest': '2026-02-19',
    'claude-3-5-haiku-latest': '2026-02-19',
    'claude-3-haiku': '2026-04-19',
    'claude-opus-4-0': '2026-06-15',
    'claude-sonnet-4-0': '2026-06-15',
    'claude-opus-4-1': '2026-08-05',
    'claude-sonnet-4-5': '2026-11-30',
    'claude-opus-4-5': '2027-01-22',
  },
  deepseek: { 'deepseek-chat': '2026-07-24', 'deepseek-reasoner': '2026-07-24' },
  xai: on('2026-05-15', [
    'grok-3',
    'grok-4-0709',
    'grok-4-fast-reasoning',
    'grok-4-fast-non-reasoning',
    'grok-4-1-fast-reasoning',
    'grok-4-1-fast-non-reasoning',
    'grok-code-fast-1',
  ]),
};

/** The day the provider announced the model stops being served, if it did. */
export const announcedRetirement = (provider: string, id: string): string | null =>
  ANNOUNCED_RETIREMENTS[provider]?.[id] ?? null;
