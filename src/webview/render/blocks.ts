// Splitting a streamed markdown reply into top-level blocks. Pure: no DOM.
//
// Text is pushed as it arrives. `take()` returns the blocks that can no longer change: every
// top-level block (paragraph, list, table, fenced code, heading, …) that is followed by the start
// of another top-level block on a complete line. The last block, and anything on an incomplete
// last line, stays pending (`tail`) because more text may still change it (a paragraph may turn
// into a setext heading or a table, a fence may still be open, a list may get more items).
// `end()` returns all that is left once the reply is complete.
//
// Boundaries come from markdown-it's own block parser (`blockStarts`), so the split always agrees
// with how the text is rendered. Feeding a document in any chunking yields the same blocks as
// splitting it whole (test/unit/render/blocks.test.ts checks that on random splits).
import type { MarkdownIt } from 'markdown-it';
import { hasLongRun } from '../../wording/longWords';

/** Start line (0-based) of each top-level block of `src`, ascending. */
export type BlockStarts = (src: string) => number[];

export function markdownBlockStarts(blockParser: MarkdownIt): BlockStarts {
  return (src) => {
    const starts: number[] = [];
    for (const token of blockParser.parse(src, {})) {
      if (token.level === 0 && token.nesting !== -1 && token.map) starts.push(token.map[0]);
    }
    return starts;
  };
}

export class BlockSplitter {
  private pending = '';
  private carryCR = false;
  /** Length of `pending`'s complete lines at the last `take()` that found nothing to commit. */
  private checkedUpTo = -1;

  constructor(private readonly blockStarts: BlockStarts) {}

  /** Adds streamed text. Line endings are normalised to `\n` (a CRLF may be split across chunks). */
  push(chunk: string): void {
    if (!chunk) return;
    let text = this.carryCR ? '\r' + chunk : chunk;
    this.carryCR = text.endsWith('\r');
    if (this.carryCR) text = text.slice(0, -1);
    this.pending += text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  }

  /** Text not yet returned as a finished block (the open tail of the reply). */
  get tail(): string {
    return this.pending;
  }

  /** Removes and returns the blocks that are finished. */
  take(): string[] {
    const complete = this.pending.lastIndexOf('\n') + 1;
    if (complete === 0 || complete === this.checkedUpTo) return [];
    const starts = this.blockStarts(this.pending.slice(0, complete));
    if (starts.length < 2) {
      this.checkedUpTo = complete;
      return [];
    }
    // Every block before the last one that starts on a complete line is finished.
    return this.cut(starts, starts.length - 1);
  }

  /** Removes and returns every remaining block (the reply is complete). */
  end(): string[] {
    if (this.carryCR) {
      this.pending += '\n';
      this.carryCR = false;
    }
    if (!this.pending) return [];
    const starts = this.blockStarts(this.pending);
    const blocks = starts.length > 1 ? this.cut(starts, starts.length - 1) : [];
    if (this.pending) blocks.push(this.pending);
    this.pending = '';
    this.checkedUpTo = -1;
    return blocks;
  }

  /** Splits off the blocks before `starts[upTo]`. */
  private cut(starts: number[], upTo: number): string[] {
    const offsets = lineOffsets(this.pending, starts[upTo]);
    const blocks: string[] = [];
    let from = 0;
    for (let i = 1; i <= upTo; i++) {
      const at = offsets[starts[i]];
      if (at > from) blocks.push(this.pending.slice(from, at));
      from = at;
    }
    this.pending = this.pending.slice(from);
    this.checkedUpTo = -1;
    return blocks;
  }
}

/** Character offset of the start of each line 0..maxLine. */
function lineOffsets(text: string, maxLine: number): number[] {
  const offsets = [0];
  let at = 0;
  while (offsets.length <= maxLine) {
    at = text.indexOf('\n', at) + 1;
    if (at === 0) break;
    offsets.push(at);
  }
  return offsets;
}

/** Splits a complete document into its blocks (what streaming it in any chunking yields). */
export function splitWhole(blockStarts: BlockStarts, text: string): string[] {
  const splitter = new BlockSplitter(blockStarts);
  splitter.push(text);
  return splitter.end();
}

