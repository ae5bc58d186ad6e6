// Small stand-ins shared by the extension-host tests.
import * as vscode from 'vscode';
import type { Logger } from '../../../../src/extension/platform/log';

export const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A Memento kept in memory. */
export function memento(): vscode.Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: <T>(key: string, def?: T) => (data.has(key) ? (data.get(key) as T) : def),
    update: async (key: string, value: unknown) => void data.set(key, value),
  };
}

/** A SecretStorage kept in memory. */
export function secretStorage(initial: Record<string, string> = {}): vscode.SecretStorage {
  const data = new Map(Object.entries(initial));
  const noEvent = (() => ({ dispose() {} })) as unknown as vscode.Event<vscode.SecretStorageChangeEvent>;
  return {
    get: async (key: string) => data.get(key),
    store: async (key: string, value: string) => void data.set(key, value),
    delete: async (key: string) => void data.delete(key),
    onDidChange: noEvent,
  };
}

/**
 * Closes every editor, unsaved changes discarded first: closing a modified editor would open
 * VS Code's "Save changes?" dialog, which waits for an answer and holds every later test.
 */
export async function closeAllEditors(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty || doc.isClosed) continue;
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
