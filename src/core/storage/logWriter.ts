// The log writer: what this window last wrote of each conversation, and how a save writes only
// what changed since (new messages appended, keyed; taken-out ones as an `x` record; the reply
// streaming in a side file), after taking in what other windows appended to the same log (their
// turns go after what both had written, before this window's unwritten ones). VS Code-free.
import { formatMessageId, MESSAGE_ID_SPACE, refreshTitle, summarize, type Conversation, type StoredMessage } from '../chat/conversation';
import { headerLine, recordLine, type LogRecord, type ReplayedLog } from './conversationLog';
import { shownVariants, storedMessages } from '../variants/variants';
import { hasBranches, lineBranches, rearrange, shownBranches } from '../variants/branches';
import type { HistoryIndex } from './historyIndex';
import type { ConversationStoragePort } from './port';
import type { SearchIndex } from './searchIndex';

/** What this window last wrote of one conversation. */
export interface Written {
  /** The messages written as final records (the same objects as in memory): the line, then the variants not shown. */
  messages: StoredMessage[];
  /** Each one's sig when written (a message changed in place is rewritten). */
  sigs: string[];
  keys: WeakMap<StoredMessage, string>;
  size: number | undefined;
  title?: string;
  updatedAt?: string;
  nextSeq?: number;
  /** The summary as last written (its JSON; '' for none). */
  summary?: string;
  /** The variant shown of each reply with variants, as last written (question id → reply id). */
  shown?: Map<string, string>;
  /** The question shown of each place with branches, as last written (root id → question id). */
  branches?: Map<string, string>;
  /** The pins as last written (their JSON; '' for none). */
  pins?: string;
  partial: boolean;
}

/** A message as written: one changed in place (its text, status, or what went with a question resent) is written again. */
export const sig = (m: StoredMessage) => `${m.status}:${m.content.length}:${m.variantOf ?? ''}${m.sent?.length ? `:${sentSig(m.sent)}` : ''}`;

/** A record's JSON, made once per record (a record is replaced, never changed in place): a save compares every question's. */
const sentSigs = new WeakMap<object, string>();
function sentSig(sent: NonNullable<StoredMessage['sent']>): string {
  let s = sentSigs.get(sent);
  if (s === undefined) sentSigs.set(sent, (s = JSON.stringify(sent)));
  return s;
}

/** The state of a conversation at the moment save() was called (messages are not copied). */
export interface Snapshot {
  conv: Conversation;
  /** Every final message: the line, then the variants not shown. */
  messages: StoredMessage[];
  /** The line the chat shows (with the streaming reply as copied). */
  line: StoredMessage[];
  shown: Map<string, string>;
  branches: Map<string, string>;
  streaming?: StoredMessage;
  title: string;
  updatedAt: string;
  nextSeq: number;
  /** The summary's JSON ('' for none). */
  summary: string;
  /** The pins' JSON ('' for none). */
  pins: string;
}

const summarySig = (conv: Conversation): string => (conv.summary ? JSON.stringify(conv.summary) : '');
const pinsSig = (conv: Conversation): string => (conv.pins?.length ? JSON.stringify(conv.pins) : '');


export interface LogWriterDeps {
  storage: ConversationStoragePort;
  /** Reads a log with its side files. */
  read(id: string): Promise<ReplayedLog | undefined>;
  /** Conversations deleted in this window: a save still under way for one of them is dropped. */
  removed: ReadonlySet<string>;
  /** Conversations whose messages a save changed from what is on disk (told by the next refresh). */
  changedFromDisk: Set<string>;
  history: Pick<HistoryIndex, 'deletedElsewhere' | 'put'>;
  fullText: Pick<SearchIndex, 'put'>;
  /** Removes a conversation left without messages (its log and its index entry). */
  erase(id: string): Promise<void>;
}

export class LogWriter {
  private readonly written = new Map<string, Written>();
  /** Distinguishes this window's side files and message keys from another window's. */
  private readonly writer = Math.random().toString(36).slice(2, 10);
  private keyCount = 0;

  constructor(private readonly deps: LogWriterDeps) {}

  /** What was last written of a conversation, when this window wrote or read it. */
  get(id: string): Written | undefined {
    return this.written.get(id);
  }

