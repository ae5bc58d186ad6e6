// Nothing unaccepted reaches the disk. While a reply streams into the document and while its
// proposal is reviewed, a save (by hand or automatic: `files.autoSave` afterDelay, onFocusChange,
// onWindowChange) writes the region as the user has accepted it: the original while the reply
// streams, the original with only the kept hunks during the review. Just before the document is
// written (a save participant) the lines nobody accepted are taken out, one edit per changed run of
// lines (core/inlineEdit/hunks.ts textChanges); once it is written they are put back, so the
// editor shows them again, marked as modified. Both are edits of ours (OwnEdits): the owner's
// edits wait while the lines are out, and the owner's change handlers do not take them for the
// user's.
//
// VS Code gives a save participant about 1.5 s (and ignores one that runs over too often): the
// edits are computed from the document as it is, with nothing read from the disk. With
// afterDelay, putting the lines back makes the document modified again, so VS Code saves it again
// after the delay and the same text is written again: nothing can stop that from an extension (VS
// Code's own inline chat turns auto save off for the file, which extensions cannot do).
import * as vscode from 'vscode';
import { textChanges } from '../../core/inlineEdit/hunks';
import type { OwnEdits } from './inlineEditUndo';

/** A save that never ends (refused, failed, cancelled) gives the lines back after this long, ms. */
const GIVE_BACK_MS = 10_000;
/**
 * The participant's own bound, just under VS Code's (1.5 s, after which it counts the participant as
 * failing and, after a few, ignores it): past it the save goes on with the text as it is.
 */
const BUDGET_MS = 1_400;

/** What a save of the region writes, from its owner (the streamed preview, the review). */
export interface SaveSource {
  /** Offset of the region in the document now. */
  offset(): number;
  /** The region was found at `offset` (a key typed while an edit of ours was applied moved it unseen). */
  moveTo(offset: number): void;
  /** The region's text as the owner shows it (the reply's lines, the proposal). */
  shown(): string;
  /** The text a save writes in its place. */
  saved(): string;
}

/** `work` within the participant's budget; `late` runs when the budget is over first. */
function bounded(work: Promise<void>, late?: () => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), BUDGET_MS)));
  return Promise.race([work, budget]).then((how) => {
    clearTimeout(timer);
    if (how === 'late') late?.();
  });
}

interface Round {
  /** The saved text is in the region (else the lines were not taken out, or are back). */
  out: boolean;
  /** The lines are coming back. */
  returning: boolean;
  /** The text put in the region for the save. */
  held: string;
  /** Resolves once the lines are out (or stay in). */
  ready: Promise<void>;
  /** The save gave up waiting: the lines stay in. */
  late: boolean;
  release: (() => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves once the lines are back (or the round ended without them). */
  over: Promise<void>;
  done: () => void;
}

export class SaveGuard implements vscode.Disposable {
  private round: Round | undefined;
  private closed = false;
  private readonly subscriptions: vscode.Disposable[];

  /** `back`: the lines are back after a save (to decorate them again and go on). */
  constructor(
    private readonly document: vscode.TextDocument,
    private readonly edits: OwnEdits,
    private source: SaveSource,
    private back: () => void,
  ) {
    this.subscriptions = [
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (e.document !== this.document || this.closed) return;
        const round = this.round;
        // A save while another one's lines are out writes the same text; while they are coming back, it waits for them and takes them out again.
        if (round && !round.returning) e.waitUntil(bounded(round.ready));
        else if (round) e.waitUntil(bounded(round.over.then(() => this.start())));
        else if (this.source.shown() !== this.source.saved()) e.waitUntil(this.start());
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d === this.document) void this.putBack();
      }),
    ];
  }

  /**
   * The review takes over from the streamed preview (the same region, the same text then): a save
   * starting in between is still guarded, by whichever of them holds the region when it comes.
   */
  handOver(source: SaveSource, back: () => void): void {
    this.source = source;
    this.back = back;
  }

  /** From the save's start until the lines are back: the owner makes no edit of its own. */
  get busy(): boolean {
    return this.round !== undefined;
  }

  /** The text the region holds now: the saved one while the lines are out, else `shown`. */
  holding(shown: string): string {
    return this.round?.out ? this.round.held : shown;
  }

  /** Resolves once no save's round trip is under way. */
  async idle(): Promise<void> {
    while (this.round) await this.round.over;
  }

  private rangeOf(at: number, length: number): vscode.Range {
    const start = this.source.offset() + at;
    return new vscode.Range(this.document.positionAt(start), this.document.positionAt(start + length));
  }

  /**
   * Whether the region holds `from`, where its owner has it or, when a key typed while an edit of
   * ours was applied moved it unseen, at the nearest place that holds it (the owner then follows).
   */
  private holds(from: string): boolean {
    const text = this.document.getText();
    const offset = this.source.offset();
    if (text.startsWith(from, offset)) return true;
    const before = text.lastIndexOf(from, offset);
    const after = text.indexOf(from, offset);
    const found = before < 0 ? after : after < 0 ? before : offset - before <= after - offset ? before : after;
    if (found < 0 || from === '') return false;
    this.source.moveTo(found);
    return true;
  }

  /** Replaces the region's `from` text with `to`, touching only the lines that differ; false when it does not hold `from`. */
  private async swap(from: string, to: string): Promise<boolean> {
    if (!this.holds(from)) return false;
    const changes = textChanges(from, to).map((c) => ({ range: this.rangeOf(c.at, c.length), text: c.text }));
    return this.edits.change(changes);
  }

  /** The save participant: once our edits under way are over, the lines nobody accepted go out (within the budget). */
  private start(): Promise<void> {
    if (this.round || this.closed || this.source.shown() === this.source.saved()) return Promise.resolve();
    let done = () => {};
    const over = new Promise<void>((resolve) => (done = resolve));
    const round: Round = { out: false, returning: false, held: '', ready: over, late: false, release: undefined, timer: undefined, over, done };
    this.round = round;
    round.ready = (async () => {
      const release = await this.edits.hold();
      round.release = release;
      if (round.late || this.round !== round) return this.end(round);
      // A save that does not end (refused, failed) gives the lines back after a while.
      round.timer = setTimeout(() => void this.putBack(), GIVE_BACK_MS);
      const shown = this.source.shown();
      round.held = this.source.saved();
      // A key typed meanwhile refuses the edit (it was made for the text before): made again where the region now is.
      for (let tries = 0; tries < 3 && !round.out && !this.closed && shown !== round.held; tries++) {
        round.out = await this.swap(shown, round.held);
        if (!round.out && !this.holds(shown)) break;
      }
      if (!round.out) this.end(round);
    })();
    return bounded(round.ready, () => {
      if (!round.release) round.late = true;
    });
  }

  /** The save is over: the lines nobody accepted come back. */
  private async putBack(): Promise<void> {
    const round = this.round;
    if (!round?.release || round.returning) return;
    clearTimeout(round.timer);
    round.timer = undefined;
    round.returning = true;
    if (round.out && !this.closed) {
      const saved = round.held;
      // Typing meanwhile moves the region (the owner follows it): the edit is made again where it now is.
      for (let tries = 0; tries < 3 && round.out; tries++) {
        if (await this.swap(saved, this.source.shown())) round.out = false;
        else if (!this.holds(saved)) break;
      }
    }
    this.end(round);
    if (!this.closed) this.back();
  }

  private end(round: Round): void {
    clearTimeout(round.timer);
    round.out = false;
    if (this.round === round) this.round = undefined;
    round.release?.();
    round.done();
  }

  dispose(): void {
    this.closed = true;
    if (this.round) this.end(this.round);
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
