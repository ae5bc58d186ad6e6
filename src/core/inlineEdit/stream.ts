// An edit's reply as it streams: which of its lines are code, which of those replace the region,
// and how the region looks in the editor meanwhile (the new lines so far, the original lines they
// have not reached yet, and the removed ones, which are only shown beside the text). What is shown
// is a preview: when the reply is complete, `finish()` takes the code from the whole reply
// (extractReplacement) and the region is made exactly that, whatever the preview showed.
//
// When a line of a reply is code (the rule a user can rely on):
// - inside the reply's first fenced block (``` or ~~~), from the line after the opening fence to
//   the closing one; the lines after that block are not shown (the whole reply decides at the end);
// - in a reply without a fence, only once it clearly is bare code: its first three non-blank lines
//   read as code (at least two with code punctuation or indentation) and none as prose or markdown
//   (a sentence, a heading, a list item, a table row), or one of them repeats a line of the
//   selection; the lines held until then are shown together;
// - anything else (a reply that starts with prose, a heading or a list) shows nothing until a
//   fence opens; with no fence at all, nothing is shown until the reply is complete.
// So prose is never written into the document, not even for a moment; when in doubt, the edit
// waits for the complete reply rather than guess.
//
// A reply that repeats the lines before the region (the whole file, or the window sent) has those
// lines held while they go on repeating and dropped once they reach the region; lines repeating the
// lines after the region are held while they do (shown as soon as the repeat breaks off). Lines the
// reply repeats unchanged are shown as they are, never as a change.
import { commonIndent, extractReplacement, substantial, type EditRegion, type Extracted } from './extract';
import { closesFence, meaningfulLine, openingFence, type Fence } from '../text/fences';
import { diffLines, splitLines, type LineEdit } from './hunks';

/** A line without its line end. */
export function bare(line: string): string {
  return line.replace(/\r?\n$|\r$/, '');
}

/** The complete lines of a growing text, line ends ("\n", "\r\n", "\r") taken off. */
export class LineSplitter {
  private rest = '';

  /** The lines `chunk` completes. */
  push(chunk: string): string[] {
    const text = this.rest + chunk;
    // A "\r" at the end may be the first half of "\r\n": it waits for the next piece.
    const end = text.endsWith('\r') ? text.length - 1 : text.length;
    const parts = text.slice(0, end).split(/\r\n|\n|\r/);
    this.rest = (parts.pop() ?? '') + text.slice(end);
    return parts;
  }

  /** The last line, when the text does not end with a line end. */
  end(): string | undefined {
    const last = bare(this.rest);
    this.rest = '';
    return last === '' ? undefined : last;
  }
}

const CODE_PUNCTUATION = /[;{}=<>[\]]|=>|\(\)/;

