// Fenced code blocks of Markdown, one line at a time: the one rule for where a block opens and
// closes, used where a reply is cut for the Chat view (chat/coalesce.ts) and where an edit takes
// its code from a reply (edit/extract.ts, edit/stream.ts).

export interface Fence {
  /** '`' or '~'. */
  char: string;
  /** Length of the opening run (3 or more). */
  length: number;
}

const OPENING = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const CLOSING = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

/** The fence a whole line (no line ending) opens, if it is an opening fence line. */
export function openingFence(line: string): Fence | undefined {
  const m = OPENING.exec(line);
  if (!m) return undefined;
  const run = m[1];
  // A backtick fence's info string holds no backtick (``` a`b is inline code, not a fence).
  if (run[0] === '`' && m[2].includes('`')) return undefined;
  return { char: run[0], length: run.length };
}

/** Whether a whole line (no line ending) closes `fence`: the same character, at least as many, nothing else. */
export function closesFence(line: string, fence: Fence): boolean {
  const m = CLOSING.exec(line);
  return !!m && m[1][0] === fence.char && m[1].length >= fence.length;
}

/** A line that says something (not blank, not only brackets and punctuation). */
export function meaningfulLine(line: string): boolean {
  return line.trim() !== '' && !/^[\s{}()[\];,]*$/.test(line);
}
