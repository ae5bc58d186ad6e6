// Conversations as files under the extension's global storage:
//   conversations/<id>.jsonl            the log of a conversation (appended per turn)
//   conversations/<id>.<writer>.partial the reply a window is streaming (rewritten every ~2 s)
//   conversations/_index.jsonl          the history index
//   conversations/_search.json          the full-text index
//   conversations/0.1.0/<id>.json       0.1.0 files, kept after they are brought in (legacyConversations.ts)
// Rewritten files are written durably (durableFiles.ts); temporary files a crash left behind are
// removed on start. The current conversation is recorded per window.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationStoragePort, IndexCursor } from '../../core';
import { readAppended, readSmallFile, readText } from './appendedRead';
import { appendDurably, TMP_EXT, writeDurably } from './durableFiles';
import { LegacyConversations, newestFirst } from './legacyConversations';
import { isSafeConversationId } from './links';

/** Names the current conversation; not a conversation file, so nothing lists it. */
const CURRENT_FILE = 'current-conversation';
const INDEX_FILE = '_index.jsonl';
const SEARCH_FILE = '_search.json';
const LOG_EXT = '.jsonl';
const PARTIAL_EXT = '.partial';
/** A temporary file older than this is left over from a crash (a live write takes milliseconds). */
const STRAY_TMP_MS = 60_000;
/**
 * A listing of the folder this recent, with no file of this window written or removed since, is
 * used again: History's first open without an index looks at the folder three times in a row
 * (the start, the logs, the side files), each thousands of names.
 */
const LISTING_REUSE_MS = 1000;
/** A log read at once (readLogAtOnce) is at most this long (about a thousand turns); a longer one is read asynchronously. */
const AT_ONCE_MAX_BYTES = 1024 * 1024;
/** A read at once slower than this (a network or sleeping disk) ends reading at once in this window: each would hold the extension host. */
const AT_ONCE_SLOW_MS = 20;

export class FileConversationStorage implements ConversationStoragePort {
  private readonly dir: string;
  private readonly windowDir: string;
  private ready: Promise<void> | undefined;
  /** The folder was looked at (the 0.1.0 files are known). */
  private scanned = false;
  /** A read at once was slow: every later read waits its turn instead. */
  private slowDisk = false;
  private readonly legacy: LegacyConversations;
  private listing: { names: Promise<string[]>; at: number; changes: number } | undefined;
  /** Files of this window written or removed in the folder (a listing taken before is not used again). */
  private changes = 0;

  /**
   * @param globalStoragePath where conversations are kept (shared by every window)
   * @param windowStoragePath where this window's current conversation is recorded (the
   *   workspace's storage; the global one when no folder is open)
   */
  constructor(globalStoragePath: string, windowStoragePath: string = globalStoragePath) {
    this.dir = join(globalStoragePath, 'conversations');
    this.windowDir = windowStoragePath;
    this.legacy = new LegacyConversations(this.dir, (id) => this.logFile(id), (file, text) => this.changing(writeDurably(file, text)));
  }

  /** The folder's names: read now, or a listing taken a moment ago (LISTING_REUSE_MS) when this window changed nothing since. */
  private names(): Promise<string[]> {
    const now = Date.now();
    const last = this.listing;
    if (last && last.changes === this.changes && now - last.at <= LISTING_REUSE_MS) return last.names;
    const names = readdir(this.dir);
    const listing = { names, at: now, changes: this.changes };
    this.listing = listing;
    names.catch(() => {
      if (this.listing === listing) this.listing = undefined;
    });
    return names;
  }

  /** A write or removal of this window in the folder: a listing taken before it is not used again. */
  private changing<T>(work: Promise<T>): Promise<T> {
    return work.finally(() => this.changes++);
  }

