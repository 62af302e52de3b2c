// The form control of each settings field, and its value read back in the body's terms.
import type { SpaceEditorData } from '../../../shared/protocol/spaceSettings';
import { checkedOf, h, setValue, valueOf } from '../../page/dom';
import { field, select, textfield, type Field } from '../../page/fields';
import type { Spec, Value } from './settingsSpecs';

export function buildControl(spec: Spec, value: Value, data: SpaceEditorData, values: Record<string, Value>): Field {
  let control: HTMLElement;
  if (spec.kind === 'bool') {
    control = h('vscode-checkbox', { checked: value === true, label: spec.label });
    return field(spec.path, '', control, spec.hint);
  }
  if (spec.kind === 'select') control = select(spec.choices!(data, values), value === null ? '' : String(value));
  else if (spec.kind === 'textarea') {
    control = h('vscode-textarea', { rows: '4', resize: 'vertical' });
    setValue(control, value === null ? '' : String(value));
  } else
    control = textfield(
      value === null ? '' : String(value),
      spec.kind === 'int' ? { type: 'number', step: '1' } : spec.kind === 'number' ? { inputmode: 'decimal' } : {},
    );
  return field(spec.path, spec.label, control, spec.hint);
}

/**
 * The control's value in the form the body wants: '' is "no value" for a choice. A number field holds
 * a number, or the text as typed when it is none ('' or "abc"), which the rules then refuse at the
 * field instead of the save dropping it.
 */
export function readControl(spec: Spec, control: HTMLElement): Value {
  if (spec.kind === 'bool') return checkedOf(control);
  const text = valueOf(control);
  if (spec.kind === 'number' || spec.kind === 'int') {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) ? n : text.trim();
  }
  if (spec.kind === 'select') return text === '' ? null : text;
  return text;
}
