// The request of an edit in the editor: the instruction, the selected lines, and a bounded window
// of the file around them (so the model sees the context without the whole file being sent).
import { fenceFor, fenceLanguage } from '../context/selection';

/** Lines of context on each side of the selection, at most. */
export const EDIT_WINDOW_LINES = 60;
/** Characters of context on each side, at most (the lines nearest the selection are kept). */
export const EDIT_WINDOW_CHARS = 6_000;

export const EDIT_SYSTEM_PROMPT = [
  'You edit code in the user\'s editor.', // l10n-ignore: sent to the model
  'Reply with the code that replaces the selected lines, in one fenced code block, and nothing else.', // l10n-ignore: sent to the model
  'Keep the selection\'s indentation. Do not repeat the code before or after the selection.', // l10n-ignore: sent to the model
].join(' ');

export interface EditPromptInput {
  instruction: string;
  /** VS Code language id. */
  languageId: string;
  /** The file's path as the user knows it (relative to the workspace), or its name. */
  path: string;
  /** Every line of the document, without line ends. */
  lines: readonly string[];
  /** First selected line (0-based) and the line after the last one. */
  start: number;
  end: number;
  windowLines?: number;
  windowChars?: number;
}

export interface EditPrompt {
  prompt: string;
  /** The lines of context sent before and after the selection. */
  before: string[];
  after: string[];
}

/** Up to `maxLines` lines nearest the selection whose total length stays within `maxChars`. */
function window(lines: readonly string[], from: number, step: 1 | -1, maxLines: number, maxChars: number): string[] {
  const out: string[] = [];
  let chars = 0;
  for (let i = from; i >= 0 && i < lines.length && out.length < maxLines; i += step) {
    chars += lines[i].length + 1;
    if (chars > maxChars) break;
    out.push(lines[i]);
  }
  return step === -1 ? out.reverse() : out;
}

export function buildEditPrompt(input: EditPromptInput): EditPrompt {
  const maxLines = input.windowLines ?? EDIT_WINDOW_LINES;
  const maxChars = input.windowChars ?? EDIT_WINDOW_CHARS;
  const before = window(input.lines, input.start - 1, -1, maxLines, maxChars);
  const after = window(input.lines, input.end, 1, maxLines, maxChars);
  const selected = input.lines.slice(input.start, input.end).join('\n');
  const lang = fenceLanguage(input.languageId);
  const name = input.path.replace(/`/g, '');
  const block = (code: string) => {
    const fence = fenceFor(code);
    return `${fence}${lang}\n${code}\n${fence}`;
  };
  const range = input.end - input.start <= 1 ? `line ${input.start + 1}` : `lines ${input.start + 1}-${input.end}`; // l10n-ignore: sent to the model
  const parts = [
    `Instruction: ${input.instruction.trim()}`, // l10n-ignore: sent to the model
    '',
    `File \`${name}\` (${input.languageId}), selected ${range}:`, // l10n-ignore: sent to the model
    block(selected),
  ];
  const first = input.start - before.length + 1;
  if (before.length > 0) parts.push('', `Before the selection (from line ${first}):`, block(before.join('\n'))); // l10n-ignore: sent to the model
  if (after.length > 0) parts.push('', 'After the selection:', block(after.join('\n'))); // l10n-ignore: sent to the model
  parts.push('', 'Reply with only the code that replaces the selected lines.'); // l10n-ignore: sent to the model
  return { prompt: parts.join('\n'), before, after };
}

/**
 * The block around `line` when nothing is selected: the smallest of `ranges` (folding ranges,
 * 0-based inclusive) that holds the line, with the closing line that folding leaves out; the
 * line alone when none holds it.
 */
export function enclosingBlock(lines: readonly string[], line: number, ranges: ReadonlyArray<{ start: number; end: number }>): { start: number; end: number } {
  const holding = ranges.filter((r) => r.start <= line && line <= r.end + 1 && r.end > r.start);
  if (holding.length === 0) return { start: line, end: line + 1 };
  const best = holding.reduce((a, b) => (b.end - b.start < a.end - a.start ? b : a));
  let end = best.end + 1;
  // Folding ranges end before the line that closes the block ("}", ")", "end", "</div>").
  const next = lines[end];
  if (next !== undefined && /^\s*(?:[}\])]|end\b|<\/)/.test(next)) end++;
  return { start: best.start, end };
}
