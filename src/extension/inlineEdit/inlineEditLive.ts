// An edit's reply streaming into the editor as a diff in place: each code line of the reply goes
// into the document as soon as it is complete (core/inlineEdit/stream.ts decides which lines are code and
// how the region looks meanwhile); the original lines it has not reached yet stay below it, marked;
// the lines it takes out are shown beside the text, never written into the document. Our edits are
// one undo step (while nothing else changes the document), so the editor's own Undo takes them back
// and a document that was clean is clean again.
//
// A save while the reply streams writes the original (inlineEditSave.ts): the original lines are
// back just before the document is written, and the reply's lines come back once it is written.
// The file on disk never holds a mix of the two.
import * as vscode from 'vscode';
import { regionShift, splitLines } from '../../core/inlineEdit/hunks';
import { EditStream, lineEdit, type StreamView } from '../../core/inlineEdit/stream';
import type { EditTarget } from './inlineEditTarget';
import { addedLook, removedLook, removedNote, streamingDecoration } from './inlineEditUi';
import { SaveGuard } from './inlineEditSave';
import { OwnEdits } from './inlineEditUndo';

/** While lines wait to go in, the decorations are brought up to date at least this often, ms. */
const DECORATE_MS = 150;

/** Why the preview stopped before the reply was complete: the lines were changed by someone else, or the document was closed. */
export type LiveEnd = 'changed' | 'closed';

