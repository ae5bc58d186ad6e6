// Export All and Import All: every conversation of History into one archive (archive.ts) and back,
// with progress and Cancel, giving the event loop a turn every few milliseconds (the extension
// host is never held long). Import All checks the whole archive before it stores anything (a
// broken or newer one imports nothing), then stores each conversation whole through the store
// (History's index and search take it in at once): Cancel or a failed write stops between two
// conversations, so each is either fully in or not. A conversation already in History (imported
// before, or the very one exported), or twice in the archive, is skipped and counted. VS Code-free.
import { performance } from 'node:perf_hooks';
import type { Conversation } from '../chat/conversation';
import { yieldTurn } from '../storage/historySearch';
import * as l10n from '@vscode/l10n';
import { archiveHeaderLine, archiveLine, archiveLines, MAX_ARCHIVE_BYTES, parseArchiveHeader, type ArchiveHeader } from './archive';
import { importedConversation, parseExportText, type ExportFileProblem } from './format';
import { duplicateFinder, readEach, type ImportStore } from './importConversation';

/** About how many characters of the archive are encoded at once. */
const PIECE_CHARS = 1 << 20;

/** Conversations Import All stores together (their logs written side by side, History's index once). */
const BATCH = 8;

/**
 * Stores `convs` whole: through restoreMany when the store has it (all or none), else one by one
 * (those before a failure stay). A failed write is undone (the conversation taken out again).
 */
async function storeWhole(store: ImportStore, convs: Conversation[]): Promise<{ stored: Conversation[]; error?: Error }> {
  const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
  if (!convs.length) return { stored: [] };
  if (store.restoreMany) {
    try {
      await store.restoreMany(convs);
      return { stored: convs };
    } catch (err) {
      return { stored: [], error: asError(err) };
    }
  }
  for (const [i, conv] of convs.entries()) {
    try {
      await store.restore(conv);
    } catch (err) {
      await store.remove(conv.id).catch(() => undefined);
      return { stored: convs.slice(0, i), error: asError(err) };
    }
  }
  return { stored: convs };
}

/** How long the work holds the event loop before it gives it a turn (ms). */
export const SLICE_MS = 20;

export interface AllOptions {
  /** Asked between two conversations: true stops the work there. */
  cancelled?: () => boolean;
  /** Called as the work goes (`done` of `total` conversations), at most every few milliseconds and at the end. */
  progress?: (done: number, total: number) => void;
  /** Hold the event loop at most about this long at a time (default SLICE_MS). */
  sliceMs?: number;
}

/** Gives the event loop a turn once the work has held it for `sliceMs`, and reports progress then. */
class Pace {
  private last = performance.now();
  constructor(
    private readonly opts: AllOptions,
    private readonly sliceMs = opts.sliceMs ?? SLICE_MS,
  ) {}
  async step(done: number, total: number): Promise<void> {
    if (performance.now() - this.last < this.sliceMs) return;
    this.opts.progress?.(done, total);
    await yieldTurn();
    this.last = performance.now();
  }
  get cancelled(): boolean {
    return this.opts.cancelled?.() === true;
  }
}

export type ExportAllResult =
  | { kind: 'done'; bytes: Uint8Array; count: number; unreadable: number }
  | { kind: 'cancelled' };

/** Every conversation of History (newest first) as the archive's bytes; unreadable ones are left out and counted. */
export async function exportAll(store: Pick<ImportStore, 'list' | 'load' | 'loadEach'>, opts: AllOptions = {}, exportedAt: Date = new Date()): Promise<ExportAllResult> {
  const pace = new Pace(opts);
  const listed = await store.list();
  const encoder = new TextEncoder();
  // Lines gathered into pieces of about a megabyte, each encoded once (thousands of small buffers
  // make more garbage to collect, and garbage collections hold the event loop too).
  const pieces: Uint8Array[] = [];
  let piece: string[] = [];
  let pieceLength = 0;
  const endPiece = () => {
    if (piece.length) pieces.push(encoder.encode(piece.join('')));
    piece = [];
    pieceLength = 0;
  };
  let count = 0;
  let unreadable = 0;
  let done = 0;
  for await (const { conv } of readEach(store, listed.map((s) => s.id))) {
    if (pace.cancelled) return { kind: 'cancelled' };
    if (conv?.messages.length) {
      const line = archiveLine(conv, exportedAt);
      piece.push(line);
      pieceLength += line.length;
      count++;
      if (pieceLength >= PIECE_CHARS) endPiece();
    } else unreadable++;
    await pace.step(++done, listed.length);
  }
  endPiece();
  opts.progress?.(listed.length, listed.length);
  pieces.unshift(encoder.encode(archiveHeaderLine(count, exportedAt)));
  // The pieces copied into one buffer a few at a time.
  const bytes = new Uint8Array(pieces.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of pieces) {
    if (pace.cancelled) return { kind: 'cancelled' };
    bytes.set(c, at);
    at += c.length;
    await pace.step(listed.length, listed.length);
  }
  return { kind: 'done', bytes, count, unreadable };
}

