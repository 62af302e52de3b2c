// The "Get started with LLM Spaces" walkthrough (package.json, contributes.walkthroughs). Its steps
// complete from what the user really did, not from a click on the step: the command that does it,
// run by the user (Refresh Local Models, Send Selection to Playground, Create Prompt, Open Space
// Settings), or these context keys, set when it happens without a command (a model server found at
// start, a reply, a prompt saved from its editor).
import * as vscode from 'vscode';

export const WALKTHROUGH = 'llm-spaces.llm-spaces#llmSpaces.start';

export type Milestone =
  /** A model other than a test model can answer (a model server found, or the hosted service). */
  | 'realModels'
  /** A reply arrived in the playground. */
  | 'replied'
  /** A saved prompt was edited and saved. */
  | 'promptSaved';

/** Idempotent; the playground panel (in the deferred bundle) sets its key itself. */
export function reachedMilestone(milestone: Milestone): void {
  void vscode.commands.executeCommand('setContext', `llmSpaces.walkthrough.${milestone}`, true);
}

export async function openWalkthrough(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}