  /** Nothing of the conversation is known to be written any more (removed). */
  drop(id: string): void {
    this.written.delete(id);
  }

  /** `n` keys of this window for messages written whole (a restore). */
  newKeys(n: number): string[] {
    return Array.from({ length: n }, () => `${this.writer}.${(++this.keyCount).toString(36)}`);
  }

  /** The log was rewritten from `messages` (a compaction when opened): they are what is written. */
  rewritten(w: Written, messages: readonly StoredMessage[]): void {
    w.messages = [...messages];
    w.sigs = w.messages.map(sig);
  }

  track(id: string, r: ReplayedLog): Written {
    const keys = new WeakMap<StoredMessage, string>();
    const all = storedMessages(r.conv);
    all.forEach((m, i) => keys.set(m, r.keys[i]));
    const final = all.filter((m) => m.status !== 'streaming');
    const w: Written = {
      messages: final,
      sigs: final.map(sig),
      keys,
      size: undefined,
      title: r.conv.title,
      updatedAt: r.conv.updatedAt,
      nextSeq: r.conv.nextSeq,
      summary: summarySig(r.conv),
      shown: shownVariants(r.conv),
      branches: shownBranches(r.conv),
      pins: pinsSig(r.conv),
      partial: false,
    };
    this.written.set(id, w);
    return w;
  }

  private keyOf(w: Written, m: StoredMessage): string {
    let k = w.keys.get(m);
    if (!k) {
      k = `${this.writer}.${(++this.keyCount).toString(36)}`;
      w.keys.set(m, k);
    }
    return k;
  }

  snapshot(conv: Conversation): { snap: Snapshot; streamingRef: StoredMessage | undefined } {
    // The reply streaming (the last of the line, or a new variant in its place above).
    let streamingRef: StoredMessage | undefined;
    for (let i = conv.messages.length - 1; i >= 0 && !streamingRef; i--) if (conv.messages[i].status === 'streaming') streamingRef = conv.messages[i];
    const streaming = streamingRef ? { ...streamingRef } : undefined;
    const snap: Snapshot = {
      conv,
      messages: storedMessages(conv).filter((m) => m !== streamingRef),
      line: conv.messages.map((m) => (m === streamingRef && streaming ? streaming : m)),
      shown: shownVariants(conv),
      branches: shownBranches(conv),
      ...(streaming ? { streaming } : {}),
      title: conv.title,
      updatedAt: conv.updatedAt,
      nextSeq: conv.nextSeq,
      summary: summarySig(conv),
      pins: pinsSig(conv),
    };
    return { snap, streamingRef };
  }

