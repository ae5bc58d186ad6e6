// Help where the problem shows up: the lightbulb's Fix / Explain with AI Chat, Write Commit
// Message in Source Control and Explain Last Terminal Failure, registered together.
import type * as vscode from 'vscode';
import type { ChatPanelController } from '../chat/chatPanel';
import type { TurnService } from '../chat/turnService';
import { registerCommitMessage } from './commitMessage';
import { registerQuickFix } from './quickFix';
import { registerTerminalFailure } from './terminalFailure';

/** `chat`: the chat, built on its first use (only when an action puts a prompt in its box). */
export function registerProblemHelp(deps: { turns: TurnService; chat: () => ChatPanelController }): vscode.Disposable[] {
  const insertPrompt = (text: string) => deps.chat().insertPrompt(text);
  return [...registerQuickFix(insertPrompt), ...registerCommitMessage(deps.turns), ...registerTerminalFailure(insertPrompt)];
}
