// The playground chat, browser side. Everything that needs the service goes through the host; this
// page renders, checks the form, and keeps its state with VS Code across hiding and reloads.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { z } from 'zod';
import type {
  Attachment,
  PlaygroundCalls,
  PlaygroundEvent,
  PlaygroundResults,
  SpaceBrief,
  Turn,
} from '../../../shared/protocol/playground';
import { fill, h, setValue, valueOf } from '../../page/dom';
import { markFields } from '../../page/fields';
import { CallFailed, HostChannel } from '../../page/hostChannel';
import { conversationName } from '../../../shared/conversationName';
import { acceptDrops } from './dropTarget';
import { cannotAnswerNote, describeBand, describeEstimate, estimateTokens } from './estimate';
import { PlaygroundForm, initialState, type PlaygroundState } from './playgroundForm';
import { Transcript, type LiveTurn } from './transcript';
import { t } from '../../page/l10n';

type Saved = PlaygroundState & { turns: Turn[] };

const channel = new HostChannel<typeof PlaygroundCalls, PlaygroundResults, PlaygroundEvent>();
const saved = channel.getState<Saved>();
const state: PlaygroundState = { ...initialState(), ...saved };
let turns: Turn[] = saved?.turns ?? [];
let space: SpaceBrief | null = null;
let streaming: { callId: number; turn: LiveTurn } | null = null;

const form = new PlaygroundForm(state);
const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
const estimate = h('div', { class: 'estimate', 'aria-live': 'polite' });
const sendButton = h('vscode-button', { title: t('Send (Ctrl+Enter)') }, t('Send'));
const stopButton = h('vscode-button', { secondary: true, hidden: true, title: t('Stop (Escape)') }, t('Stop'));
const renameButton = h('vscode-button', { secondary: true, title: t('Rename the conversation') }, t('Rename…'));
const newButton = h('vscode-button', { secondary: true, title: t('Start a new conversation') }, t('New Chat'));
const renameBox = h('div', { class: 'rename', hidden: true });
const chooseModelButton = h(
  'vscode-button',
  {
    secondary: true,
    class: 'choose-model',
    title: t('Choose a model, with its price, context window and capabilities'),
  },
  t('Choose…'),
);
const attachImage = h('vscode-button', { secondary: true }, t('Attach Image…'));
const compareButton = h(
  'vscode-button',
  { secondary: true, title: t('Send this prompt to two to four models side by side') },
  t('Compare Models…'),
);
const transcript = new Transcript(h('section', { class: 'transcript', role: 'log', 'aria-label': t('Conversation') }), {
  code: (action, code) =>
    void call('codeAction', { action, code }).then(() => action === 'copy' && sayBriefly(t('Copied.'))),
  link: (href) => void call('openLink', { href }),
  costOf: (text) => {
    const model = form.chosenModel();
    return model && (model.byCharacters ? text.length : estimateTokens(text)) * model.completionCost;
  },
});

const persist = () => {
  channel.setState<Saved>({ ...state, turns, images: small(state.images), files: small(state.files) });
  document.getElementById('app')!.classList.toggle('has-draft', state.prompt.trim() !== '');
  // Rename is for a conversation that exists: not before the first prompt of a new one.
  renameButton.toggleAttribute('disabled', !state.conversation);
  renameButton.title = state.conversation
    ? t('Rename “{0}”', state.conversation.name)
    : t('A new conversation gets its name from its first prompt; rename it after that.');
};
/** Attachments survive a reload only while small: VS Code keeps webview state in memory. */
const small = (list: Attachment[]) => (list.reduce((n, a) => n + a.dataUrl.length, 0) < 4_000_000 ? list : []);
const say = (text: string) => (status.textContent = text);
/** A word that is true only for a moment ("Copied."): gone after a few seconds unless replaced. */
function sayBriefly(text: string): void {
  say(text);
  setTimeout(() => status.textContent === text && say(''), 3000);
}

