// The chat's Summarize Earlier Turns in VS Code: the summarizer (common/summarize.ts) with its
// questions and notices as VS Code shows them, the selected model's budget, and the setting
// aiChat.context.autoSummarize (the user's own value only).
import * as vscode from 'vscode';
import { actionCommand, actionTitle, autoSummarizeOn, messageTokens, type ChatSession } from '../../core';
import type { ErrorView, HostMessage } from '../../protocol';
import type { ContextMeterFeed } from './common/contextMeter';
import { Summarizer } from './common/summarize';
import type { TurnService } from '../pipeline/turnService';

export interface SummaryRoomDeps {
  session: ChatSession;
  turns: TurnService;
  meter: ContextMeterFeed;
  post: (message: HostMessage) => void;
}

/** An error with a button per action that VS Code can run; a plain notice otherwise. */
async function tell(message: string, error?: ErrorView): Promise<void> {
  const buttons = (error?.actions ?? []).flatMap((a) => {
    const command = actionCommand(a);
    return command ? [{ title: actionTitle(a), command }] : [];
  });
  const text = vscode.l10n.t('AI Chat: {0}', message);
  const chosen = error ? await vscode.window.showWarningMessage(text, ...buttons.map((b) => b.title)) : await vscode.window.showInformationMessage(text);
  const button = buttons.find((b) => b.title === chosen);
  if (button) await vscode.commands.executeCommand(button.command.command, ...(button.command.arguments ?? []));
}

export function summaryRoom(deps: SummaryRoomDeps): Summarizer {
  return new Summarizer({
    session: deps.session,
    next: () => deps.meter.next(),
    quote: () => deps.turns.quote(),
    room: async () => {
      // The budget less what the request carries besides the prompt (the user's system prompt, the project instructions).
      const facts = await deps.turns.facts();
      const instructions = [facts.systemSetting, facts.instructions].filter((t) => t.trim() !== '').join('\n\n');
      return facts.budget - (instructions ? messageTokens(instructions) : 0) - 16;
    },
    run: (req, sink, signal) => deps.turns.run(req, sink, signal),
    post: deps.post,
    confirm: async (question, action) => (await vscode.window.showInformationMessage(question, { modal: true }, action)) === action,
    tell: (message, error) => void tell(message, error),
    holdsKey: (text) => deps.turns.holdsKey(text),
    // The user's own value only (a workspace's is not used: each summary costs a message).
    auto: () => {
      const levels = vscode.workspace.getConfiguration('aiChat').inspect<boolean>('context.autoSummarize');
      return autoSummarizeOn({ userValue: levels?.globalValue, workspaceValue: levels?.workspaceValue, workspaceFolderValue: levels?.workspaceFolderValue });
    },
  });
}
