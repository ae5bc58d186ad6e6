// A reply's changes across files: what Apply All would write (the review), writing the kept files
// as one edit with their previous contents kept first, and Undo and Redo of the whole reply, all or
// nothing unless the user says otherwise. VS Code-free: the files, the kept copies and the journal
// are ports (the extension's are in src/extension/changes; the benchmark's and tests' on a real disk).
import * as l10n from '@vscode/l10n';
import { fencedBlocks } from '../../wording/codeFence';
import { applyBlock, tooLargeToApply } from '../applyToFile/applyChange';
import { splitLines } from '../inlineEdit/hunks';
import { type ChangeSet, type FileChange, type JournalEntry, type JournalRecord } from './changeJournal';
import { bytesOf, hashOf, sameBytes, textOf } from './fileBytes';

/** A file a code block names, checked by the workspace's rules (see the extension's port). */
export type Resolved = { ok: true; uri: string; path: string } | { ok: false; path: string; why: string };

export interface ChangeFiles {
  /** The file a block names, or why it is refused (outside the workspace, inside .git, declined…). */
  resolve(path: string): Promise<Resolved>;
  /** Its size on disk, undefined when it does not exist. */
  size(uri: string): Promise<number | undefined>;
  /** Its bytes on disk, undefined when it does not exist. */
  read(uri: string): Promise<Uint8Array | undefined>;
  /** It is open in an editor with changes not saved. */
  unsaved(uri: string): boolean;
  /** Writes every file (null: deletes it) as one edit; false when it could not. */
  write(ops: ReadonlyArray<{ uri: string; bytes: Uint8Array | null }>): Promise<boolean>;
}

export interface KeptCopies {
  put(hash: string, bytes: Uint8Array): Promise<void>;
  get(hash: string): Promise<Uint8Array | undefined>;
}

export interface ChangesJournal {
  /** Every entry, read from disk now (another window may have written since). */
  entries(): Promise<Map<string, JournalEntry>>;
  append(records: readonly JournalRecord[]): Promise<void>;
}

export interface ChangesPorts {
  files: ChangeFiles;
  copies: KeptCopies;
  journal: ChangesJournal;
  now(): number;
}

export interface ProposedFile {
  path: string;
  uri: string;
  /** Its bytes now (undefined: a new file). */
  before: Uint8Array | undefined;
  after: Uint8Array;
  beforeText: string;
  afterText: string;
  added: number;
  removed: number;
  /** How many of the reply's blocks go to it. */
  blocks: number;
}

export interface Review {
  files: ProposedFile[];
  /** Files named but not offered, with why. */
  refused: Array<{ path: string; why: string }>;
  /** Files whose blocks leave them as they are. */
  unchanged: string[];
  /** Code blocks that name no file (not applied, never guessed). */
  unnamed: number;
}

/** The files a reply's code blocks name, each with what it would become: nothing is written. */
export async function reviewReply(markdown: string, files: ChangeFiles): Promise<Review> {
  const blocks = fencedBlocks(markdown);
  const review: Review = { files: [], refused: [], unchanged: [], unnamed: blocks.filter((b) => !b.path).length };
  const byPath = new Map<string, string[]>();
  for (const b of blocks) if (b.path) byPath.set(b.path, [...(byPath.get(b.path) ?? []), b.code]);
  const seen = new Set<string>();
  for (const [name, codes] of byPath) {
    const target = await files.resolve(name);
    if (!target.ok) {
      review.refused.push({ path: target.path, why: target.why });
      continue;
    }
    // Two names for one file (./a.ts and a.ts): its blocks were taken together under the first.
    if (seen.has(target.uri)) continue;
    seen.add(target.uri);
    const refuse = (why: string) => review.refused.push({ path: target.path, why });
    if (files.unsaved(target.uri)) {
      refuse(l10n.t('{0} has changes not saved in an editor: save or revert them, then Apply All again.', target.path));
      continue;
    }
    const size = await files.size(target.uri);
    if (size !== undefined && tooLargeToApply(size)) {
      refuse(l10n.t('{0} is larger than 4 MB: open it and use Insert at Cursor.', target.path));
      continue;
    }
    const before = size === undefined ? undefined : await files.read(target.uri);
    const beforeText = before === undefined ? undefined : textOf(before);
    if (before !== undefined && beforeText === undefined) {
      refuse(l10n.t('{0} is not UTF-8 text: Apply All does not change it.', target.path));
      continue;
    }
    let text = beforeText;
    for (const code of codes) text = applyBlock(text, code).text;
    const afterText = text ?? '';
    const after = bytesOf(afterText, before);
    if (sameBytes(before, after)) {
      review.unchanged.push(target.path);
      continue;
    }
    const { added, removed } = lineCounts(beforeText ?? '', afterText);
    review.files.push({ path: target.path, uri: target.uri, before, after, beforeText: beforeText ?? '', afterText, added, removed, blocks: codes.length });
  }
  return review;
}

/**
 * Lines added and removed, as the review list shows them: each line of the one text not matched by
 * an equal line of the other (counted as a multiset, in linear time: a reply replacing 50 files of
 * 2,000 lines is counted at once; the diff editor shows where).
 */
