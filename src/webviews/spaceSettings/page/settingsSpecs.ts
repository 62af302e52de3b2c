// Every field of PUT /v1/apps/update as the form shows it, what the Space holds for it, and the changes:
// only the fields whose value differs from what the editor loaded. No DOM here (tested on Node).
import type { Space } from '../../../api/schemas';
import type { SpaceDraft, SpaceEditorData } from '../../../shared/protocol/spaceSettings';
import type { Choice } from '../../page/values';
import { t } from '../../page/l10n';

export type Kind = 'text' | 'textarea' | 'number' | 'int' | 'bool' | 'select';
export type Value = string | number | boolean | null;

export interface Spec {
  path: string;
  label: string;
  kind: Kind;
  hint?: string;
  choices?: (data: SpaceEditorData, values: Record<string, Value>) => Choice[];
}

const none = (label = t('None')): Choice => ({ value: '', label });

export const SECTIONS: Array<{ title: string; specs: Spec[] }> = [
  {
    title: t('General'),
    specs: [
      { path: 'name', label: t('Name'), kind: 'text', hint: t('1 to 120 characters') },
      { path: 'description', label: t('Description'), kind: 'textarea', hint: t('Up to 1,000 characters') },
      {
        path: 'app_logo',
        label: t('Logo'),
        kind: 'text',
        hint: t('A URL or a data URL; Choose Image… makes one from a file'),
      },
    ],
  },
  {
    title: t('Routing weights'),
    specs: [
      { path: 'weights.cost', label: t('Cost'), kind: 'number', hint: t('Relative weight, 0 or more') },
      { path: 'weights.latency', label: t('Latency'), kind: 'number', hint: t('Relative weight, 0 or more') },
      { path: 'weights.quality', label: t('Quality'), kind: 'number', hint: t('Relative weight, 0 or more') },
    ],
  },
  {
    title: t('Policies'),
    specs: [
      {
        path: 'policies.privacy_level',
        label: t('What the request log keeps'),
        kind: 'select',
        choices: () => [
          { value: '1', label: t('Level 1: prompts, replies and their details') },
          { value: '2', label: t('Level 2: details only, no prompt or reply text') },
          { value: '3', label: t('Level 3: only what billing needs') },
        ],
      },
      {
        path: 'policies.max_cost',
        label: t('Cost cap per request ($)'),
        kind: 'number',
        hint: t('0 means no cap; new Spaces start at $0.02'),
      },
      {
        path: 'policies.max_same_model_retries',
        label: t('Retries on the same model'),
        kind: 'int',
        hint: t('0 to 3'),
      },
      {
        path: 'policies.max_switch_model_retries',
        label: t('Switches to other models'),
        kind: 'int',
        hint: t('0 to 5'),
      },
      { path: 'policies.optimize_internal_requests', label: t('Optimize internal requests'), kind: 'bool' },
      {
        path: 'policies.prompt_id',
        label: t('Policy prompt'),
        kind: 'select',
        choices: (d) => [none(), ...d.prompts.map((p) => ({ value: p.id, label: p.title }))],
      },
    ],
  },
  {
    title: t('Failover chain'),
    specs: [
      { path: 'has_failover_chain', label: t('When a model fails, try the next one in this order'), kind: 'bool' },
    ],
  },
  {
    title: t('Default generation settings'),
    specs: [
      {
        path: 'settings.assistant_id',
        label: t('Assistant'),
        kind: 'select',
        choices: (d) => [none(), ...d.assistants.map((a) => ({ value: a.id, label: a.name }))],
      },
      {
        path: 'settings.assistant_version_id',
        label: t('Assistant version'),
        kind: 'select',
        choices: (d, v) => [
          none(t('Latest published')),
          ...(d.assistants.find((a) => a.id === v['settings.assistant_id'])?.versions ?? []).map((x) => ({
            value: x.id,
            label: x.label,
          })),
        ],
      },
      { path: 'settings.instructions', label: t('Instructions'), kind: 'textarea' },
      { path: 'settings.max_tokens', label: t('Max tokens'), kind: 'int', hint: t('1 or more') },
      { path: 'settings.temperature', label: t('Temperature'), kind: 'number', hint: t('0 to 1') },
    ],
  },
  {
    title: t('Sandbox and benchmark'),
    specs: [
      {
        path: 'sandbox_of',
        label: t('Sandbox of'),
        kind: 'select',
        choices: (d) => [none(t('Not a sandbox')), ...d.spaces.map((s) => ({ value: s.id, label: s.name }))],
      },
      { path: 'use_parent_custom_data', label: t("Use the parent Space's custom data"), kind: 'bool' },
      {
        path: 'benchmark_model_id',
        label: t('Benchmark model'),
        kind: 'select',
        hint: t('Savings are measured against it'),
        choices: (d) => [none(), ...d.models.map((m) => ({ value: m.id, label: m.namespace }))],
      },
    ],
  },
];

export const SPECS = SECTIONS.flatMap((s) => s.specs);

const get = (app: Space | SpaceDraft, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), app);

/** The form's value of each field as the Space holds it, with `draft` (unsaved changes) laid over. */
export function valuesOf(app: Space, draft: SpaceDraft | null): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const spec of SPECS) {
    const fromDraft = draft ? get(draft, spec.path) : undefined;
    const raw = fromDraft !== undefined && fromDraft !== null ? fromDraft : get(app, spec.path);
    values[spec.path] =
      spec.kind === 'bool'
        ? raw === true || raw === 1
        : raw === undefined || raw === null
          ? null
          : spec.kind === 'select'
            ? String(raw)
            : (raw as Value);
  }
  return values;
}

/** Only what changed, nested as the body has it. Returns the changes and whether there are any. */
export function changesBetween(
  base: Record<string, Value>,
  now: Record<string, Value>,
  failover: { base: string[]; now: string[] },
): { changes: SpaceDraft; dirty: boolean } {
  const changes: Record<string, unknown> = {};
  let dirty = false;
  for (const spec of SPECS) {
    const before = base[spec.path] ?? null;
    let after = now[spec.path] ?? null;
    if (String(before) === String(after)) continue;
    // An emptied choice has no "unset" in the body; it is left as it is. A number field the Space has
    // no value for may stay empty; one emptied is sent as typed, for the rules to say at the field
    // that it needs a number.
    if (after === null && spec.kind !== 'text' && spec.kind !== 'textarea') continue;
    if (after === '' && before === null && (spec.kind === 'number' || spec.kind === 'int')) continue;
    if (spec.path === 'policies.privacy_level' && after !== null) after = Number(after);
    if (spec.path === 'policies.optimize_internal_requests') after = after ? 1 : 0;
    const [group, key] = spec.path.split('.') as [string, string | undefined];
    if (key) ((changes[group] ??= {}) as Record<string, unknown>)[key] = after;
    else changes[group] = after;
    dirty = true;
  }
  if (failover.base.join() !== failover.now.join()) {
    changes.failover_model_ids = failover.now;
    dirty = true;
  }
  return { changes, dirty };
}
