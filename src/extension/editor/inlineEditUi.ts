// The visible parts of an edit in the editor other than the review's decorations: the quick input
// that asks what to change (with the model and the price), the look of the selected lines while the
// reply streams, and the Keep/Undo CodeLens of a review.
import * as vscode from 'vscode';
import type { TurnQuote } from '../chat/turnService';
import type { InlineEditReview } from './inlineEditReview';

/** "Chat Small · 2 credits" (or the price unknown). */
export function priceText(quote: TurnQuote | undefined): string {
  if (!quote) return vscode.l10n.t('no model selected');
  const cost =
    quote.cost === null ? vscode.l10n.t('price unknown') : quote.cost === 1 ? vscode.l10n.t('1 credit') : vscode.l10n.t('{0} credits', String(quote.cost));
  return vscode.l10n.t('{0} · {1}', quote.name, cost);
}

/**
 * Asks what to change. What is typed is the instruction; with nothing typed, Enter sends the earlier
 * instruction chosen in the list (Up/Down). Escape gives undefined. `initial`: an instruction
 * proposed by the caller (the lightbulb's Fix), in the box to edit or send as it is.
 */
export function askInstruction(quote: TurnQuote | undefined, earlier: readonly string[], initial?: string): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick();
  if (initial) pick.value = initial;
  pick.title = vscode.l10n.t('AI Chat: Edit Selection ({0})', priceText(quote));
  pick.placeholder = vscode.l10n.t('What should change? Enter sends ({0}); Escape cancels', priceText(quote));
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

const streamingDecoration = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', margin: '0 0 0 2em' },
});

/** The selected lines while the reply streams: highlighted, with the progress after the last one. */
export function streamingLook(editor: vscode.TextEditor, start: number, end: number): { update(message: string): void; dispose(): void } {
  const doc = editor.document;
  const last = Math.max(start, end - 1);
  const set = (message: string) => {
    const range = new vscode.Range(start, 0, last, doc.lineAt(Math.min(last, doc.lineCount - 1)).range.end.character);
    for (const e of vscode.window.visibleTextEditors.filter((v) => v.document === doc)) {
      e.setDecorations(streamingDecoration, [{ range, renderOptions: { after: { contentText: message } } }]);
    }
  };
  set(vscode.l10n.t('Waiting for the reply…'));
  return {
    update: set,
    dispose: () => {
      for (const e of vscode.window.visibleTextEditors.filter((v) => v.document === doc)) e.setDecorations(streamingDecoration, []);
    },
  };
}

/** Keep/Undo above each pending hunk, and Keep Edit/Undo Edit above the first. */
export class EditLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly reviewOf: (uri: vscode.Uri) => InlineEditReview | undefined) {}

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
