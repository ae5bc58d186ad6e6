// Where conversations are kept: the port the store reads and writes through (the extension writes
// files; tests use memory), and the small types the store's parts share. VS Code-free.

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