  private ensureDir(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const names = await this.names();
      await this.cleanUp(names);
      // 0.1.0 files are brought in as they are read; an index that lacks one of them is rebuilt
      // to list it (the store checks pendingUpgradeIds), one that has them all is used as it is.
      await this.legacy.scan(names);
      this.scanned = true;
    })();
    return this.ready;
  }

  /** Removes temporary files left by a write that a crash cut short. */
  private async cleanUp(names: string[]): Promise<void> {
    const now = Date.now();
    for (const name of names) {
      if (!name.endsWith(TMP_EXT)) continue;
      const file = join(this.dir, name);
      try {
        if (now - (await stat(file)).mtimeMs > STRAY_TMP_MS) await rm(file, { force: true });
      } catch {
        // removed by another window meanwhile
      }
    }
  }

  /** How many 0.1.0 conversations are still to be brought in. */
  pendingUpgrade(): Promise<number> {
    return this.ensureDir().then(() => this.legacy.count);
  }

  pendingUpgradeIds(): Promise<string[]> {
    return this.ensureDir().then(() => this.legacy.files().map((n) => n.slice(0, -'.json'.length)));
  }

  /** Brings in every 0.1.0 conversation not brought in yet. */
  upgrade(progress?: (done: number, total: number) => void): Promise<void> {
    return this.changing(this.ensureDir().then(() => this.legacy.bringInAll(progress)));
  }

  /** Writes to a conversation that 0.1.0 saved (and its size) bring it in first. */
  private async settle(id: string): Promise<void> {
    await this.ensureDir();
    if (this.legacy.has(id)) await this.changing(this.legacy.bringIn(id));
  }

  private logFile(id: string): string {
    if (!isSafeConversationId(id)) throw new Error(`Invalid conversation id: ${id}`); // l10n-ignore: refused file names, logged
    return join(this.dir, id + LOG_EXT);
  }

  /** Every conversation, newest file first (0.1.0 files not brought in yet too). */
  async listLogs(): Promise<string[]> {
    await this.ensureDir();
    const files = (await this.names()).filter((n) => n.endsWith(LOG_EXT) && isSafeConversationId(n.slice(0, -LOG_EXT.length)));
    const logs = new Set(files);
    files.push(...this.legacy.files().filter((n) => !logs.has(n.slice(0, -'.json'.length) + LOG_EXT)));
    return newestFirst(this.dir, files);
  }

  readLogAtOnce(id: string): string | undefined | false {
    if (!isSafeConversationId(id) || !this.scanned || this.slowDisk || this.legacy.has(id)) return false;
    const started = performance.now();
    const text = readSmallFile(this.logFile(id), AT_ONCE_MAX_BYTES);
    if (performance.now() - started > AT_ONCE_SLOW_MS) this.slowDisk = true;
    return text;
  }

  async readLog(id: string): Promise<string | undefined> {
    if (!isSafeConversationId(id)) return undefined;
    await this.ensureDir();
    // A 0.1.0 file brought in meanwhile (renamed away) has its log written already.
    const legacy = this.legacy.has(id) ? await this.legacy.read(id) : undefined;
    return legacy ?? readText(this.logFile(id));
  }

  async logSize(id: string): Promise<number | undefined> {
    if (!isSafeConversationId(id)) return undefined;
    await this.settle(id);
    try {
      return (await stat(this.logFile(id))).size;
    } catch {
      return undefined;
    }
  }

  async appendLog(id: string, text: string): Promise<number> {
    await this.settle(id);
    return this.changing(appendDurably(this.logFile(id), text));
  }

  async rewriteLog(id: string, text: string, expectedSize?: number): Promise<boolean> {
    await this.settle(id);
    if (expectedSize !== undefined && (await this.logSize(id)) !== expectedSize) return false;
    await this.changing(writeDurably(this.logFile(id), text));
    return true;
  }

  async removeLog(id: string): Promise<void> {
    await this.ensureDir();
    await this.changing(this.removeLogFiles(id));
  }

  private async removeLogFiles(id: string): Promise<void> {
    // The log goes last: when a file cannot be removed (held open by another program), the
    // conversation is still whole, and the delete is reported as failed.
    await this.removePartials(id);
    // Its 0.1.0 file goes with it (brought in or not).
    await this.legacy.remove(id);
    await rm(this.logFile(id), { force: true });
  }

  private async partialNames(id: string): Promise<string[]> {
    const prefix = `${id}.`;
    return (await readdir(this.dir)).filter((n) => n.startsWith(prefix) && n.endsWith(PARTIAL_EXT));
  }

  async readPartials(id: string): Promise<string[]> {
    if (!isSafeConversationId(id)) return [];
    await this.ensureDir();
    const out: string[] = [];
    for (const name of await this.partialNames(id)) {
      const text = await readText(join(this.dir, name));
      if (text !== undefined) out.push(text);
    }
    return out;
  }

  async partialIds(): Promise<Set<string>> {
    await this.ensureDir();
    const ids = new Set<string>();
    for (const name of await this.names()) {
      if (!name.endsWith(PARTIAL_EXT)) continue;
      const stem = name.slice(0, -PARTIAL_EXT.length);
      ids.add(stem.slice(0, stem.lastIndexOf('.')));
    }
    return ids;
  }

  private partialFile(id: string, writer: string): string {
    if (!isSafeConversationId(id) || !/^[a-z0-9]{1,20}$/.test(writer)) throw new Error(`Invalid side file name: ${id}`); // l10n-ignore: refused file names, logged
    return join(this.dir, `${id}.${writer}${PARTIAL_EXT}`);
  }

  async writePartial(id: string, writer: string, text: string): Promise<void> {
    await this.ensureDir();
    await this.changing(writeDurably(this.partialFile(id, writer), text));
  }

  async removePartials(id: string, writer?: string): Promise<void> {
    await this.ensureDir();
    await this.changing(this.removePartialFiles(id, writer));
  }

  private async removePartialFiles(id: string, writer?: string): Promise<void> {
    if (writer !== undefined) {
      await rm(this.partialFile(id, writer), { force: true });
      return;
    }
    for (const name of await this.partialNames(id)) await rm(join(this.dir, name), { force: true });
  }

  async readIndex(): Promise<string | undefined> {
    await this.ensureDir();
    return readText(join(this.dir, INDEX_FILE));
  }

  async readIndexSince(since: IndexCursor | undefined): ReturnType<typeof readAppended> {
    await this.ensureDir();
    return readAppended(join(this.dir, INDEX_FILE), since);
  }

  async appendIndex(text: string): Promise<void> {
    await this.ensureDir();
    await appendDurably(join(this.dir, INDEX_FILE), text);
  }

  async rewriteIndex(text: string): Promise<void> {
    await this.ensureDir();
    await writeDurably(join(this.dir, INDEX_FILE), text);
  }

  async readSearchIndex(): Promise<string | undefined> {
    await this.ensureDir();
    return readText(join(this.dir, SEARCH_FILE));
  }

  async writeSearchIndex(text: string): Promise<void> {
    await this.ensureDir();
    await writeDurably(join(this.dir, SEARCH_FILE), text);
  }

  async readCurrentId(): Promise<string | undefined> {
    // This window's record first; before one exists, the one 0.1.0 kept for every window.
    const id = ((await readText(join(this.windowDir, CURRENT_FILE))) ?? (await readText(join(this.dir, CURRENT_FILE))))?.trim();
    return id && isSafeConversationId(id) ? id : undefined;
  }

  async writeCurrentId(id: string): Promise<void> {
    if (!isSafeConversationId(id)) throw new Error(`Invalid conversation id: ${id}`); // l10n-ignore: refused file names, logged
    await mkdir(this.windowDir, { recursive: true });
    await writeDurably(join(this.windowDir, CURRENT_FILE), id);
  }
}
