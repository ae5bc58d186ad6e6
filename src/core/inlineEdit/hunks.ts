// Hunks of an edit: a line diff of the region's original text against the new text. Only changed
// lines become hunks (lines the new text repeats unchanged are never offered), and each hunk can be
// kept or undone on its own: the text of any choice is the original with the kept hunks applied.

/** A text's lines, each with its own line end ("\n", "\r\n" or none for a last line without one). */
export function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$/g) ?? [];
}

export interface Hunk {
  /** First line of the hunk in the original region (0-based). */
  start: number;
  /** The original's lines the hunk removes (line ends included). */
  removed: string[];
  /** The lines it puts in their place. */
  added: string[];
}

/** Past this many cells the middle of the diff is one hunk (the common start and end are still left out). */
const MAX_CELLS = 4_000_000;

/** The hunks that turn `original` into `changed` (both texts, line ends compared exactly). */
export function diffLines(original: string, changed: string): Hunk[] {
  const a = splitLines(original);
  const b = splitLines(changed);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length === 0 && bm.length === 0) return [];
  if (am.length === 0 || bm.length === 0 || am.length * bm.length > MAX_CELLS) {
    return [{ start: head, removed: am, added: bm }];
  }
  // Longest common subsequence of the middles: lcs[i][j] for am[i..], bm[j..].
  const n = am.length;
  const m = bm.length;
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[at(i, j)] = am[i] === bm[j] ? lcs[at(i + 1, j + 1)] + 1 : Math.max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    }
  }
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  const flush = () => {
    if (current) hunks.push(current);
    current = undefined;
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && am[i] === bm[j]) {
      flush();
      i++;
      j++;
    } else if (j < m && (i === n || lcs[at(i, j + 1)] >= lcs[at(i + 1, j)])) {
      current ??= { start: head + i, removed: [], added: [] };
      current.added.push(bm[j++]);
    } else {
      current ??= { start: head + i, removed: [], added: [] };
      current.removed.push(am[i++]);
    }
  }
  flush();
  return hunks;
}

export type HunkState = 'pending' | 'kept' | 'undone';

/** A line edit of the current text: replace lines [start, end) with `text`. */
export interface LineEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The review of an edit: the original region, its hunks and a choice per hunk. The current text is
 * the original with every hunk that is not undone applied (the proposal is in the document while
 * it is reviewed; undoing a hunk puts its original lines back).
 */
export class EditReview {
  readonly hunks: readonly Hunk[];
  private readonly states: HunkState[];
  private readonly lines: readonly string[];

  constructor(readonly original: string, readonly proposed: string) {
    this.lines = splitLines(original);
    this.hunks = diffLines(original, proposed);
    this.states = this.hunks.map(() => 'pending');
  }

  state(i: number): HunkState {
    return this.states[i];
  }

  pending(): number[] {
    return this.states.flatMap((s, i) => (s === 'pending' ? [i] : []));
  }

  get done(): boolean {
    return this.pending().length === 0;
  }

  /** The region's text with the hunks for which `take` is true applied. */
  textWith(take: (i: number) => boolean): string {
    const out: string[] = [];
    let line = 0;
    this.hunks.forEach((h, i) => {
      out.push(...this.lines.slice(line, h.start));
      out.push(...(take(i) ? h.added : h.removed));
      line = h.start + h.removed.length;
    });
    out.push(...this.lines.slice(line));
    return out.join('');
  }

  /** The text as it is now: every hunk but the undone ones applied. */
  current(): string {
    return this.textWith((i) => this.states[i] !== 'undone');
  }

  /** The text once the review ends with the pending hunks kept (`keep`) or undone. */
  final(keep: boolean): string {
    return this.textWith((i) => this.states[i] === 'kept' || (keep && this.states[i] === 'pending'));
  }

  /**
   * The text a save writes while the review is open: the original with only the kept hunks (the
   * pending ones stay in the editor, not on disk, until they are kept).
   */
  saved(): string {
    return this.final(false);
  }

  /** The first line of hunk `i` in the current text, and how many lines it has there. */
  where(i: number): { line: number; count: number } {
    let shift = 0;
    for (let k = 0; k < i; k++) {
      if (this.states[k] !== 'undone') shift += this.hunks[k].added.length - this.hunks[k].removed.length;
    }
    const h = this.hunks[i];
    return { line: h.start + shift, count: this.states[i] === 'undone' ? h.removed.length : h.added.length };
  }

  /** Keeps hunk `i` (the current text does not change). */
  keep(i: number): void {
    if (this.states[i] === 'pending') this.states[i] = 'kept';
  }

  /** Undoes hunk `i`: the edit of the current text that puts its original lines back (undefined when it is not pending). */
  undo(i: number): LineEdit | undefined {
    if (this.states[i] !== 'pending') return undefined;
    const { line, count } = this.where(i);
    this.states[i] = 'undone';
    return { start: line, end: line + count, text: this.hunks[i].removed.join('') };
  }

  /** Ends the review: every pending hunk kept or undone. */
  settle(keep: boolean): void {
    this.states.forEach((s, i) => {
      if (s === 'pending') this.states[i] = keep ? 'kept' : 'undone';
    });
  }
}

/** An edit of a text: replace `length` characters at `at` (an offset of the text before the edit) with `text`. */
export interface TextChange {
  at: number;
  length: number;
  text: string;
}

/**
 * The edits that make `from` into `to`, one per changed run of lines (the lines both have are not
 * touched, so a cursor or a mark on them stays where it is). All offsets are `from`'s: the edits
 * apply together, as those of one workspace edit do.
 */
export function textChanges(from: string, to: string): TextChange[] {
  if (from === to) return [];
  const lines = splitLines(from);
  const offsets = [0];
  for (const l of lines) offsets.push(offsets[offsets.length - 1] + l.length);
  return diffLines(from, to).map((h) => ({ at: offsets[h.start], length: offsets[h.start + h.removed.length] - offsets[h.start], text: h.added.join('') }));
}

/** `text` with `changes` (offsets of `text`, not overlapping) applied. */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  let out = '';
  let at = 0;
  for (const c of [...changes].sort((a, b) => a.at - b.at)) {
    out += text.slice(at, c.at) + c.text;
    at = c.at + c.length;
  }
  return out + text.slice(at);
}

/** A change of a document as VS Code reports it: offsets of the text before it. */
export interface OffsetChange {
  rangeOffset: number;
  rangeLength: number;
  text: string;
}

/**
 * What changes of a document do to a region [offset, end) of it: how far they move it (changes
 * before it), or 'touched' when one of them falls inside it (or at its start, for a deletion that
 * ends there; at its end, for a region that is not empty).
 */
export function regionShift(changes: readonly OffsetChange[], offset: number, end: number): number | 'touched' {
  let shift = 0;
  for (const c of changes) {
    const changeEnd = c.rangeOffset + c.rangeLength;
    const before = changeEnd < offset || (changeEnd === offset && c.rangeLength > 0);
    const after = c.rangeOffset > end || (c.rangeOffset === end && end > offset);
    if (before) shift += c.text.length - c.rangeLength;
    else if (!after) return 'touched';
  }
  return shift;
}
