// @aichat's references in VS Code's Chat view (#file, a folder, a selection or a symbol the view
// attached to the request) as AI Chat's chips: each file read as "+" reads it (size limit, binary
// refused, a folder within three quarters of the model's budget), each range with its exact lines; sent after the question,
// each once, as the panel sends its chips. Text references (a variable's value) are the view's own.
import * as vscode from 'vscode';
import { budgetForModel, folderBudgetChars, onceEach, rangeAttachments, type Attachment, type ModelLike } from '../../core';
import { maxKB, relPath } from '../platform/editorFacts';
import { ContextAttachments } from './attachments';

export interface ReferencedContext {
  /** The chips, each once, in the order the view gave them. */
  attachments: Attachment[];
  /** What was read, for the view's list of references. */
  used: Array<vscode.Uri | vscode.Location>;
  /** What was left out or cut, and why (a link out of the workspace, a binary file, a folder's files over the budget…), for the reply to say. */
  notes: string[];
}

/** `budget`: the request's model, for what a folder's files may take (as the chat's `+` counts them). */
export async function referencedContext(
  references: readonly vscode.ChatPromptReference[] | undefined,
  budget: { models?: readonly ModelLike[]; model: string; contextMaxTokens?: number } = { model: '' },
): Promise<ReferencedContext> {
  const notes: string[] = [];
  const chips = new ContextAttachments(
    () => undefined,
    undefined,
    () => folderBudgetChars(budgetForModel(budget.models, budget.model, budget.contextMaxTokens)),
    (message) => notes.push(message),
  );
  const used: Array<vscode.Uri | vscode.Location> = [];
  try {
    for (const ref of references ?? []) {
      const value = ref.value;
      if (value instanceof vscode.Uri) {
        if (await chips.addFile(value)) used.push(value);
      } else if (value instanceof vscode.Location) {
        const doc = await Promise.resolve(vscode.workspace.openTextDocument(value.uri)).catch(() => undefined);
        if (!doc) {
          notes.push(vscode.l10n.t('{0} could not be opened and was not sent.', relPath(value.uri)));
          continue;
        }
        const range = value.range.isEmpty ? doc.lineAt(Math.min(value.range.start.line, doc.lineCount - 1)).range : value.range;
        const made = rangeAttachments(() => '', relPath(doc.uri), doc.languageId, [{ start: range.start, end: range.end, text: doc.getText(range) }], maxKB());
        if (chips.addMade(made) > 0) used.push(value);
      }
    }
    const seen = new Set<string>();
    const once = used.filter((u) => {
      const key = u instanceof vscode.Uri ? u.toString() : `${u.uri.toString()}#${u.range.start.line}:${u.range.start.character}-${u.range.end.line}:${u.range.end.character}`;
      return !seen.has(key) && !!seen.add(key);
    });
    return { attachments: onceEach(chips.attachments), used: once, notes: [...new Set(notes)] };
  } finally {
    chips.dispose();
  }
}
