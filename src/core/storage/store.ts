// The conversation store: the saved conversations, persisted through a port (port.ts). A save
// appends what changed to the conversation's log (see conversationLog.ts), after taking in what
// other windows appended to it; the reply that is streaming goes to a small side file. It keeps no
// current conversation: the chat session holds the one the window shows. Its parts: the history
// index (historyIndex.ts) lists conversations without reading them, and the full-text index
// (searchIndex.ts) finds them by any word of any message.
import {
  createConversation,
  forkConversation,
  formatMessageId,
  MESSAGE_ID_SPACE,
  refreshTitle,
  summarize,
  type Conversation,
  type ConversationSummary,
  type StoredMessage,
} from '../chat/conversation';
import { encodeLog, headerLine, recordLine, replayLog, type LogRecord, type ReplayedLog } from './conversationLog';
import type { SearchHit } from './historySearch';
import { HistoryIndex } from './historyIndex';
import type { ConversationStoragePort, SearchProgress } from './port';
import { SearchIndex } from './searchIndex';

export type { ConversationStoragePort, IndexCursor, SearchProgress } from './port';


export interface ConversationStoreOptions {
  newId?: () => string;
  now?: () => Date;
  /** Persist the search index this long after its last change (ms); flush() persists at once. */
  searchPersistDelayMs?: number;
  /** A missing history index is rebuilt before the listing up to this many logs, in the background above it (default 100). */
  rebuildInlineUpTo?: number;
}

/** What this store last wrote of one conversation. */
interface Written {
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

const sig = (m: StoredMessage) => `${m.status}:${m.content.length}`;

/** The state of a conversation at the moment save() was called (messages are not copied). */
interface Snapshot {
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


/** A title as the user typed it, on one line; empty when nothing is left. */
export const cleanTitle = (title: string): string => title.replace(/\s+/g, ' ').trim();

export class ConversationStore {
  private readonly newId: () => string;
  private readonly now: () => Date;
  /** Serialises writes so an older snapshot never overwrites a newer one. */
  private writing: Promise<void> = Promise.resolve();
  /** The id last recorded as the window's open conversation. */
  private lastOpened: string | undefined;
  private readonly written = new Map<string, Written>();
  /**
   * Conversations deleted here: a save still under way for one of them (a reply streaming) is
   * dropped. Lifted when the conversation is opened again (another window wrote it back) or restored.
   */
  private readonly removed = new Set<string>();
  /**
   * Conversations whose last save failed, kept (with everything not yet written) until a save of
   * them succeeds: every later save and Retry write them again, whichever conversation is current.
   */
  private readonly unsaved = new Map<string, Conversation>();
  /** Conversations whose messages this store changed from what is on disk (another window's turns, a delete elsewhere). */
  private readonly changedFromDisk = new Set<string>();
  private failure: Error | undefined;
  private readonly saveListeners = new Set<(failure: Error | undefined) => void>();
  /** Distinguishes this store's side files and message keys from another window's. */
  private readonly writer: string;
  private keyCount = 0;
  /** The history index (what History lists) and the full-text index (what it searches). */
  private readonly history: HistoryIndex;
  private readonly fullText: SearchIndex;

  constructor(
    private readonly storage: ConversationStoragePort,
    opts: ConversationStoreOptions = {},
  ) {
    this.newId = opts.newId ?? (() => globalThis.crypto.randomUUID());
    this.now = opts.now ?? (() => new Date());
    this.writer = Math.random().toString(36).slice(2, 10);
    const read = (id: string, withPartials?: Set<string>) => this.readStored(id, withPartials);
    const partialIds = () => this.partialIds();
    this.fullText = new SearchIndex({
      storage,
      persistDelayMs: opts.searchPersistDelayMs ?? 5000,
      read,
      partialIds,
      history: {
        read: () => this.history.load(),
        readInTurn: () => this.enqueue(() => this.history.load()),
        known: () => this.history.entries,
        rebuilt: () => this.history.rebuilt(),
        rebuilding: () => this.history.partial,
        settlePage: () => this.history.settleFirstPage(),
      },
    });
    this.history = new HistoryIndex({
      storage,
      read,
      partialIds,
      removed: this.removed,
      enqueue: (task) => this.enqueue(task),
      search: this.fullText,
      rebuildInlineUpTo: opts.rebuildInlineUpTo ?? 100,
    });
  }

  /** A new, empty conversation with an id of this store's (saved once it has a message). Not kept here. */
  create(): Conversation {
    return createConversation(this.newId(), this.now());
  }

  /**
   * Records the conversation the window has open, so that a reload or restart reopens it. Written
   * with the conversations (not in VS Code's state, which a browser window saves only now and then).
   */
  keepLastOpened(id: string): Promise<void> {
    if (id === this.lastOpened) return Promise.resolve();
    this.lastOpened = id;
    return this.enqueue(() => this.storage.writeCurrentId(id));
  }

