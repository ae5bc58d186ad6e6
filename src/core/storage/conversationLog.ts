// The stored form of a conversation (schema version 2): a log of JSON lines, one record a line,
// so that a turn is an append and never a rewrite. Its own schema, not the webview's.
//
//   {"t":"h","v":2,"id":…,"createdAt":…}          header, first line (a fork's forkedFrom, an import's importedFrom)
//   {"t":"m","k":…,"m":{message}}                  a message (a key seen before: replaced in place)
//   {"t":"x","k":[…]}                              messages taken out (edit, retry), by key
//   {"t":"u","title":…,"updatedAt":…,"nextSeq":…}  title and dates
//   {"t":"s","s":{summary}|null}                   the summary of earlier turns (null: removed); the last one wins
//   {"t":"v","q":…,"m":…}                          the variant shown of the reply to question q; the last one wins
//   {"t":"b","q":…,"m":…}                          the question shown of the place of question q (its branches); the last one wins
//   {"t":"p","p":[pins]}                           the files and ranges pinned to it ([]: none); the last one wins
//
// Logs written before summaries have no "s" record (no summary), before variants no "v" record
// and no message naming its question (`variantOf`): they read as they did. A reader that does not
// know a record skips it as a line it cannot read. A reply's variants (src/core/variants) are
// messages like any other, appended when made, wherever their question is; so are a conversation's
// branches (Edit of an earlier question: src/core/variants/branches.ts), which logs before them
// have no message of (no `branchOf`, no `branch`, no "b" record).
//
// A reply that is still streaming lives in a small side file (one per writer) holding one "m"
// record; it is folded into the log when the conversation is opened.
import * as z from 'zod/mini';
import { shownVariants, storedMessages } from '../variants/variants';
import { arrangeLine, rememberChoices, shownBranches } from '../variants/branches';
import { DEFAULT_TITLE, formatMessageId, summarize, type Conversation, type ConversationSummary, type StoredMessage } from '../chat/conversation';
import { ForkOriginSchema, ImportOriginSchema, parseConversation, PinsSchema, repairStoredMessage, StoredMessageSchema, TurnSummarySchema } from '../chat/conversationFormat';
import type { Pin } from '../context/pins';

export const LOG_VERSION = 2;

const HeaderRecord = z.object({
  t: z.literal('h'),
  v: z.literal(LOG_VERSION),
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  createdAt: z.string(),
  /** A fork's origin (readers that do not know it ignore it). */
  forkedFrom: z.optional(ForkOriginSchema),
  /** An imported conversation's origin (readers that do not know it ignore it). */
  importedFrom: z.optional(ImportOriginSchema),
});
export const MessageRecord = z.object({ t: z.literal('m'), k: z.string().check(z.minLength(1)), m: StoredMessageSchema });
const DropRecord = z.object({ t: z.literal('x'), k: z.array(z.string()) });
const MetaRecord = z.object({
  t: z.literal('u'),
  title: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  nextSeq: z.optional(z.number().check(z.int(), z.gte(0))),
});
const SummaryRecord = z.object({ t: z.literal('s'), s: z.nullable(TurnSummarySchema) });
const ShownRecord = z.object({ t: z.literal('v'), q: z.string().check(z.maxLength(20)), m: z.string().check(z.maxLength(20)) });
const BranchRecord = z.object({ t: z.literal('b'), q: z.string().check(z.maxLength(20)), m: z.string().check(z.maxLength(20)) });
const PinsRecord = z.object({ t: z.literal('p'), p: PinsSchema });
const BodyRecord = z.discriminatedUnion('t', [MessageRecord, DropRecord, MetaRecord, SummaryRecord, ShownRecord, BranchRecord, PinsRecord]);
export type LogRecord = z.infer<typeof HeaderRecord> | z.infer<typeof BodyRecord>;
export type MessageRecord = z.infer<typeof MessageRecord>;

export function recordLine(record: LogRecord): string {
  return JSON.stringify(record) + '\n';
}

