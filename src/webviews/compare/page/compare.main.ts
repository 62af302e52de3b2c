// Compare Models, browser side: one prompt, two to four models side by side, each column streaming
// and stoppable on its own; then promote a model in the Space after looking at the change as a diff,
// or save the comparison as a report. The host calls the service; this page renders and keeps state.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { z } from 'zod';
import type {
  CompareCalls,
  CompareEvent,
  CompareResults,
  CompareSpace,
  CompareStart,
  PromoteAction,
  Proposal,
  WeightName,
} from '../../../shared/protocol/compare';
import type { ModelBrief } from '../../../shared/protocol/playground';
import { fill, h, setValue, valueOf } from '../../page/dom';
import { placeholder } from '../../page/placeholder';
import { field, fillSelect, select, textfield } from '../../page/fields';
import { CallFailed, HostChannel } from '../../page/hostChannel';
import { t } from '../../page/l10n';
import { onMarkdownChange, renderMarkdown } from '../../page/markdown';
import { defaultToward, figuresLine, outcome, ownReply, savingLine, winners, type Column } from './figures';
import { LiveMarkdown } from '../../page/liveMarkdown';

const MAX_MODELS = 4;

interface State {
  appId: string | null;
  prompt: string;
  maxTokens: string;
  models: string[];
  /** The last comparison's columns, and the host's ids of their runs (for the report). */
  columns: Column[];
  callIds: number[];
}

const channel = new HostChannel<typeof CompareCalls, CompareResults, CompareEvent>();
const state: State = {
  appId: null,
  prompt: '',
  maxTokens: '',
  models: [],
  columns: [],
  callIds: [],
  ...channel.getState<State>(),
};
// A comparison cut short by a reload cannot go on: what arrived is kept, marked as interrupted.
for (const c of state.columns) if (!c.reply && !c.error) c.error = t('Interrupted when the window reloaded.');
let space: CompareSpace | null = null;
let catalogue: ModelBrief[] = [];
/** Each streaming column, by the id of its call. */
const live = new Map<number, { column: Column; view?: LiveMarkdown }>();

const spaceField = field('app_id', t('Space'), select([], ''));
const maxTokensField = field(
  'max_tokens',
  t('Max tokens'),
  textfield('', { type: 'number', min: '1', step: '1', placeholder: t('Space default') }),
  t('the same for every model'),
);
const promptField = field(
  'prompt',
  t('Prompt'),
  h('vscode-textarea', {
    rows: '5',
    resize: 'vertical',
    placeholder: t('The prompt every model gets. Ctrl+Enter compares.'),
  }),
);
const chips = h('div', { class: 'chips', role: 'list', 'aria-label': t('Models to compare') });
const addButton = h('vscode-button', { secondary: true }, t('Add Model…'));
const compareButton = h('vscode-button', { title: t('Compare (Ctrl+Enter)') }, t('Compare'));
const stopAllButton = h(
  'vscode-button',
  { secondary: true, hidden: true, title: t('Stop every model (Escape)') },
  t('Stop All'),
);
const reportButton = h(
  'vscode-button',
  { secondary: true, title: t('Write this comparison as a markdown report in the workspace') },
  t('Save Report'),
);
const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
const columnsRoot = h('section', { class: 'columns', 'aria-label': t('Replies') });
const proposalRoot = h('section', { class: 'proposal', hidden: true, 'aria-label': t('Changes to the Space') });
const spaceLine = h('div', { class: 'space-line hint' });

const say = (text: string) => (status.textContent = text);
const persist = () => channel.setState<State>(state);

async function call<K extends keyof CompareResults & string>(
  method: K,
  params: z.input<(typeof CompareCalls)[K]>,
): Promise<CompareResults[K] | undefined> {
  try {
    return await channel.call(method, params);
  } catch (error) {
    say(error instanceof CallFailed ? error.error.message : String(error));
    return undefined;
  }
}

