// Help where the problem shows up: the lightbulb's Fix / Explain with AI Chat and Write Commit
// Message in Source Control, registered together.
import type * as vscode from 'vscode';
import type { ChatPanelController } from '../chat/chatPanel';
import type { TurnService } from '../chat/turnService';
import { registerCommitMessage } from './commitMessage';
import { registerQuickFix } from './quickFix';

/** `chat`: the chat, built on its first use (only when an action puts a prompt in its box). */
export function registerProblemHelp(deps: { turns: TurnService; chat: () => ChatPanelController }): vscode.Disposable[] {
  return [...registerQuickFix((text) => deps.chat().insertPrompt(text)), ...registerCommitMessage(deps.turns)];
}
