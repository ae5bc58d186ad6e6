// The review of an edit in the editor: the proposal is in the document (applied as one edit, one
// undo step), the added lines are highlighted, the removed ones are shown beside them as decorations
// (never written into the document), and each hunk is kept or undone on its own. Undoing all of it
// leaves the document as it was, byte for byte, and clean again when it was clean before. A save
// during the review writes the original with only the kept hunks (inlineEditSave.ts): the pending
// ones stay in the editor, not on disk, until they are kept.
import * as vscode from 'vscode';
import { EditReview, regionShift, splitLines, type LineEdit } from '../../core/inlineEdit/hunks';
import { addedLook, removedLook, removedNote } from './inlineEditUi';
import { SaveGuard } from './inlineEditSave';
import { OwnEdits } from './inlineEditUndo';

/** How the review ended: every hunk decided, Keep Edit, Undo Edit, or the lines changed by someone else. */
export type ReviewEnd = 'decided' | 'kept' | 'undone' | 'changed' | 'closed';

export class InlineEditReview implements vscode.Disposable {
  readonly review: EditReview;
  /** Offset of the region in the document (moves when text before it changes). */
  private offset: number;
  /** Our edits to the document, from the first streamed line (or the proposal applied) on. */
  private readonly edits: OwnEdits;
  /** A save writes the original with only the kept hunks. */
  private readonly guard: SaveGuard;
  private ended = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  private constructor(
    readonly document: vscode.TextDocument,
    offset: number,
    original: string,
    proposed: string,
    private readonly onEnd: (review: InlineEditReview, how: ReviewEnd) => void,
    applied?: OwnEdits,
    guard?: SaveGuard,
  ) {
    this.offset = offset;
    this.review = new EditReview(original, proposed);
    this.edits = applied ?? new OwnEdits(document);
    const source = { offset: () => this.offset, moveTo: (at: number) => void (this.offset = at), shown: () => this.review.current(), saved: () => this.review.saved() };
    if (guard) guard.handOver(source, () => this.decorate());
    this.guard = guard ?? new SaveGuard(document, this.edits, source, () => this.decorate());
    this.subscriptions.push(
      this.guard,
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === this.document) this.end('closed', false);
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
    );
  }

  /**
   * Puts `proposed` in place of the region at `offset` (one edit), or, when it streamed in already
   * (`applied`, with the preview's save `guard`), reviews it where it is; undefined when the edit was refused.
   */
  static async open(
    document: vscode.TextDocument,
    offset: number,
    original: string,
    proposed: string,
    onEnd: (review: InlineEditReview, how: ReviewEnd) => void,
    applied?: OwnEdits,
    guard?: SaveGuard,
  ): Promise<InlineEditReview | undefined> {
    const r = new InlineEditReview(document, offset, original, proposed, onEnd, applied, guard);
    if (applied) {
      r.decorate();
      return r;
    }
    const range = new vscode.Range(document.positionAt(offset), document.positionAt(offset + original.length));
    if (!(await r.edits.run(() => r.replace(range, proposed)))) {
      r.dispose();
      return undefined;
    }
    r.decorate();
    return r;
  }

  /** The document range of lines [start, end) of the region's current text. */
  private rangeOf(start: number, end: number): vscode.Range {
    const lines = splitLines(this.review.current());
    const at = (n: number) => lines.slice(0, n).reduce((sum, l) => sum + l.length, 0);
    return new vscode.Range(this.document.positionAt(this.offset + at(start)), this.document.positionAt(this.offset + at(end)));
  }

  /** The first document line of the region. */
  get line(): number {
    return this.document.positionAt(this.offset).line;
  }

  /** The document line of hunk `i` now. */
  hunkLine(i: number): number {
    return this.line + this.review.where(i).line;
  }

  /** The pending hunk at document line `line`, else the first pending one. */
  hunkAt(line: number | undefined): number | undefined {
    const pending = this.review.pending();
    const at = pending.find((i) => {
      const { line: l, count } = this.review.where(i);
      return line !== undefined && line >= this.line + l && line <= this.line + l + Math.max(count - 1, 0);
    });
    return at ?? pending[0];
  }

  /** Replaces `range` of the document with `text` (one edit, one undo step). */
  private replace(range: vscode.Range, text: string): Promise<boolean> {
    return this.edits.replace(range, text);
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    if (e.document !== this.document || this.edits.applying || this.ended || e.contentChanges.length === 0) return;
    this.edits.others();
    const current = this.review.current();
    const end = this.offset + this.guard.holding(current).length;
    // The offsets of a change are those of the text before it: changes before the region move it.
    const shift = regionShift(e.contentChanges, this.offset, end);
    if (shift === 'touched' && !this.guard.busy && this.holdsSaved(e.contentChanges, current)) {
      // Undo (Ctrl+Z) after a save took the pending hunks out, as they are on disk: they are undone.
      this.end('undone', false);
      return;
    }
    if (shift === 'touched') {
      // The lines under review were changed (typing, Undo): the review ends with the text as it is.
      this.end('changed', false);
      return;
    }
    this.offset += shift;
    this.decorate();
  }

  /** After `changes` (that touched the region holding `current`), the region holds the text a save writes. */
  private holdsSaved(changes: readonly vscode.TextDocumentContentChangeEvent[], current: string): boolean {
    const saved = this.review.saved();
    if (saved === current || changes.reduce((sum, c) => sum + c.text.length - c.rangeLength, 0) !== saved.length - current.length) return false;
    const at = this.document.positionAt(this.offset);
    return this.document.getText(new vscode.Range(at, this.document.positionAt(this.offset + saved.length))) === saved;
  }

  /** Keeps hunk `i` (once a save's round trip is over: the last one ends the review). */
  keep(i: number): Promise<void> {
    return this.edits.run(async () => {
      this.review.keep(i);
      this.afterDecision();
    });
  }

  /** Undoes hunk `i`: its original lines go back. */
  undo(i: number): Promise<boolean> {
    return this.edits.run(async () => {
      if (this.ended || this.review.state(i) !== 'pending') return true;
      const { line, count } = this.review.where(i);
      const planned: LineEdit = { start: line, end: line + count, text: this.review.hunks[i].removed.join('') };
      if (!(await this.replace(this.rangeOf(planned.start, planned.end), planned.text))) return false;
      this.review.undo(i);
      this.afterDecision();
      return true;
    });
  }

  private afterDecision(): void {
    if (this.review.done) this.end('decided', true);
    else this.decorate();
  }

  /** Keep Edit: every pending hunk is kept (the document already holds them, once a save's round trip is over). */
  keepAll(): Promise<void> {
    return this.edits.run(async () => this.end('kept', true));
  }

  /**
   * Undo Edit: the region's original text goes back. When nothing but our edits changed the
   * document, the editor's own Undo takes them back (the document is then clean if it was);
   * otherwise one edit puts the original lines back.
   */
  undoAll(): Promise<boolean> {
    return this.edits.run(() => this.undoAllNow());
  }

  private async undoAllNow(): Promise<boolean> {
    if (this.ended) return true;
    const target = this.review.final(false);
    if (!this.edits.wasDirty && (await this.edits.undo())) {
      this.end('undone', false);
      return true;
    }
    // Our text is still there (the editor's Undo did not run in it): one edit puts the original back.
    const current = this.review.current();
    const range = this.rangeOf(0, splitLines(current).length);
    if (this.document.getText(range) === current && current !== target && !(await this.replace(range, target))) return false;
    this.end('undone', false);
    return true;
  }

  private end(how: ReviewEnd, keep: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.review.settle(keep);
    this.dispose();
    this.onEnd(this, how);
  }

  get isOver(): boolean {
    return this.ended;
  }

  private decorate(): void {
    const editors = vscode.window.visibleTextEditors.filter((e) => e.document === this.document);
    const addedRanges: vscode.Range[] = [];
    const removedOptions: vscode.DecorationOptions[] = [];
    if (!this.ended) {
      for (const i of this.review.pending()) {
        const h = this.review.hunks[i];
        const { line, count } = this.review.where(i);
        if (count > 0) addedRanges.push(this.rangeOf(line, line + count).with({ end: this.document.lineAt(this.line + line + count - 1).range.end }));
        if (h.removed.length > 0) removedOptions.push(removedNote(this.document, this.line + line, h.removed));
      }
    }
    for (const e of editors) {
      e.setDecorations(addedLook, addedRanges);
      e.setDecorations(removedLook, removedOptions);
    }
  }

  dispose(): void {
    this.ended = true;
    for (const e of vscode.window.visibleTextEditors.filter((v) => v.document === this.document)) {
      e.setDecorations(addedLook, []);
      e.setDecorations(removedLook, []);
    }
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