export function headerLine(conv: Pick<Conversation, 'id' | 'createdAt' | 'forkedFrom' | 'importedFrom'>): string {
  return recordLine({
    t: 'h',
    v: LOG_VERSION,
    id: conv.id,
    createdAt: conv.createdAt,
    ...(conv.forkedFrom ? { forkedFrom: conv.forkedFrom } : {}),
    ...(conv.importedFrom ? { importedFrom: conv.importedFrom } : {}),
  });
}

export interface ReplayedLog {
  conv: Conversation;
  /** The key of each message, in the order of `storedMessages(conv)` (the line, then the variants not shown). */
  keys: string[];
  /** True when a rewrite would make the log shorter or cleaner (drops, side files, bad lines, renumbered ids). */
  untidy: boolean;
}

/**
 * Rebuilds a conversation from its log and the side files of replies that were streaming.
 * Lines that do not parse (a line cut short by a crash) are skipped. Message ids left
 * duplicated by two windows writing the same conversation are renumbered.
 */
export function replayLog(text: string, partials: readonly string[] = [], fallbackId?: string): ReplayedLog | undefined {
  const lines = text.split('\n');
  let header: z.infer<typeof HeaderRecord> | undefined;
  let untidy = false;
  let order: string[] = [];
  const byKey = new Map<string, StoredMessage>();
  let title: string | undefined;
  let updatedAt: string | undefined;
  let nextSeq = 0;
  let summary: z.infer<typeof TurnSummarySchema> | undefined;
  const shown = new Map<string, string>();
  const branches = new Map<string, string>();
  let pins: Pin[] = [];
  for (const line of lines) {
    if (!line) continue;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      untidy = true;
      continue;
    }
    if (!header) {
      const h = HeaderRecord.safeParse(data);
      if (!h.success) return wholeConversation(text, fallbackId);
      header = h.data;
      // The file's name wins over a header naming another id: the header is rewritten.
      if (fallbackId !== undefined && header.id !== fallbackId) untidy = true;
      continue;
    }
    const r = BodyRecord.safeParse(data);
    let rec: z.infer<typeof BodyRecord>;
    if (r.success) rec = r.data;
    else {
      untidy = true;
      // A message whose fields fail their rules (a paid reply with credits out of range, say) is
      // repaired, never dropped: a compaction would otherwise erase it for good.
      const repaired = repairMessageRecord(data, header.createdAt);
      if (!repaired) continue;
      rec = repaired;
    }
    if (rec.t === 'm') {
      if (!byKey.has(rec.k)) order.push(rec.k);
      byKey.set(rec.k, rec.m);
    } else if (rec.t === 'x') {
      untidy = true;
      // A key written again after it was taken out goes where it is written again (once).
      order = dropKeys(order, byKey, rec.k);
    } else if (rec.t === 's') {
      summary = rec.s ?? undefined;
    } else if (rec.t === 'v') {
      shown.set(rec.q, rec.m);
    } else if (rec.t === 'b') {
      branches.set(rec.q, rec.m);
    } else if (rec.t === 'p') {
      pins = rec.p;
    } else {
      if (rec.title !== undefined) title = rec.title;
      if (rec.updatedAt !== undefined) updatedAt = rec.updatedAt;
      if (rec.nextSeq !== undefined) nextSeq = rec.nextSeq;
    }
  }
  if (!header) return undefined;
  for (const p of partials) {
    try {
      const r = MessageRecord.safeParse(JSON.parse(p));
      if (!r.success) continue;
      untidy = true;
      // A final record in the log is newer than the side file of the same reply.
      if (byKey.has(r.data.k) && byKey.get(r.data.k)?.status !== 'streaming') continue;
      if (!byKey.has(r.data.k)) order.push(r.data.k);
      byKey.set(r.data.k, r.data.m);
    } catch {
      // a side file cut short: its reply was also appended when it ended, or is lost with the crash
    }
  }
  const keyOf = new Map<StoredMessage, string>();
  for (const k of order) if (byKey.has(k)) keyOf.set(byKey.get(k) as StoredMessage, k);
  const { messages, variants } = arrangeLine([...keyOf.keys()], shown, branches);
  const conv = parseConversation({
    version: 1,
    // The file's name wins: a header naming another id (copied or edited by hand) is rewritten.
    id: fallbackId ?? header.id,
    title: title ?? DEFAULT_TITLE,
    ...(header.forkedFrom ? { forkedFrom: header.forkedFrom } : {}),
    ...(header.importedFrom ? { importedFrom: header.importedFrom } : {}),
    createdAt: header.createdAt,
    updatedAt: updatedAt ?? header.createdAt,
    nextSeq,
    messages,
    ...(variants.length ? { variants } : {}),
    ...(summary ? { summary } : {}),
    ...(pins.length ? { pins } : {}),
  });
  if (!conv) return undefined;
  // The parsed messages are copies, in the order given: the line, then the variants not shown.
  const given = [...messages, ...variants];
  const parsedKey = new Map<StoredMessage, string>();
  [...conv.messages, ...(conv.variants ?? [])].forEach((m, i) => parsedKey.set(m, keyOf.get(given[i]) ?? `v1.${i}`));
  const all = storedMessages(conv);
  const keys = all.map((m, i) => parsedKey.get(m) ?? `v1.${i}`);
  if (new Set(all.map((m) => m.id)).size !== all.length) {
    // Each variant keeps its question, and each branch its questions, across the new ids.
    const links: Array<[StoredMessage, 'variantOf' | 'branchOf' | 'branch', StoredMessage]> = [];
    for (const v of all) for (const k of ['variantOf', 'branchOf', 'branch'] as const) {
      const q = v[k] !== undefined ? (conv.messages.find((m) => m.role === 'user' && m.id === v[k]) ?? all.find((m) => m.role === 'user' && m.id === v[k])) : undefined;
      if (q) links.push([v, k, q]);
    }
    all.forEach((m, i) => (m.id = formatMessageId(i)));
    for (const [v, k, q] of links) v[k] = q.id;
    conv.nextSeq = all.length % 4096;
    untidy = true;
  }
  rememberChoices(conv, shown, branches);
  return { conv, keys, untidy };
}