async function call<K extends keyof PlaygroundResults & string>(
  method: K,
  params: z.input<(typeof PlaygroundCalls)[K]>,
  onId?: (id: number) => void,
): Promise<PlaygroundResults[K] | undefined> {
  try {
    return await channel.call(method, params, onId);
  } catch (error) {
    const failure = error instanceof CallFailed ? error.error : { message: String(error), fields: {} };
    const rest = markFields(form.all, failure.fields);
    say(Object.keys(failure.fields).length ? (rest.length ? rest.join('; ') : failure.message) : failure.message);
    return undefined;
  }
}

/** VS Code's quick pick of models: prices, context windows, what is active, what cannot answer here. */
async function chooseModel(): Promise<void> {
  const chosen = await call('pickModel', { appId: state.appId, current: state.model });
  if (chosen === null || chosen === undefined) return;
  setValue(form.model.control, chosen);
  form.read();
  refreshEstimate();
  persist();
}

function layout(): void {
  form.model.row.insertBefore(chooseModelButton, form.model.error);
  const options = h(
    'vscode-collapsible',
    { title: t('Options'), class: 'options' },
    h(
      'div',
      { class: 'grid' },
      ...[
        form.temperature,
        form.maxTokens,
        form.assistant,
        form.version,
        form.parent,
        form.plugins,
        form.webSearch,
      ].map((f) => f.row),
    ),
  );
  const attach = (kind: 'images' | 'files', b: HTMLElement) => {
    b.addEventListener('click', () => void call('attach', { kind }).then((list) => list && addAttachments(kind, list)));
    return b;
  };
  fill(
    document.getElementById('app')!,
    h(
      'header',
      { class: 'toolbar' },
      form.space.row,
      form.model.row,
      form.conversation.row,
      h('div', { class: 'buttons' }, renameButton, newButton),
      renameBox,
    ),
    options,
    transcript.root,
    h(
      'section',
      { class: 'composer', 'aria-label': t('New prompt') },
      form.prompt.row,
      form.images.row,
      form.files.row,
      h(
        'div',
        { class: 'actions' },
        estimate,
        attach('images', attachImage),
        attach('files', h('vscode-button', { secondary: true }, t('Attach File…'))),
        compareButton,
        stopButton,
        sendButton,
      ),
      status,
    ),
  );
  document.getElementById('app')!.removeAttribute('aria-busy');
}

function showAttachments(): void {
  form.showAttachments(showAttachments);
  // What is attached goes with the prompt: the cost band counts it.
  refreshEstimate();
  persist();
}

function addAttachments(kind: 'images' | 'files', list: Attachment[]): void {
  state[kind].push(...list);
  showAttachments();
}

/** Images go only to a model that reads them (or to routing, which picks one that does). */
function refreshVision(): void {
  const model = form.chosenModel();
  const blind = !!model && !model.vision;
  attachImage.toggleAttribute('disabled', blind);
  attachImage.title = blind ? t('{0} cannot read images', model.namespace) : t('Attach PNG, JPEG, GIF or WebP images');
}

let bandTimer: ReturnType<typeof setTimeout> | undefined;
let bandAsked = 0;

/**
 * The estimate under the prompt box: at once from the page's own reckoning, then (a moment after the
 * last keystroke) the service's cost band for the request as it would be sent, earlier turns counted.
 */
function refreshEstimate(): void {
  refreshVision();
  const active = space ? form.modelsNamed(space.activeModels) : [];
  showEstimate(state.prompt ? describeEstimate(state.prompt, form.chosenModel(), active) : '');
  clearTimeout(bandTimer);
  const asked = ++bandAsked;
  if (state.prompt.trim() && state.appId) bandTimer = setTimeout(() => void askBand(asked), 400);
}

async function askBand(asked: number): Promise<void> {
  const check = form.body(state.conversation?.id ?? null);
  if (!check.ok) return;
  const answer = await channel.call('costBand', { body: check.body }).catch(() => null);
  if (!answer || asked !== bandAsked) return;
  if (answer.refused) {
    const file = answer.refusedFile === undefined ? undefined : [...state.images, ...state.files][answer.refusedFile];
    showEstimate('', t('{0}. Sending it as it is would be refused.', aboutFile(file, answer.refused)));
  } else if (answer.band) showEstimate(describeBand(answer.band));
}

