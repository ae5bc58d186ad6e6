// The conversation store: the current conversation plus the saved ones, persisted through a port.
// A save appends what changed to the conversation's log (see conversationLog.ts); the reply that
// is streaming goes to a small side file. A history index lists conversations without reading
// them, and a full-text index finds them by any word of any message.
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
import { encodeLog, headerLine, indexLine, indexText, peekLog, recordLine, replayIndex, replayLog, sameSummary, type LogRecord, type ReplayedIndex, type ReplayedLog } from './conversationLog';
import { HistorySearch, yieldTurn, type SearchHit } from './historySearch';

/** How far the full-text index is built: `done` of `total` conversations read since the build began. */
export interface SearchProgress {
  done: number;
  total: number;
  /** False once every conversation is indexed. */
  building: boolean;
}

/** Where conversations are kept (the extension writes files; tests use memory). */
export interface ConversationStoragePort {
  /** Ids of every conversation log (to rebuild a missing index), newest first where the storage can tell. */
  listLogs(): Promise<string[]>;
  /**
   * How many conversations saved by an earlier version (0.1.0) are still to be brought in
   * (optional). Each is brought in when first read; the history index is then rebuilt.
   */
  pendingUpgrade?(): Promise<number>;
  /** The ids of those conversations (optional). */
  pendingUpgradeIds?(): Promise<string[]>;
  /** Brings in every conversation of an earlier version not brought in yet (optional). */
  upgrade?(progress?: (done: number, total: number) => void): Promise<void>;
  readLog(id: string): Promise<string | undefined>;
  /**
   * The log read at once, synchronously (optional), for History's first page while the history
   * index is rebuilt: a few dozen small files read one after another in a few milliseconds, where
   * as many asynchronous reads each wait their turn. `false` when it cannot be read so (not a
   * plain file, a large one, a conversation of an earlier version): the caller uses readLog.
   */
  readLogAtOnce?(id: string): string | undefined | false;
  /** Size of the log now (bytes for files), undefined when there is none. */
  logSize(id: string): Promise<number | undefined>;
  /** Appends to the log (creating it); resolves with its size after the append. */
  appendLog(id: string, text: string): Promise<number>;
  /** Replaces the log durably. With `expectedSize`, gives up (false) when the log changed size meanwhile. */
  rewriteLog(id: string, text: string, expectedSize?: number): Promise<boolean>;
  /** Removes the log and its side files. */
  removeLog(id: string): Promise<void>;
  readPartials(id: string): Promise<string[]>;
  /**
   * Ids of the conversations that have side files, in one look (optional): reading many
   * conversations then skips the side-file lookup of each of the others.
   */
  partialIds?(): Promise<Set<string>>;
  writePartial(id: string, writer: string, text: string): Promise<void>;
  removePartials(id: string, writer?: string): Promise<void>;
  readIndex(): Promise<string | undefined>;
  /**
   * The history index read from where an earlier read of it ended (optional): with `since` from
   * the same file, only the lines appended after it (`appended`); else the whole of it. Whole lines
   * only (one being appended is read next time). Undefined when there is no index.
   */
  readIndexSince?(since: IndexCursor | undefined): Promise<{ text: string; cursor: IndexCursor; appended: boolean } | undefined>;
  appendIndex(text: string): Promise<void>;
  rewriteIndex(text: string): Promise<void>;
  readSearchIndex(): Promise<string | undefined>;
  writeSearchIndex(text: string): Promise<void>;
  /** Which conversation was current in this window (workspace), written at once. */
  readCurrentId(): Promise<string | undefined>;
  writeCurrentId(id: string): Promise<void>;
}

/** Where a read of the history index ended: which file (a rewrite makes a new one) and how far. */
export interface IndexCursor {
  file: string;
  offset: number;
}

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

/** While the history index is rebuilt, History lists what is read once this many are (or this long has passed). */
const FIRST_PAGE_SIZE = 50;
const FIRST_PAGE_WAIT_MS = 150;
/**
 * The conversations read before that first page are put in the full-text index this long after it
 * (a long one takes a while): the page reaches the window first.
 */
