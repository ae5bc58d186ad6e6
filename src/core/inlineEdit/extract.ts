// The code that replaces the selection, taken from a model's reply: the code of a fenced block
// (prose around it is dropped), or the reply itself when it is bare code; a reply that repeats the
// file (or the window of it that was sent) around the new code gives only the new code; a reply
// that is only prose gives none.

import { closesFence, meaningfulLine, openingFence, type Fence as MarkdownFence } from '../text/fences';

/** A region of whole lines of a document: the lines before it, its own, and the lines after it. */
export interface EditRegion {
  /** The document's lines before the region, without their line ends. */
  before: readonly string[];
  /** The region's text as it is in the document (line ends included). */
  text: string;
  /** The document's lines after the region, without their line ends. */
  after: readonly string[];
  /** The document's line end. */
  eol: '\n' | '\r\n';
}

export type Extracted =
  | {
      kind: 'code';
      /** The replacement, in the document's line ends and with the region's final line end (or none). */
      code: string;
      /** Where it came from: a fenced block, the bare reply, or a reply that repeated the file around it. */
      from: 'fence' | 'plain' | 'wholeFile';
    }
  | { kind: 'none'; reason: 'empty' | 'prose' };

interface Fence {
  body: string[];
  closed: boolean;
}


/** The fenced blocks of a reply, in order (an unclosed last block runs to the end of the reply). */
export function fencedBlocks(reply: string): Array<{ body: string; closed: boolean }> {
  const lines = reply.replace(/\r\n?/g, '\n').split('\n');
  const out: Fence[] = [];
  let open: { fence: MarkdownFence; block: Fence } | undefined;
  for (const line of lines) {
    if (!open) {
      const fence = openingFence(line);
      if (fence) {
        open = { fence, block: { body: [], closed: false } };
        out.push(open.block);
      }
      continue;
    }
    if (closesFence(line, open.fence)) {
      open.block.closed = true;
      open = undefined;
      continue;
    }
    open.block.body.push(line);
  }
  return out.map((f) => ({ body: f.body.join('\n'), closed: f.closed }));
}

/** Whether a reply without a fence reads as prose (sentences) rather than code. */
export function looksLikeProse(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return false;
  const prose = lines.filter((l) => /^[\p{Lu}"'(*-]/u.test(l) && !/[;{}=<>]|=>|\(\)/.test(l) && l.split(/\s+/).length >= 4 && /[.!?:)]$/.test(l));
  return prose.length * 2 >= lines.length;
}

/** How many lines at the start of `code` repeat the last lines of `before`, ending right at the region. */
function repeatedBefore(code: readonly string[], before: readonly string[]): number {
  for (let p = Math.min(code.length, before.length); p > 0; p--) {
    let same = true;
    for (let i = 0; i < p && same; i++) same = code[i].trimEnd() === before[before.length - p + i].trimEnd();
    if (same) return p;
  }
  return 0;
}

/** How many lines at the end of `code` repeat the first lines of `after`. */
function repeatedAfter(code: readonly string[], after: readonly string[]): number {
  for (let q = Math.min(code.length, after.length); q > 0; q--) {
    let same = true;
    for (let i = 0; i < q && same; i++) same = code[code.length - q + i].trimEnd() === after[i].trimEnd();
    if (same) return q;
  }
  return 0;
}

/**
 * A repeat long enough to be the context sent, not a line that happens to look the same: two lines
 * that say something, or every non-blank line of `context` (the document's lines before or after
 * the region; a blank last line, the document's final line end, need not be repeated).
 */
export function substantial(lines: readonly string[], context: readonly string[]): boolean {
  const meaningful = lines.filter(meaningfulLine).length;
  const said = (all: readonly string[]) => all.filter((l) => l.trim() !== '').length;
  return (said(lines) >= said(context) && meaningful >= 1) || meaningful >= 2;
}

/** The leading whitespace shared by every non-blank line. */
export function commonIndent(lines: readonly string[]): string {
  let indent: string | undefined;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const own = /^[ \t]*/.exec(l)?.[0] ?? '';
    if (indent === undefined) indent = own;
    else {
      let i = 0;
      while (i < indent.length && i < own.length && indent[i] === own[i]) i++;
      indent = indent.slice(0, i);
    }
  }
  return indent ?? '';
}

/** The code of a reply that replaces `region`, fitted to the document (line ends, final line end, indentation). */
export function extractReplacement(reply: string, region: EditRegion): Extracted {
  const fences = fencedBlocks(reply);
  const blocks = fences.filter((b) => b.body.trim() !== '');
  // A closed block with nothing in it: the region is to be removed.
  if (blocks.length === 0 && fences.some((b) => b.closed)) return { kind: 'code', code: '', from: 'fence' };
  let code: string;
  let from: 'fence' | 'plain' | 'wholeFile';
  if (blocks.length > 0) {
    // Several blocks: the longest is the code (the others are usually usage examples).
    code = blocks.reduce((a, b) => (b.body.length > a.body.length ? b : a)).body;
    from = 'fence';
  } else {
    const plain = reply.replace(/\r\n?/g, '\n');
    if (plain.trim() === '' || fences.length > 0) return { kind: 'none', reason: 'empty' };
    if (looksLikeProse(plain)) return { kind: 'none', reason: 'prose' };
    code = plain.replace(/^\n+/, '');
    from = 'plain';
  }
  let lines = code.replace(/\n+$/, '').split('\n');
  // A reply that repeats the file (or the window of it that was sent) around the new code.
  const p = repeatedBefore(lines, region.before);
  const q = repeatedAfter(lines.slice(p), region.after);
  const dropBefore = p > 0 && substantial(lines.slice(0, p), region.before);
  const dropAfter = q > 0 && substantial(lines.slice(lines.length - q), region.after);
  if (dropBefore || dropAfter) {
    lines = lines.slice(dropBefore ? p : 0, dropAfter ? lines.length - q : lines.length);
    from = 'wholeFile';
  }
  const original = region.text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  // The model gave the code without the region's indentation: put it back.
  const indent = commonIndent(original);
  if (indent !== '' && commonIndent(lines) === '') lines = lines.map((l) => (l.trim() === '' ? l : indent + l));
  const endsWithEol = /\n$/.test(region.text);
  return { kind: 'code', code: lines.join(region.eol) + (endsWithEol ? region.eol : ''), from };
}
