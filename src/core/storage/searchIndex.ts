// The full-text index: every word of every message of every saved conversation, for History's
// search. Built from the logs in the background (newest first, with progress), brought up to date
// by each save, and written to its own file a while after it changed; a conversation deleted in any
// window leaves it before it is written. VS Code-free.
import type { Conversation, ConversationSummary } from '../chat/conversation';
import type { ReplayedLog } from './conversationLog';
import { HistorySearch, yieldTurn, type SearchHit } from './historySearch';

/** How long putMany takes conversations in before it gives the event loop a turn (ms). */
const PUT_SLICE_MS = 8;
import type { ConversationStoragePort, SearchProgress } from './port';

/** The full-text index is written (on its timer) only once no search came for this long. */
const SEARCH_QUIET_MS = 1000;

export interface SearchIndexDeps {
  storage: Pick<ConversationStoragePort, 'readSearchIndex' | 'writeSearchIndex'>;
  /** Written this long after its last change (ms); flush() writes it at once. */
  persistDelayMs: number;
  /** Reads a log (with its side files, unless `withPartials` says it has none). */
  read(id: string, withPartials?: Set<string>): Promise<ReplayedLog | undefined>;
  /** The conversations with side files, when the storage can tell in one look. */
  partialIds(): Promise<Set<string> | undefined>;
  /** The history index: which conversations there are. */
  history: {
    /** Read again now (what other windows appended since). */
    read(): Promise<Map<string, ConversationSummary>>;
    /** Read again in turn with the writes. */
    readInTurn(): Promise<Map<string, ConversationSummary>>;
    /** As last read, without reading (undefined before the first read). */
    known(): Map<string, ConversationSummary> | undefined;
    /** Resolves once no rebuild of it runs; `rebuilding`: one runs now. */
    rebuilt(): Promise<void>;
    rebuilding(): boolean;
    /** While it is rebuilt: what History's first page read goes into the full-text index now. */
    settlePage(): void;
  };
}

export class SearchIndex {
  private loaded: Promise<HistorySearch> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Written apart from the conversations: a large index never holds a save or History. */
  private writing: Promise<void> = Promise.resolve();
  /** Conversations re-indexed since the index was last written, and whether one was removed or rebuilt (written soon, whatever the count). */
  private changes = 0;
  private urgent = false;
  /** When History last searched (the index is written once the user pauses). */
  private lastSearchAt = 0;
  private catchingUp: Promise<number> | undefined;
  private progressNow: SearchProgress = { done: 0, total: 0, building: false };
  private readonly listeners = new Set<(p: SearchProgress) => void>();

  constructor(private readonly deps: SearchIndexDeps) {}

  /**
   * Many conversations (an import brings thousands in), with a turn for the event loop between
   * two once they have held it PUT_SLICE_MS.
   */
  async putMany(convs: readonly Conversation[]): Promise<void> {
    let since = performance.now();
    for (const conv of convs) {
      await this.put(conv);
      if (performance.now() - since < PUT_SLICE_MS) continue;
      await yieldTurn();
      since = performance.now();
    }
  }

  /** A conversation saved (its first `from` messages unchanged since it was last put): indexed when the index is loaded. */
  async put(conv: Conversation, from?: number): Promise<void> {
    if (!this.loaded) return;
    (await this.loaded).update(conv, from);
    this.schedulePersist();
  }

  /** A conversation deleted: its words leave the index, and the disk soon. */
  async drop(id: string): Promise<void> {
    if (!this.loaded) return;
    (await this.loaded).remove(id);
    this.schedulePersist(true);
  }

  /** Writes the index now (after the writes of it under way). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.write();
  }

  ready(): Promise<HistorySearch> {
    this.loaded ??= (async () => HistorySearch.loadAsync(await this.deps.storage.readSearchIndex()))();
    return this.loaded;
  }

  /** How far the full-text index is built (History says "Indexing… N of M" meanwhile). */
  get progress(): SearchProgress {
    return { ...this.progressNow };
  }