function layout(): void {
  fill(
    document.getElementById('app')!,
    h('header', { class: 'toolbar' }, spaceField.row, maxTokensField.row),
    spaceLine,
    h(
      'div',
      { class: 'field' },
      h('vscode-label', {}, t('Models (2 to 4)')),
      h('div', { class: 'model-row' }, chips, addButton),
    ),
    promptField.row,
    h('div', { class: 'actions' }, compareButton, stopAllButton, reportButton, status),
    columnsRoot,
    proposalRoot,
  );
  document.getElementById('app')!.removeAttribute('aria-busy');
}

function showChips(): void {
  fill(
    chips,
    ...state.models.map((model) => {
      const remove = h(
        'button',
        { class: 'chip-remove', 'aria-label': t('Remove {0}', model), title: t('Remove') },
        '×',
      );
      remove.addEventListener('click', () => {
        state.models = state.models.filter((m) => m !== model);
        showChips();
        persist();
      });
      return h('span', { class: 'chip', role: 'listitem' }, model, remove);
    }),
    state.models.length ? null : h('span', { class: 'hint' }, t('No model yet: add two or more.')),
  );
  addButton.toggleAttribute('disabled', state.models.length >= MAX_MODELS);
  addButton.title =
    state.models.length >= MAX_MODELS
      ? t('A comparison takes up to 4 models.')
      : t('Choose a model, with its price, context window and capabilities');
}

async function addModel(): Promise<void> {
  const chosen = await call('pickModel', { appId: state.appId, current: state.models });
  if (!chosen || state.models.includes(chosen) || state.models.length >= MAX_MODELS) return;
  state.models.push(chosen);
  showChips();
  persist();
}

function describeSpace(): void {
  if (!space) return void (spaceLine.textContent = '');
  const parts = [
    space.benchmark ? t('Benchmark model: {0}', space.benchmark) : t('No benchmark model'),
    space.failover.length ? t('Failover: {0}', space.failover.join(' → ')) : t('No failover chain'),
    t('{0} active', space.active.length),
  ];
  spaceLine.textContent = parts.join(' · ');
}

async function loadSpace(): Promise<void> {
  if (!state.appId) return;
  const loaded = await call('space', { appId: state.appId });
  if (!loaded) return;
  space = loaded;
  describeSpace();
  if (!loaded.canChat)
    say(t('This token may not use the playground of this Space, so it cannot compare models there.'));
  // Fewer than two models chosen (opened on a Space, or from the playground with one): the Space's
  // active models make up three.
  if (state.models.length < 2) {
    state.models = [...new Set([...state.models, ...loaded.active])].slice(0, 3);
    showChips();
  }
  showColumns();
  persist();
}

// ------------------------------------------------------------------ running

function readForm(): void {
  state.appId = valueOf(spaceField.control) || null;
  state.prompt = valueOf(promptField.control);
  state.maxTokens = valueOf(maxTokensField.control).trim();
}

/** The request every column sends, or what is missing for it, in words. */
function check(): { ok: true; maxTokens: number | undefined } | { ok: false; message: string } {
  if (!state.appId) return { ok: false, message: t('Choose a Space first.') };
  if (state.models.length < 2) return { ok: false, message: t('Add at least two models to compare.') };
  if (!state.prompt.trim()) return { ok: false, message: t('Write the prompt to send to every model.') };
  if (!state.maxTokens) return { ok: true, maxTokens: undefined };
  const n = Number(state.maxTokens);
  if (!Number.isInteger(n) || n < 1) return { ok: false, message: t('Max tokens must be a whole number, 1 or more.') };
  return { ok: true, maxTokens: n };
}

