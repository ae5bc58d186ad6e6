// The lightbulb's AI Chat actions: which one a range offers (Fix where an error or warning meets
// it, Explain otherwise) and the prompt the chosen action carries. Pure: the provider calls
// chooseCodeAction on every cursor move, so it reads nothing and allocates little.
import * as l10n from '@vscode/l10n';
import { fenceFor, fenceLanguage, lineRangeText } from '../context/selection';
import { severityText, type ProblemSeverity } from '../editorPrompts/editorPrompts';

/** A position, 0-based like VS Code's. */
export interface Spot {
  line: number;
  character: number;
}

export interface Span {
  start: Spot;
  end: Spot;
}

/** A diagnostic as plain data (what the provider copies from vscode.Diagnostic). */
export interface DiagnosticFacts {
  severity: ProblemSeverity;
  message: string;
  /** The diagnostic's code as text ('' when it has none). */
  code: string;
  /** Who reported it, e.g. "ts" or "eslint" ('' when unknown). */
  source: string;
  range: Span;
}

export type CodeActionChoice =
  /** Errors or warnings meet the range: offer Fix with these diagnostics. */
  | { kind: 'fix'; diagnostics: DiagnosticFacts[] }
  /** Offer Explain (with the information and hints that meet the range, if any). */
  | { kind: 'explain'; diagnostics: DiagnosticFacts[] }
  | { kind: 'none' };

export interface CodeActionQuery {
  range: Span;
  /** The diagnostics VS Code handed the provider (those at the range), in any order. */
  diagnostics: readonly DiagnosticFacts[];
  /**
   * The user asked for actions (Ctrl+.) rather than the editor asking on its own (the lightbulb on a
   * cursor move). An empty range with nothing reported at it offers Explain only when asked:
   * otherwise the lightbulb would show on every line.
   */
  invoked: boolean;
}

