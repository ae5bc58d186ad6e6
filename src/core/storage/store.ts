// The conversation store: the saved conversations, persisted through a port (port.ts). A save
// appends what changed to the conversation's log (see conversationLog.ts), after taking in what
// other windows appended to it; the reply that is streaming goes to a small side file. It keeps no
// current conversation: the chat session holds the one the window shows. Its parts: the history
// index (historyIndex.ts) lists conversations without reading them, and the full-text index
// (searchIndex.ts) finds them by any word of any message.
import { createConversation, forkConversation, summarize, type Conversation, type ConversationSummary } from '../chat/conversation';
import { encodeLog, recordLine, replayLog, type ReplayedLog } from './conversationLog';
import { storedMessages } from '../variants/variants';
import type { SearchHit } from './historySearch';
import { HistoryIndex } from './historyIndex';
import type { ConversationStoragePort, SearchProgress } from './port';
import { LogWriter } from './logWriter';
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


/** A title as the user typed it, on one line; empty when nothing is left. */
export const cleanTitle = (title: string): string => title.replace(/\s+/g, ' ').trim();

export class ConversationStore {
  private readonly newId: () => string;
  private readonly now: () => Date;
  /** Serialises writes so an older snapshot never overwrites a newer one. */
  private writing: Promise<void> = Promise.resolve();
  /** The id last recorded as the window's open conversation. */
  private lastOpened: string | undefined;
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
  /** The history index (what History lists) and the full-text index (what it searches). */
  private readonly history: HistoryIndex;
  private readonly fullText: SearchIndex;
  /** What this window wrote of each conversation, and the writes of what changed since. */
  private readonly log: LogWriter;

  constructor(
    private readonly storage: ConversationStoragePort,
    opts: ConversationStoreOptions = {},
  ) {
    this.newId = opts.newId ?? (() => globalThis.crypto.randomUUID());
    this.now = opts.now ?? (() => new Date());
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
    this.log = new LogWriter({
      storage,
      read: (id) => this.readStored(id),
      removed: this.removed,
      changedFromDisk: this.changedFromDisk,
      history: this.history,
      fullText: this.fullText,
      erase: (id) => this.erase(id),
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
   * Saved conversations as stored, read one after another (Export All, Import All's duplicate
   * check): after the writes asked for so far, with the side files looked up once for all (one
   * look each is slow among thousands of files). Undefined for one missing or unreadable.
   */
  async *loadEach(ids: Iterable<string>): AsyncGenerator<{ id: string; conv: Conversation | undefined }> {
    await this.writing;
    const withPartials = await this.partialIds();
    for (const id of ids) {
      const conv = this.unsaved.get(id) ?? (await this.readStored(id, withPartials).catch(() => undefined))?.conv;
      yield { id, conv };
    }
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
      const w = this.log.track(id, r);
      w.size = size;
      if (r.untidy) {
        // Compaction: the log rewritten without dropped records and side files folded in.
        const text = encodeLog(r.conv, r.keys);
        if (await this.storage.rewriteLog(id, text, size)) {
          await this.storage.removePartials(id);
          w.size = await this.storage.logSize(id);
          this.log.rewritten(w, storedMessages(r.conv));
        }
      }
      return r.conv;
    });
    return conv ?? undefined;
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

  private saveOne(conv: Conversation): Promise<void> {
    const { snap, streamingRef } = this.log.snapshot(conv);
    return this.enqueue(() => this.log.write(snap, streamingRef)).then(
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

  /**
   * Brings a conversation this window shows up to date with its log: turns another window
   * appended are taken in (before this window's unwritten ones). `changed`: its messages changed
   * (the chat should show it again); `deleted`: another window deleted it; `same`: nothing to do.
   */
  refresh(conv: Conversation): Promise<'same' | 'changed' | 'deleted'> {
    return this.enqueue(async () => {
      const id = conv.id;
      const w = this.log.get(id);
      let changed = this.changedFromDisk.delete(id);
      if (!w || this.removed.has(id)) return changed ? 'changed' : 'same';
      const size = await this.storage.logSize(id);
      if (size === undefined) {
        if (w.size !== undefined && (await this.history.deletedElsewhere(id))) return 'deleted';
        return changed ? 'changed' : 'same';
      }
      if (size !== w.size) {
        const before = w.size;
        const { snap, streamingRef } = this.log.snapshot(conv);
        // (An unreadable log is left to the next save, which writes it whole.)
        if (!(await this.log.takeIn(snap, w, streamingRef))) w.size = before;
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
    this.log.drop(id);
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
      const keys = this.log.newKeys(storedMessages(conv).length);
      await this.storage.rewriteLog(conv.id, encodeLog(conv, keys));
      this.log.track(conv.id, { conv, keys, untidy: false }).size = await this.storage.logSize(conv.id);
      await this.history.put(summarize(conv));
      await this.fullText.put(conv);
    });
  }

  /**
   * Writes new conversations whole (Import All): their logs several at a time, History's index once
   * for all. Rejects when one could not be written, after taking out again those that were.
   */
  restoreMany(convs: readonly Conversation[]): Promise<void> {
    return this.enqueue(async () => {
      const writes = await Promise.allSettled(
        convs.map(async (conv) => {
          this.removed.delete(conv.id);
          const keys = this.log.newKeys(storedMessages(conv).length);
          await this.storage.rewriteLog(conv.id, encodeLog(conv, keys));
          this.log.track(conv.id, { conv, keys, untidy: false }).size = await this.storage.logSize(conv.id);
        }),
      );
      const failed = writes.find((w): w is PromiseRejectedResult => w.status === 'rejected');
      try {
        if (failed) throw failed.reason;
        await this.history.putMany(convs.map(summarize));
      } catch (err) {
        for (const conv of convs) await this.erase(conv.id).catch(() => undefined);
        throw err;
      }
      await this.fullText.putMany(convs);
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
      const w = this.log.get(id);
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