/** The keys an `x` record takes out, gone from the map and from the order. */
function dropKeys<T>(order: string[], byKey: Map<string, T>, keys: readonly string[]): string[] {
  let any = false;
  for (const k of keys) any = byKey.delete(k) || any;
  if (!any) return order;
  const gone = new Set(keys);
  return order.filter((k) => !gone.has(k));
}

const isText = (v: unknown, max = Infinity): v is string => typeof v === 'string' && v.length <= max;

/**
 * What History lists of a log (its summary), read without checking each message against its
 * schema: a long log takes a tenth of the time of replayLog. Undefined whenever anything is not as
 * a valid log writes it (a header or a record of another form; a line that does not parse is
 * skipped, as replayLog skips it): the caller then replays the log. The summary is provisional:
 * replayLog checks every message, and its summary (or none, for a log it cannot read) replaces this one.
 */
export function peekLog(text: string, fallbackId?: string): ConversationSummary | undefined {
  type Peeked = { role?: unknown; content?: unknown; meta?: { model?: unknown } };
  let header: { id: string; createdAt: string; forkedFrom?: { id: string; title: string } } | undefined;
  let order: string[] = [];
  const byKey = new Map<string, Peeked>();
  let title: string | undefined;
  let updatedAt: string | undefined;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (!line) continue;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof data !== 'object' || data === null) return undefined;
    if (!header) {
      const f = data.forkedFrom as Record<string, unknown> | undefined;
      if (data.t !== 'h' || data.v !== LOG_VERSION || !isText(data.id, 200) || !data.id || !isText(data.createdAt)) return undefined;
      if (f !== undefined && (typeof f !== 'object' || f === null || !isText(f.id, 200) || !f.id || !isText(f.title, 500) || !isText(f.messageId, 20))) return undefined;
      header = { id: data.id, createdAt: data.createdAt, ...(f ? { forkedFrom: { id: f.id as string, title: f.title as string } } : {}) };
      continue;
    }
    if (data.t === 'm') {
      const m = data.m as Peeked | null;
      const meta = m?.meta;
      if (!isText(data.k) || !data.k || typeof m !== 'object' || m === null || (m.role !== 'user' && m.role !== 'assistant') || !isText(m.content)) return undefined;
      if (meta !== undefined && (typeof meta !== 'object' || meta === null || (meta.model !== undefined && !isText(meta.model)))) return undefined;
      if (!byKey.has(data.k)) order.push(data.k);
      byKey.set(data.k, m);
    } else if (data.t === 'x') {
      if (!Array.isArray(data.k) || !data.k.every((k) => isText(k))) return undefined;
      order = dropKeys(order, byKey, data.k);
    } else if (data.t === 'u') {
      if ((data.title !== undefined && !isText(data.title)) || (data.updatedAt !== undefined && !isText(data.updatedAt))) return undefined;
      if (data.title !== undefined) title = data.title;
      if (data.updatedAt !== undefined) updatedAt = data.updatedAt;
    } else if (data.t !== 's' && data.t !== 'v' && data.t !== 'p') return undefined;
  }
  if (!header) return undefined;
  // A reply's variants count once (in its first's place).
  const groups = new Set<unknown>();
  const messages = order
    .filter((k) => byKey.has(k))
    .map((k) => byKey.get(k) as StoredMessage)
    .filter((m) => m.variantOf === undefined || (!groups.has(m.variantOf) && !!groups.add(m.variantOf)));
  return summarize({
    version: 1,
    id: fallbackId ?? header.id,
    title: title ?? DEFAULT_TITLE,
    ...(header.forkedFrom ? { forkedFrom: { ...header.forkedFrom, messageId: '' } } : {}),
    createdAt: header.createdAt,
    updatedAt: updatedAt ?? header.createdAt,
    nextSeq: 0,
    messages,
  });
}