/**
 * While the tail ends in a half-typed table delimiter row right under a header row
 * (`| a | b |` + `|--`), complete the delimiter so the table shows at once instead of flashing
 * as a paragraph of pipes.
 */
export function completePartialTable(tail: string): string {
  const lastNl = tail.lastIndexOf('\n');
  if (lastNl <= 0) return tail;
  const last = tail.slice(lastNl + 1);
  if (!/^ {0,3}\|?[\s:|-]*$/.test(last) || !/[|-]/.test(last)) return tail;
  const prevNl = tail.lastIndexOf('\n', lastNl - 1);
  const header = tail.slice(prevNl + 1, lastNl);
  if (!header.includes('|')) return tail;
  const before = prevNl > 0 ? tail.slice(tail.lastIndexOf('\n', prevNl - 1) + 1, prevNl) : '';
  if (before.includes('|')) return tail; // already inside a table
  const cells = header.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '').split(/(?<!\\)\|/).length;
  return tail.slice(0, lastNl + 1) + '|' + ' --- |'.repeat(cells);
}

export interface OpenFence {
  /** Language of the info string ('' when none or not a plain identifier). */
  info: string;
  /** The code so far (indentation of the opening fence removed, as CommonMark does). */
  code: string;
}

/**
 * When `tail` (text starting at a block boundary) is one fenced code block that is still open,
 * returns its info string and code, else null (closed fence, other blocks, escapes in the info
 * string: those take the normal markdown path).
 */
export function openFence(tail: string): OpenFence | null {
  const opener = /^( {0,3})(`{3,}|~{3,})([^\n]*)\n/.exec(tail);
  if (!opener) return null;
  const [line, indent, fence, info] = opener;
  if ((fence[0] === '`' && info.includes('`')) || /[&\\]/.test(info)) return null;
  const body = tail.slice(line.length);
  const closer = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'm');
  if (closer.test(body)) return null;
  const code = indent ? body.replace(new RegExp(`^ {1,${indent.length}}`, 'gm'), '') : body;
  return { info: info.trim(), code };
}

/** The end of a paragraph as markdown-it trims it: spaces, tabs and line breaks, not other Unicode spaces. */
export function trimEndAscii(text: string): string {
  return text.replace(/[ \t\n\r]+$/, '');
}

export const SPECIAL = /[\u0000-\u001f\u007f*_`[\]()<>!&\\~|#:@/=+\-$^{}]/;
const SPECIAL_LAST = /[\u0000-\u001f\u007f*_`[\]()<>!&\\~|#:@/=+\-$^{}][^\u0000-\u001f\u007f*_`[\]()<>!&\\~|#:@/=+\-$^{}]*$/;

/**
 * When going from the rendered tail `before` to `after` only appends plain words (and spaces) to
 * the end of the last line, returns the text to add to the last rendered text node (else null;
 * '' when nothing shows yet). "Plain": no markdown punctuation and no line break, and the last
 * line already ends in a run of plain text holding a completed word (`…word wor`), so its block
 * role is settled, no emphasis delimiter, link or autolink can change, and the rendered text node
 * `lastText` ends with that same run. Spaces at the end of the line are not rendered (markdown-it
 * trims a block's last line): they are added once words follow them. Then rendering `after`
 * equals rendering `before` plus the returned text at the end of that node.
 */
export function plainAppend(before: string, after: string, lastText: string): string | null {
  if (!after.startsWith(before) || after.length === before.length) return null;
  if (SPECIAL.test(after.slice(before.length))) return null;
  const shownBefore = trimEndAscii(before);
  if (!shownBefore || SPECIAL.test(before.slice(shownBefore.length)) || SPECIAL.test(shownBefore[shownBefore.length - 1])) return null;
  const special = SPECIAL_LAST.exec(shownBefore);
  const run = special ? shownBefore.slice(special.index + 1) : shownBefore;
  if (!/\S\s+\S/.test(run) || !lastText.endsWith(run.replace(/^\s+/, ''))) return null;
  const delta = trimEndAscii(after).slice(shownBefore.length);
  // A word grown past the length where it gets <wbr>s (src/wording/longWords.ts) is rendered again with them.
  return hasLongRun((/\S*$/.exec(shownBefore)?.[0] ?? '') + delta) ? null : delta;
}
