// Conversations saved by 0.1.0: one JSON file each, conversations/<id>.json. Each becomes a log
// when it is first read (the current conversation as the chat opens it; the others as the history
// index is rebuilt in the background after the upgrade); the file then moves into
// conversations/0.1.0/ (kept until the conversation is deleted). A file that does not parse stays
// where it is, and an empty conversations/0.1.0/<id>.json.unreadable marks it as tried.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeLog, parseConversation } from '../../core';
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

  /** The ids still to bring in, with the time each file was last written. */
  async waiting(): Promise<Array<[string, number]>> {
    return Promise.all([...this.pending].map(async (id): Promise<[string, number]> => [id, await stat(this.file(id)).then((s) => s.mtimeMs, () => 0)]));
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  private file(id: string): string {
    return join(this.dir, id + '.json');
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

  private async convert(id: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file(id), 'utf8');
    } catch {
      // Brought in by another window meanwhile (or gone).
      this.pending.delete(id);
      return;
    }
    let conv;
    try {
      // A file that fails the schema is repaired as far as it can be read (the id from its name).
      conv = parseConversation(JSON.parse(text), id);
    } catch {
      conv = undefined;
    }
    await mkdir(join(this.dir, LEGACY_DIR), { recursive: true });
    if (!conv || !isSafeConversationId(conv.id)) {
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
    await rm(this.file(id), { force: true });
    this.pending.delete(id);
    await rm(join(this.dir, LEGACY_DIR, id + '.json'), { force: true });
  }
}