/** The estimate, with a warning first when the chosen model cannot answer here or the service would refuse it. */
function showEstimate(text: string, refused?: string): void {
  const warning = refused ?? (text ? cannotAnswerNote(form.chosenModel()) : null);
  estimate.classList.toggle('warning', !!warning);
  estimate.textContent = warning ? [`⚠ ${warning}`, text].filter(Boolean).join(' ') : text;
}

async function loadSpace(): Promise<void> {
  if (!state.appId) return;
  const brief = await call('space', { appId: state.appId });
  if (!brief) return;
  space = brief;
  form.setSpace(brief);
  if (!brief.canChat) say(t('This token may not use the playground of this Space.'));
  refreshEstimate();
}

/** What is said of an attached file, after its name ("broken.pdf: This PDF cannot be read…"). */
const aboutFile = (file: Attachment | undefined, message: string) =>
  file ? t('{0}: {1}', file.name, message) : message;

/** The path of a field error about an attached file: `files[1]`, `images[0].data`… */
const ATTACHMENT_FIELD = /^(images|files)\[(\d+)\]/;

/** Field errors about attached files, each after the file's name. */
function namingAttachments(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([path, message]) => {
      const at = ATTACHMENT_FIELD.exec(path);
      return [path, aboutFile(at ? state[at[1] as 'images' | 'files'][Number(at[2])] : undefined, message)];
    }),
  );
}

/** Whether the status line is about field errors (so that fixing them clears it). */
let fieldsStatus = false;

/**
 * Checks the typed fields as the user types: temperature and max tokens always, any other field only
 * if it shows an error from Send (so that fixing it clears it, and an untouched prompt is not nagged).
 */