  /** Called as the full-text index is built (each conversation read, and once at the end). */
  onProgress(listener: (p: SearchProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setProgress(p: SearchProgress): void {
    this.progressNow = p;
    for (const l of this.listeners) l({ ...p });
  }

  /**
   * Brings the full-text index up to date with the history index (conversations changed by
   * another window, or before the index existed; after a crash or an upgrade, the whole index),
   * newest conversations first, giving the event loop a turn as it goes; the index is persisted
   * now and then meanwhile. Resolves with how many were read. Called again while under way, it
   * joins the build under way.
   */
  catchUp(progress?: (done: number, total: number) => void): Promise<number> {
    const off = progress ? this.onProgress((p) => p.building && progress(p.done, p.total)) : undefined;
    this.catchingUp ??= this.build().finally(() => {
      this.catchingUp = undefined;
    });
    const run = this.catchingUp;
    if (off) void run.then(off, off);
    return run;
  }

  private async build(): Promise<number> {
    // Loading a persisted index takes a while too: told as a build of 0 of 0.
    const loading = !this.loaded;
    if (loading) this.setProgress({ done: 0, total: 0, building: true });
    let search: HistorySearch;
    let entries: Map<string, ConversationSummary>;
    try {
      search = await this.ready();
      entries = await this.deps.history.readInTurn();
      // Rebuilt from the logs: they go into the full-text index as they are read.
      await this.deps.history.rebuilt();
      entries = this.deps.history.known() ?? (await this.deps.history.readInTurn());
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
      const withPartials = await this.deps.partialIds();
      let done = 0;
      let slice = Date.now();
      try {
        for (const id of outdated) {
          const entry = this.deps.history.known()?.get(id);
          // Indexed meanwhile by a save of this window, or deleted: nothing to read.
          if (entry && !search.has(id, entry.updatedAt)) {
            const r = await this.deps.read(id, withPartials);
            if (r) search.update(r.conv);
            else search.remove(id);
            this.schedulePersist();
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
    if (outdated.length || removed.length) this.schedulePersist(true);
    return outdated.length;
  }

  /** Conversations with a message containing every word of the query, best match first. */
  async search(query: string): Promise<Array<ConversationSummary & SearchHit>> {
    this.lastSearchAt = Date.now();
    const search = await this.ready();
    // Read again (what other windows appended since: a conversation deleted there is not found here).
    const entries = await this.deps.history.read();
    // The conversations History lists already are searched too (those of its first page are put in the index now).
    this.deps.history.settlePage();
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
  schedulePersist(urgent = false): void {
    this.changes++;
    if (urgent) this.urgent = true;
    if (!this.timer) this.arm(this.deps.persistDelayMs);
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Not while the user searches (writing a large index takes a while): once they pause.
      const since = Date.now() - this.lastSearchAt;
      if (since < SEARCH_QUIET_MS) return this.arm(SEARCH_QUIET_MS - since);
      void (async () => {
        const size = this.loaded ? (await this.loaded).size : 0;
        if (this.urgent || this.changes * 50 >= size) await this.write();
      })().catch(() => undefined);
    }, delay);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private write(): Promise<void> {
    const next = this.writing.then(() => this.persist());
    this.writing = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async persist(): Promise<void> {
    if (!this.loaded) return;
    const search = await this.loaded;
    this.changes = 0;
    this.urgent = false;
    // Conversations another window deleted since this one read the history index leave the
    // full-text index before it is written (their words never come back to the disk from here).
    if (!this.deps.history.rebuilding()) {
      const entries = await this.deps.history.readInTurn().catch(() => undefined);
      if (entries && !this.deps.history.rebuilding()) for (const id of search.stale(entries.values()).removed) search.remove(id);
    }
    if (!search.dirty) return;
    await search.compact();
    await this.deps.storage.writeSearchIndex(await search.toJSONAsync());
  }
}