/**
 * A log that is one conversation as a JSON document (the 0.1.0 form), read as far as it can be
 * (repaired); it is rewritten as a log when opened.
 */
function repairMessageRecord(data: unknown, fallbackDate: string): MessageRecord | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { t, k, m } = data as { t?: unknown; k?: unknown; m?: unknown };
  if (t !== 'm' || typeof k !== 'string' || k.length === 0) return undefined;
  const message = repairStoredMessage(m, fallbackDate);
  return message ? { t: 'm', k, m: message } : undefined;
}

function wholeConversation(text: string, fallbackId?: string): ReplayedLog | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || 't' in data) return undefined;
  const conv = parseConversation(data, fallbackId);
  return conv ? { conv, keys: conv.messages.map((_, i) => `v1.${i}`), untidy: true } : undefined;
}

/** The whole log of a conversation, for a new file (migration, compaction, undo of a delete). */
export function encodeLog(conv: Conversation, keys: readonly string[]): string {
  let out = headerLine(conv);
  storedMessages(conv).forEach((m, i) => (out += recordLine({ t: 'm', k: keys[i], m: { ...m, ...(m.status === 'streaming' ? { status: 'stopped' } : {}) } })));
  for (const [q, m] of shownVariants(conv)) out += recordLine({ t: 'v', q, m });
  for (const [q, m] of shownBranches(conv)) out += recordLine({ t: 'b', q, m });
  out += recordLine({ t: 'u', title: conv.title, updatedAt: conv.updatedAt, nextSeq: conv.nextSeq });
  if (conv.summary) out += recordLine({ t: 's', s: conv.summary });
  if (conv.pins?.length) out += recordLine({ t: 'p', p: conv.pins });
  return out;
}

