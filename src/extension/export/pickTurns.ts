// The range step of Export Chat and Copy Conversation: the whole conversation, or the turns from
// one question to another (two picks of its questions). A conversation of one turn is not asked.
import * as vscode from 'vscode';
import { conversationTurns, turnQuestions, type Conversation, type TurnQuestion } from '../../core';

type ScopeItem = vscode.QuickPickItem & { scope: 'whole' | 'range' };
type TurnItem = vscode.QuickPickItem & { turn: number };

const turnItem = (q: TurnQuestion): TurnItem => ({
  turn: q.turn,
  label: q.text || vscode.l10n.t('(empty question)'),
  description: vscode.l10n.t('turn {0}', q.turn + 1),
  detail: new Date(q.createdAt).toLocaleString(),
});

/** The conversation to export or copy: `conv` whole, or a range of its turns; undefined on Escape. */
export async function pickTurns(conv: Conversation, title: string): Promise<Conversation | undefined> {
  const questions = turnQuestions(conv);
  if (questions.length <= 1) return conv;
  const scope = await vscode.window.showQuickPick<ScopeItem>(
    [
      { scope: 'whole', label: vscode.l10n.t('Whole conversation'), description: vscode.l10n.t('{0} turns', questions.length) },
      { scope: 'range', label: vscode.l10n.t('Choose turns…'), description: vscode.l10n.t('from one question to another') },
    ],
    { title, placeHolder: vscode.l10n.t('Which turns?') },
  );
  if (!scope) return undefined;
  if (scope.scope === 'whole') return conv;
  const first = await vscode.window.showQuickPick<TurnItem>(questions.map(turnItem), {
    title,
    placeHolder: vscode.l10n.t('The first question to include'),
    matchOnDescription: true,
  });
  if (!first) return undefined;
  const rest = questions.slice(first.turn);
  const last =
    rest.length === 1
      ? { turn: first.turn }
      : await vscode.window.showQuickPick<TurnItem>(rest.map(turnItem).reverse(), {
          title,
          placeHolder: vscode.l10n.t('The last question to include (its replies go with it)'),
          matchOnDescription: true,
        });
  if (!last) return undefined;
  return conversationTurns(conv, { first: first.turn, last: last.turn });
}
