// The chat message made from an editor selection.

export interface SelectionInfo {
  code: string;
  /** VS Code language id, e.g. "typescript". */
  languageId: string;
  /** File name relative to the workspace (or the base name for files outside it). */
  fileName: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  question?: string;
}

/** A fence longer than any backtick run in the code, so the code cannot close it early. */
export function fenceFor(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Language ids are used as the fence's info string: keep only safe characters. */
export function fenceLanguage(languageId: string): string {
  return languageId.replace(/[^A-Za-z0-9_+#.-]/g, '');
}

export function lineRangeText(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}-${end}`; // l10n-ignore: part of the message sent to the model
}

/**
 * "question\n\n`file`, lines 3-10:\n\n```ts\ncode\n```". Without a question only the
 * file reference and the code block.
 */
export function formatSelectionMessage(sel: SelectionInfo): string {
  const fence = fenceFor(sel.code);
  const code = sel.code.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  const name = sel.fileName.replace(/`/g, '');
  const ref = `\`${name}\`, ${lineRangeText(sel.startLine, sel.endLine)}:`;
  const block = `${fence}${fenceLanguage(sel.languageId)}\n${code}\n${fence}`;
  const question = sel.question?.trim();
  return question ? `${question}\n\n${ref}\n\n${block}` : `${ref}\n\n${block}`;
}

/** A position in a document, 0-based, as an editor gives it. */
export interface Position {
  line: number;
  character: number;
}

/** One selection of an editor: where it starts and ends, and its exact text. */
export interface RangeText {
  start: Position;
  end: Position;
  text: string;
}

/**
 * The lines a selection covers, 1-based and inclusive. A selection that ends at column 0 of a
 * later line does not include that line (selecting whole lines by dragging ends there).
 */
export function selectionLines(start: Position, end: Position): { start: number; end: number } {
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return { start: start.line + 1, end: last + 1 };
}

/** "src/a.ts:12-40", or "src/a.ts:12" for one line. */
export function rangeName(path: string, startLine: number, endLine: number): string {
  return startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
}
