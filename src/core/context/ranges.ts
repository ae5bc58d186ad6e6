// Ranges of a file as attachments (editor selections, later symbols), their names ("path:12-40")
// and the rule that sends each file, range or symbol once per request. VS Code-free.
import { CUT_MARKER, textAttachment, type Attachment } from './context';
import { selectionLines, type Position, type RangeText } from './selection';

/**
 * The non-empty selections of one document as range attachments, in document order, each with
 * its exact text. `id` names each new attachment.
 */
export function rangeAttachments(id: () => string, path: string, language: string, selections: readonly RangeText[], maxKB: number): Attachment[] {
  const before = (a: Position, b: Position) => a.line - b.line || a.character - b.character;
  return [...selections]
    .filter((s) => s.text.length > 0 && before(s.start, s.end) !== 0)
    .sort((a, b) => before(a.start, b.start) || before(a.end, b.end))
    .map((s) => textAttachment(id(), 'selection', path, language, s.text, maxKB, selectionLines(s.start, s.end)));
}

/** A range of a file: a selection (or symbol) with its lines. */
function isRange(a: Attachment): a is Attachment & { startLine: number; endLine: number } {
  return a.kind === 'selection' && a.startLine !== undefined && a.endLine !== undefined;
}

/** How many whole lines of the file a file attachment carries (all of them when it was not cut). */
function linesCarried(file: Attachment): number {
  if (file.cutToKB === undefined) return Number.POSITIVE_INFINITY;
  const kept = file.content.endsWith(CUT_MARKER) ? file.content.slice(0, -CUT_MARKER.length) : file.content;
  // The last line kept may be cut in the middle: only lines ended by a newline count.
  return kept.split('\n').length - 1;
}

/**
 * What one request sends of these attachments: each file, range and Problems once. A file added
 * twice goes once (the first); a range goes once, and not at all when a file attached carries it
 * (the same path, those lines kept) or a wider range of the same file holds it. The terminal
 * selection always goes. Order is kept.
 */
export function onceEach(attachments: readonly Attachment[]): Attachment[] {
  const files = new Map<string, Attachment>();
  const seen = new Set<string>();
  for (const a of attachments) if (a.kind === 'file' && !files.has(a.path)) files.set(a.path, a);
  const ranges = attachments.filter(isRange);
  const out: Attachment[] = [];
  for (const a of attachments) {
    if (a.kind === 'terminal') {
      out.push(a);
      continue;
    }
    if (isRange(a)) {
      const file = files.get(a.path);
      if (file && a.endLine <= linesCarried(file)) continue;
      // Held by a wider range of the same file (an equal one: only the first goes).
      const wider = ranges.some((r) => r !== a && r.path === a.path && r.startLine <= a.startLine && r.endLine >= a.endLine && (r.startLine < a.startLine || r.endLine > a.endLine));
      if (wider) continue;
    }
    const key = isRange(a) ? `range\0${a.path}\0${a.startLine}\0${a.endLine}` : `${a.kind}\0${a.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}

/** A symbol (a function, a class) as a range chip named by it: its whole lines, `startLine`..`endLine` 1-based. */
export function symbolAttachment(id: string, name: string, path: string, language: string, text: string, lines: { start: number; end: number }, maxKB: number): Attachment {
  return { ...textAttachment(id, 'selection', path, language, text, maxKB, lines), symbol: name.slice(0, 300) };
}
