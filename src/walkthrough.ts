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

const reached = new Set<Milestone>();
const setKey = (milestone: Milestone, value: boolean) =>
  vscode.commands.executeCommand('setContext', `llmSpaces.walkthrough.${milestone}`, value);

/** Idempotent. */
export function reachedMilestone(milestone: Milestone): void {
  reached.add(milestone);
  void setKey(milestone, true);
}

/**
 * Opens the walkthrough. VS Code reads the walkthroughs when Get Started is first shown in a window, and
 * a key that is already set then never completes its step (it counts as seen before). So the keys of
 * what was done are unset while it opens, and set again once it is there.
 */
export async function openWalkthrough(): Promise<void> {
  const done = [...reached];
  await Promise.all(done.map((milestone) => setKey(milestone, false)));
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
  await Promise.all(done.map((milestone) => setKey(milestone, true)));
}