  async write(snap: Snapshot, streamingRef: StoredMessage | undefined): Promise<void> {
    const id = snap.conv.id;
    if (snap.messages.length === 0 && !snap.streaming) {
      // Left without messages: its log goes, unless another window wrote turns to it since (those
      // are taken in and kept, never erased with this window's).
      const w = this.written.get(id);
      const size = await this.deps.storage.logSize(id);
      const theirs = w !== undefined && size !== undefined && size !== w.size && (await this.takeIn(snap, w, streamingRef)) && snap.messages.length > 0;
      if (!theirs) {
        if (w || size !== undefined) await this.deps.erase(id);
        return;
      }
    }
    // Deleted (here, or by History while its reply was still streaming): it stays deleted.
    if (this.deps.removed.has(id)) return;
    let w = this.written.get(id);
    let size = await this.deps.storage.logSize(id);
    if (!w) {
      w = { messages: [], sigs: [], keys: new WeakMap(), size: undefined, partial: false };
      this.written.set(id, w);
    }
    if (size === undefined && w.size !== undefined) {
      if (await this.deps.history.deletedElsewhere(id)) {
        // Deleted in another window while this one showed it: what was deleted stays deleted (on
        // disk, on screen and in later requests); only what this window added is kept.
        const deleted = new Set(w.messages);
        const conv = snap.conv;
        for (let i = conv.messages.length - 1; i >= 0; i--) if (deleted.has(conv.messages[i])) conv.messages.splice(i, 1);
        if (conv.variants) conv.variants = conv.variants.filter((v) => !deleted.has(v));
        snap.messages = snap.messages.filter((m) => !deleted.has(m));
        snap.line = snap.line.filter((m) => !deleted.has(m));
        refreshTitle(conv);
        snap.title = conv.title;
        this.deps.changedFromDisk.add(id);
        if (snap.messages.length === 0 && !snap.streaming) {
          this.written.delete(id);
          return;
        }
      }
      // The log vanished: written anew, header first (removed by hand: the whole conversation).
      this.reset(w);
    }
    if (size !== w.size && size !== undefined) {
      // Another window wrote this conversation since (or an earlier append of ours failed part
      // way): its messages are taken in, before ours; ours not known to be written go again.
      const readable = await this.takeIn(snap, w, streamingRef);
      if (!readable) {
        // No header to build on (a first append cut short): the log is written whole.
        this.reset(w);
        await this.deps.storage.rewriteLog(id, '');
        size = 0;
      }
    }
    let out = w.size === undefined && !size ? headerLine(snap.conv) : '';
    // What changed since the last write, message by message: those taken out as an `x` record, new
    // ones appended, changed ones written again under their key (a record replaces the one before
    // it in place). Where a message stands among the others is never rewritten: a reply's variants
    // find their place by their question (src/core/variants).
    const now = new Set(snap.messages);
    const before = new Map(w.messages.map((m, i) => [m, w.sigs[i]]));
    const gone = w.messages.filter((m) => !now.has(m));
    if (gone.length) out += recordLine({ t: 'x', k: gone.map((m) => this.keyOf(w, m)) });
    for (const m of snap.messages) if (before.get(m) !== sig(m)) out += recordLine({ t: 'm', k: this.keyOf(w, m), m });
    // (The first message that is not as written: the full-text index reads from there.)
    let p = 0;
    while (p < w.messages.length && p < snap.messages.length && snap.messages[p] === w.messages[p] && sig(snap.messages[p]) === w.sigs[p]) p++;
    const shownChanged = [...snap.shown].filter(([q, m]) => w.shown?.get(q) !== m);
    for (const [q, m] of shownChanged) out += recordLine({ t: 'v', q, m });
    for (const [q, m] of snap.branches) if (w.branches?.get(q) !== m) out += recordLine({ t: 'b', q, m });
    const metaChanged = snap.title !== w.title || snap.updatedAt !== w.updatedAt || snap.nextSeq !== w.nextSeq;
    if (metaChanged) out += recordLine({ t: 'u', title: snap.title, updatedAt: snap.updatedAt, nextSeq: snap.nextSeq } satisfies LogRecord);
    // A log written from scratch has no summary yet; otherwise it is written when it changed.
    const summaryChanged = snap.summary !== (w.summary ?? '');
    if (summaryChanged) out += recordLine({ t: 's', s: snap.summary ? (JSON.parse(snap.summary) as Conversation['summary']) ?? null : null });
    const pinsChanged = snap.pins !== (w.pins ?? '');
    if (pinsChanged) out += recordLine({ t: 'p', p: snap.pins ? (JSON.parse(snap.pins) as NonNullable<Conversation['pins']>) : [] });
    if (out) {
      // Counted as written only once the append resolved: after a failure the next save reads
      // the log's real size back and appends again what is missing (records are keyed, so a
      // record that did reach the disk is replaced in place, not doubled).
      w.size = await this.deps.storage.appendLog(id, out);
    }
    w.messages = [...snap.messages];
    w.sigs = w.messages.map(sig);
    w.shown = snap.shown;
    w.branches = snap.branches;
    if (summaryChanged) w.summary = snap.summary;
    if (pinsChanged) w.pins = snap.pins;
    if (metaChanged) {
      w.title = snap.title;
      w.updatedAt = snap.updatedAt;
      w.nextSeq = snap.nextSeq;
    }
    if (snap.streaming && streamingRef) {
      const k = this.keyOf(w, streamingRef);
      await this.deps.storage.writePartial(id, this.writer, JSON.stringify({ t: 'm', k, m: snap.streaming }));
      w.partial = true;
    } else if (w.partial) {
      await this.deps.storage.removePartials(id, this.writer);
      w.partial = false;
    }
    const view: Conversation = { ...snap.conv, title: snap.title, updatedAt: snap.updatedAt, messages: snap.line };
    await this.deps.history.put(summarize(view));
    // The full-text index holds every variant too: History's search finds a word only a hidden one has.
    // (In the order the writer keeps, the one `p` counts in: showing another variant reindexes nothing.)
    await this.deps.fullText.put({ ...view, messages: snap.messages, variants: [] }, p);
  }

