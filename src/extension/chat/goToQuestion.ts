// "Go to Question": a quick pick of the user's own messages of the current conversation (first
// line, time), filterable; the one chosen is shown in the chat (rendered first if it is not).
import * as vscode from 'vscode';
import { questionsOf, type StoredMessage } from '../../core';

/** The id of the question chosen, or undefined (dismissed, or no question yet). */
export async function pickQuestion(messages: readonly StoredMessage[]): Promise<string | undefined> {
  const questions = questionsOf(messages);
  if (questions.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This conversation has no questions yet.'));
    return undefined;
  }
  const today = new Date().toDateString();
  const items = questions.map((q) => {
    const at = new Date(q.createdAt);
    const valid = !Number.isNaN(at.getTime());
    const time = !valid ? '' : at.toDateString() === today ? at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    return { label: q.firstLine || vscode.l10n.t('(empty message)'), description: time, id: q.id };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Go to Question'),
    placeHolder: vscode.l10n.t('Type to filter your messages in this conversation'),
    matchOnDescription: true,
  });
  return picked?.id;
}