/** A line that reads as prose or markdown rather than code. */
export function proseLine(line: string): boolean {
  const t = line.trim();
  if (CODE_PUNCTUATION.test(t)) return false;
  if (/^\|.*\|$/.test(t)) return true; // a table row
  if (/^#{1,6}\s+\p{Lu}/u.test(t)) return true; // a heading
  const words = t.split(/\s+/).length;
  if (/^(?:[-*+]|\d+[.)])\s+\S/.test(t) && words >= 3) return true; // a list item
  return /^[\p{Lu}"'(*]/u.test(t) && words >= 4 && /[.!?:)]$/.test(t); // a sentence
}

/** A line that reads as code: code punctuation, indentation, or a comment. */
function codeLine(line: string): boolean {
  const t = line.trim();
  return /[;{}()=<>[\]]|=>/.test(t) || /^[ \t]/.test(line) || /^(?:\/\/|\/\*|\*|--|<)/.test(t);
}


export type GateState = 'undecided' | 'prose' | 'fence' | 'bare' | 'closed';

/** Decides which lines of the reply are code (the rule above). */
export class CodeGate {
  state: GateState = 'undecided';
  private fence: Fence = { char: '`', length: 3 };
  private held: string[] = [];

  constructor(private readonly selected: ReadonlySet<string>) {}

  /** The code lines `line` gives: none, itself, or the lines held until the reply was clearly code. */
  take(line: string): string[] {
    switch (this.state) {
      case 'closed':
        return [];
      case 'fence': {
        if (closesFence(line, this.fence)) {
          this.state = 'closed';
          return [];
        }
        return [line];
      }
      case 'bare':
        if (openingFence(line)) this.state = 'closed';
        return this.state === 'closed' ? [] : [line];
      default:
        break;
    }
    const open = openingFence(line);
    if (open) {
      this.state = 'fence';
      this.fence = open;
      this.held = [];
      return [];
    }
    if (this.state === 'prose') return [];
    this.held.push(line);
    if (line.trim() === '') return [];
    if (proseLine(line)) {
      this.state = 'prose';
      this.held = [];
      return [];
    }
    const said = this.held.filter((l) => l.trim() !== '');
    const repeats = meaningfulLine(line) && this.selected.has(line.trim());
    if (!repeats && said.length < 3) return [];
    if (!repeats && said.filter(codeLine).length < 2) {
      this.state = 'prose';
      this.held = [];
      return [];
    }
    this.state = 'bare';
    const first = this.held.findIndex((l) => l.trim() !== '');
    const out = this.held.slice(first);
    this.held = [];
    return out;
  }
}

const same = (a: string | undefined, b: string) => a !== undefined && a.trimEnd() === b.trimEnd();

/**
 * Holds the code lines that repeat the document around the region: a run repeating the lines
 * before it is dropped once it reaches the region (as extractReplacement drops it); a run
 * repeating the lines after it is held until it breaks off.
 */
export class RepeatFilter {
  private lead: string[] = [];
  private starts: number[] | undefined;
  private trail: string[] = [];
  /** Lines dropped as a repeat of the lines before the region. */
  dropped = 0;

  constructor(private readonly before: readonly string[], private readonly after: readonly string[]) {
    this.starts = before.length > 0 ? before.map((_, i) => i) : undefined;
  }

  take(line: string): string[] {
    if (!this.starts) return this.release([line]);
    const k = this.lead.length;
    const n = this.before.length;
    const going = this.starts.filter((s) => s + k < n && same(this.before[s + k], line));
    if (going.length === 0) {
      this.starts = undefined;
      return this.release([...this.lead.splice(0), line]);
    }
    this.lead.push(line);
    if (going.some((s) => s + k + 1 === n) && substantial(this.lead, this.before)) {
      this.dropped = this.lead.length;
      this.lead = [];
      this.starts = undefined;
      return [];
    }
    this.starts = going.filter((s) => s + k + 1 < n);
    if (this.starts.length > 0) return [];
    this.starts = undefined;
    return this.release(this.lead.splice(0));
  }

  /** The code is complete: a held repeat of the lines after the region is dropped when it is the context sent (as extractReplacement drops it), else shown. */
  end(): string[] {
    const held = this.trail.splice(0);
    return substantial(held, this.after) ? [] : held;
  }

  private release(lines: readonly string[]): string[] {
    const out: string[] = [];
    for (const line of lines) {
      if (this.trail.length < this.after.length && same(this.after[this.trail.length], line)) {
        this.trail.push(line);
        continue;
      }
      out.push(...this.trail.splice(0));
      if (same(this.after[0], line)) this.trail.push(line);
      else out.push(line);
    }
    return out;
  }
}

/** The region as the editor shows it while the reply streams (lines of the region, 0-based). */
export interface StreamView {
  /** The region's lines, each with its line end (the last one without, when the region has none). */
  lines: string[];
  /** How many new lines are shown (the first lines of the region). */
  shown: number;
  /** The region's lines that are new (not a line of the original repeated). */
  added: number[];
  /** Original lines taken out, shown beside region line `at` (never written into the document). */
  removed: Array<{ at: number; lines: string[] }>;
  /** The original lines the reply has not reached yet: region lines [shown, shown + pending). */
  pending: number;
}

type Step = { kind: 'same'; index: number } | { kind: 'added'; line: string } | { kind: 'removed'; lines: string[] };

/** The reply's code lines against the original: each new line is a line kept or an added one. */
export class LiveAlignment {
  private readonly original: string[];
  private readonly bareOriginal: string[];
  private readonly steps: Step[] = [];
  private next = 0;

  constructor(private readonly region: EditRegion) {
    this.original = splitLines(region.text);
    this.bareOriginal = this.original.map(bare);
  }

  add(line: string): void {
    if (this.next < this.bareOriginal.length && this.bareOriginal[this.next] === line) {
      this.steps.push({ kind: 'same', index: this.next++ });
      return;
    }
    // A line that says something and that the original has further on: the lines up to it are
    // taken out. A blank line or a lone bracket matches only the very next original line.
    const found = meaningfulLine(line) ? this.bareOriginal.indexOf(line, this.next + 1) : -1;
    if (found >= 0) {
      this.steps.push({ kind: 'removed', lines: this.original.slice(this.next, found) }, { kind: 'same', index: found });
      this.next = found + 1;
      return;
    }
    this.steps.push({ kind: 'added', line });
  }

  /** The code is complete (`code`: the region's new text): the steps become the exact diff, as the review will show it. */
  settle(code: string): void {
    this.steps.length = 0;
    let at = 0;
    const keep = (to: number) => {
      for (; at < to; at++) this.steps.push({ kind: 'same', index: at });
    };
    for (const h of diffLines(this.region.text, code)) {
      keep(h.start);
      if (h.removed.length > 0) this.steps.push({ kind: 'removed', lines: h.removed });
      for (const line of h.added) this.steps.push({ kind: 'added', line: bare(line) });
      at = h.start + h.removed.length;
    }
    keep(this.original.length);
    this.next = this.original.length;
  }

  view(): StreamView {
    const lines: string[] = [];
    const added: number[] = [];
    const removed: StreamView['removed'] = [];
    for (const step of this.steps) {
      if (step.kind === 'removed') removed.push({ at: lines.length, lines: step.lines });
      else if (step.kind === 'same') lines.push(this.original[step.index]);
      else {
        added.push(lines.length);
        lines.push(step.line + this.region.eol);
      }
    }
    const shown = lines.length;
    const tail = this.original.slice(this.next);
    lines.push(...tail);
    // The region has no line end at its end (the end of the document): nor has the view.
    if (tail.length === 0 && shown > 0 && !/\n$/.test(this.region.text)) lines[shown - 1] = bare(lines[shown - 1]);
    return { lines, shown, added, removed, pending: tail.length };
  }
}

/** A reply streaming into a region: the preview while it comes, and the code once it is complete. */
export class EditStream {
  private readonly splitter = new LineSplitter();
  private readonly gate: CodeGate;
  private readonly repeats: RepeatFilter;
  private readonly align: LiveAlignment;
  private readonly indent: string;
  private reindent: boolean | undefined;
  private text = '';
  /** The code lines shown so far. */
  readonly code: string[] = [];

  constructor(readonly region: EditRegion) {
    const original = splitLines(region.text).map(bare);
    this.gate = new CodeGate(new Set(original.filter(meaningfulLine).map((l) => l.trim())));
    this.repeats = new RepeatFilter(region.before, region.after);
    this.align = new LiveAlignment(region);
    this.indent = commonIndent(original);
  }

  /** The reply so far. */
  get reply(): string {
    return this.text;
  }

  /** Whether the reply's lines are being shown as code (a fence is open, or the reply is bare code). */
  get state(): GateState {
    return this.gate.state;
  }

  /** Adds a piece of the reply; true when more code lines are to be shown. */
  push(chunk: string): boolean {
    this.text += chunk;
    let more = false;
    for (const line of this.splitter.push(chunk)) {
      const open = this.gate.state !== 'closed';
      for (const code of this.gate.take(line)) {
        for (const kept of this.repeats.take(code)) {
          more = true;
          this.show(kept);
        }
      }
      if (open && this.gate.state === 'closed') {
        this.close();
        more = true;
      }
    }
    return more;
  }

  /** The code block is complete: a held repeat is settled, and the view becomes the exact diff. */
  private close(): void {
    for (const line of this.repeats.end()) this.show(line);
    const eol = this.region.eol;
    const end = /\n$/.test(this.region.text) ? eol : '';
    this.align.settle(this.code.length === 0 ? '' : this.code.join(eol) + end);
  }

  private show(line: string): void {
    // Code given without the region's indentation gets it (decided on the first non-blank line).
    if (this.reindent === undefined && line.trim() !== '') this.reindent = this.indent !== '' && !/^[ \t]/.test(line);
    const fitted = this.reindent && line.trim() !== '' ? this.indent + line : line;
    this.code.push(fitted);
    this.align.add(fitted);
  }

  view(): StreamView {
    return this.align.view();
  }

  /** The code that replaces the region, from the whole reply. */
  finish(): Extracted {
    return extractReplacement(this.text, this.region);
  }
}

/** The smallest edit (whole lines) that turns the lines `from` into `to`; undefined when they are the same. */
export function lineEdit(from: readonly string[], to: readonly string[]): LineEdit | undefined {
  let head = 0;
  while (head < from.length && head < to.length && from[head] === to[head]) head++;
  let tail = 0;
  while (tail < from.length - head && tail < to.length - head && from[from.length - 1 - tail] === to[to.length - 1 - tail]) tail++;
  if (head === from.length && head === to.length) return undefined;
  return { start: head, end: from.length - tail, text: to.slice(head, to.length - tail).join('') };
}