  /** Merges messages another window appended to a conversation into the one in memory. */
  async takeIn(snap: Snapshot, w: Written, streamingRef: StoredMessage | undefined): Promise<boolean> {
    const id = snap.conv.id;
    const r = await this.deps.read(id);
    w.size = await this.deps.storage.logSize(id);
    if (!r) return false;
    const known = new Map<string, StoredMessage>();
    for (const m of w.messages) known.set(this.keyOf(w, m), m);
    const foreign: StoredMessage[] = [];
    const all = storedMessages(r.conv);
    all.forEach((m, i) => {
      const k = r.keys[i];
      if (known.has(k) || k.startsWith(this.writer + '.')) return;
      if (m.status === 'streaming') return;
      w.keys.set(m, k);
      foreign.push(m);
    });
    if (foreign.length === 0) return true;
    this.deps.changedFromDisk.add(id);
    const conv = snap.conv;
    const taken = new Set(storedMessages(conv).map((m) => m.id));
    const renamed = new Map<string, string>();
    for (const m of foreign) {
      if (taken.has(m.id)) {
        // Same id as one of ours (both windows counted from the same point): a fresh one.
        let seq = conv.nextSeq;
        while (taken.has(formatMessageId(seq))) seq++;
        if (!renamed.has(m.id)) renamed.set(m.id, formatMessageId(seq));
        m.id = formatMessageId(seq);
        conv.nextSeq = (seq + 1) % MESSAGE_ID_SPACE;
      }
      taken.add(m.id);
    }
    // With branches, each message finds its place by its branch: the line shows what it showed.
    const choices = hasBranches(conv) || foreign.some((m) => m.branchOf !== undefined || m.branch !== undefined) ? lineBranches(conv) : undefined;
    for (const m of foreign) for (const k of ['branchOf', 'branch'] as const) {
      const to = m[k] !== undefined ? renamed.get(m[k]) : undefined;
      if (to && foreign.some((f) => f.id === to)) m[k] = to;
    }
    // Theirs go after what both had written, before what this window has not written yet.
    const written = new Set(w.messages);
    const firstUnwritten = conv.messages.find((m) => !written.has(m) || m === streamingRef);
    const i = firstUnwritten ? conv.messages.indexOf(firstUnwritten) : -1;
    const plain = foreign.filter((m) => !m.variantOf);
    conv.messages.splice(i < 0 ? conv.messages.length : i, 0, ...plain);
    // Their variants of a reply join its variants here (the one shown stays this window's).
    for (const v of foreign) {
      if (!v.variantOf) continue;
      if (renamed.has(v.variantOf) && plain.some((m) => m.id === renamed.get(v.variantOf as string))) v.variantOf = renamed.get(v.variantOf);
      const q = conv.messages.findIndex((m) => m.role === 'user' && m.id === v.variantOf);
      const shown = q >= 0 ? conv.messages[q + 1] : undefined;
      if (q >= 0 && shown?.role !== 'assistant') conv.messages.splice(q + 1, 0, v);
      else {
        if (shown && !shown.variantOf) shown.variantOf = v.variantOf;
        conv.variants = [...(conv.variants ?? []), v];
      }
    }
    if (choices) rearrange(conv, choices);
    snap.messages = storedMessages(conv).filter((m) => m !== streamingRef);
    snap.line = conv.messages.map((m) => (m === streamingRef && snap.streaming ? snap.streaming : m));
    snap.shown = shownVariants(conv);
    snap.branches = shownBranches(conv);
    // Foreign messages are already in the log: count them as written.
    w.messages.push(...foreign);
    w.sigs.push(...foreign.map(sig));
    snap.nextSeq = conv.nextSeq;
    return true;
  }

  /** Nothing of the conversation counts as written any more: the next save writes it all. */
  reset(w: Written): void {
    w.messages = [];
    w.sigs = [];
    w.size = undefined;
    w.title = undefined;
    w.summary = undefined;
    w.pins = undefined;
    w.shown = undefined;
    w.branches = undefined;
    w.updatedAt = undefined;
    w.nextSeq = undefined;
  }
}