async function compare(): Promise<void> {
  if (live.size) return;
  readForm();
  const checked = check();
  if (!checked.ok) return void say(checked.message);
  say('');
  hideProposal();
  const appId = state.appId!;
  const bodies = state.models.map((model) => ({
    app_id: appId,
    prompt: state.prompt,
    model,
    max_tokens: checked.maxTokens,
  }));
  // The spending limits, for the whole comparison at once: asked (or refused) before anything is sent.
  running(true);
  const allowed = await call('guard', { bodies });
  if (allowed === undefined) return running(false);
  state.columns = state.models.map((model) => ({
    model,
    benchmark: space?.benchmark ?? null,
    text: '',
    reply: null,
    error: null,
  }));
  state.callIds = [];
  showColumns();
  await Promise.all(
    state.columns.map(async (column, i) => {
      const body = bodies[i]!;
      let callId = -1;
      try {
        column.reply = await channel.call('run', { body }, (id) => {
          callId = id;
          state.callIds[i] = id;
          live.set(id, { column });
          showColumn(i);
        });
      } catch (error) {
        const failure =
          error instanceof CallFailed ? error.error : { message: String(error), fields: {}, cancelled: false };
        column.error = failure.cancelled ? t('Stopped.') : failure.message;
      } finally {
        live.delete(callId);
        // Each column is drawn as it finishes; the others' badges (cheapest, fastest) change with it.
        showColumns();
        persist();
      }
    }),
  );
  running(false);
  say(outcome(state.columns));
}

function running(on: boolean): void {
  compareButton.hidden = on;
  stopAllButton.hidden = !on;
  reportButton.toggleAttribute('disabled', on);
}

function stopAll(): void {
  for (const id of live.keys()) void call('stop', { callId: id });
}

// ------------------------------------------------------------------ columns

function showColumns(): void {
  columnsRoot.style.setProperty('--columns', String(Math.max(state.columns.length, 1)));
  if (state.columns.length === 0)
    return void fill(
      columnsRoot,
      h(
        'p',
        { class: 'empty' },
        t('Choose a Space, two to four models and a prompt, then Compare. Each model answers in its own column.'),
      ),
    );
  // Streaming columns keep their element (their live view draws into it); the others are drawn anew.
  const existing = [...columnsRoot.querySelectorAll<HTMLElement>('.column')];
  if (existing.length !== state.columns.length)
    fill(columnsRoot, ...state.columns.map(() => h('article', { class: 'column' })));
  state.columns.forEach((_, i) => showColumn(i));
}

function showColumn(i: number): void {
  const column = state.columns[i]!;
  const el = columnsRoot.querySelectorAll<HTMLElement>('.column')[i]!;
  const callId = state.callIds[i];
  const streaming = callId !== undefined && live.has(callId);
  const won = winners(state.columns);
  const badges = [
    space?.benchmark === column.model ? t('benchmark') : null,
    won.cheapest === column.model ? t('cheapest') : null,
    won.fastest === column.model ? t('fastest') : null,
  ].filter((b): b is string => !!b);
  const header = h('header', {}, h('h3', {}, column.model), ...badges.map((b) => h('span', { class: 'badge' }, b)));
  if (streaming) {
    const reply = el.querySelector<HTMLElement>('.reply');
    if (reply && el.dataset.live === String(callId)) return void el.querySelector('header')?.replaceWith(header);
    const stop = h('vscode-button', { secondary: true, 'aria-label': t('Stop {0}', column.model) }, t('Stop'));
    stop.addEventListener('click', () => void call('stop', { callId }));
    el.dataset.live = String(callId);
    const body = h('div', {
      class: 'reply markdown',
      'aria-busy': 'true',
      'aria-label': t('Reply of {0}', column.model),
    });
    fill(el, header, body, h('footer', { class: 'meta' }, t('Receiving the reply…'), ' ', stop));
    const entry = live.get(callId)!;
    entry.view = new LiveMarkdown(body);
    if (column.text) entry.view.update(column.text);
    return;
  }
  delete el.dataset.live;
  const body = h('div', { class: 'reply markdown', 'aria-label': t('Reply of {0}', column.model) });
  fill(body, renderMarkdown(column.reply?.content ?? column.text));
  const footer = column.reply
    ? h(
        'footer',
        { class: 'meta' },
        h('div', { class: 'figures' }, figuresLine(column.reply)),
        savingElement(column),
        column.reply.namespace !== column.model
          ? h('div', { class: 'warning' }, t('Answered by {0}: {1} failed.', column.reply.namespace, column.model))
          : null,
        placeholder(column.reply.namespace),
      )
    : column.error
      ? h('footer', { class: column.error === t('Stopped.') ? 'meta' : 'meta error', role: 'alert' }, column.error)
      : h('footer', { class: 'meta' }, t('Not run yet.'));
  // A model is promoted on what it answered itself, never on a reply another model gave in its place.
  fill(
    el,
    header,
    body,
    footer,
    ownReply(column) ? promoteControls(column.model, defaultToward(column.model, won)) : null,
  );
}

