// The Space settings editor's calls, results and events.
import { z } from 'zod';
import { SpaceUpdateBody, type SpaceUpdateResponse } from '../../api/schemas';
import type { Rules } from '../rules';
import { Id, type CallError, type Calls } from './envelope';
import type { SpaceBrief } from './playground';

export const SpaceChanges = SpaceUpdateBody.omit({ id: true });
export type SpaceChanges = z.infer<typeof SpaceChanges>;

/**
 * Unsaved changes as the form has them, nested as the body has them. They are kept (and backed up for
 * hot exit) even while a field is not valid; saving checks them against SpaceChanges.
 */
export const SpaceDraft = z.record(z.string(), z.unknown());
export type SpaceDraft = z.infer<typeof SpaceDraft>;

export const SpaceSettingsCalls = {
  load: z.object({}),
  /** The form changed: what differs from the loaded Space now, and whether anything does. */
  edit: z.object({ dirty: z.boolean(), changes: SpaceDraft }),
  /** Save and Revert as VS Code's own commands do them (the buttons of the form). */
  save: z.object({}),
  revert: z.object({}),
  openSpace: z.object({ spaceId: Id }),
  chooseLogo: z.object({}),
} satisfies Calls;

export interface SpaceEditorData {
  view: SpaceUpdateResponse;
  /** Other Spaces, for "sandbox of". */
  spaces: Array<{ id: string; name: string }>;
  models: Array<{ id: string; namespace: string }>;
  prompts: Array<{ id: string; title: string }>;
  assistants: SpaceBrief['assistants'];
  /** Unsaved changes the document holds (after a hot exit, or the editor reopened). */
  draft: SpaceDraft | null;
  /** The rules of SpaceChanges, checked as the user types. */
  rules: Rules;
}

export interface SpaceSettingsResults {
  load: SpaceEditorData;
  edit: null;
  save: null;
  revert: null;
  openSpace: null;
  chooseLogo: string | null;
}

/** What happened to the document, however it was asked for (a button, Ctrl+S, Save All, closing). */
export type SpaceSettingsEvent =
  /** Reverted: load the Space afresh, without changes. */
  | { type: 'reload' }
  /** Saved (or, `reloaded`, the user chose the version saved elsewhere over theirs). */
  | { type: 'saved'; view: SpaceUpdateResponse; reloaded: boolean }
  | { type: 'notSaved'; error: CallError };
