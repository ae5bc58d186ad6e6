// The chat room's commands: open, focus, find, history, move, new chat, export and summarize.
import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../core';
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
    reg('aiChat.exportChat', () => exportChat(chat())),
    reg('aiChat.summarizeEarlierTurns', async () => {
      await chat().ensureRestored();
      await chat().show(true);
      return chat().summaries.start(true);
    }),
  ];
}

async function exportChat(chat: ChatPanelController): Promise<void> {
  await chat.ensureRestored();
  const conv = chat.session.conversation;
  if (conv.messages.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: the current conversation is empty; nothing to export.'));
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ content: conversationToMarkdown(conv), language: 'markdown' });
  await vscode.window.showTextDocument(doc, { preview: false });
}
