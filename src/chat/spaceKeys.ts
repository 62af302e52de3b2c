// Chat completions on the hosted service are made with a Space's key. The extension asks for it once
// per Space (or makes a new one, after saying that the old one stops working) and keeps it in
// SecretStorage; a Space it creates itself has its key kept at once. The built-in service needs none.
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';

const t = vscode.l10n.t;

export class SpaceKeys {
  constructor(private readonly connection: Connection) {}

  /** The key to use for the Space, asking the user the first time; undefined with the built-in service. */
  async keyFor(spaceId: string, name: string): Promise<string | undefined> {
    if (this.connection.mode === 'local') return undefined;
    const stored = await this.connection.spaceKey(spaceId);
    if (stored) return stored;
    const enter = { label: t("Enter the Space's Key…"), detail: t('The key shown once when the Space was created.') };
    const renew = {
      label: t('Make a New Key'),
      detail: t('The old key stops working at once: anything still using it must be given the new one.'),
    };
    const pick = await vscode.window.showQuickPick([enter, renew], {
      title: t('The chat through "{0}" needs its Space key', name),
      ignoreFocusOut: true,
    });
    let key: string | undefined;
    if (pick === enter) {
      key = (
        await vscode.window.showInputBox({
          title: t('Key of "{0}"', name),
          password: true,
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : t('Required')),
        })
      )?.trim();
    } else if (pick === renew) {
      const sure = t('Make a New Key');
      const confirmed = await vscode.window.showWarningMessage(
        t('Make a new key for "{0}"?', name),
        { modal: true, detail: t('The old key stops working at once.') },
        sure,
      );
      if (confirmed === sure) key = (await this.connection.call((c) => c.regenerateSpaceKey(spaceId))).created_key;
    }
    if (!key) throw new Error(t('The chat through "{0}" needs the Space\'s key; none was given.', name));
    await this.connection.storeSpaceKey(spaceId, key);
    return key;
  }
}