export class InlineEditLive implements vscode.Disposable {
  readonly stream: EditStream;
  /** Our edits to the document (the review goes on with them). */
  private readonly edits: OwnEdits;
  /** Offset of the region in the document (moves when text before it changes). */
  offset: number;
  private readonly original: string[];
  /** The region's lines as the document holds them now. */
  private shown: string[];
  private wanted = false;
  private running: Promise<void> | undefined;
  /** When the decorations were last set (Date.now()). */
  private decorated = 0;
  /** A save writes the original lines, not the reply's. */
  private readonly guard: SaveGuard;
  private ended = false;
  interrupted: LiveEnd | undefined;
  private message = '';
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(readonly document: vscode.TextDocument, target: EditTarget, private readonly onInterrupt: (why: LiveEnd) => void) {
    this.stream = new EditStream(target.region);
    this.edits = new OwnEdits(document);
    this.offset = target.offset;
    this.original = splitLines(target.region.text);
    this.shown = [...this.original];
    const source = { offset: () => this.offset, moveTo: (at: number) => void (this.offset = at), shown: () => this.shown.join(''), saved: () => this.original.join('') };
    this.guard = new SaveGuard(document, this.edits, source, () => {
      // The reply's lines are back after the save: on with the ones that came meanwhile.
      if (this.ended) return;
      this.decorate(this.stream.view());
      this.schedule();
    });
    this.subscriptions.push(
      this.guard,
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === this.document) this.interrupt('closed');
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate(this.stream.view())),
    );
    this.decorate(this.stream.view());
  }

  /** A piece of the reply: its completed code lines go into the document. */
  push(chunk: string): void {
    if (this.stream.push(chunk)) this.schedule();
  }

  /** The progress shown after the last line of the preview. */
  status(message: string): void {
    this.message = message;
    if (!this.running) this.decorate(this.stream.view());
  }

  private schedule(): void {
    this.wanted = true;
    if (!this.running && !this.guard.busy && !this.ended) this.running = this.loop();
  }

  /**
   * Writes the latest view, and again while more lines came meanwhile (one edit at a time). While
   * lines are waiting, the next edit goes first and the decorations catch up after it (at least
   * every DECORATE_MS): the window would otherwise work on them before taking the waiting lines in.
   */
  private async loop(): Promise<void> {
    try {
      while (this.wanted && !this.guard.busy && !this.ended) {
        this.wanted = false;
        const view = this.stream.view();
        if (!(await this.edits.run(() => this.write(view.lines, false)))) break;
        if (!this.ended && (!this.wanted || Date.now() - this.decorated >= DECORATE_MS)) this.decorate(view);
      }
    } finally {
      this.running = undefined;
    }
  }

  /** Offset of region line `n` in the document. */
  private at(n: number): number {
    let offset = this.offset;
    for (let i = 0; i < n; i++) offset += this.shown[i].length;
    return offset;
  }

  /** Makes the region's lines `lines` with the smallest edit; `last` ends our undo step. */
  private async write(lines: readonly string[], last: boolean): Promise<boolean> {
    const edit = lineEdit(this.shown, lines);
    if (!edit) return true;
    const range = new vscode.Range(this.document.positionAt(this.at(edit.start)), this.document.positionAt(this.at(edit.end)));
    // Every edit of the preview joins one undo step, closed by the last one.
    if (!(await this.edits.replace(range, edit.text, { last }))) return false;
    this.shown = [...lines];
    return true;
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    if (e.document !== this.document || this.edits.applying || this.ended || e.contentChanges.length === 0) return;
    this.edits.others();
    const end = this.offset + this.guard.holding(this.shown.join('')).length;
    const shift = regionShift(e.contentChanges, this.offset, end);
    if (shift === 'touched') return this.interrupt('changed');
    this.offset += shift;
  }

  /** Our edits and a save under way are over. */
  private async quiet(): Promise<void> {
    while (this.running || this.guard.busy) {
      await this.running;
      await this.guard.idle();
    }
  }

  /** The reply is complete: the region becomes `code` as one undo step (Keep Edit is one Ctrl+Z), for the review. */
  async converge(code: string): Promise<OwnEdits | undefined> {
    await this.quiet();
    if (this.ended) return undefined;
    this.ended = true;
    this.clear();
    return this.edits.run(async () => {
      // Our edits may be several undo steps (the workbench does not always join them): they are taken
      // back with the editor's Undo and the code goes in as one edit, so Keep Edit is one Ctrl+Z.
      if (this.edits.count > 1) await this.undoOurs();
      return (await this.write(splitLines(code), true)) ? this.edits : undefined;
    });
  }

  /**
   * Stop, a failure, or a reply without code: the region goes back to its original text, byte for
   * byte. When nothing but our edits changed the document, the editor's own Undo takes them back
   * (a clean document is clean again); otherwise one edit puts the original lines back.
   */
  async revert(): Promise<boolean> {
    await this.quiet();
    const interrupted = this.interrupted !== undefined;
    this.ended = true;
    this.clear();
    if (interrupted) return false;
    return this.edits.run(async () => {
      if (!this.edits.wasDirty && (await this.undoOurs())) return true;
      return this.write(this.original, true);
    });
  }

  /** The save guard, for the review to take over (the preview no longer disposes it). */
  handOver(): SaveGuard {
    const at = this.subscriptions.indexOf(this.guard);
    if (at >= 0) this.subscriptions.splice(at, 1);
    return this.guard;
  }

  /** Takes our edits back with the editor's Undo when nothing else changed the document; true when it is as before. */
  private async undoOurs(): Promise<boolean> {
    const undone = await this.edits.undo();
    if (undone === undefined) return false;
    // Only the region differs from the text before: what it holds now is what lies between the
    // text before it and the text after it.
    const text = this.document.getText();
    const after = this.edits.snapshot.length - this.offset - this.original.join('').length;
    this.shown = splitLines(text.slice(this.offset, text.length - after));
    return undone;
  }

  private interrupt(why: LiveEnd): void {
    if (this.ended) return;
    this.interrupted = why;
    this.ended = true;
    this.clear();
    this.onInterrupt(why);
  }

  private decorate(view: StreamView): void {
    if (this.ended || this.document.isClosed) return;
    this.decorated = Date.now();
    const first = this.document.positionAt(this.offset).line;
    const last = Math.min(this.document.lineCount - 1, first + Math.max(view.lines.length, 1) - 1);
    const line = (i: number) => this.document.lineAt(Math.min(first + i, last)).range;
    const added = view.added.map(line);
    const removed = view.removed.map((r) => removedNote(this.document, Math.min(first + r.at, last), r.lines));
    // The lines not reached yet are marked; the progress follows the last new line (or the first line).
    const progress: vscode.DecorationOptions[] = [];
    if (view.pending > 0) progress.push({ range: line(view.shown).with({ end: line(view.shown + view.pending - 1).end }) });
    if (this.message) progress.push({ range: line(Math.max(view.shown - 1, 0)), renderOptions: { after: { contentText: this.message } } });
    for (const e of vscode.window.visibleTextEditors.filter((v) => v.document === this.document)) {
      e.setDecorations(addedLook, added);
      e.setDecorations(removedLook, removed);
      e.setDecorations(streamingDecoration, progress);
    }
  }

  private clear(): void {
    for (const e of vscode.window.visibleTextEditors.filter((v) => v.document === this.document)) {
      for (const look of [addedLook, removedLook, streamingDecoration]) e.setDecorations(look, []);
    }
  }

  dispose(): void {
    this.ended = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
