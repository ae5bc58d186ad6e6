// The history index: what History lists, one line per conversation, without reading the
// conversations. It is appended to by every window and read again from where the last read ended;
// a compaction rewrites it once mostly stale (what other windows appended coming first). When there
// is none, or it cannot be used (another version's, or damaged), it is rebuilt from the logs, newest
// first, History listing what is read so far meanwhile. VS Code-free.
import { summarize, type Conversation, type ConversationSummary } from '../chat/conversation';
import { indexLine, indexText, peekLog, replayIndex, replayIndexPaced, replayLog, sameSummary, type ReplayedIndex, type ReplayedLog } from './conversationLog';
import { yieldTurn } from './historySearch';
import type { ConversationStoragePort, IndexCursor } from './port';
import type { SearchIndex } from './searchIndex';

/** While the history index is rebuilt, History lists what is read once this many are (or this long has passed). */
const FIRST_PAGE_SIZE = 50;
const FIRST_PAGE_WAIT_MS = 150;
/**
 * The conversations read before that first page are put in the full-text index this long after it
 * (a long one takes a while): the page reaches the window first.
 */
const PAGE_SETTLE_MS = 30;

export interface HistoryIndexDeps {
  storage: ConversationStoragePort;
  /** Reads a log (with its side files, unless `withPartials` says it has none). */
  read(id: string, withPartials?: Set<string>): Promise<ReplayedLog | undefined>;
  /** The conversations with side files, when the storage can tell in one look. */
  partialIds(): Promise<Set<string> | undefined>;
  /** Conversations deleted in this window: a rebuild or a compaction never lists them again. */
  removed: ReadonlySet<string>;
  /** Runs `task` after the writes asked for so far, in turn with them. */
  enqueue<T>(task: () => Promise<T>): Promise<T>;
  /** The full-text index: what a rebuild reads goes into it too (nothing is read twice). */
  search: SearchIndex;
  /** A missing index is rebuilt before the listing up to this many logs, in the background above it. */
  rebuildInlineUpTo: number;
}

export class HistoryIndex {
  private index: ReplayedIndex | undefined;
  /** Where the last read of the index file ended, for the index it made (a later read takes only what was appended since). */
  private indexRead: { index: object; cursor: IndexCursor; lines: number } | undefined;
  /** The history index being rebuilt from the logs (no index file: first start after an upgrade, or after a crash). */
  private rebuilding: Promise<void> | undefined;
  private startingRebuild: Promise<Map<string, ConversationSummary>> | undefined;
  /** While the history index is rebuilt: how many of the newest logs are read, none missing between. */
  private newestRead = 0;
  private pageSize = FIRST_PAGE_SIZE;
  /** While the history index is rebuilt: puts what was read for History's first page in the full-text index now. */
  private settlePage: (() => void) | undefined;

  constructor(private readonly deps: HistoryIndexDeps) {}

  /** The entries as last read (undefined before the first read), without reading again. */
  get entries(): Map<string, ConversationSummary> | undefined {
    return this.index?.entries;
  }

  /** True while the index is rebuilt: list() gives what is read so far. */
  get partial(): boolean {
    return this.rebuilding !== undefined;
  }

  /** Resolves once no rebuild runs. */
  async rebuilt(): Promise<void> {
    while (this.rebuilding) await this.rebuilding;
  }

  /** While the index is rebuilt: what was read for History's first page goes into the full-text index now. */
  settleFirstPage(): void {
    this.settlePage?.();
  }

  /** Forgets what was read: the next use reads the file again (after a write of it failed). */
  drop(): void {
    this.index = undefined;
  }

