// One workspace folder's codebase index kept up to date: read from disk when saved there, the
// folder walked (ignored folders never entered, links never followed), new and changed files
// read, vanished ones removed, saved again; then one file at a time as the editor reports saves,
// creations, deletions and renames. Runs in the index's worker (no vscode).
import { lstatSync, readFileSync, readdirSync, type Dirent } from 'node:fs';
import * as nodePath from 'node:path';
import { CodebaseIndex, type FileMatch, type NameMatch } from './codebaseIndex';
import { ExcludeGlobs, IgnoreRules, MAX_INDEXED_BYTES, indexablePath, looksBinary, neverIndexed, type FileRules } from './fileRules';
import { loadIndex, saveIndex } from './persist';

export interface IndexerOptions {
  /** The folder on disk. */
  root: string;
  /** Globs of the settings (files.exclude, search.exclude) that are on. */
  excludes: readonly string[];
  /** Where the index is kept between sessions (none: in memory only). */
  storageFile?: string;
  /** Files read so far of those to read, now and then while building. */
  onProgress?: (done: number, total: number) => void;
}

export interface BuildReport {
  files: number;
  read: number;
  removed: number;
  fromDisk: boolean;
  ms: number;
}

/** Lets messages in (a query, a pause) between files. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * After the user typed, the build comes back gently: for this long after a rest ends it works at
 * most half the time (a slice of work, then as long again idle), as the user often types again.
 */
export const EASE_AFTER_REST_MS = 3000;

/**
 * How long the build stays idle after a slice of work that took `worked` ms, at `now`, the last
 * rest having ended at `restEnd` (0: the user never typed): as long as the slice, while easing.
 */
export function idleAfterSlice(worked: number, now: number, restEnd: number): number {
  return restEnd > 0 && now - restEnd < EASE_AFTER_REST_MS ? Math.max(0, worked) : 0;
}

export class CodebaseIndexer {
  index = new CodebaseIndex();
  private rules: FileRules;
  private paused = false;
  private resumed: (() => void) | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** No file is read before this time (performance.now()): the user is typing. */
  private restUntil = 0;
  private restTimer: NodeJS.Timeout | undefined;
  /** Wakes the build waiting for a rest to end. */
  private wake: (() => void) | undefined;
  /** When the slice of work going on began (performance.now()). */
  private sliceStart = performance.now();

  constructor(private readonly options: IndexerOptions) {
    this.rules = { gitignore: new IgnoreRules(), excludes: new ExcludeGlobs(options.excludes) };
  }

  get isPaused(): boolean {
    return this.paused;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.resumed?.();
    this.resumed = undefined;
  }

  /** The user is typing: reads no file for `ms` from now (a later rest moves the end; 0 ends it). */
  rest(ms: number): void {
    this.restUntil = performance.now() + ms;
    if (this.wake) this.wakeWhenRested();
  }

  /** The build is waiting for a rest to end. */
  get resting(): boolean {
    return this.wake !== undefined;
  }

  private wakeWhenRested(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    const left = this.restUntil - performance.now();
    if (left > 0 && !this.disposed) {
      this.restTimer = setTimeout(() => this.wakeWhenRested(), left);
      return;
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async untilRested(): Promise<void> {
    if (performance.now() >= this.restUntil) return;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      this.wakeWhenRested();
    });
    // The rest is not work: the next slice starts now.
    this.sliceStart = performance.now();
  }

  /** Between slices of work: messages in, and idle as long as the slice took while easing after a rest. */
  private async endSlice(): Promise<void> {
    const now = performance.now();
    const idle = idleAfterSlice(now - this.sliceStart, now, this.restUntil);
    if (idle > 0) await new Promise<void>((resolve) => setTimeout(resolve, idle));
    else await breathe();
    this.sliceStart = performance.now();
  }

