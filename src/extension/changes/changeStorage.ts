// Where a reply's changes are kept: the journal (journal.jsonl) and each previous or written content
// once by its hash (copies/<sha256>), in the extension's own storage, never in the workspace or its
// .git. Written so that a crash leaves a whole copy or none (temporary file, fsync, rename) and a
// journal whose last line may be cut (skipped when read). No vscode: the benchmark and the tests
// use it on a real disk.
import { mkdir, open, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compactJournal, hashOf, hashesInUse, journalLine, readJournal, setsToLetGo, type ChangesJournal, type JournalEntry, type JournalRecord, type KeptCopies } from '../../core';
import { appendDurably, syncFolder, TMP_EXT, writeDurably } from '../platform/durableFiles';

const HASH = /^[0-9a-f]{64}$/;

export class ChangeStorage implements KeptCopies, ChangesJournal {
  private readonly copiesDir: string;
  private readonly journalFile: string;
  private tmpCount = 0;

  constructor(private readonly folder: string) {
    this.copiesDir = join(folder, 'copies');
    this.journalFile = join(folder, 'journal.jsonl');
  }

  async put(hash: string, bytes: Uint8Array): Promise<void> {
    if (!HASH.test(hash)) throw new Error('not a content hash'); // l10n-ignore: a programming error
    const target = join(this.copiesDir, hash);
    if (await exists(target)) return;
    await mkdir(this.copiesDir, { recursive: true });
    const tmp = `${target}.${process.pid}.${++this.tmpCount}${TMP_EXT}`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
    await syncFolder(this.copiesDir);
  }

  /** The copy kept under `hash`, checked against it (a damaged copy is no copy). */
  async get(hash: string): Promise<Uint8Array | undefined> {
    if (!HASH.test(hash)) return undefined;
    try {
      const bytes = new Uint8Array(await readFile(join(this.copiesDir, hash)));
      return hashOf(bytes) === hash ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  async entries(): Promise<Map<string, JournalEntry>> {
    try {
      return readJournal(await readFile(this.journalFile, 'utf8'));
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return new Map();
      throw err;
    }
  }

  async append(records: readonly JournalRecord[]): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await appendDurably(this.journalFile, records.map(journalLine).join(''));
  }

  /** Bytes the kept copies take now. */
  async used(): Promise<number> {
    let total = 0;
    for (const name of await readdir(this.copiesDir).catch(() => [] as string[])) {
      if (HASH.test(name)) total += (await stat(join(this.copiesDir, name)).catch(() => ({ size: 0 }))).size;
    }
    return total;
  }

  /**
   * Keeps the copies within `limit` bytes: the oldest sets are let go (their replies then say their
   * undo is gone), the journal is rewritten with what remains, and the copies no set needs are
   * removed. Returns the ids let go.
   */
  async bound(limit: number): Promise<string[]> {
    const size = await stat(this.journalFile).then((s) => s.size, () => 0);
    const entries = await this.entries();
    const letGo = setsToLetGo([...entries.values()], limit);
    if (!letGo.length) return [];
    const at = Date.now();
    for (const id of letGo) {
      const e = entries.get(id);
      if (e) Object.assign(e, { state: 'gone', changedAt: at, skipped: [] });
    }
    // Another window appended meanwhile: its record would be lost; the next bound does it.
    if ((await stat(this.journalFile).then((s) => s.size, () => 0)) !== size) return [];
    await writeDurably(this.journalFile, compactJournal(entries.values()));
    const needed = hashesInUse(entries.values());
    for (const name of await readdir(this.copiesDir).catch(() => [] as string[])) {
      if (HASH.test(name) && !needed.has(name)) await rm(join(this.copiesDir, name), { force: true });
    }
    return letGo;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