/** The saving as the service counted it, against the benchmark model of the time the column ran. */
function savingElement(column: Column): HTMLElement | null {
  const line = column.reply && savingLine(column.reply, column.benchmark ?? null);
  return line ? h('div', { class: 'saving' }, line) : null;
}

// ------------------------------------------------------------------ promote

const ACTIONS: Array<{ value: PromoteAction; label: () => string }> = [
  { value: 'benchmark', label: () => t('Make it the benchmark model') },
  { value: 'failover', label: () => t('Put it in the failover chain') },
  { value: 'only', label: () => t('Make it the only active model') },
  { value: 'weights', label: () => t('Shift the weights toward…') },
];

function promoteControls(model: string, toward: WeightName): HTMLElement {
  const action = select(
    ACTIONS.map((a) => ({ value: a.value, label: a.label() })),
    'benchmark',
    { 'aria-label': t('How to promote {0}', model) },
  );
  const detail = h('div', { class: 'detail' });
  const position = () => {
    const slots = (space?.failover.filter((m) => m !== model).length ?? 0) + 1;
    return select(
      Array.from({ length: slots }, (_, i) => ({
        value: String(i + 1),
        label: i + 1 === slots ? t('position {0} (last)', i + 1) : t('position {0}', i + 1),
      })),
      String(slots),
      { 'aria-label': t('Position in the failover chain') },
    );
  };
  const weight = () =>
    select(
      (['cost', 'latency', 'quality'] as const).map((w) => ({
        value: w,
        label: { cost: t('cost'), latency: t('latency'), quality: t('quality') }[w],
      })),
      toward,
      { 'aria-label': t('Weight to shift toward') },
    );
  const showDetail = () => {
    const chosen = valueOf(action) as PromoteAction;
    fill(detail, chosen === 'failover' ? position() : chosen === 'weights' ? weight() : null);
  };
  action.addEventListener('change', showDetail);
  const show = h(
    'vscode-button',
    {
      secondary: true,
      disabled: space ? !space.canEdit : true,
      title: space?.canEdit
        ? t('Shows the change to the Space before anything is saved')
        : t('This token may not edit the Space'),
    },
    t('Show Changes…'),
  );
  show.addEventListener('click', () => {
    const chosen = valueOf(action) as PromoteAction;
    const extra = detail.firstElementChild;
    void propose(
      model,
      chosen,
      chosen === 'failover' ? Number(valueOf(extra)) : null,
      chosen === 'weights' ? (valueOf(extra) as WeightName) : null,
    );
  });
  return h(
    'div',
    { class: 'promote', role: 'group', 'aria-label': t('Promote {0} in the Space', model) },
    h('span', { class: 'label' }, t('Promote:')),
    action,
    detail,
    show,
  );
}

async function propose(
  model: string,
  action: PromoteAction,
  position: number | null,
  toward: WeightName | null,
): Promise<void> {
  if (!state.appId) return;
  const proposal = await call('propose', { appId: state.appId, model, action, position, toward });
  if (proposal) showProposal(proposal);
}

function showProposal(p: Proposal): void {
  const save = h('vscode-button', {}, t('Save to Space'));
  const cancel = h('vscode-button', { secondary: true }, t('Cancel'));
  const settings = h(
    'vscode-button',
    { secondary: true, title: t('Open the Space settings editor') },
    t('Open Space Settings'),
  );
  save.addEventListener('click', () => void promote(p.id));
  cancel.addEventListener('click', hideProposal);
  settings.addEventListener('click', () => state.appId && void call('openSettings', { appId: state.appId }));
  const rows = p.rows.map((r) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, r.label),
      h('td', { class: 'before' }, r.before),
      h('td', { class: 'after' }, r.after),
    ),
  );
  fill(
    proposalRoot,
    h('h3', {}, p.title),
    h(
      'table',
      { class: 'diff', 'aria-label': t('Changes to the Space') },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('Now')), h('th', { scope: 'col' }, t('After saving'))),
      ),
      h('tbody', {}, ...rows),
    ),
    p.note ? h('p', { class: 'hint' }, p.note) : null,
    h('p', { class: 'hint' }, t('Nothing is saved until you choose Save to Space.')),
    h('div', { class: 'buttons' }, save, cancel, settings),
  );
  proposalRoot.hidden = false;
  proposalRoot.scrollIntoView({ block: 'nearest' });
  save.focus();
}