function checkAsTyped(): void {
  form.read();
  const check = form.body(state.conversation?.id ?? null);
  const errors = check.ok ? {} : check.errors;
  const shown = new Set(form.all.filter((f) => f.error.textContent).map((f) => f.path));
  const live = Object.fromEntries(
    Object.entries(errors).filter(
      ([path]) => ['temperature', 'max_tokens'].includes(path) || shown.has(path.split(/[.[]/)[0]!),
    ),
  );
  const rest = markFields(form.all, live);
  if (fieldsStatus && Object.keys(live).length === 0) {
    say('');
    fieldsStatus = false;
  } else if (rest.length) say(rest.join('; '));
}

async function send(): Promise<void> {
  if (streaming) return;
  form.read();
  const check = form.body(state.conversation?.id ?? null);
  if (!check.ok) {
    const rest = markFields(form.all, check.errors);
    say(rest.length ? rest.join('; ') : t('Some fields need attention.'));
    fieldsStatus = true;
    return;
  }
  markFields(form.all, {});
  say('');
  // The first prompt of a new conversation names it; the host makes it once the send may go (the
  // 'conversation' event), so a prompt refused or not sent leaves no empty conversation.
  const firstAnswer = !turns.some((turn) => turn.reply);
  const newConversation =
    !state.conversation && state.appId && firstAnswer ? conversationName(state.prompt) : undefined;
  const body = { ...check.body, conversation_id: state.conversation?.id ?? undefined };
  const prompt = state.prompt;
  const attached = [...state.images, ...state.files].map((a) => a.name);
  const live = transcript.start(prompt, attached);
  sending(true);
  let callId = -1;
  try {
    const reply = await channel.call('send', { body, newConversation }, (id) => {
      callId = id;
      streaming = { callId: id, turn: live };
    });
    live.finish(reply);
    turns.push({ prompt, attached, reply, error: null, thought: live.thought });
    state.parentRequestId = reply.id;
    form.showReplies(turns, reply.id);
    state.prompt = '';
    setValue(form.prompt.control, '');
    state.images = [];
    state.files = [];
    showAttachments();
  } catch (error) {
    const failure = error instanceof CallFailed ? error.error : { message: String(error), fields: {} };
    const fields = namingAttachments(failure.fields);
    // What the service refused is said in the turn's own line, as it said it (a refused file by its name:
    // the Files field is cleared on the next send), not framed as an error of the input.
    const refusals = Object.values(fields).map((m) => (/[.!?]$/.test(m) ? m : `${m}.`));
    const message = refusals.length ? t('Not sent. {0}', refusals.join(' ')) : failure.message;
    live.fail(message, !!failure.cancelled);
    turns.push({
      prompt,
      attached,
      reply: null,
      error: failure.cancelled ? t('Stopped.') : message,
      thought: live.thought,
    });
    const rest = markFields(form.all, fields);
    if (rest.length) say(rest.join('; '));
  } finally {
    streamEnded(callId);
    sending(false);
    refreshEstimate();
    persist();
  }
}

function streamEnded(callId: number): void {
  if (streaming?.callId === callId) streaming = null;
}

function sending(on: boolean): void {
  sendButton.hidden = on;
  stopButton.hidden = !on;
  if (!on) (form.prompt.control as HTMLElement).focus();
}

function stop(): void {
  if (streaming) void call('stop', { callId: streaming.callId });
}

async function chooseConversation(id: string): Promise<void> {
  if (!state.appId) return;
  if (!id) return newChat();
  // Its own name: from the Space's list, else as its option shows it (never the one open before).
  const option = [...form.conversation.control.querySelectorAll('vscode-option')].find(
    (o) => o.getAttribute('value') === id,
  );
  const name = space?.conversations.find((c) => c.id === id)?.name ?? option?.textContent?.trim() ?? '';
  await showConversation({ id, name });
}

/** A conversation of the chosen Space, its turns read from the service. */
async function showConversation(conversation: { id: string; name: string }): Promise<void> {
  if (!state.appId) return;
  const loaded = await call('loadConversation', { appId: state.appId, conversationId: conversation.id });
  if (!loaded) return;
  state.conversation = conversation;
  turns = loaded.turns;
  const last = [...turns].reverse().find((t) => t.reply)?.reply;
  state.parentRequestId = last?.id ?? '';
  form.showReplies(turns, state.parentRequestId);
  transcript.show(turns, loaded.notice);
  // Chosen in the conversation field too (opened from the Spaces view, it may not be listed yet).
  if (space) form.setSpace(space);
  persist();
}

/** Another Space chosen from outside the panel: a new chat on it. */
async function useSpace(appId: string): Promise<void> {
  if (appId === state.appId) return;
  state.appId = appId;
  setValue(form.space.control, appId);
  newChat();
  await loadSpace();
}

/** A conversation opened from the Spaces view: its Space first, if another is chosen. */
async function openConversation(appId: string, conversation: { id: string; name: string }): Promise<void> {
  await useSpace(appId);
  await showConversation(conversation);
}

function newChat(): void {
  state.conversation = null;
  state.parentRequestId = '';
  turns = [];
  form.showReplies(turns, '');
  transcript.show(turns);
  if (space) form.setSpace(space);
  persist();
}

function startRename(): void {
  const conversation = state.conversation;
  if (!conversation || !state.appId) {
    say(t('Send a first prompt, or choose a conversation, to rename it.'));
    return;
  }
  const appId = state.appId;
  const input = h('vscode-textfield', { 'aria-label': t('New name of the conversation') });
  setValue(input, conversation.name);
  const save = h('vscode-button', {}, t('Save'));
  const cancel = h('vscode-button', { secondary: true }, t('Cancel'));
  const close = () => {
    renameBox.hidden = true;
    renameButton.focus();
  };
  const commit = async () => {
    const renamed = await call('renameConversation', { appId, conversationId: conversation.id, name: valueOf(input) });
    if (!renamed) return;
    state.conversation = renamed;
    if (space) space = { ...space, conversations: space.conversations.map((c) => (c.id === renamed.id ? renamed : c)) };
    if (space) form.setSpace(space);
    persist();
    close();
  };
  save.addEventListener('click', () => void commit());
  cancel.addEventListener('click', close);
  input.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter') void commit();
    if ((e as KeyboardEvent).key === 'Escape') close();
  });
  fill(renameBox, input, save, cancel);
  renameBox.hidden = false;
  input.focus();
}