// The history index: one JSON line per change of a conversation's summary ({"id":…,"gone":true}
// for a removed one); the last line of an id wins. Appends only, rewritten when mostly stale.
const IndexLine = z.union([
  z.object({ id: z.string(), gone: z.literal(true) }),
  z.object({
    id: z.string(),
    title: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    messageCount: z.number().check(z.int(), z.gte(0)),
    model: z.optional(z.string()),
    firstLine: z.string(),
    forkedFrom: z.optional(z.object({ id: z.string(), title: z.string() })),
  }),
]);

/** The version of the history index's lines; an index written whole starts with it ({"index":1}). */
export const INDEX_VERSION = 1;
const IndexHeader = z.strictObject({ index: z.number() });

export interface ReplayedIndex {
  entries: Map<string, ConversationSummary>;
  lines: number;
  /** Conversations whose last line says they were deleted (a rewrite of the index drops them). */
  gone: Set<string>;
  /**
   * Not an index this version can use: written by another version, or most of its lines do not
   * parse (a power loss can leave a file of NULs; a crash, lines cut short). Rebuilt from the logs.
   */
  unreadable: boolean;
}

/** The index's lines taken in one at a time (the last line of a conversation wins). */
class IndexReplay {
  private readonly entries = new Map<string, ConversationSummary>();
  private readonly gone = new Set<string>();
  private lines = 0;
  private bad = 0;
  private otherVersion = false;

  add(line: string): void {
    if (!line) return;
    this.lines++;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      this.bad++;
      return;
    }
    const r = IndexLine.safeParse(data);
    if (!r.success) {
      const header = IndexHeader.safeParse(data);
      if (header.success) this.otherVersion ||= header.data.index !== INDEX_VERSION;
      else this.bad++;
      return;
    }
    if ('gone' in r.data) {
      this.entries.delete(r.data.id);
      this.gone.add(r.data.id);
    } else {
      this.entries.set(r.data.id, r.data);
      this.gone.delete(r.data.id);
    }
  }

  result(): ReplayedIndex {
    const { entries, lines, gone, bad, otherVersion } = this;
    return { entries, lines, gone, unreadable: otherVersion || (bad > 0 && bad * 2 >= lines) };
  }
}

export function replayIndex(text: string): ReplayedIndex {
  const replay = new IndexReplay();
  for (const line of text.split('\n')) replay.add(line);
  return replay.result();
}

/**
 * replayIndex for a whole file, giving the event loop a turn (`pause`) once it has held it about
 * `sliceMs`: ten thousand lines checked one after the other would hold it for hundreds of ms.
 */
export async function replayIndexPaced(text: string, pause: () => Promise<void>, sliceMs = 20): Promise<ReplayedIndex> {
  const replay = new IndexReplay();
  let since = performance.now();
  let n = 0;
  for (const line of text.split('\n')) {
    replay.add(line);
    if ((++n & 63) === 0 && performance.now() - since >= sliceMs) {
      await pause();
      since = performance.now();
    }
  }
  return replay.result();
}

/** A whole index (a compaction, a rebuild): its version first, then one line per conversation. */
export function indexText(entries: Iterable<ConversationSummary>): string {
  let out = JSON.stringify({ index: INDEX_VERSION }) + '\n';
  for (const e of entries) out += indexLine(e);
  return out;
}

export function indexLine(entry: ConversationSummary | { id: string; gone: true }): string {
  return JSON.stringify(entry) + '\n';
}

export function sameSummary(a: ConversationSummary | undefined, b: ConversationSummary): boolean {
  return (
    !!a &&
    a.title === b.title &&
    a.updatedAt === b.updatedAt &&
    a.messageCount === b.messageCount &&
    a.model === b.model &&
    a.firstLine === b.firstLine &&
    a.forkedFrom?.id === b.forkedFrom?.id &&
    a.forkedFrom?.title === b.forkedFrom?.title &&
    a.createdAt === b.createdAt
  );
}