export function lineCounts(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  const a = before ? splitLines(before) : [];
  const b = after ? splitLines(after) : [];
  // Line ends do not count: the last line without one is the same line.
  for (const l of a) {
    const k = l.replace(/\r?\n$/, '');
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let added = 0;
  for (const l of b) {
    const k = l.replace(/\r?\n$/, '');
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of counts.values()) removed += n;
  return { added, removed };
}

export type KeepResult =
  | { ok: true; set: ChangeSet }
  /** stale: changed since the review (nothing written); failed: the edit was refused (nothing written). */
  | { ok: false; reason: 'stale'; paths: string[] }
  | { ok: false; reason: 'failed' | 'nothing' };

let idCount = 0;
function newSetId(now: number): string {
  return `chg_${now.toString(36)}_${process.pid.toString(36)}_${(++idCount).toString(36)}`;
}

/**
 * Writes the kept files of a review as one edit: their previous contents are kept first, and the
 * journal says so before anything is written. Nothing is written when a file changed since the
 * review (on disk or unsaved in an editor).
 */
export async function keepChanges(kept: readonly ProposedFile[], reply: { conversationId: string; messageId: string }, ports: ChangesPorts): Promise<KeepResult> {
  if (!kept.length) return { ok: false, reason: 'nothing' };
  const stale: string[] = [];
  for (const f of kept) {
    if (ports.files.unsaved(f.uri) || !sameBytes(await ports.files.read(f.uri), f.before)) stale.push(f.path);
  }
  if (stale.length) return { ok: false, reason: 'stale', paths: stale };
  const files: FileChange[] = kept.map((f) => ({
    path: f.path,
    uri: f.uri,
    before: f.before ? hashOf(f.before) : null,
    after: hashOf(f.after),
    beforeSize: f.before?.length ?? 0,
    afterSize: f.after.length,
  }));
  // Every copy kept before anything is written (the writes of the copies go together).
  await Promise.all(
    kept.flatMap((f, i) => [
      ...(f.before && files[i].before ? [ports.copies.put(files[i].before, f.before)] : []),
      ports.copies.put(files[i].after!, f.after),
    ]),
  );
  const at = ports.now();
  const set: ChangeSet = { id: newSetId(at), conversationId: reply.conversationId, messageId: reply.messageId, at, files };
  await ports.journal.append([{ v: 1, kind: 'set', set }]);
  const ok = await ports.files.write(kept.map((f) => ({ uri: f.uri, bytes: f.after }))).catch(() => false);
  if (!ok) {
    await putBack(kept, ports.files);
    await ports.journal.append([{ v: 1, kind: 'state', id: set.id, state: 'failed', at: ports.now() }]);
    return { ok: false, reason: 'failed' };
  }
  return { ok: true, set };
}

/**
 * A write refused part way (a full disk, a file made read-only): the files it did write go back to
 * their bytes before, so a failed Keep leaves nothing of the reply on disk.
 */
async function putBack(kept: readonly ProposedFile[], files: ChangeFiles): Promise<void> {
  const ops: Array<{ uri: string; bytes: Uint8Array | null }> = [];
  for (const f of kept) {
    const now = await files.read(f.uri).catch(() => undefined);
    if (now !== undefined && sameBytes(now, f.after)) ops.push({ uri: f.uri, bytes: f.before ?? null });
  }
  if (ops.length) await files.write(ops).catch(() => false);
}

export type ChangesTurned =
  | { ok: true; entry: JournalEntry; restored: string[] }
  /** differs: files changed since (nothing written unless the user restores the others); gone: the kept copies were let go. */
  | { ok: false; reason: 'differs'; files: Array<FileChange & { expected: string | null }> }
  | { ok: false; reason: 'not-found' | 'already' | 'gone' | 'failed' };

/**
 * Undo (`to` = 'undone': every file back to its bytes before, a created one deleted) or Redo (`to`
 * = 'applied': the reply's bytes again) of a reply's changes. All or nothing: when a file is not as
 * the reply left it (or as it was before, for Redo), on disk or unsaved in an editor, nothing is
 * written and the files that differ are returned; `restoreOthers` then writes the rest.
 */
export async function turnChanges(id: string, to: 'undone' | 'applied', ports: ChangesPorts, restoreOthers = false): Promise<ChangesTurned> {
  const entry = (await ports.journal.entries()).get(id);
  if (!entry) return { ok: false, reason: 'not-found' };
  if (entry.state === 'gone') return { ok: false, reason: 'gone' };
  if (entry.state === 'failed') return { ok: false, reason: 'not-found' };
  if (entry.state === to) return { ok: false, reason: 'already' };
  // Redo leaves alone what the Undo before it left alone.
  const files = to === 'applied' ? entry.set.files.filter((f) => !entry.skipped.includes(f.uri)) : entry.set.files;
  const differs: Array<FileChange & { expected: string | null }> = [];
  for (const f of files) {
    const expected = to === 'undone' ? f.after : f.before;
    const now = await ports.files.read(f.uri);
    const matches = expected === null ? now === undefined : now !== undefined && hashOf(now) === expected;
    if (!matches || ports.files.unsaved(f.uri)) differs.push({ ...f, expected });
  }
  if (differs.length && !restoreOthers) return { ok: false, reason: 'differs', files: differs };
  const differing = new Set(differs.map((f) => f.uri));
  const ops: Array<{ uri: string; bytes: Uint8Array | null }> = [];
  for (const f of files) {
    if (differing.has(f.uri)) continue;
    const want = to === 'undone' ? f.before : f.after;
    if (want === null) {
      ops.push({ uri: f.uri, bytes: null });
      continue;
    }
    const bytes = await ports.copies.get(want);
    if (!bytes) return { ok: false, reason: 'gone' };
    ops.push({ uri: f.uri, bytes });
  }
  if (ops.length && !(await ports.files.write(ops))) return { ok: false, reason: 'failed' };
  const skipped = files.filter((f) => differing.has(f.uri)).map((f) => f.uri);
  const record: JournalRecord = { v: 1, kind: 'state', id, state: to, at: ports.now(), ...(skipped.length ? { skipped } : {}) };
  await ports.journal.append([record]);
  return { ok: true, entry: { ...entry, state: to, changedAt: record.at, skipped }, restored: files.filter((f) => !differing.has(f.uri)).map((f) => f.path) };
}

