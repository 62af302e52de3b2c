// How changes reach a Space, from the settings editor or from a promotion in a comparison: checked
// against the update's schema, refused without the edit permission, and never written over a change
// made elsewhere since the changes were made without asking first.
import * as vscode from 'vscode';
import type { SpaceUpdateResponse } from '../../api/schemas';
import type { SpacesStore } from '../../stores/spacesStore';
import { SpaceChanges } from '../../shared/protocol/spaceSettings';

const t = vscode.l10n.t;

export type ConflictChoice = 'overwrite' | 'reload' | 'cancel';

export interface SpaceSave {
  spaceId: string;
  /** The Space's name, for messages. */
  name: string;
  /** `modified_on` of the version the changes were made on (null: the service gave none; undefined: not known, nothing to check). */
  base: string | null | undefined;
  changes: unknown;
}

/**
 * Saves the changes. When the Space changed since `base`, `moved` decides: overwrite, keep theirs
 * (answered with `theirs`), or cancel (a CancellationError). Changes that are empty save nothing.
 */
export async function saveSpace(
  spaces: SpacesStore,
  save: SpaceSave,
  moved: (modifiedOn: string | null) => Thenable<ConflictChoice>,
): Promise<{ view: SpaceUpdateResponse; theirs: boolean }> {
  const changes = SpaceChanges.parse(save.changes);
  const current = await spaces.detail(save.spaceId, true);
  if (!current.main.current_user_permissions.includes('edit'))
    throw new Error(t('This token may not edit "{0}".', save.name));
  const at = current.main.app.modified_on ?? null;
  if (save.base !== undefined && save.base !== at) {
    const choice = await moved(at);
    if (choice === 'cancel') throw new vscode.CancellationError();
    if (choice === 'reload') return { view: current, theirs: true };
  }
  if (Object.keys(changes).length === 0) return { view: current, theirs: false };
  return { view: await spaces.update({ id: save.spaceId, ...changes }), theirs: false };
}
