// The log writer: what this window last wrote of each conversation, and how a save writes only
// what changed since (new messages appended, keyed; taken-out ones as an `x` record; the reply
// streaming in a side file), after taking in what other windows appended to the same log (their
// turns go after what both had written, before this window's unwritten ones). VS Code-free.
import { formatMessageId, MESSAGE_ID_SPACE, refreshTitle, summarize, type Conversation, type StoredMessage } from '../chat/conversation';
import { headerLine, recordLine, type LogRecord, type ReplayedLog } from './conversationLog';
import type { HistoryIndex } from './historyIndex';
import type { ConversationStoragePort } from './port';
import type { SearchIndex } from './searchIndex';

/** What this window last wrote of one conversation. */
export interface Written {
  /** The messages written as final records, in order (the same objects as in memory). */
  messages: StoredMessage[];
  /** Content length and status of each when written (a message changed in place is rewritten). */
  sigs: string[];
  keys: WeakMap<StoredMessage, string>;
  size: number | undefined;
  title?: string;
  updatedAt?: string;
  nextSeq?: number;
  /** The summary as last written (its JSON; '' for none). */
  summary?: string;
  partial: boolean;
}

export const sig = (m: StoredMessage) => `${m.status}:${m.content.length}`;

/** The state of a conversation at the moment save() was called (messages are not copied). */
export interface Snapshot {
  conv: Conversation;
  messages: StoredMessage[];
  streaming?: StoredMessage;
  title: string;
  updatedAt: string;
  nextSeq: number;
  /** The summary's JSON ('' for none). */
  summary: string;
}

const summarySig = (conv: Conversation): string => (conv.summary ? JSON.stringify(conv.summary) : '');


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
    r.conv.messages.forEach((m, i) => keys.set(m, r.keys[i]));
    const final = r.conv.messages.filter((m) => m.status !== 'streaming');
    const w: Written = {
      messages: final,
      sigs: final.map(sig),
      keys,
      size: undefined,
      title: r.conv.title,
      updatedAt: r.conv.updatedAt,
      nextSeq: r.conv.nextSeq,
      summary: summarySig(r.conv),
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
    const last = conv.messages[conv.messages.length - 1];
    const streaming = last && last.status === 'streaming' ? { ...last } : undefined;
    const snap: Snapshot = {
      conv,
      messages: streaming ? conv.messages.slice(0, -1) : conv.messages.slice(),
      ...(streaming ? { streaming } : {}),
      title: conv.title,
      updatedAt: conv.updatedAt,
      nextSeq: conv.nextSeq,
      summary: summarySig(conv),
    };
    return { snap, streamingRef: streaming ? last : undefined };
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
        snap.messages = snap.messages.filter((m) => !deleted.has(m));
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
    let p = 0;
    while (p < w.messages.length && p < snap.messages.length && snap.messages[p] === w.messages[p] && sig(snap.messages[p]) === w.sigs[p]) p++;
    if (p < w.messages.length) out += recordLine({ t: 'x', k: w.messages.slice(p).map((m) => this.keyOf(w, m)) });
    const added = snap.messages.slice(p);
    for (const m of added) out += recordLine({ t: 'm', k: this.keyOf(w, m), m });
    const metaChanged = snap.title !== w.title || snap.updatedAt !== w.updatedAt || snap.nextSeq !== w.nextSeq;
    if (metaChanged) out += recordLine({ t: 'u', title: snap.title, updatedAt: snap.updatedAt, nextSeq: snap.nextSeq } satisfies LogRecord);
    // A log written from scratch has no summary yet; otherwise it is written when it changed.
    const summaryChanged = snap.summary !== (w.summary ?? '');
    if (summaryChanged) out += recordLine({ t: 's', s: snap.summary ? (JSON.parse(snap.summary) as Conversation['summary']) ?? null : null });
    if (out) {
      // Counted as written only once the append resolved: after a failure the next save reads
      // the log's real size back and appends again what is missing (records are keyed, so a
      // record that did reach the disk is replaced in place, not doubled).
      w.size = await this.deps.storage.appendLog(id, out);
    }
    w.messages.length = p;
    w.sigs.length = p;
    w.messages.push(...added);
    w.sigs.push(...added.map(sig));
    if (summaryChanged) w.summary = snap.summary;
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
    const view: Conversation = { ...snap.conv, title: snap.title, updatedAt: snap.updatedAt, messages: snap.streaming ? [...snap.messages, snap.streaming] : snap.messages };
    await this.deps.history.put(summarize(view));
    await this.deps.fullText.put({ ...view, messages: snap.messages }, p);
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
    r.conv.messages.forEach((m, i) => {
      const k = r.keys[i];
      if (known.has(k) || k.startsWith(this.writer + '.')) return;
      if (m.status === 'streaming') return;
      w.keys.set(m, k);
      foreign.push(m);
    });
    if (foreign.length === 0) return true;
    this.deps.changedFromDisk.add(id);
    const conv = snap.conv;
    const taken = new Set(conv.messages.map((m) => m.id));
    for (const m of foreign) {
      if (taken.has(m.id)) {
        // Same id as one of ours (both windows counted from the same point): a fresh one.
        let seq = conv.nextSeq;
        while (taken.has(formatMessageId(seq))) seq++;
        m.id = formatMessageId(seq);
        conv.nextSeq = (seq + 1) % MESSAGE_ID_SPACE;
      }
      taken.add(m.id);
    }
    // Theirs go after what both had written, before what this window has not written yet.
    const at = w.messages.length;
    const firstUnwritten = snap.messages[at] ?? streamingRef;
    const i = firstUnwritten ? conv.messages.indexOf(firstUnwritten) : -1;
    conv.messages.splice(i < 0 ? conv.messages.length : i, 0, ...foreign);
    snap.messages.splice(at, 0, ...foreign);
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
    w.updatedAt = undefined;
    w.nextSeq = undefined;
  }
}
