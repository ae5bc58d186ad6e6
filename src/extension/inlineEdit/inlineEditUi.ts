// The visible parts of an edit in the editor: the quick input that asks what to change (with the
// model and the price), the looks of added, removed and not yet reached lines, and the Keep/Undo
// CodeLens of a review.
import * as vscode from 'vscode';
import { modelPriceText } from '../../core';
import type { TurnQuote } from '../pipeline/turnService';

/** "Chat Small · 2 credits" (or the price unknown). */
function quoteText(quote: TurnQuote | undefined): string {
  return quote ? modelPriceText(quote.name, quote.cost) : vscode.l10n.t('no model selected');
}

/**
 * Asks what to change. What is typed is the instruction; with nothing typed, Enter sends the earlier
 * instruction chosen in the list (Up/Down). Escape gives undefined. `initial`: an instruction
 * proposed by the caller (the lightbulb's Fix), in the box to edit or send as it is.
 */
export function askInstruction(quote: TurnQuote | undefined, earlier: readonly string[], initial?: string): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick();
  if (initial) pick.value = initial;
  pick.title = vscode.l10n.t('AI Chat: Edit Selection ({0})', quoteText(quote));
  pick.placeholder = vscode.l10n.t('What should change? Enter sends ({0}); Escape cancels', quoteText(quote));
  pick.items = earlier.map((label) => ({ label, description: vscode.l10n.t('earlier instruction') }));
  pick.matchOnDescription = false;
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidAccept(() => {
      const typed = pick.value.trim();
      finish(typed || pick.activeItems[0]?.label);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}

/** Lines an edit adds (highlighted), and the note beside a line where it took lines out (never written into the document). */
export const addedLook = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});
export const removedLook = vscode.window.createTextEditorDecorationType({
  after: { color: new vscode.ThemeColor('editorError.foreground'), fontStyle: 'italic', margin: '0 0 0 2em' },
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});

/** The note on line `line` of `document` for the `removed` lines (line ends included): the first one, how many more, all of them on hover. */
export function removedNote(document: vscode.TextDocument, line: number, removed: readonly string[]): vscode.DecorationOptions {
  const at = Math.max(0, Math.min(line, document.lineCount - 1));
  const first = removed[0].replace(/\r?\n$/, '').trim();
  const more = removed.length > 1 ? vscode.l10n.t(' (and {0} more lines)', String(removed.length - 1)) : '';
  const hover = new vscode.MarkdownString();
  hover.appendText(vscode.l10n.t('Removed lines:'));
  hover.appendCodeblock(removed.join('').replace(/\r\n/g, '\n'), document.languageId);
  return {
    range: document.lineAt(at).range,
    hoverMessage: hover,
    renderOptions: { after: { contentText: vscode.l10n.t('− was: {0}{1}', first.slice(0, 120), more) } },
  };
}

/** The original lines a streaming reply has not reached yet, and its progress after its last line. */
export const streamingDecoration = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', margin: '0 0 0 2em' },
});

/** Keep/Undo above each pending hunk, and Keep Edit/Undo Edit above the first. */
/** What the lenses read of a review (inlineEditReview.ts's InlineEditReview). */
export interface ReviewedDocument {
  readonly document: vscode.TextDocument;
  readonly isOver: boolean;
  readonly review: { pending(): readonly number[] };
  hunkLine(i: number): number;
}

export class EditLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly reviewOf: (uri: vscode.Uri) => ReviewedDocument | undefined) {}

  refresh(): void {
    this.emitter.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const review = this.reviewOf(document.uri);
    if (!review || review.isOver || review.document !== document) return [];
    const pending = review.review.pending();
    const lenses: vscode.CodeLens[] = [];
    pending.forEach((i, n) => {
      const at = new vscode.Range(review.hunkLine(i), 0, review.hunkLine(i), 0);
      const args = [document.uri, i];
      if (n === 0 && pending.length > 1) {
        lenses.push(
          new vscode.CodeLens(at, { title: vscode.l10n.t('Keep All'), command: 'aiChat.keepEdit', arguments: [document.uri] }),
          new vscode.CodeLens(at, { title: vscode.l10n.t('Undo All'), command: 'aiChat.undoEdit', arguments: [document.uri] }),
        );
      }
      lenses.push(
        new vscode.CodeLens(at, { title: vscode.l10n.t('Keep'), command: 'aiChat.keepHunk', arguments: args, tooltip: vscode.l10n.t('Keep this change') }),
        new vscode.CodeLens(at, { title: vscode.l10n.t('Undo'), command: 'aiChat.undoHunk', arguments: args, tooltip: vscode.l10n.t('Undo this change') }),
      );
    });
    return lenses;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