  /** The conversation the last window had open when it closed, if one was recorded. */
  lastOpenedId(): Promise<string | undefined> {
    return this.storage.readCurrentId();
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.writing.then(task);
    this.writing = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** Waits for every write asked for so far, and persists the search index. */
  async flush(): Promise<void> {
    await this.writing;
    await this.fullText.flush();
  }

  /** Same as flush(); the extension awaits it on deactivate. */
  dispose(): Promise<void> {
    return this.flush();
  }


  /** True while the history index is rebuilt: list() gives what is read so far. */
  get listingPartial(): boolean {
    return this.history.partial;
  }

  /** Brings in the conversations of an earlier version that are left (after the indexes are built from them). */
  async finishUpgrade(progress?: (done: number, total: number) => void): Promise<void> {
    await this.storage.upgrade?.(progress);
  }

  /** How many conversations of an earlier version are still to be brought in (0 when none, or unknown). */
  async pendingUpgrade(): Promise<number> {
    return (await this.storage.pendingUpgrade?.().catch(() => 0)) ?? 0;
  }

  /** Saved conversations, newest first, from the history index (no conversation is read). */
  async list(): Promise<ConversationSummary[]> {
    await this.writing;
    return this.history.list();
  }

  /** How far the full-text index is built (History says "Indexing… N of M" meanwhile). */
  get searchProgress(): SearchProgress {
    return this.fullText.progress;
  }

  /** Called as the full-text index (or the history index, rebuilt) is built: each conversation read, and once at the end. */
  onSearchProgress(listener: (p: SearchProgress) => void): () => void {
    return this.fullText.onProgress(listener);
  }

  /**
   * Brings the full-text index up to date with the history index (see SearchIndex.catchUp);
   * resolves with how many conversations were read.
   */
  catchUpSearch(progress?: (done: number, total: number) => void): Promise<number> {
    return this.fullText.catchUp(progress);
  }

  /** Conversations with a message containing every word of the query, best match first. */
  search(query: string): Promise<Array<ConversationSummary & SearchHit>> {
    return this.fullText.search(query);
  }

  // ---- reading ----

  /**
   * Reads a conversation from storage, folding in side files; does not change the current one.
   * `withPartials`: the conversations known to have side files (the others are not looked up).
   */
  private async readStored(id: string, withPartials?: Set<string>): Promise<ReplayedLog | undefined> {
    const log = await this.storage.readLog(id);
    if (log === undefined) return undefined;
    return replayLog(log, !withPartials || withPartials.has(id) ? await this.storage.readPartials(id) : [], id);
  }

  /** The conversations with side files, when the storage can tell in one look. */
  private async partialIds(): Promise<Set<string> | undefined> {
    try {
      return await this.storage.partialIds?.();
    } catch {
      return undefined;
    }
  }

  /** A saved conversation as stored (for export or undo), after the writes asked for so far. */
  async load(id: string): Promise<Conversation | undefined> {
    await this.writing;
    // One whose last turns could not be written yet: as this window holds it.
    const held = this.unsaved.get(id);
    if (held) return held;
    return (await this.readStored(id))?.conv;
  }

  /**
   * A saved conversation, read to be worked on (the window shows it; this store then writes what
   * changes of it); undefined when it is missing or unreadable.
   */
  async open(id: string): Promise<Conversation | undefined> {
    const held = this.unsaved.get(id);
    if (held) {
      // Its last turns are not on disk yet: the copy in memory is the whole conversation.
      this.removed.delete(id);
      return held;
    }
    const conv = await this.enqueue(async () => {
      const size = await this.storage.logSize(id);
      const r = await this.readStored(id);
      if (!r) return undefined;
      // Deleted here once, but its log is back (another window wrote it): it is a live conversation again.
      this.removed.delete(id);
      const w = this.track(id, r);
      w.size = size;
      if (r.untidy) {
        // Compaction: the log rewritten without dropped records and side files folded in.
        const text = encodeLog(r.conv, r.keys);
        if (await this.storage.rewriteLog(id, text, size)) {
          await this.storage.removePartials(id);
          w.size = await this.storage.logSize(id);
          w.messages = [...r.conv.messages];
          w.sigs = w.messages.map(sig);
        }
      }
      return r.conv;
    });
    return conv ?? undefined;
  }

  private track(id: string, r: ReplayedLog): Written {
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

  // ---- writing ----

  /**
   * Saves the conversation as it is now; resolves when it is on storage. Only what changed since
   * the last save is written (new messages appended; the reply streaming in a side file). A
   * conversation left without messages is not kept.
   */
  save(conv: Conversation): Promise<void> {
    const own = this.saveOne(conv);
    // Conversations whose turns could not be written (then left for another one) go again with it.
    for (const other of [...this.unsaved.values()]) if (other !== conv) this.saveOne(other).catch(() => undefined);
    return own;
  }

  /**
   * Saves `shown` (the conversation the window shows) and every conversation whose turns could not
   * be written yet (the Retry of the "could not save" warning); rejects with the first failure.
   */
  async saveAll(shown: Conversation): Promise<void> {
    const all = [shown, ...[...this.unsaved.values()].filter((c) => c !== shown)];
    const results = await Promise.allSettled(all.map((c) => this.saveOne(c)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private snapshot(conv: Conversation): { snap: Snapshot; streamingRef: StoredMessage | undefined } {
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

  private saveOne(conv: Conversation): Promise<void> {
    const { snap, streamingRef } = this.snapshot(conv);
    return this.enqueue(() => this.write(snap, streamingRef)).then(
      () => {
        if (this.unsaved.get(conv.id) === conv) this.unsaved.delete(conv.id);
        // Saving works again only once no conversation is left unwritten.
        if (this.unsaved.size === 0) this.saveSettled(undefined);
      },
      (err: unknown) => {
        this.unsaved.set(conv.id, conv);
        this.saveSettled(err instanceof Error ? err : new Error(String(err)));
        throw err;
      },
    );
  }

  /** The last save failed (undefined once a save succeeds again). */
  get saveFailure(): Error | undefined {
    return this.failure;
  }

  /**
   * Called when saving starts failing (with the error) and when it works again (undefined); not
   * for every failed save in between. The conversation stays in memory meanwhile.
   */
  onDidChangeSaveState(listener: (failure: Error | undefined) => void): () => void {
    this.saveListeners.add(listener);
    return () => this.saveListeners.delete(listener);
  }

  private saveSettled(failure: Error | undefined): void {
    const changed = !!failure !== !!this.failure;
    this.failure = failure;
    if (changed) for (const l of this.saveListeners) l(failure);
  }

  private async write(snap: Snapshot, streamingRef: StoredMessage | undefined): Promise<void> {
    const id = snap.conv.id;
    if (snap.messages.length === 0 && !snap.streaming) {
      // Left without messages: its log goes, unless another window wrote turns to it since (those
      // are taken in and kept, never erased with this window's).
      const w = this.written.get(id);
      const size = await this.storage.logSize(id);
      const theirs = w !== undefined && size !== undefined && size !== w.size && (await this.takeIn(snap, w, streamingRef)) && snap.messages.length > 0;
      if (!theirs) {
        if (w || size !== undefined) await this.erase(id);
        return;
      }
    }
    // Deleted (here, or by History while its reply was still streaming): it stays deleted.
    if (this.removed.has(id)) return;
    let w = this.written.get(id);
    let size = await this.storage.logSize(id);
    if (!w) {
      w = { messages: [], sigs: [], keys: new WeakMap(), size: undefined, partial: false };
      this.written.set(id, w);
    }
    if (size === undefined && w.size !== undefined) {
      if (await this.history.deletedElsewhere(id)) {
        // Deleted in another window while this one showed it: what was deleted stays deleted (on
        // disk, on screen and in later requests); only what this window added is kept.
        const deleted = new Set(w.messages);
        const conv = snap.conv;
        for (let i = conv.messages.length - 1; i >= 0; i--) if (deleted.has(conv.messages[i])) conv.messages.splice(i, 1);
        snap.messages = snap.messages.filter((m) => !deleted.has(m));
        refreshTitle(conv);
        snap.title = conv.title;
        this.changedFromDisk.add(id);
        if (snap.messages.length === 0 && !snap.streaming) {
          this.written.delete(id);
          return;
        }
      }
      // The log vanished: written anew, header first (removed by hand: the whole conversation).
      this.forget(w);
    }
    if (size !== w.size && size !== undefined) {
      // Another window wrote this conversation since (or an earlier append of ours failed part
      // way): its messages are taken in, before ours; ours not known to be written go again.
      const readable = await this.takeIn(snap, w, streamingRef);
      if (!readable) {
        // No header to build on (a first append cut short): the log is written whole.
        this.forget(w);
        await this.storage.rewriteLog(id, '');
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
      w.size = await this.storage.appendLog(id, out);
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
      await this.storage.writePartial(id, this.writer, JSON.stringify({ t: 'm', k, m: snap.streaming }));
      w.partial = true;
    } else if (w.partial) {
      await this.storage.removePartials(id, this.writer);
      w.partial = false;
    }
    const view: Conversation = { ...snap.conv, title: snap.title, updatedAt: snap.updatedAt, messages: snap.streaming ? [...snap.messages, snap.streaming] : snap.messages };
    await this.history.put(summarize(view));
    await this.fullText.put({ ...view, messages: snap.messages }, p);
  }

  /** Merges messages another window appended to a conversation into the one in memory. */
  private async takeIn(snap: Snapshot, w: Written, streamingRef: StoredMessage | undefined): Promise<boolean> {
    const id = snap.conv.id;
    const r = await this.readStored(id);
    w.size = await this.storage.logSize(id);
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
    this.changedFromDisk.add(id);
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
  private forget(w: Written): void {
    w.messages = [];
    w.sigs = [];
    w.size = undefined;
    w.title = undefined;
    w.summary = undefined;
    w.updatedAt = undefined;
    w.nextSeq = undefined;
  }

  /**
   * Brings a conversation this window shows up to date with its log: turns another window
   * appended are taken in (before this window's unwritten ones). `changed`: its messages changed
   * (the chat should show it again); `deleted`: another window deleted it; `same`: nothing to do.
   */
  refresh(conv: Conversation): Promise<'same' | 'changed' | 'deleted'> {
    return this.enqueue(async () => {
      const id = conv.id;
      const w = this.written.get(id);
      let changed = this.changedFromDisk.delete(id);
      if (!w || this.removed.has(id)) return changed ? 'changed' : 'same';
      const size = await this.storage.logSize(id);
      if (size === undefined) {
        if (w.size !== undefined && (await this.history.deletedElsewhere(id))) return 'deleted';
        return changed ? 'changed' : 'same';
      }
      if (size !== w.size) {
        const before = w.size;
        const { snap, streamingRef } = this.snapshot(conv);
        // (An unreadable log is left to the next save, which writes it whole.)
        if (!(await this.takeIn(snap, w, streamingRef))) w.size = before;
        changed = this.changedFromDisk.delete(id) || changed;
      }
      return changed ? 'changed' : 'same';
    });
  }

  /** Removes a conversation from storage; `deleted`: by the user, so later saves of it are dropped. */
  private async erase(id: string, deleted = false): Promise<void> {
    try {
      await this.storage.removeLog(id);
    } catch (err) {
      // Nothing is deleted while the log is still there (a file held open by another program):
      // the caller says so, and the conversation goes on being saved.
      if ((await this.storage.logSize(id).catch(() => 0)) !== undefined) throw err;
    }
    if (deleted) this.removed.add(id);
    this.unsaved.delete(id);
    this.written.delete(id);
    await this.history.put({ id, gone: true });
    // A deleted conversation's words leave the disk soon.
    await this.fullText.drop(id);
  }

  async remove(id: string): Promise<void> {
    await this.enqueue(() => this.erase(id, true));
    // The conversation that could not be saved was the last one unwritten: nothing is lost any more.
    if (this.failure && this.unsaved.size === 0) this.saveSettled(undefined);
  }

  /**
   * A new conversation with every message of `conv` up to `messageId` (see forkConversation),
   * saved and listed; `conv` is unchanged. Undefined when there is no such message.
   */
  async fork(conv: Conversation, messageId: string): Promise<Conversation | undefined> {
    const forked = forkConversation(conv, messageId, this.newId(), this.now());
    if (!forked) return undefined;
    await this.restore(forked);
    return forked;
  }

  /** Writes a conversation back whole (the undo of a remove). */
  restore(conv: Conversation): Promise<void> {
    return this.enqueue(async () => {
      this.removed.delete(conv.id);
      const keys = conv.messages.map(() => `${this.writer}.${(++this.keyCount).toString(36)}`);
      await this.storage.rewriteLog(conv.id, encodeLog(conv, keys));
      this.track(conv.id, { conv, keys, untidy: false }).size = await this.storage.logSize(conv.id);
      await this.history.put(summarize(conv));
      await this.fullText.put(conv);
    });
  }

  /**
   * Gives a saved conversation a new title. `open`: the window's copy of it, when it has it open
   * (renamed and saved as a whole, so that its next save does not write the old title back).
   */
  async rename(id: string, title: string, open?: Conversation): Promise<void> {
    const clean = cleanTitle(title);
    if (!clean) return;
    if (open?.id === id) {
      open.title = clean;
      return this.save(open);
    }
    await this.enqueue(async () => {
      if ((await this.storage.logSize(id)) === undefined) return;
      const w = this.written.get(id);
      const size = await this.storage.appendLog(id, recordLine({ t: 'u', title: clean }));
      if (w) {
        if (w.size !== undefined && size - w.size < 200) w.size = size;
        w.title = clean;
      }
      const entry = (this.history.entries ?? (await this.history.load())).get(id);
      if (entry) await this.history.put({ ...entry, title: clean });
    });
  }
}
