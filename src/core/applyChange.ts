// Apply to File: what a code block of a reply turns a file into. Pure: the host reads the
// file, shows the result as a diff, and writes it as one edit when the user accepts.
//
// How a block is applied:
// - the file does not exist: the block is the new file;
// - the block's first line (not blank) occurs once in the file, and its last line (with the
//   same indentation) occurs after it: the lines from the first to that last line are replaced,
//   taking the occurrence whose region is closest in length to the block (a block showing one
//   function of a file changes that function only);
// - otherwise the block replaces the whole file (the diff shows what that means).

export type ApplyMode = 'new-file' | 'region' | 'whole-file';

export interface AppliedChange {
  mode: ApplyMode;
  /** The file's text after the change. */
  text: string;
  /** For a region: its first and last line (1-based) in the file as it was. */
  lines?: [number, number];
}

/** The segments of a relative path inside the workspace, or undefined (absolute, `..`, empty). */
export function workspacePathSegments(path: string): string[] | undefined {
  if (!path || /^([A-Za-z]:|[\\/~])/.test(path)) return undefined;
  const parts = path.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) return undefined;
  return parts;
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Indexes of the lines equal to `line` (ignoring trailing spaces). */
function occurrences(lines: readonly string[], line: string): number[] {
  const want = line.trimEnd();
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (l.trimEnd() === want) out.push(i);
  });
  return out;
}

export function applyBlock(original: string | undefined, block: string): AppliedChange {
  const body = block.replace(/\r\n/g, '\n').replace(/\n$/, '');
  if (original === undefined) return { mode: 'new-file', text: body + '\n' };
  const eol = eolOf(original);
  const fileLines = original.replace(/\r\n/g, '\n').split('\n');
  const blockLines = body.split('\n');
  const first = blockLines.findIndex((l) => l.trim() !== '');
  let last = blockLines.length - 1;
  while (last >= 0 && blockLines[last].trim() === '') last--;
  const trailingNewline = /\r?\n$/.test(original);
  const whole = (): AppliedChange => ({ mode: 'whole-file', text: blockLines.join(eol) + (trailingNewline ? eol : '') });
  if (first < 0 || last - first < 2) return whole();
  const starts = occurrences(fileLines, blockLines[first]);
  if (starts.length !== 1) return whole();
  const from = starts[0];
  const span = last - first + 1;
  let to: number | undefined;
  for (const i of occurrences(fileLines, blockLines[last])) {
    if (i > from && (to === undefined || Math.abs(i - from + 1 - span) < Math.abs(to - from + 1 - span))) to = i;
  }
  if (to === undefined) return whole();
  if (from === 0 && to >= fileLines.length - (trailingNewline ? 2 : 1)) return whole();
  const replaced = [...fileLines.slice(0, from), ...blockLines.slice(first, last + 1), ...fileLines.slice(to + 1)];
  return { mode: 'region', text: replaced.join(eol), lines: [from + 1, to + 1] };
}