function wire(): void {
  form.space.control.addEventListener('change', () => {
    form.read();
    newChat();
    void loadSpace();
  });
  form.model.control.addEventListener('change', () => (form.read(), refreshEstimate(), persist()));
  chooseModelButton.addEventListener('click', () => void chooseModel());
  form.conversation.control.addEventListener(
    'change',
    () => void chooseConversation(valueOf(form.conversation.control)),
  );
  form.assistant.control.addEventListener('change', () => {
    form.read();
    if (space) form.setVersions(space);
    persist();
  });
  for (const f of [form.temperature, form.parent]) f.control.addEventListener('change', () => (form.read(), persist()));
  // What the request may cost moves with these: the longest reply, the version's instructions, a search.
  for (const f of [form.maxTokens, form.version, form.plugins, form.webSearch])
    f.control.addEventListener('change', () => (form.read(), refreshEstimate(), persist()));
  for (const f of [form.temperature, form.maxTokens, form.plugins]) f.control.addEventListener('input', checkAsTyped);
  form.prompt.control.addEventListener(
    'input',
    () => (form.read(), refreshEstimate(), persist(), fieldsStatus && checkAsTyped()),
  );
  sendButton.addEventListener('click', () => void send());
  compareButton.addEventListener('click', () => {
    form.read();
    void call('compare', { appId: state.appId, prompt: state.prompt, models: state.model ? [state.model] : [] });
  });
  stopButton.addEventListener('click', stop);
  renameButton.addEventListener('click', startRename);
  newButton.addEventListener('click', newChat);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    } else if (e.key === 'Escape' && streaming) stop();
  });
  acceptDrops(document.getElementById('app')!, {
    files: addAttachments,
    uris: (kind, uris) => void call('attachUris', { kind, uris }).then((list) => list && addAttachments(kind, list)),
    say,
  });
}

channel.onEvent((event) => {
  if (event.type === 'delta') {
    if (streaming?.callId === event.callId) streaming.turn.append(event.content, event.at);
  } else if (event.type === 'thinking') {
    if (streaming?.callId === event.callId) streaming.turn.think(event.content);
  } else if (event.type === 'stage') {
    if (streaming?.callId === event.callId) streaming.turn.stage(event.stage);
  } else if (event.type === 'conversation') {
    if (streaming?.callId === event.callId && state.appId === event.appId && !state.conversation) {
      state.conversation = event.conversation;
      if (space) form.setSpace({ ...space, conversations: [event.conversation, ...space.conversations] });
      persist();
    }
  } else if (event.type === 'draft') {
    form.read();
    state.prompt = state.prompt.trim() ? `${state.prompt.trimEnd()}\n\n${event.prompt}` : event.prompt;
    setValue(form.prompt.control, state.prompt);
    if (event.appId && !state.appId) {
      state.appId = event.appId;
      void loadSpace();
    }
    refreshEstimate();
    persist();
    (form.prompt.control as HTMLElement).focus();
  } else if (event.type === 'connected') {
    void loadContext();
  } else if (event.type === 'models') {
    // Not read from the form first: the model field may not be filled yet (a window reloading), and
    // the state (the model chosen) is what it is filled from.
    form.setModels(event.models);
    refreshEstimate();
  } else if (event.type === 'useSpace') {
    void useSpace(event.appId);
  } else if (event.type === 'useConversation') {
    void openConversation(event.appId, event.conversation);
  } else if (event.type === 'useModel') {
    // Kept in the state too: the model list may not be filled yet, and picks it from there.
    state.model = event.namespace;
    setValue(form.model.control, event.namespace);
    refreshEstimate();
    persist();
  }
});

async function start(): Promise<void> {
  layout();
  wire();
  setValue(form.prompt.control, state.prompt);
  setValue(form.temperature.control, state.temperature);
  setValue(form.maxTokens.control, state.maxTokens);
  form.showReplies(turns, state.parentRequestId);
  setValue(form.plugins.control, state.plugins);
  transcript.show(turns);
  showAttachments();
  channel.ready();
  await loadContext();
}

/** The Spaces and the catalogue; again whenever the host says the service is reachable. */
async function loadContext(): Promise<void> {
  const context = await call('context', {});
  if (!context) return;
  say('');
  if (!state.appId || !context.spaces.some((s) => s.id === state.appId))
    state.appId = context.spaces[0]?.id ?? state.appId;
  if (context.spaces.length === 0)
    say(
      context.spacesListed
        ? t('There is no Space yet: create one in the Spaces view.')
        : t('Add a Space by id in the Spaces view first.'),
    );
  form.setContext(context);
  await loadSpace();
  persist();
}

void start();