function before(a: Spot, b: Spot): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Whether two ranges share a position (touching counts: a cursor at a diagnostic's end is on it). */
export function spansMeet(a: Span, b: Span): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function isEmpty(s: Span): boolean {
  return s.start.line === s.end.line && s.start.character === s.end.character;
}

/** The action a range offers. */
export function chooseCodeAction(q: CodeActionQuery): CodeActionChoice {
  let problems: DiagnosticFacts[] | undefined;
  let notes: DiagnosticFacts[] | undefined;
  for (const d of q.diagnostics) {
    if (!spansMeet(d.range, q.range)) continue;
    if (d.severity === 'error' || d.severity === 'warning') (problems ??= []).push(d);
    else (notes ??= []).push(d);
  }
  if (problems) return { kind: 'fix', diagnostics: problems.length > 1 ? sortDiagnostics(problems) : problems };
  if (notes) return { kind: 'explain', diagnostics: notes.length > 1 ? sortDiagnostics(notes) : notes };
  if (isEmpty(q.range) && !q.invoked) return { kind: 'none' };
  return { kind: 'explain', diagnostics: [] };
}

const SEVERITY_RANK: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Errors first, then by position. */
function sortDiagnostics(list: DiagnosticFacts[]): DiagnosticFacts[] {
  return [...list].sort(
    (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/** Lines shown above and below what the action is about. */
export const CONTEXT_LINES = 5;
/** The most lines of code a prompt carries. */
export const MAX_PROMPT_LINES = 60;
/** The most characters of one line of code in a prompt (a minified line is cut). */
export const MAX_LINE_CHARS = 400;
/** The most diagnostics a prompt lists. */
export const MAX_PROMPT_DIAGNOSTICS = 20;
/** The most characters of one diagnostic's message. */
export const MAX_MESSAGE_CHARS = 1_000;

/** Which lines (0-based, inclusive) a prompt shows: the focus with CONTEXT_LINES around it, at most MAX_PROMPT_LINES. */
export function linesAround(focusStart: number, focusEnd: number, lineCount: number): { first: number; last: number } {
  const lastLine = Math.max(0, lineCount - 1);
  const start = Math.min(Math.max(0, focusStart), lastLine);
  const end = Math.min(Math.max(start, focusEnd), lastLine);
  let first = Math.max(0, start - CONTEXT_LINES);
  let last = Math.min(lastLine, end + CONTEXT_LINES);
  if (last - first + 1 > MAX_PROMPT_LINES) {
    // The focus itself is longer than the window: keep its start, with some context above it.
    first = Math.max(0, start - Math.min(CONTEXT_LINES, Math.floor(MAX_PROMPT_LINES / 4)));
    last = Math.min(lastLine, first + MAX_PROMPT_LINES - 1);
  }
  return { first, last };
}

/** The lines that what the action is about spans: the range with the diagnostics it carries. */
export function focusOf(range: Span, diagnostics: readonly DiagnosticFacts[]): { start: number; end: number } {
  let start = range.start.line;
  let end = range.end.line;
  // A selection that ends at the start of a line does not include that line.
  if (end > start && range.end.character === 0) end--;
  for (const d of diagnostics) {
    start = Math.min(start, d.range.start.line);
    end = Math.max(end, d.range.end.line);
  }
  return { start, end };
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\r?\n\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "- Error ts(2322), line 4, column 7: Type 'string' is not assignable…" for each diagnostic (at most MAX_PROMPT_DIAGNOSTICS). */
export function formatDiagnostics(diagnostics: readonly DiagnosticFacts[]): string {
  const shown = diagnostics.slice(0, MAX_PROMPT_DIAGNOSTICS).map((d) => {
    const origin = d.source && d.code ? `${d.source}(${d.code})` : d.source || d.code;
    const what = origin ? `${severityText(d.severity)} ${oneLine(origin, 80)}` : severityText(d.severity);
    return `- ${l10n.t('{0}, line {1}, column {2}: {3}', what, d.range.start.line + 1, d.range.start.character + 1, oneLine(d.message, MAX_MESSAGE_CHARS))}`;
  });
  const more = diagnostics.length - shown.length;
  if (more > 0) shown.push(`- ${l10n.t('… and {0} more', more)}`);
  return shown.join('\n');
}

export interface CodeActionPromptInput {
  choice: Exclude<CodeActionChoice, { kind: 'none' }>;
  range: Span;
  /** The document's lines (only those around the focus are read). */
  lineAt: (line: number) => string;
  lineCount: number;
  languageId: string;
  /** The file's name relative to the workspace. */
  fileName: string;
  /** The user's own rules for Fix (aiChat.fix.instructions): they go with the question. */
  fixRules?: string;
}

export interface CodeActionPrompt {
  /** The whole message for the chat: the question, the diagnostics and the code around them. */
  prompt: string;
  /** Only the request, for an edit of the focus lines that brings its own code: the question and the diagnostics. */
  instruction: string;
  /** The lines (0-based, inclusive) the action is about. */
  focus: { start: number; end: number };
}

/** The prompt of the chosen action. */
export function buildCodeActionPrompt(input: CodeActionPromptInput): CodeActionPrompt {
  const { choice } = input;
  const focus = focusOf(input.range, choice.diagnostics);
  const { first, last } = linesAround(focus.start, focus.end, input.lineCount);
  const lines: string[] = [];
  for (let i = first; i <= last; i++) {
    const line = input.lineAt(i);
    lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
  }
  const code = lines.join('\n').replace(/\n+$/, '');
  const fence = fenceFor(code);
  const many = choice.diagnostics.length > 1;
  let question: string;
  if (choice.kind === 'fix') {
    question = many ? l10n.t('Fix these problems:') : l10n.t('Fix this problem:');
  } else if (choice.diagnostics.length) {
    question = many ? l10n.t('Explain these notes and the code they are about:') : l10n.t('Explain this note and the code it is about:');
  } else {
    question =
      focus.start === focus.end
        ? l10n.t('Explain line {0} of this code:', focus.start + 1)
        : l10n.t('Explain lines {0}-{1} of this code:', focus.start + 1, focus.end + 1);
  }
  const rules = choice.kind === 'fix' ? input.fixRules?.trim() : undefined;
  const listed = (choice.diagnostics.length ? `${question}\n${formatDiagnostics(choice.diagnostics)}` : question) + (rules ? `\n\n${l10n.t('Follow these rules for fixes:')}\n${rules}` : '');
  const name = input.fileName.replace(/`/g, '');
  const ref = `\`${name}\`, ${lineRangeText(first + 1, last + 1)}:`;
  const prompt = `${listed}\n\n${ref}\n\n${fence}${fenceLanguage(input.languageId)}\n${code}\n${fence}`;
  return { prompt, instruction: listed, focus };
}
