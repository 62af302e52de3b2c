// The Space behind the "Current Space" model of VS Code's chat: chosen by the user or by an agent
// through the useSpace tool, remembered across windows.
import * as vscode from 'vscode';

const KEY = 'llmSpaces.chat.currentSpace';

export class CurrentSpace implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  get id(): string | undefined {
    return this.state.get<string>(KEY);
  }

  async set(spaceId: string): Promise<void> {
    await this.state.update(KEY, spaceId);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
