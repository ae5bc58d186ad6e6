// The journal of a reply's changes: which files Apply All wrote for which reply, the hashes of their
// contents before and after (the bytes themselves are kept once each, by hash, beside it), and
// whether the reply's changes stand or were undone. One line per record, appended: two windows
// appending never lose each other's records; a line cut short by a crash is skipped when read.
import * as z from 'zod/mini';

const hash = z.string().check(z.regex(/^[0-9a-f]{64}$/));

export const FileChangeSchema = z.object({
  /** The path as the user reads it (workspace-relative). */
  path: z.string().check(z.minLength(1), z.maxLength(2000)),
  /** The file's URI. */
  uri: z.string().check(z.minLength(1), z.maxLength(4000)),
  /** Its contents before Apply All (null: it did not exist). */
  before: z.nullable(hash),
  /** What Apply All wrote (null: it removed the file; not written today). */
  after: z.nullable(hash),
  beforeSize: z.number().check(z.int(), z.gte(0)),
  afterSize: z.number().check(z.int(), z.gte(0)),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

export const ChangeSetSchema = z.object({
  id: z.string().check(z.regex(/^chg_[0-9a-z_]{1,60}$/)),
  conversationId: z.string().check(z.minLength(1), z.maxLength(200)),
  messageId: z.string().check(z.minLength(1), z.maxLength(200)),
  at: z.number().check(z.int(), z.gte(0)),
  files: z.array(FileChangeSchema).check(z.minLength(1), z.maxLength(1000)),
});
export type ChangeSet = z.infer<typeof ChangeSetSchema>;

/** applied: the reply's version is on disk; undone: the earlier one is; gone: its kept copies were let go; failed: the write did not happen. */
export type ChangeState = 'applied' | 'undone' | 'gone' | 'failed';

const RecordSchema = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), kind: z.literal('set'), set: ChangeSetSchema }),
  z.object({
    v: z.literal(1),
    kind: z.literal('state'),
    id: ChangeSetSchema.shape.id,
    state: z.enum(['applied', 'undone', 'gone', 'failed']),
    at: z.number().check(z.int(), z.gte(0)),
    /** The URIs the change of state left as they were (the user restored only the others). */
    skipped: z.optional(z.array(z.string().check(z.maxLength(4000))).check(z.maxLength(1000))),
  }),
]);
export type JournalRecord = z.infer<typeof RecordSchema>;

export interface JournalEntry {
  set: ChangeSet;
  state: ChangeState;
  /** When the state last changed. */
  changedAt: number;
  /** URIs left as they were by the last Undo or Redo. */
  skipped: string[];
}

/** The journal's entries by id, oldest first, from its lines (a line that does not parse is skipped). */
export function readJournal(text: string): Map<string, JournalEntry> {
  const entries = new Map<string, JournalEntry>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let parsed: JournalRecord;
    try {
      const result = RecordSchema.safeParse(JSON.parse(line));
      if (!result.success) continue;
      parsed = result.data;
    } catch {
      continue;
    }
    if (parsed.kind === 'set') {
      if (!entries.has(parsed.set.id)) entries.set(parsed.set.id, { set: parsed.set, state: 'applied', changedAt: parsed.set.at, skipped: [] });
      continue;
    }
    const entry = entries.get(parsed.id);
    // A set let go stays gone; a later state of it (another window's) does not bring it back.
    if (!entry || entry.state === 'gone') continue;
    entry.state = parsed.state;
    entry.changedAt = parsed.at;
    entry.skipped = parsed.skipped ?? [];
  }
  return entries;
}

export function journalLine(record: JournalRecord): string {
  return JSON.stringify(record) + '\n';
}

/** The journal rewritten with only what it holds now (each entry as a set and its state). */
export function compactJournal(entries: Iterable<JournalEntry>): string {
  let out = '';
  for (const e of entries) {
    out += journalLine({ v: 1, kind: 'set', set: e.set });
    if (e.state !== 'applied' || e.skipped.length) out += journalLine({ v: 1, kind: 'state', id: e.set.id, state: e.state, at: e.changedAt, ...(e.skipped.length ? { skipped: e.skipped } : {}) });
  }
  return out;
}

/** What a reply's changes are now, for the chat: the newest set of each reply of a conversation. */
export function repliesOf(entries: Iterable<JournalEntry>, conversationId: string): Map<string, JournalEntry> {
  const out = new Map<string, JournalEntry>();
  for (const e of entries) {
    if (e.set.conversationId !== conversationId || e.state === 'failed') continue;
    const seen = out.get(e.set.messageId);
    if (!seen || seen.set.at <= e.set.at) out.set(e.set.messageId, e);
  }
  return out;
}

/** The hashes the entries still need (those of sets not let go). */
export function hashesInUse(entries: Iterable<JournalEntry>): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const e of entries) {
    if (e.state === 'gone' || e.state === 'failed') continue;
    for (const f of e.set.files) {
      if (f.before) sizes.set(f.before, f.beforeSize);
      if (f.after) sizes.set(f.after, f.afterSize);
    }
  }
  return sizes;
}

/**
 * The sets to let go so that the kept copies take at most `limit` bytes: the oldest first (by when
 * they were made), each copy counted once however many sets need it. The newest set is never let
 * go (its undo must work, whatever its size).
 */
export function setsToLetGo(entries: readonly JournalEntry[], limit: number): string[] {
  const live = entries.filter((e) => e.state !== 'gone' && e.state !== 'failed').sort((a, b) => a.set.at - b.set.at);
  const out: string[] = [];
  let total = [...hashesInUse(live).values()].reduce((a, b) => a + b, 0);
  for (let i = 0; i < live.length - 1 && total > limit; i++) {
    out.push(live[i].set.id);
    total = [...hashesInUse(live.slice(i + 1)).values()].reduce((a, b) => a + b, 0);
  }
  return out;
}
