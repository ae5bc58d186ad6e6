// The chat room's commands: open, focus, find, history, move, new chat and summarize (export is
// the export room's, src/extension/export).
import * as vscode from 'vscode';
import type { ChatPanelController } from './chatPanel';
import type { Logger } from '../platform/log';
import { registerSafely } from '../platform/commands';

/** `room`: the chat, its code loaded and the chat built on its first use. */
export function registerChatCommands(room: () => Promise<ChatPanelController>, logger: Logger): vscode.Disposable[] {
  const reg = (id: string, fn: (chat: ChatPanelController) => unknown) => registerSafely(id, async () => fn(await room()), logger);
  return [
    reg('aiChat.openChat', (chat) => chat.surfaces.openInEditor()),
    reg('aiChat.focusChatInput', (chat) => chat.focusInput()),
    reg('aiChat.showHistory', (chat) => chat.openHistory()),
    reg('aiChat.findInChat', (chat) => chat.findInChat()),
    reg('aiChat.goToQuestion', (chat) => chat.goToQuestion()),
    reg('aiChat.moveChatToSideBar', (chat) => chat.surfaces.moveToSideBar()),
    reg('aiChat.moveChatToSecondarySideBar', (chat) => chat.surfaces.moveToLocation('secondarySideBar')),
    reg('aiChat.moveChatToPrimarySideBar', (chat) => chat.surfaces.moveToLocation('sideBar')),
    reg('aiChat.newChat', (chat) => chat.newChat()),
    reg('aiChat.summarizeEarlierTurns', async (chat) => {
      await chat.ensureRestored();
      await chat.show(true);
      return chat.summaries.start(true);
    }),
  ];
}
