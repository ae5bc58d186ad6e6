// The commands that attach context from the editor and Explorer context menus (and the command
// palette): the chat is shown once something was attached.
import * as vscode from 'vscode';
import type { ContextAttachments } from './attachments';

/** Commands of the editor and Explorer context menus. */
/** `attachments`: the chat's, built on its first use. */
export function registerContextCommands(attachments: () => ContextAttachments, reveal: () => Promise<void>): vscode.Disposable[] {
  const then = async (added: boolean | Promise<boolean>): Promise<void> => {
    if (await added) await reveal();
  };
  return [
    vscode.commands.registerCommand('aiChat.addContext', () => then(attachments().pick())),
    vscode.commands.registerCommand('aiChat.addFileToChat', (uri?: vscode.Uri, all?: vscode.Uri[]) => {
      const uris = all?.length ? all : uri instanceof vscode.Uri ? [uri] : [];
      if (!uris.length) return then(attachments().addCurrentFile());
      return then(attachments().addFiles(uris).then((n) => n > 0));
    }),
    vscode.commands.registerCommand('aiChat.addSelectionToChat', () => then(attachments().addSelection())),
    vscode.commands.registerCommand('aiChat.addProblemsToChat', (uri?: vscode.Uri) => then(attachments().addProblems(uri instanceof vscode.Uri ? uri : undefined))),
  ];
}