  async load(): Promise<Map<string, ConversationSummary>> {
    // Being rebuilt: what is read so far (the file is written once it is whole).
    if (this.rebuilding && this.index) return this.index.entries;
    const read = await this.readIndexFile();
    if (this.rebuilding && this.index) return this.index.entries;
    // An index this version cannot use (another version's, or damaged) is rebuilt from the logs.
    if (read && !read.index.unreadable) {
      const { index } = read;
      // An index that lacks conversations of an earlier version still to be brought in (written
      // meanwhile by a window that started before they were there) is rebuilt to list them.
      const pending = (await this.deps.storage.pendingUpgradeIds?.().catch(() => [])) ?? [];
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
  private async readIndexFile(): Promise<{ index: ReplayedIndex; cursor?: IndexCursor } | undefined> {
    if (!this.deps.storage.readIndexSince) {
      const text = await this.deps.storage.readIndex();
      return text === undefined ? undefined : { index: await replayIndexPaced(text, yieldTurn) };
    }
    const base = this.index && this.indexRead?.index === this.index ? { index: this.index, read: this.indexRead } : undefined;
    const r = await this.deps.storage.readIndexSince(base?.read.cursor);
    if (!r) return undefined;
    if (!r.appended || !base || this.index !== base.index) return { index: await replayIndexPaced(r.text, yieldTurn), cursor: r.cursor };
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
    const ids = await this.deps.storage.listLogs();
    if (this.rebuilding && this.index) return this.index.entries;
    const index: ReplayedIndex = { entries: new Map<string, ConversationSummary>(), lines: 0, gone: new Set<string>(), unreadable: false };
    if (ids.length <= this.deps.rebuildInlineUpTo) {
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
    const withPartials = await this.deps.partialIds();
    const search = inline ? undefined : await this.deps.search.ready().catch(() => undefined);
    const total = ids.length;
    let next = 0;
    let done = 0;
    let slice = Date.now();
    if (!inline) this.deps.search.setProgress({ done, total, building: true });
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
      this.deps.search.schedulePersist();
    };
    const indexDeferred = () => {
      for (const conv of deferred.splice(0)) {
        // Not when a save of this window indexed a later state meanwhile, or it was deleted.
        if (search && !search.has(conv.id) && index.entries.get(conv.id)?.updatedAt === conv.updatedAt) {
          search.update(conv);
          this.deps.search.schedulePersist();
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
        if (inline || pageOut || at >= pageSize || !withPartials || withPartials.has(id)) r = await this.deps.read(id, withPartials);
        else {
          // Before the page is out, a small log is read at once: a few dozen of them in a few milliseconds.
          const atOnce = this.deps.storage.readLogAtOnce ? this.deps.storage.readLogAtOnce(id) : false;
          const text = atOnce === false ? await this.deps.storage.readLog(id) : atOnce;
          const glance = text !== undefined && !pageOut ? peekLog(text, id) : undefined;
          // A glance that finds no message never drops a log on its own: the replay decides.
          if (text !== undefined && glance && glance.messageCount > 0) {
            if (!index.entries.has(id) && !index.gone.has(id) && !this.deps.removed.has(id)) {
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
      if (r && r.conv.messages.length > 0 && !index.entries.has(id) && !index.gone.has(id) && !this.deps.removed.has(id)) {
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
        this.deps.search.setProgress({ done, total, building: true });
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
      const onDisk = (await replayIndexPaced((await this.deps.storage.readIndex().catch(() => undefined)) ?? '', yieldTurn)).entries;
      for (const [id, e] of onDisk) if (!listed.has(id) && !index.entries.has(id) && !index.gone.has(id) && !this.deps.removed.has(id)) index.entries.set(id, e);
      await this.deps.storage.rewriteIndex(indexText(index.entries.values()));
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
      return await this.deps.enqueue(async () => {
        const whole = await write();
        this.rebuilding = undefined;
        return whole;
      });
    } finally {
      if (this.settlePage === settle) this.settlePage = undefined;
      this.deps.search.setProgress({ done, total, building: false });
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
      const off = this.deps.search.onProgress(() => page() && finish());
      function finish(): void {
        clearTimeout(timer);
        off();
        resolve();
      }
      void rebuilding.then(finish, finish);
    });
  }

  /**
   * Counted as written only once the index file took it: after a failure the index is read from
   * disk again, so the next save finds the entry missing and writes it.
   */
  async put(entry: ConversationSummary | { id: string; gone: true }): Promise<void> {
    try {
      await this.putEntry(entry);
    } catch (err) {
      this.drop();
      throw err;
    }
  }

  private async putEntry(entry: ConversationSummary | { id: string; gone: true }): Promise<void> {
    const entries = this.index?.entries ?? (await this.load());
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
      for (const id of this.deps.removed) now.entries.delete(id);
      await this.deps.storage.rewriteIndex(indexText(now.entries.values()));
      now.lines = now.entries.size + 1;
      now.gone.clear();
      this.index = now;
      // The file was replaced: the next read takes it whole.
      this.indexRead = undefined;
    } else {
      await this.deps.storage.appendIndex(indexLine(entry));
      index.lines++;
    }
  }

  /** New conversations listed at once (Import All): one append to the index file for all of them. */
  async putMany(list: readonly ConversationSummary[]): Promise<void> {
    try {
      const entries = this.index?.entries ?? (await this.load());
      const index = this.index;
      if (!index) return;
      const changed = list.filter((e) => !sameSummary(entries.get(e.id), e));
      for (const e of changed) entries.set(e.id, e);
      // (Being rebuilt: written with the whole index at the end of the rebuild.)
      if (this.rebuilding || !changed.length) return;
      await this.deps.storage.appendIndex(changed.map(indexLine).join(''));
      index.lines += changed.length;
    } catch (err) {
      this.drop();
      throw err;
    }
  }

  /** Saved conversations, newest first, from the index (no conversation is read). */
  async list(): Promise<ConversationSummary[]> {
    // Read each time: another window may have added or changed conversations.
    const entries = await this.load();
    await this.firstPage();
    return [...entries.values()].filter((c) => c.messageCount > 0).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /**
   * A log that vanished was deleted in another window when the index says so (its `gone` line), or
   * no longer lists it (the index was rewritten since). One the index still lists was removed by
   * other means (by hand, a sync client) and is written again whole.
   */
  async deletedElsewhere(id: string): Promise<boolean> {
    const entries = await this.load();
    if (this.rebuilding) return this.index?.gone.has(id) === true;
    return this.index?.gone.has(id) === true || !entries.has(id);
  }
}