export interface ImportAllCounts {
  /** Conversations in the archive. */
  total: number;
  /** Stored, each whole, in archive order. */
  imported: Conversation[];
  /** Already in History, or earlier in the archive: not stored again. */
  duplicates: number;
  /** Holding the user's API key: not stored (their turns would be sent). */
  withKey: number;
}

export type ImportAllResult =
  /** Every conversation stored or skipped. */
  | ({ kind: 'done' } & ImportAllCounts)
  /** Stopped between two conversations: `imported` are in whole, the rest not at all. */
  | ({ kind: 'cancelled' } & ImportAllCounts)
  /** A write failed (and was undone): `imported` are in whole, the rest not at all. */
  | ({ kind: 'failed'; error: Error } & ImportAllCounts)
  /** Nothing imported: what is wrong with the archive. */
  | { kind: 'refused'; problem: ExportFileProblem };

export interface ImportAllOptions extends AllOptions {
  /** True for a conversation's text that must not come in (the user's API key in it). */
  refuse?: (text: string) => Promise<boolean>;
}

const refused = (problem: ExportFileProblem): ImportAllResult => ({ kind: 'refused', problem });

/** Checks the whole archive, then stores its conversations through the store. */
export async function importAll(store: ImportStore, bytes: Uint8Array, opts: ImportAllOptions = {}): Promise<ImportAllResult> {
  if (bytes.byteLength > MAX_ARCHIVE_BYTES) {
    const size = Math.ceil(bytes.byteLength / 1048576);
    return refused({ kind: 'broken', issues: [], message: l10n.t('the archive is {0} MB; the largest AI Chat imports is {1} MB.', size, MAX_ARCHIVE_BYTES / 1048576) });
  }
  const pace = new Pace(opts);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Where each conversation's line is (not the parsed lines: thousands held at once make long
  // garbage collections, which hold the event loop too).
  const files: Array<{ start: number; end: number }> = [];
  let header: ArchiveHeader | undefined;
  let line = 0;
  // First the whole archive is read and checked: nothing is stored from one that is broken.
  for (const { start, end } of archiveLines(bytes)) {
    line++;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(start, end));
    } catch {
      return refused({ kind: 'not-json', message: l10n.t('line {0} of the archive is not UTF-8 text.', line) });
    }
    if (!header) {
      const first = parseArchiveHeader(text);
      if (!first.ok) {
        const { ok: _ok, ...problem } = first;
        return refused(problem);
      }
      header = first.header;
      continue;
    }
    if (!text.trim()) continue;
    const parsed = parseExportText(text);
    if (!parsed.ok) {
      const { ok: _ok, ...problem } = parsed;
      return refused({ ...problem, message: l10n.t('line {0} of the archive (conversation {1}): {2}', line, files.length + 1, problem.message) });
    }
    files.push({ start, end });
    if (pace.cancelled) return { kind: 'cancelled', total: files.length, imported: [], duplicates: 0, withKey: 0 };
    await pace.step(0, header.conversations);
  }
  if (!header) return refused({ kind: 'broken', issues: [], message: l10n.t('the file is empty.') });
  const expected = header.conversations;
  if (files.length !== expected) {
    return refused({
      kind: 'broken',
      issues: [],
      message: l10n.t('the archive is cut short or damaged: its first line says it holds {0} conversations, and {1} are in it.', expected, files.length),
    });
  }
  // Then each conversation is stored whole, or skipped: a few at a time (Cancel stops between two batches).
  const counts: ImportAllCounts = { total: files.length, imported: [], duplicates: 0, withKey: 0 };
  const find = await duplicateFinder(store);
  const seen = new Set<string>();
  let batch: Conversation[] = [];
  const storeBatch = async (): Promise<ImportAllResult | undefined> => {
    const stored = await storeWhole(store, batch);
    batch = [];
    counts.imported.push(...stored.stored);
    return stored.error ? { kind: 'failed', error: stored.error, ...counts } : undefined;
  };
  for (const [i, at] of files.entries()) {
    if (pace.cancelled) return { kind: 'cancelled', ...counts };
    // (Read again: it was checked above.)
    const text = decoder.decode(bytes.subarray(at.start, at.end));
    const parsed = parseExportText(text);
    if (!parsed.ok) return { kind: 'failed', error: new Error(parsed.message), ...counts };
    const { file, hash } = parsed;
    const key = `${file.conversation.id}\u0000${hash}`;
    if (seen.has(key) || (await find(file.conversation.id, file.conversation.createdAt, hash))) counts.duplicates++;
    else if (await opts.refuse?.(text)) counts.withKey++;
    else batch.push(importedConversation(file, hash, store.create().id));
    seen.add(key);
    if (batch.length >= BATCH) {
      // A turn first when the checks above have held the loop long: storing holds it again.
      await pace.step(i, files.length);
      const failed = await storeBatch();
      if (failed) return failed;
    }
    await pace.step(i + 1, files.length);
  }
  if (pace.cancelled) return { kind: 'cancelled', ...counts };
  const failed = await storeBatch();
  if (failed) return failed;
  opts.progress?.(files.length, files.length);
  return { kind: 'done', ...counts };
}
