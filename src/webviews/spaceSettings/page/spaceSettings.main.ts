// The Space settings editor, browser side: a form for every field of PUT /v1/apps/update. It tells the
// host whenever the edits differ from what it loaded; the host's document keeps them, and VS Code
// does the rest (dirty mark, Save, Revert, the prompt on close, hot exit).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { SpaceUpdateResponse } from '../../../api/schemas';
import type { CallError } from '../../../shared/protocol/envelope';
import type {
  SpaceDraft,
  SpaceEditorData,
  SpaceSettingsCalls,
  SpaceSettingsEvent,
  SpaceSettingsResults,
} from '../../../shared/protocol/spaceSettings';
import { checkRules } from '../../../shared/rules';
import { fill, h, setValue } from '../../page/dom';
import { markFields, type Field } from '../../page/fields';
import { CallFailed, HostChannel } from '../../page/hostChannel';
import { FailoverList } from './failoverList';
import { buildControl, readControl } from './settingsControls';
import { SECTIONS, SPECS, changesBetween, valuesOf } from './settingsSpecs';
import { viewSummary } from './viewSummary';
import { t } from '../../page/l10n';
import { timeLabel } from '../../../shared/labels';

const channel = new HostChannel<typeof SpaceSettingsCalls, SpaceSettingsResults, SpaceSettingsEvent>();
const app = document.getElementById('app')!;
const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
let data: SpaceEditorData;
let baseline: ReturnType<typeof valuesOf> = {};
let fields: Field[] = [];
let failover: FailoverList;
let readOnly = false;
let lastDirty = false;
let view: SpaceUpdateResponse;

const say = (text: string) => (status.textContent = text);
const currentValues = () =>
  Object.fromEntries(SPECS.map((spec, i) => [spec.path, readControl(spec, fields[i]!.control)]));
const diff = () => changesBetween(baseline, currentValues(), { base: failover.initial, now: failover.ids });

function render(shown: SpaceUpdateResponse, draft: SpaceDraft | null): void {
  view = shown;
  const space = view.main.app;
  readOnly = !view.main.current_user_permissions.includes('edit');
  baseline = valuesOf(space, null);
  const values = valuesOf(space, draft);
  fields = SPECS.map((spec) => buildControl(spec, values[spec.path] ?? null, data, values));
  const draftChain = draft?.failover_model_ids;
  failover = new FailoverList(
    view.main.failover_models,
    data.models,
    Array.isArray(draftChain) ? draftChain.filter((id): id is string => typeof id === 'string') : null,
    changed,
  );
  const byPath = new Map(fields.map((f) => [f.path, f]));
  const sections = SECTIONS.map((section) =>
    h(
      'section',
      { class: 'group', 'aria-label': section.title },
      h('h2', {}, section.title),
      ...section.specs.map((spec) => byPath.get(spec.path)!.row),
      section.title === t('Failover chain') ? failover.element : null,
    ),
  );
  const logo = byPath.get('app_logo')!;
  const choose = h('vscode-button', { secondary: true }, t('Choose Image…'));
  choose.addEventListener('click', () => void chooseLogo(logo));
  logo.row.insertBefore(choose, logo.error);
  const save = h('vscode-button', { title: t('Save (Ctrl+S)') }, t('Save'));
  save.addEventListener('click', () => void saveChanges());
  const revert = h('vscode-button', { secondary: true }, t('Revert'));
  revert.addEventListener('click', () => void channel.call('revert', {}).catch(() => render(view, null)));
  fill(
    app,
    // The id is not a title: Copy Id on the Space in the Spaces view gives it.
    h('header', { class: 'title' }, h('h1', {}, space.name ?? t('Space settings'))),
    readOnly
      ? h(
          'div',
          { class: 'banner', role: 'note' },
          t('Read-only: this token does not have the edit permission on this Space.'),
        )
      : null,
    viewSummary(view, (id) => void channel.call('openSpace', { spaceId: id })),
    h('form', { class: 'settings', 'aria-label': t('Space settings') }, ...sections),
    readOnly ? null : h('div', { class: 'actions' }, save, revert),
    status,
  );
  app.removeAttribute('aria-busy');
  if (readOnly) for (const f of fields) f.control.setAttribute('disabled', '');
  if (readOnly) failover.disable();
  for (const f of fields)
    f.control.addEventListener(
      f.control.tagName === 'VSCODE-TEXTFIELD' || f.control.tagName === 'VSCODE-TEXTAREA' ? 'input' : 'change',
      changed,
    );
  fields
    .find((f) => f.path === 'settings.assistant_id')!
    .control.addEventListener('change', () => render(view, diff().changes));
  changed();
}

/** Recomputes what changed and tells the host's document (which tells VS Code it is dirty). */
function changed(): void {
  const { changes, dirty } = diff();
  if (dirty !== lastDirty || dirty) void channel.call('edit', { dirty, changes }).catch(() => undefined);
  lastDirty = dirty;
  // Checked as typed: each field says what is wrong with it, in words, until it is fixed.
  const rest = markFields(fields, checkRules(data.rules, changes));
  say(rest.length ? rest.join('; ') : dirty ? t('Unsaved changes.') : '');
}

/** The Save button: the fields are checked here first, then VS Code saves the document. */
async function saveChanges(): Promise<void> {
  if (readOnly) return;
  const errors = checkRules(data.rules, diff().changes);
  if (Object.keys(errors).length) {
    const rest = markFields(fields, errors);
    return void say(rest.length ? rest.join('; ') : t('Not saved: fix the marked fields.'));
  }
  say(t('Saving…'));
  await channel
    .call('save', {})
    .catch((error: unknown) =>
      notSaved(error instanceof CallFailed ? error.error : { message: String(error), fields: {} }),
    );
}

function notSaved(failure: CallError): void {
  const rest = markFields(fields, failure.fields);
  say(
    Object.keys(failure.fields).length
      ? t('Not saved: {0}', rest.length ? rest.join('; ') : t('see the marked fields.'))
      : failure.message,
  );
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
    fill(
      app,
      h('div', { class: 'banner error', role: 'alert' }, error instanceof Error ? error.message : String(error)),
    );
    return;
  }
  render(data.view, data.draft);
}

// However a save or a revert was asked for (a button, Ctrl+S, Save All, closing), its outcome comes here.
channel.onEvent((event) => {
  if (event.type === 'reload') return void load();
  if (event.type === 'notSaved') return notSaved(event.error);
  data = { ...data, view: event.view, draft: null };
  lastDirty = true;
  render(event.view, null);
  say(
    event.reloaded
      ? t('Reloaded the version saved elsewhere; your changes were discarded.')
      : t('Saved at {0}.', timeLabel()),
  );
});
channel.ready();
void load();
