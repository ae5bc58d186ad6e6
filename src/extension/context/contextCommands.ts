// The commands that attach context from the editor and Explorer context menus (and the command
// palette): the chat is shown once something was attached.
import * as vscode from 'vscode';
import type { ContextAttachments } from './attachments';

/** Commands of the editor and Explorer context menus. */
/** `attachments`: the chat's, built on its first use. */
export function registerContextCommands(chat: () => Promise<ContextAttachments>, reveal: () => Promise<void>): vscode.Disposable[] {
  const then = async (add: (attachments: ContextAttachments) => boolean | Promise<boolean>): Promise<void> => {
    if (await add(await chat())) await reveal();
  };
  return [
    vscode.commands.registerCommand('aiChat.addContext', () => then((a) => a.pick())),
    vscode.commands.registerCommand('aiChat.addFileToChat', (uri?: vscode.Uri, all?: vscode.Uri[]) => {
      const uris = all?.length ? all : uri instanceof vscode.Uri ? [uri] : [];
      if (!uris.length) return then((a) => a.addCurrentFile());
      return then((a) => a.addFiles(uris).then((n) => n > 0));
    }),
    vscode.commands.registerCommand('aiChat.addSelectionToChat', () => then((a) => a.addSelection())),
    vscode.commands.registerCommand('aiChat.addProblemsToChat', (uri?: vscode.Uri) => then((a) => a.addProblems(uri instanceof vscode.Uri ? uri : undefined))),
  ];
}
