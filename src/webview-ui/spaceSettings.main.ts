// The Space settings editor, browser side: a form for every field of PUT /v1/apps/update. It tells the
// host whenever the edits differ from what it loaded (for the close prompt) and keeps them in the
// webview state, so a reload brings them back.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { SpaceUpdateResponse } from '../api/schemas';
import type { SaveResult, SpaceChanges, SpaceEditorData, SpaceSettingsCalls, SpaceSettingsEvent, SpaceSettingsResults } from '../shared/protocol';
import { checkRules } from '../shared/rules';
import { fill, h, setValue } from './dom';
import { markFields, type Field } from './fields';
import { CallFailed, HostChannel } from './hostChannel';
import { FailoverList } from './spaceSettings/failoverList';
import { buildControl, readControl } from './spaceSettings/settingsControls';
import { SECTIONS, SPECS, changesBetween, valuesOf } from './spaceSettings/settingsSpecs';
import { viewSummary } from './spaceSettings/viewSummary';

interface Saved {
  spaceId: string;
  draft: SpaceChanges | null;
}

const channel = new HostChannel<typeof SpaceSettingsCalls, SpaceSettingsResults, SpaceSettingsEvent>();
const app = document.getElementById('app')!;
const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
let data: SpaceEditorData;
let baseline: ReturnType<typeof valuesOf> = {};
let fields: Field[] = [];
let failover: FailoverList;
let readOnly = false;
let lastDirty = false;

const say = (text: string) => (status.textContent = text);
const currentValues = () => Object.fromEntries(SPECS.map((spec, i) => [spec.path, readControl(spec, fields[i]!.control)]));
const diff = () => changesBetween(baseline, currentValues(), { base: failover.initial, now: failover.ids });

function render(view: SpaceUpdateResponse, draft: SpaceChanges | null): void {
  const space = view.main.app;
  readOnly = !view.main.current_user_permissions.includes('edit');
  baseline = valuesOf(space, null);
  const values = valuesOf(space, draft);
  fields = SPECS.map((spec) => buildControl(spec, values[spec.path] ?? null, data, values));
  failover = new FailoverList(view.main.failover_models, data.models, draft?.failover_model_ids ?? null, changed);
  const byPath = new Map(fields.map((f) => [f.path, f]));
  const sections = SECTIONS.map((section) =>
    h('section', { class: 'group', 'aria-label': section.title }, h('h2', {}, section.title), ...section.specs.map((spec) => byPath.get(spec.path)!.row), section.title === 'Failover chain' ? failover.element : null),
  );
  const logo = byPath.get('app_logo')!;
  const choose = h('vscode-button', { secondary: true }, 'Choose Image…');
  choose.addEventListener('click', () => void chooseLogo(logo));
  logo.row.insertBefore(choose, logo.error);
  const save = h('vscode-button', { title: 'Save (Ctrl+S)' }, 'Save');
  save.addEventListener('click', () => void saveChanges());
  const revert = h('vscode-button', { secondary: true }, 'Revert');
  revert.addEventListener('click', () => render(view, null));
  fill(
    app,
    h('header', { class: 'title' }, h('h1', {}, space.name ?? space.id), h('span', { class: 'id' }, space.id)),
    readOnly ? h('div', { class: 'banner', role: 'note' }, 'Read-only: this token does not have the edit permission on this Space.') : null,
    viewSummary(view, (id) => void channel.call('openSpace', { spaceId: id })),
    h('form', { class: 'settings', 'aria-label': 'Space settings' }, ...sections),
    readOnly ? null : h('div', { class: 'actions' }, save, revert),
    status,
  );
  app.removeAttribute('aria-busy');
  if (readOnly) for (const f of fields) f.control.setAttribute('disabled', '');
  if (readOnly) failover.disable();
  for (const f of fields) f.control.addEventListener(f.control.tagName === 'VSCODE-TEXTFIELD' || f.control.tagName === 'VSCODE-TEXTAREA' ? 'input' : 'change', changed);
  fields.find((f) => f.path === 'settings.assistant_id')!.control.addEventListener('change', () => render(view, diff().changes));
  changed();
}

/** Recomputes what changed, tells the host (for the close prompt) and keeps it for a reload. */
function changed(): void {
  const { changes, dirty } = diff();
  channel.setState<Saved>({ spaceId: data.view.main.app.id, draft: dirty ? changes : null });
  if (dirty !== lastDirty || dirty) void channel.call('setDirty', { dirty, changes }).catch(() => undefined);
  lastDirty = dirty;
  say(dirty ? 'Unsaved changes.' : '');
}

async function saveChanges(): Promise<void> {
  if (readOnly) return;
  const { changes, dirty } = diff();
  if (!dirty) return void say('Nothing to save.');
  const errors = checkRules(data.rules, changes);
  if (Object.keys(errors).length) {
    const rest = markFields(fields, errors);
    return void say(rest.length ? rest.join('; ') : 'Some fields are not valid.');
  }
  say('Saving…');
  let result: SaveResult;
  try {
    result = await channel.call('save', { changes, baseModifiedOn: data.view.main.app.modified_on ?? null });
  } catch (error) {
    const failure = error instanceof CallFailed ? error.error : { message: String(error), fields: {} };
    const rest = markFields(fields, failure.fields);
    return void say(Object.keys(failure.fields).length ? `Not saved: ${rest.length ? rest.join('; ') : 'see the marked fields.'}` : failure.message);
  }
  if (result.kind === 'cancelled') return void say('Not saved.');
  data = { ...data, view: result.view, draft: null };
  lastDirty = true;
  render(result.view, null);
  say(result.kind === 'saved' ? `Saved at ${new Date().toLocaleTimeString()}.` : 'Reloaded the version saved elsewhere; your changes were discarded.');
}

async function chooseLogo(logo: Field): Promise<void> {
  try {
    const url = await channel.call('chooseLogo', {});
    if (!url) return;
    setValue(logo.control, url);
    changed();
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
  }
}

async function load(): Promise<void> {
  try {
    data = await channel.call('load', {});
  } catch (error) {
    fill(app, h('div', { class: 'banner error', role: 'alert' }, error instanceof Error ? error.message : String(error)));
    return;
  }
  const saved = channel.getState<Saved>();
  render(data.view, data.draft ?? (saved?.spaceId === data.view.main.app.id ? saved.draft : null));
}

document.addEventListener('keydown', (e) => {
  if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    void saveChanges();
  }
});
channel.onEvent((event) => {
  if (event.type === 'reload') void load();
});
channel.ready();
void load();