  /** Brings the index up to date with the folder (the saved index first, when there is one). */
  async build(): Promise<BuildReport> {
    const started = performance.now();
    let fromDisk = false;
    if (this.options.storageFile && this.index.fileCount === 0) {
      const saved = await loadIndex(this.options.storageFile);
      if (saved) {
        this.index = saved;
        fromDisk = true;
      }
    }
    this.rules = { gitignore: new IgnoreRules(), excludes: this.rules.excludes };
    const found = new Map<string, { mtime: number; size: number }>();
    await this.walk('', found);
    let removed = 0;
    for (const path of [...this.index.files.keys()]) {
      if (!found.has(path)) removed += this.index.remove(path) ? 1 : 0;
    }
    const toRead = [...found].filter(([path, s]) => {
      const known = this.index.files.get(path);
      return !known || known.mtime !== s.mtime || known.size !== s.size;
    });
    let done = 0;
    let lastReport = 0;
    for (const [path] of toRead) {
      if (this.disposed) break;
      if (this.paused) {
        await new Promise<void>((resolve) => (this.resumed = resolve));
        this.sliceStart = performance.now();
      }
      await this.untilRested();
      if (this.disposed) break;
      this.read(path);
      done++;
      if (done % 16 === 0) await this.endSlice();
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        this.options.onProgress?.(done, toRead.length);
      }
    }
    this.options.onProgress?.(toRead.length, toRead.length);
    if (toRead.length || removed || !fromDisk) await this.save();
    return { files: this.index.fileCount, read: toRead.length, removed, fromDisk, ms: performance.now() - started };
  }

  /**
   * Lists the files to index under `dir`. The worker reads with the file system's synchronous
   * calls (much quicker than a round trip to the thread pool per call) and lets messages in
   * between folders; while the user types (a rest), it waits before the next folder.
   */
  private async walk(dir: string, found: Map<string, { mtime: number; size: number }>): Promise<void> {
    await this.untilRested();
    if (this.disposed) return;
    const abs = nodePath.join(this.options.root, dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    const text = (file: string) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    };
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) this.rules.gitignore.add(dir, text(nodePath.join(abs, '.gitignore')));
    if (dir === '') this.rules.gitignore.add('', text(nodePath.join(abs, '.git', 'info', 'exclude')));
    const folders: string[] = [];
    for (const entry of entries) {
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      // Links are not followed: they may lead out of the folder or round in a circle.
      if (entry.isDirectory()) {
        if (!neverIndexed(rel) && !this.rules.excludes.excludes(rel) && !this.rules.gitignore.ignores(rel, true)) folders.push(rel);
      } else if (entry.isFile()) {
        if (neverIndexed(rel) || this.rules.excludes.excludes(rel) || this.rules.gitignore.ignores(rel, false)) continue;
        try {
          const stat = lstatSync(nodePath.join(abs, entry.name));
          if (stat.size <= MAX_INDEXED_BYTES) found.set(rel, { mtime: stat.mtimeMs, size: stat.size });
        } catch {
          // Gone meanwhile.
        }
      }
    }
    await this.endSlice();
    for (const folder of folders) await this.walk(folder, found);
  }

  /** Reads one file into the index (or takes it out when it cannot be indexed any more). */
  private read(path: string): boolean {
    const abs = nodePath.join(this.options.root, path);
    try {
      const stat = lstatSync(abs);
      if (!stat.isFile() || stat.size > MAX_INDEXED_BYTES) return this.index.remove(path) && false;
      const bytes = readFileSync(abs);
      if (looksBinary(bytes)) return this.index.remove(path) && false;
      this.index.update(path, bytes.toString('utf8'), stat.mtimeMs, stat.size);
      return true;
    } catch {
      this.index.remove(path);
      return false;
    }
  }

  /**
   * A file was saved, created or changed on disk (`path` relative to the root, `/`-separated).
   * An ignore file changed: the folder is walked again (only what changed is read).
   */
  async changed(path: string): Promise<void> {
    if (path === '.gitignore' || path.endsWith('/.gitignore')) {
      await this.build();
      return;
    }
    if (!indexablePath(this.rules, path)) {
      if (this.index.remove(path)) this.saveSoon();
      return;
    }
    this.read(path);
    this.saveSoon();
  }

  /** A file or folder was deleted (or renamed away): it and everything under it leave the index. */
  deleted(path: string): void {
    let any = this.index.remove(path);
    const prefix = path + '/';
    for (const known of [...this.index.files.keys()]) if (known.startsWith(prefix)) any = this.index.remove(known) || any;
    if (any) this.saveSoon();
  }

  search(question: string, limit?: number): FileMatch[] {
    return this.index.search(question, limit);
  }

  names(query: string, limit?: number): NameMatch[] {
    return this.index.names(query, limit);
  }

  private saveSoon(): void {
    if (!this.options.storageFile) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save().catch(() => undefined), 2000);
  }

  /** Writes the index now; returns its size on disk in bytes (0 when kept in memory only). */
  async save(): Promise<number> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.options.storageFile) return 0;
    return saveIndex(this.options.storageFile, this.index);
  }

  dispose(): void {
    this.disposed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.resume();
    this.wakeWhenRested();
  }
}