function hideProposal(): void {
  proposalRoot.hidden = true;
  fill(proposalRoot);
}

async function promote(id: number): Promise<void> {
  const saved = await call('promote', { proposalId: id });
  if (!saved) return;
  hideProposal();
  space = saved.space;
  describeSpace();
  showColumns();
  say(saved.message);
}

async function report(): Promise<void> {
  const callIds = state.callIds.filter((id) => id !== undefined);
  if (callIds.length === 0) return void say(t('Nothing to report yet: compare first.'));
  const where = await call('report', { callIds });
  if (where) say(t('Report saved: {0}', where));
}

// ------------------------------------------------------------------ start

/** Takes what a command brought; answers whether the Space or the models changed (to load the Space). */
function applyStart(start: CompareStart): boolean {
  if (start.prompt) {
    state.prompt = start.prompt;
    setValue(promptField.control, start.prompt);
  }
  if (start.models.length) state.models = [...new Set(start.models)].slice(0, MAX_MODELS);
  const newSpace = start.appId && start.appId !== state.appId;
  if (start.appId) {
    state.appId = start.appId;
    setValue(spaceField.control, start.appId);
  }
  // A Space chosen without models: its own active models (loadSpace fills them in).
  if (newSpace && !start.models.length) state.models = [];
  showChips();
  persist();
  return !!newSpace || start.models.length > 0;
}

function wire(): void {
  spaceField.control.addEventListener('change', () => {
    readForm();
    persist();
    void loadSpace();
  });
  promptField.control.addEventListener('input', () => (readForm(), persist()));
  maxTokensField.control.addEventListener('input', () => (readForm(), persist()));
  addButton.addEventListener('click', () => void addModel());
  compareButton.addEventListener('click', () => void compare());
  stopAllButton.addEventListener('click', stopAll);
  reportButton.addEventListener('click', () => void report());
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void compare();
    } else if (e.key === 'Escape' && live.size) stopAll();
  });
  onMarkdownChange(() => showColumns());
}

channel.onEvent((event) => {
  if (event.type === 'delta') {
    const column = live.get(event.callId);
    if (!column) return;
    column.column.text += event.content;
    column.view?.update(column.column.text);
  } else if (event.type === 'start') applyStart(event.start);
  else if (event.type === 'connected') void loadContext();
});

async function loadContext(): Promise<void> {
  const context = await call('context', {});
  if (!context) return;
  catalogue = context.models;
  if (!state.appId || !context.spaces.some((s) => s.id === state.appId)) state.appId = context.spaces[0]?.id ?? null;
  fillSelect(
    spaceField.control,
    context.spaces.map((s) => ({ value: s.id, label: s.name })),
    state.appId ?? '',
  );
  if (context.spaces.length === 0) say(t('There is no Space yet: create one in the Spaces view.'));
  // Models the catalogue no longer has are dropped, and said so.
  const gone = state.models.filter((m) => !catalogue.some((c) => c.namespace === m));
  if (gone.length) {
    state.models = state.models.filter((m) => !gone.includes(m));
    say(t('Not in the catalogue any more: {0}.', gone.join(', ')));
  }
  if (context.start) applyStart(context.start);
  showChips();
  await loadSpace();
}

function start(): void {
  layout();
  wire();
  setValue(promptField.control, state.prompt);
  setValue(maxTokensField.control, state.maxTokens);
  showChips();
  showColumns();
  channel.ready();
  void loadContext();
}

start();