const PAGE_SETTLE_MS = 30;
/** The full-text index is written (on its timer) only once no search came for this long. */
const SEARCH_QUIET_MS = 1000;

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
  private index: ReplayedIndex | undefined;
  /** Where the last read of the index file ended, for the index it made (a later read takes only what was appended since). */
  private indexRead: { index: object; cursor: IndexCursor; lines: number } | undefined;
  private searchIndex: Promise<HistorySearch> | undefined;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly searchPersistDelayMs: number;
  private readonly rebuildInlineUpTo: number;
  /** The full-text index is written apart from the conversations: a large one never holds a save or History. */
  private searchWriting: Promise<void> = Promise.resolve();
  /** Conversations re-indexed since the index was last written, and whether one was removed or rebuilt (written soon, whatever the count). */
  private searchChanges = 0;
  private searchUrgent = false;
  /** When History last searched (the index is written once the user pauses). */
  private lastSearchAt = 0;
  private catchingUp: Promise<number> | undefined;
  private progress: SearchProgress = { done: 0, total: 0, building: false };
  /** The history index being rebuilt from the logs (no index file: first start after an upgrade, or after a crash). */
  private rebuilding: Promise<void> | undefined;
  private startingRebuild: Promise<Map<string, ConversationSummary>> | undefined;
  /** While the history index is rebuilt: how many of the newest logs are read, none missing between. */
  private newestRead = 0;
  private pageSize = FIRST_PAGE_SIZE;
  /** While the history index is rebuilt: puts what was read for History's first page in the full-text index now. */
  private settlePage: (() => void) | undefined;
  private readonly progressListeners = new Set<(p: SearchProgress) => void>();

  constructor(
    private readonly storage: ConversationStoragePort,
    opts: ConversationStoreOptions = {},
  ) {
    this.newId = opts.newId ?? (() => globalThis.crypto.randomUUID());
    this.now = opts.now ?? (() => new Date());
    this.searchPersistDelayMs = opts.searchPersistDelayMs ?? 5000;
    this.rebuildInlineUpTo = opts.rebuildInlineUpTo ?? 100;
    this.writer = Math.random().toString(36).slice(2, 10);
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
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
    await this.enqueueSearchWrite();
  }

  /** Same as flush(); the extension awaits it on deactivate. */
  dispose(): Promise<void> {
    return this.flush();
  }

  // ---- history index ----

  private async loadIndex(): Promise<Map<string, ConversationSummary>> {
    // Being rebuilt: what is read so far (the file is written once it is whole).
    if (this.rebuilding && this.index) return this.index.entries;
    const read = await this.readIndexFile();
    if (this.rebuilding && this.index) return this.index.entries;
    // An index this version cannot use (another version's, or damaged) is rebuilt from the logs.
    if (read && !read.index.unreadable) {
      const { index } = read;
      // An index that lacks conversations of an earlier version still to be brought in (written
      // meanwhile by a window that started before they were there) is rebuilt to list them.
      const pending = (await this.storage.pendingUpgradeIds?.().catch(() => [])) ?? [];
      if (this.rebuilding && this.index) return this.index.entries;
      if (pending.every((id) => index.entries.has(id))) {
        this.index = index;
        this.indexRead = read.cursor ? { index, cursor: read.cursor, lines: index.lines } : undefined;
        return index.entries;
      }
    }
    // No index (first start after an upgrade, or after a crash): rebuilt from the logs, newest
    // first; many of them in the background, History listing what is read so far meanwhile.
    // Callers that find no index meanwhile join the one start.
    this.startingRebuild ??= this.startRebuild().finally(() => (this.startingRebuild = undefined));
    return this.startingRebuild;
  }

  /**
   * The index file as it is now: when the storage can tell what was appended since the last read,
   * those lines only, taken into the index in memory (each History open of ten thousand
   * conversations would otherwise parse them all again); else the whole file.
   */
  private async readIndexFile(): Promise<{ index: NonNullable<ConversationStore['index']>; cursor?: IndexCursor } | undefined> {
    if (!this.storage.readIndexSince) {
      const text = await this.storage.readIndex();
      return text === undefined ? undefined : { index: replayIndex(text) };
    }
    const base = this.index && this.indexRead?.index === this.index ? { index: this.index, read: this.indexRead } : undefined;
    const r = await this.storage.readIndexSince(base?.read.cursor);
    if (!r) return undefined;
    if (!r.appended || !base || this.index !== base.index) return { index: replayIndex(r.text), cursor: r.cursor };
    const tail = replayIndex(r.text);
    const { entries, gone } = base.index;
    for (const id of tail.gone) {
      entries.delete(id);
      gone.add(id);
    }
    for (const [id, e] of tail.entries) {
      entries.set(id, e);
      gone.delete(id);
    }
    // Lines this window appended since are among those read: counted once.
    base.index.lines = base.read.lines + tail.lines;
    return { index: base.index, cursor: r.cursor };
  }

  private async startRebuild(): Promise<Map<string, ConversationSummary>> {
    const ids = await this.storage.listLogs();
    if (this.rebuilding && this.index) return this.index.entries;
    const index: ReplayedIndex = { entries: new Map<string, ConversationSummary>(), lines: 0, gone: new Set<string>(), unreadable: false };
    if (ids.length <= this.rebuildInlineUpTo) {
      if (await this.rebuildIndex(index, ids, true)) this.index = index;
      return index.entries;
    }
    this.index = index;
    // Not whole, or failed: tried again on the next listing.
    const dropUnlessWhole = (whole: boolean) => {
      if (!whole && this.index === index) this.index = undefined;
    };
    const rebuilding = this.rebuildIndex(index, ids, false).then(dropUnlessWhole, () => dropUnlessWhole(false));
    this.rebuilding = rebuilding;
    void rebuilding.finally(() => {
      if (this.rebuilding === rebuilding) this.rebuilding = undefined;
    });
    return index.entries;
  }

  /**
   * Reads every log a few at a time (each also goes into the full-text index, so nothing is read
   * twice), telling progress as the full-text build does; writes the index file once it is whole.
   * A log that cannot be read is tried again once at the end; still unreadable, nothing is written
   * and false is returned (the caller drops the index: the next listing reads them all again).
   */
  private async rebuildIndex(index: ReplayedIndex, ids: string[], inline: boolean): Promise<boolean> {
    const withPartials = await this.partialIds();
    const search = inline ? undefined : await this.searchReady().catch(() => undefined);
    const total = ids.length;
    let next = 0;
    let done = 0;
    let slice = Date.now();
    if (!inline) this.setProgress({ done, total, building: true });
    /** Logs that could not be read (a passing error: tried again once at the end). */
    const failed: string[] = [];
    const started = Date.now();
    let settling: ReturnType<typeof setTimeout> | undefined;
    let pageOut = false;
    /** Read before History's first page is out: put in the full-text index once it is. */
    const deferred: Conversation[] = [];
    /** Puts a conversation read from its log in the full-text index, unless it has that state already. */
    const searchable = (conv: Conversation) => {
      if (!search || search.has(conv.id, conv.updatedAt)) return;
      search.update(conv);
      this.scheduleSearchPersist();
    };
    const indexDeferred = () => {
      for (const conv of deferred.splice(0)) {
        // Not when a save of this window indexed a later state meanwhile, or it was deleted.
        if (search && !search.has(conv.id) && index.entries.get(conv.id)?.updatedAt === conv.updatedAt) {
          search.update(conv);
          this.scheduleSearchPersist();
        }
      }
    };
    /**
     * The logs of History's first page (the newest), read before it is out: listed from a glance at
     * them (peekLog, a tenth of a replay: messages not checked), replayed in full once it is out
     * (and put in the full-text index: a search typed on that page finds them); that summary
     * replaces the glance.
     */
    const glanced: Array<{ id: string; text: string; summary: ConversationSummary }> = [];
    const replayGlanced = () => {
      for (const g of glanced.splice(0)) {
        // A save or a delete of this window meanwhile knows better than what was read.
        if (index.entries.get(g.id) !== g.summary) continue;
        const r = replayLog(g.text, [], g.id);
        if (!r || r.conv.messages.length === 0) {
          index.entries.delete(g.id);
          continue;
        }
        index.entries.set(g.id, summarize(r.conv));
        searchable(r.conv);
      }
    };
    const take = async (id: string, at: number): Promise<boolean> => {
      let r: ReplayedLog | undefined;
      try {
        if (inline || pageOut || at >= pageSize || !withPartials || withPartials.has(id)) r = await this.readStored(id, withPartials);
        else {
          // Before the page is out, a small log is read at once: a few dozen of them in a few milliseconds.
          const atOnce = this.storage.readLogAtOnce ? this.storage.readLogAtOnce(id) : false;
          const text = atOnce === false ? await this.storage.readLog(id) : atOnce;
          const glance = text !== undefined && !pageOut ? peekLog(text, id) : undefined;
          // A glance that finds no message never drops a log on its own: the replay decides.
          if (text !== undefined && glance && glance.messageCount > 0) {
            if (!index.entries.has(id) && !index.gone.has(id) && !this.removed.has(id)) {
              index.entries.set(id, glance);
              glanced.push({ id, text, summary: glance });
            }
            return true;
          }
          r = text === undefined ? undefined : replayLog(text, [], id);
        }
      } catch {
        return false;
      }
      // A save or a delete of this window meanwhile knows better than what was read.
      if (r && r.conv.messages.length > 0 && !index.entries.has(id) && !index.gone.has(id) && !this.removed.has(id)) {
        index.entries.set(id, summarize(r.conv));
        if (pageOut) searchable(r.conv);
        else if (search && !search.has(id, r.conv.updatedAt)) deferred.push(r.conv);
      }
      return true;
    };
    /** Which logs are read (newest first): the page is the newest ones, whichever read ends first. */
    const read = new Uint8Array(ids.length);
    const pageSize = Math.min(FIRST_PAGE_SIZE, ids.length);
    this.newestRead = 0;
    this.pageSize = pageSize;
    const reader = async () => {
      while (next < ids.length) {
        const at = next++;
        const id = ids[at];
        if (!(await take(id, at))) failed.push(id);
        ++done;
        read[at] = 1;
        while (this.newestRead < ids.length && read[this.newestRead]) this.newestRead++;
        if (inline) continue;
        if (!settling && (this.newestRead >= pageSize || Date.now() - started >= FIRST_PAGE_WAIT_MS)) {
          settling = setTimeout(() => (pageOut = true), PAGE_SETTLE_MS);
        }
        if (pageOut && glanced.length) replayGlanced();
        if (pageOut && deferred.length) indexDeferred();
        this.setProgress({ done, total, building: true });
        if (Date.now() - slice > 12) {
          await yieldTurn();
          slice = Date.now();
        }
      }
    };
    /** False when a log is still unreadable: the index is not written without it (it would leave History for good). */
    const write = async (): Promise<boolean> => {
      for (const id of failed.splice(0)) if (!(await take(id, ids.length))) failed.push(id);
      if (failed.length) return false;
      // A conversation another window wrote since this one listed the folder is in the index file
      // (that window appended it): kept, not dropped by the rewrite.
      const listed = new Set(ids);
      const onDisk = replayIndex((await this.storage.readIndex().catch(() => undefined)) ?? '').entries;
      for (const [id, e] of onDisk) if (!listed.has(id) && !index.entries.has(id) && !index.gone.has(id) && !this.removed.has(id)) index.entries.set(id, e);
      await this.storage.rewriteIndex(indexText(index.entries.values()));
      index.lines = index.entries.size + 1;
      index.gone.clear();
      return true;
    };
    if (inline) {
      // (Called from a listing or a save, in turn with the writes: the index is written at once.)
      await Promise.all(Array.from({ length: Math.min(8, ids.length) }, reader));
      return write();
    }
    const settle = () => {
      clearTimeout(settling);
      pageOut = true;
      replayGlanced();
      indexDeferred();
    };
    this.settlePage = settle;
    try {
      await Promise.all(Array.from({ length: Math.min(4, ids.length) }, reader));
      settle();
      // After the saves under way: each of them put its entry in, and those after it append to the file.
      return await this.enqueue(async () => {
        const whole = await write();
        this.rebuilding = undefined;
        return whole;
      });
    } finally {
      if (this.settlePage === settle) this.settlePage = undefined;
      this.setProgress({ done, total, building: false });
    }
  }

  /**
   * Resolves once History has a page to show while the index is rebuilt (or at once): the newest
   * logs read (a long one read last among them is waited for), or what is read after a while.
   */
  private firstPage(): Promise<void> {
    const rebuilding = this.rebuilding;
    const page = () => this.newestRead >= this.pageSize;
    if (!rebuilding || page()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(finish, FIRST_PAGE_WAIT_MS);
      const off = this.onSearchProgress(() => page() && finish());
      function finish(): void {
        clearTimeout(timer);
        off();
        resolve();
      }
      void rebuilding.then(finish, finish);
    });
  }

  /** True while the history index is rebuilt: list() gives what is read so far. */
  get listingPartial(): boolean {
    return this.rebuilding !== undefined;
  }

  /** Brings in the conversations of an earlier version that are left (after the indexes are built from them). */
  async finishUpgrade(progress?: (done: number, total: number) => void): Promise<void> {
    await this.storage.upgrade?.(progress);
  }

  /** How many conversations of an earlier version are still to be brought in (0 when none, or unknown). */
  async pendingUpgrade(): Promise<number> {
    return (await this.storage.pendingUpgrade?.().catch(() => 0)) ?? 0;
  }

  /**
   * Counted as written only once the index file took it: after a failure the index is read from
   * disk again, so the next save finds the entry missing and writes it.
   */
  private async putIndex(entry: ConversationSummary | { id: string; gone: true }): Promise<void> {
    try {
      await this.putIndexEntry(entry);
    } catch (err) {
      this.index = undefined;
      throw err;
    }
  }

  private async putIndexEntry(entry: ConversationSummary | { id: string; gone: true }): Promise<void> {
    const entries = this.index?.entries ?? (await this.loadIndex());
    const index = this.index;
    // No whole index (a log could not be read): the next listing reads the logs again, this save's too.
    if (!index) return;
    if (this.rebuilding) {
      // Written with the whole index at the end of the rebuild.
      if ('gone' in entry) {
        entries.delete(entry.id);
        index.gone.add(entry.id);
      } else entries.set(entry.id, entry);
      return;
    }
    if ('gone' in entry) {
      if (!entries.has(entry.id)) return;
      entries.delete(entry.id);
    } else {
      if (sameSummary(entries.get(entry.id), entry)) return;
      entries.set(entry.id, entry);
    }
    if (index.lines > 2 * entries.size + 100) {
      // A compaction: what other windows appended since this one last read the file comes first
      // (their saves, and their deletes: a conversation deleted elsewhere is never written back).
      const fresh = await this.readIndexFile();
      const now = fresh && !fresh.index.unreadable ? fresh.index : index;
      if ('gone' in entry) now.entries.delete(entry.id);
      else now.entries.set(entry.id, entry);
      for (const id of this.removed) now.entries.delete(id);
      await this.storage.rewriteIndex(indexText(now.entries.values()));
      now.lines = now.entries.size + 1;
      now.gone.clear();
      this.index = now;
      // The file was replaced: the next read takes it whole.
      this.indexRead = undefined;
    } else {
      await this.storage.appendIndex(indexLine(entry));
      index.lines++;
    }
  }

  /** Saved conversations, newest first, from the index (no conversation is read). */
  async list(): Promise<ConversationSummary[]> {
    await this.writing;
    // Read each time: another window may have added or changed conversations.
    const entries = await this.loadIndex();
    await this.firstPage();
    return [...entries.values()].filter((c) => c.messageCount > 0).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
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
      if (await this.deletedElsewhere(id)) {
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
    await this.putIndex(summarize(view));
    if (this.searchIndex) {
      const search = await this.searchIndex;
      search.update({ ...view, messages: snap.messages }, p);
      this.scheduleSearchPersist();
    }
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
   * A log that vanished was deleted in another window when the index says so (its `gone` line), or
   * no longer lists it (the index was rewritten since). One the index still lists was removed by
   * other means (by hand, a sync client) and is written again whole.
   */
  private async deletedElsewhere(id: string): Promise<boolean> {
    const entries = await this.loadIndex();
    if (this.rebuilding) return this.index?.gone.has(id) === true;
    return this.index?.gone.has(id) === true || !entries.has(id);
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
        if (w.size !== undefined && (await this.deletedElsewhere(id))) return 'deleted';
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
    await this.putIndex({ id, gone: true });
    if (this.searchIndex) {
      (await this.searchIndex).remove(id);
      // A deleted conversation's words leave the disk soon.
      this.scheduleSearchPersist(true);
    }
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
      await this.putIndex(summarize(conv));
      if (this.searchIndex) {
        (await this.searchIndex).update(conv);
        this.scheduleSearchPersist();
      }
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
      const entry = (this.index?.entries ?? (await this.loadIndex())).get(id);
      if (entry) await this.putIndex({ ...entry, title: clean });
    });
  }

  // ---- search ----

  private searchReady(): Promise<HistorySearch> {
    this.searchIndex ??= (async () => HistorySearch.loadAsync(await this.storage.readSearchIndex()))();
    return this.searchIndex;
  }

  /** How far the full-text index is built (History says "Indexing… N of M" meanwhile). */
  get searchProgress(): SearchProgress {
    return { ...this.progress };
  }

  /** Called as the full-text index is built (each conversation read, and once at the end). */
  onSearchProgress(listener: (p: SearchProgress) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  private setProgress(p: SearchProgress): void {
    this.progress = p;
    for (const l of this.progressListeners) l({ ...p });
  }

  /**
   * Brings the full-text index up to date with the history index (conversations changed by
   * another window, or before the index existed; after a crash or an upgrade, the whole index),
   * newest conversations first, giving the event loop a turn as it goes; the index is persisted
   * now and then meanwhile. Resolves with how many were read. Called again while under way, it
   * joins the build under way.
   */
  catchUpSearch(progress?: (done: number, total: number) => void): Promise<number> {
    const off = progress ? this.onSearchProgress((p) => p.building && progress(p.done, p.total)) : undefined;
    this.catchingUp ??= this.buildSearch().finally(() => {
      this.catchingUp = undefined;
    });
    const run = this.catchingUp;
    if (off) void run.then(off, off);
    return run;
  }

  private async buildSearch(): Promise<number> {
    // Loading a persisted index takes a while too: told as a build of 0 of 0.
    const loading = !this.searchIndex;
    if (loading) this.setProgress({ done: 0, total: 0, building: true });
    let search: HistorySearch;
    let entries: Map<string, ConversationSummary>;
    try {
      search = await this.searchReady();
      entries = await this.enqueue(() => this.loadIndex());
      // Rebuilt from the logs: they go into the full-text index as they are read.
      while (this.rebuilding) await this.rebuilding;
      entries = this.index?.entries ?? (await this.enqueue(() => this.loadIndex()));
    } catch (err) {
      if (loading) this.setProgress({ done: 0, total: 0, building: false });
      throw err;
    }
    const { outdated, removed } = search.stale(entries.values());
    if (loading && outdated.length === 0) this.setProgress({ done: 0, total: 0, building: false });
    for (const id of removed) search.remove(id);
    outdated.sort((a, b) => (entries.get(b)?.updatedAt ?? '').localeCompare(entries.get(a)?.updatedAt ?? ''));
    const total = outdated.length;
    if (total > 0) {
      this.setProgress({ done: 0, total, building: true });
      const withPartials = await this.partialIds();
      let done = 0;
      let slice = Date.now();
      try {
        for (const id of outdated) {
          const entry = this.index?.entries.get(id);
          // Indexed meanwhile by a save of this window, or deleted: nothing to read.
          if (entry && !search.has(id, entry.updatedAt)) {
            const r = await this.readStored(id, withPartials);
            if (r) search.update(r.conv);
            else search.remove(id);
            this.scheduleSearchPersist();
          } else if (!entry) search.remove(id);
          this.setProgress({ done: ++done, total, building: true });
          if (Date.now() - slice > 12) {
            await yieldTurn();
            slice = Date.now();
          }
        }
      } finally {
        this.setProgress({ done, total, building: false });
      }
    }
    if (outdated.length || removed.length) this.scheduleSearchPersist(true);
    return outdated.length;
  }

  /** Conversations with a message containing every word of the query, best match first. */
  async search(query: string): Promise<Array<ConversationSummary & SearchHit>> {
    this.lastSearchAt = Date.now();
    const search = await this.searchReady();
    // Read again (what other windows appended since: a conversation deleted there is not found here).
    const entries = await this.loadIndex();
    // The conversations History lists already are searched too (those of its first page are put in the index now).
    this.settlePage?.();
    return search
      .search(query)
      .map((h) => {
        const e = entries.get(h.id);
        return e ? { ...e, ...h } : undefined;
      })
      .filter((h): h is ConversationSummary & SearchHit => h !== undefined);
  }

  /**
   * Writes the full-text index a while after it changed: at once after a delete or a build, else
   * once a fiftieth of the conversations changed (a large index takes seconds to write; a window
   * started meanwhile re-reads only the conversations changed since). flush() writes it whatever.
   */
  private scheduleSearchPersist(urgent = false): void {
    this.searchChanges++;
    if (urgent) this.searchUrgent = true;
    if (!this.searchTimer) this.armSearchPersist(this.searchPersistDelayMs);
  }

  private armSearchPersist(delay: number): void {
    this.searchTimer = setTimeout(() => {
      this.searchTimer = undefined;
      // Not while the user searches (writing a large index takes a while): once they pause.
      const since = Date.now() - this.lastSearchAt;
      if (since < SEARCH_QUIET_MS) return this.armSearchPersist(SEARCH_QUIET_MS - since);
      void (async () => {
        const size = this.searchIndex ? (await this.searchIndex).size : 0;
        if (this.searchUrgent || this.searchChanges * 50 >= size) await this.enqueueSearchWrite();
      })().catch(() => undefined);
    }, delay);
    (this.searchTimer as { unref?: () => void }).unref?.();
  }

  private enqueueSearchWrite(): Promise<void> {
    const next = this.searchWriting.then(() => this.persistSearch());
    this.searchWriting = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async persistSearch(): Promise<void> {
    if (!this.searchIndex) return;
    const search = await this.searchIndex;
    this.searchChanges = 0;
    this.searchUrgent = false;
    // Conversations another window deleted since this one read the history index leave the
    // full-text index before it is written (their words never come back to the disk from here).
    if (!this.rebuilding) {
      const entries = await this.enqueue(() => this.loadIndex()).catch(() => undefined);
      if (entries && !this.rebuilding) for (const id of search.stale(entries.values()).removed) search.remove(id);
    }
    if (!search.dirty) return;
    await search.compact();
    await this.storage.writeSearchIndex(await search.toJSONAsync());
  }
}
