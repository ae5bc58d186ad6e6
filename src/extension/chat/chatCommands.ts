// The chat room's commands: open, focus, find, history, move, new chat and summarize (export is
// the export room's, src/extension/export).
import * as vscode from 'vscode';
import type { ChatPanelController } from './chatPanel';
import type { Logger } from '../platform/log';
import { registerSafely } from '../platform/commands';

/** `chat`: the chat, built on its first use. */
export function registerChatCommands(chat: () => ChatPanelController, logger: Logger): vscode.Disposable[] {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => registerSafely(id, fn, logger);
  return [
    reg('aiChat.openChat', () => chat().surfaces.openInEditor()),
    reg('aiChat.focusChatInput', () => chat().focusInput()),
    reg('aiChat.showHistory', () => chat().openHistory()),
    reg('aiChat.findInChat', () => chat().findInChat()),
    reg('aiChat.goToQuestion', () => chat().goToQuestion()),
    reg('aiChat.moveChatToSideBar', () => chat().surfaces.moveToSideBar()),
    reg('aiChat.moveChatToSecondarySideBar', () => chat().surfaces.moveToLocation('secondarySideBar')),
    reg('aiChat.moveChatToPrimarySideBar', () => chat().surfaces.moveToLocation('sideBar')),
    reg('aiChat.newChat', () => chat().newChat()),
    reg('aiChat.summarizeEarlierTurns', async () => {
      await chat().ensureRestored();
      await chat().show(true);
      return chat().summaries.start(true);
    }),
  ];
}
