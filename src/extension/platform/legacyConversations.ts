// Conversations saved by 0.1.0: one JSON file each, conversations/<id>.json. The history index is
// rebuilt reading them as they are (nothing written); each becomes a log when it is opened or
// written to (the current conversation first), or when all the rest are brought in after the
// index is built; the file then moves into conversations/0.1.0/ (kept until the conversation is deleted). A file that does not parse stays
// where it is, and an empty conversations/0.1.0/<id>.json.unreadable marks it as tried.
import { statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { encodeLog, parseConversation, type Conversation } from '../../core';
import { isSafeConversationId } from './links';

export const LEGACY_DIR = '0.1.0';
const UNREADABLE = '.unreadable';

export class LegacyConversations {
  /** Ids of the 0.1.0 files still to bring in. */
  private readonly pending = new Set<string>();
  private readonly bringing = new Map<string, Promise<void>>();

  constructor(
    private readonly dir: string,
    private readonly logFile: (id: string) => string,
    private readonly writeLog: (file: string, text: string) => Promise<void>,
  ) {}

  /** Finds the 0.1.0 files still to bring in among the folder's names; returns how many. */
  async scan(names: readonly string[]): Promise<number> {
    const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).filter(isSafeConversationId);
    if (ids.length === 0) return 0;
    let tried = new Set<string>();
    try {
      tried = new Set((await readdir(join(this.dir, LEGACY_DIR))).filter((n) => n.endsWith('.json' + UNREADABLE)).map((n) => n.slice(0, -('.json' + UNREADABLE).length)));
    } catch {
      // no 0.1.0 folder yet
    }
    for (const id of ids) if (!tried.has(id)) this.pending.add(id);
    return this.pending.size;
  }

  get count(): number {
    return this.pending.size;
  }

  /** The names of the files still to bring in. */
  files(): string[] {
    return [...this.pending].map((id) => id + '.json');
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  private file(id: string): string {
    return join(this.dir, id + '.json');
  }

  /**
   * The log a 0.1.0 file stands for, made in memory (reading many of them for the history index
   * writes nothing); undefined when it is gone or does not parse.
   */
  async read(id: string): Promise<string | undefined> {
    const conv = await this.parse(id);
    if (typeof conv === 'string') {
      if (conv === 'unreadable') await this.bringIn(id);
      return undefined;
    }
    // An empty one is never listed: brought in now, or it would stay pending (an index lacking a
    // pending conversation is rebuilt).
    if (conv.messages.length === 0) await this.bringIn(id);
    return encodeLog(conv, conv.messages.map((_, i) => `v1.${i}`));
  }

  /** Brings one conversation in now, if it is still to be (once, whoever asks). */
  bringIn(id: string): Promise<void> {
    if (!this.pending.has(id)) return Promise.resolve();
    let p = this.bringing.get(id);
    if (!p) {
      p = this.convert(id).finally(() => this.bringing.delete(id));
      this.bringing.set(id, p);
    }
    return p;
  }

  /** Brings every remaining one in, two at a time; `progress` after each. */
  async bringInAll(progress?: (done: number, total: number) => void): Promise<void> {
    const ids = [...this.pending];
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < ids.length) {
        await this.bringIn(ids[next++]);
        progress?.(++done, ids.length);
      }
    };
    await Promise.all([worker(), worker()]);
  }

  private async parse(id: string): Promise<Conversation | 'gone' | 'unreadable'> {
    let text: string;
    try {
      text = await readFile(this.file(id), 'utf8');
    } catch {
      // Brought in by another window meanwhile (or gone).
      return 'gone';
    }
    try {
      // A file that fails the schema is repaired as far as it can be read (the id from its name).
      const conv = parseConversation(JSON.parse(text), id);
      return conv && isSafeConversationId(conv.id) ? conv : 'unreadable';
    } catch {
      return 'unreadable';
    }
  }

  private async convert(id: string): Promise<void> {
    const conv = await this.parse(id);
    if (conv === 'gone') {
      this.pending.delete(id);
      return;
    }
    await mkdir(join(this.dir, LEGACY_DIR), { recursive: true });
    if (conv === 'unreadable') {
      await writeFile(join(this.dir, LEGACY_DIR, id + '.json' + UNREADABLE), '');
      this.pending.delete(id);
      return;
    }
    const log = this.logFile(conv.id);
    if (!(await stat(log).then(() => true, () => false))) await this.writeLog(log, encodeLog(conv, conv.messages.map((_, i) => `v1.${i}`)));
    await rename(this.file(id), join(this.dir, LEGACY_DIR, id + '.json')).catch((err: { code?: string }) => {
      if (err.code !== 'ENOENT') throw err;
    });
    this.pending.delete(id);
  }

  /** A conversation deleted before it was brought in: its 0.1.0 file goes, and the copy a migration kept. */
  async remove(id: string): Promise<void> {
    // One being brought in writes its log first: the delete comes after it, not before.
    await this.bringing.get(id)?.catch(() => undefined);
    await rm(this.file(id), { force: true });
    this.pending.delete(id);
    await rm(join(this.dir, LEGACY_DIR, id + '.json'), { force: true });
  }
}

/**
 * The ids of files in `dir` (names with an extension), the last written first (an id given twice:
 * once, where its newer file stands). Each file is looked at with a synchronous stat, a few milliseconds
 * at a time with a turn of the event loop in between: thousands of asynchronous ones each wait for
 * a thread of their own, and take ten times as long. Ten thousand take tens of milliseconds: the
 * path is made by hand (path.join normalises each one) and the times are kept in a typed array.
 */
export async function newestFirst(dir: string, files: readonly string[], sliceMs = 8): Promise<string[]> {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const times = new Float64Array(files.length);
  let slice = Date.now();
  for (let i = 0; i < files.length; i++) {
    try {
      times[i] = statSync(prefix + files[i], { throwIfNoEntry: false })?.mtimeMs ?? 0;
    } catch {
      // unreadable: listed last
    }
    if (Date.now() - slice > sliceMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      slice = Date.now();
    }
  }
  const order = Array.from(files.keys()).sort((a, b) => times[b] - times[a]);
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const i of order) {
    const name = files[i];
    const id = name.slice(0, name.lastIndexOf('.'));
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}
