// What a command may be given instead of asking (a keybinding's args, a test, another extension), and
// what a webview keeps across a reload, parsed with the schemas they must match. Reached from the
// activation side through the API door (door.ts), so zod loads only when one is used.
import { z } from 'zod';
import { ConversationUpdateBody, IntegrationsBody } from './schemas';

/** A PUT /v1/orgs/integrations body. Throws with the schema's words when it is not one. */
export const integrationsPreset = (preset: unknown) => IntegrationsBody.parse(preset);

/** A conversation's assistant settings ({assistant_id, assistant_version_id}). */
export const conversationSettingsPreset = (preset: unknown) =>
  ConversationUpdateBody.parse({ settings: preset }).settings;

const NewPrompt = z.object({ title: z.string(), description: z.string() });

/** A new prompt's title and description, or undefined when `preset` is not one (then they are asked for). */
export const newPromptPreset = (preset: unknown) => {
  const given = NewPrompt.safeParse(preset);
  return given.success ? given.data : undefined;
};

const SettingsState = z.object({ spaceId: z.string().min(1) });

/** The Space a settings webview was showing before a reload, or undefined when its state is not readable. */
export const restoredSettingsSpace = (state: unknown) => {
  const parsed = SettingsState.safeParse(state);
  return parsed.success ? parsed.data.spaceId : undefined;
};
