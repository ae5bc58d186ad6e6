// The export room's dialogs: where they start, and the file chosen for an import with the way its
// refusal is said (Import Conversation… and Import All Conversations… alike).
import * as os from 'node:os';
import * as vscode from 'vscode';

/** Where the save and open dialogs start: the first workspace folder, else the home folder. */
export function startFolder(): vscode.Uri {
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
}

/** The file the user picks to import (undefined: none), its name, and how a refusal of it is told. */
export async function pickImportFile(title: string, kind: string, extension: string): Promise<{ uri: vscode.Uri; name: string; refuse: (why: string) => void } | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    openLabel: vscode.l10n.t('Import'),
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    defaultUri: startFolder(),
    filters: { [kind]: [extension], [vscode.l10n.t('All files')]: ['*'] },
  });
  const uri = picked?.[0];
  if (!uri) return undefined;
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  return { uri, name, refuse: (why) => void vscode.window.showErrorMessage(vscode.l10n.t('“{0}” was not imported: {1}', name, why)) };
}
