// The codebase index: BM25 over chunks of about 60 lines of each file, in memory. A chunk's words
// count once each; the names it defines (symbols.ts) count DEFINITION_WEIGHT times, so a file that
// defines `retryRequest` ranks above one that calls it. The path is a field of its own (the file's
// name weighs more than its folders). Files are added, replaced and removed one at a time; a
// removed chunk is dropped from the counts at once and from the postings lists in the next sweep.
import { definitionsOf, type Definition } from './symbols';
import { forEachTerm, pathTerms, termsAsWritten, tokenize } from './tokenize';

export const CHUNK_LINES = 60;
const DEFINITION_WEIGHT = 4;
const K1 = 1.2;
const B = 0.75;
/** How much a file's name and its folders add, per matching word, against its best chunk's score. */
const NAME_WEIGHT = 1.1;
const FOLDER_WEIGHT = 0.35;

export interface Chunk {
  file: number;
  /** 1-based lines, inclusive. */
  start: number;
  end: number;
  /** Weighted number of words (BM25's document length). */
  len: number;
  /** Term ids, ascending, and each one's weighted count. */
  terms: Uint32Array;
  tfs: Uint16Array;
}

export interface IndexedFile {
  id: number;
  path: string;
  mtime: number;
  size: number;
  chunks: number[];
  defs: Definition[];
  nameTerms: number[];
  folderTerms: number[];
}

/** One file found for a question. */
export interface FileMatch {
  path: string;
  score: number;
  /** The best chunk's lines (1-based, inclusive). */
  start: number;
  end: number;
  /** Why: names it defines, words of its path, words its best chunk mentions (each as the question wrote it). */
  defines: string[];
  pathWords: string[];
  mentions: string[];
}

/** A name a file defines, with its 1-based line. */
export interface NameMatch {
  path: string;
  name: string;
  line: number;
}

export class CodebaseIndex {
  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  private df: number[] = [];
  /** Per term: chunk id, weighted count, chunk id, weighted count, … (dead chunks skipped, swept later). */
  private postings: number[][] = [];
  /** Per term: ids of the files whose path holds it. */
  private pathPostings: number[][] = [];
  readonly chunks: (Chunk | undefined)[] = [];
  readonly files = new Map<string, IndexedFile>();
  private readonly byId: (IndexedFile | undefined)[] = [];
  private liveChunks = 0;
  private deadChunks = 0;
  private totalLen = 0;

  get fileCount(): number {
    return this.files.size;
  }

  /** The id of a word (a new one for a word not seen yet). */
  intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.df.push(0);
      this.postings.push([]);
      this.pathPostings.push([]);
    }
    return id;
  }

  /** Counts of the chunk being read, by term id (reused: most of it stays zero). */
  private scratch = new Uint32Array(1024);
  private touched: number[] = [];

  private count(id: number, by: number): void {
    if (id >= this.scratch.length) {
      const grown = new Uint32Array(Math.max(id + 1, this.scratch.length * 2));
      grown.set(this.scratch);
      this.scratch = grown;
    }
    if (this.scratch[id] === 0) this.touched.push(id);
    this.scratch[id] += by;
  }

  /** Adds or replaces a file's text. */
  update(path: string, text: string, mtime = 0, size = text.length): void {
    this.remove(path);
    const defs = definitionsOf(path, text);
    // Where each chunk of CHUNK_LINES lines starts in the text.
    const starts = [0];
    let lines = 1;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
      if (lines % CHUNK_LINES === 0) starts.push(at + 1);
      lines++;
    }
    let d = 0;
    const chunks: Chunk[] = [];
    const emit = (t: string) => this.count(this.intern(t), 1);
    for (let k = 0; k < starts.length; k++) {
      const start = k * CHUNK_LINES + 1;
      const end = Math.min(lines, (k + 1) * CHUNK_LINES);
      forEachTerm(shortLines(text.slice(starts[k], k + 1 < starts.length ? starts[k + 1] : text.length)), emit);
      for (; d < defs.length && defs[d].line <= end; d++) for (const t of tokenize(defs[d].name)) this.count(this.intern(t), DEFINITION_WEIGHT);
      const ids = this.touched.sort((a, b) => a - b);
      const terms = Uint32Array.from(ids);
      const tfs = new Uint16Array(ids.length);
      let len = 0;
      for (let j = 0; j < ids.length; j++) {
        const tf = Math.min(65535, this.scratch[ids[j]]);
        tfs[j] = tf;
        len += tf;
        this.scratch[ids[j]] = 0;
      }
      this.touched = [];
      chunks.push({ file: 0, start, end, len, terms, tfs });
    }
    this.insert(path, mtime, size, defs, chunks);
  }

  /** Adds a file whose chunks are already counted (update, or an index read from disk). */
  insert(path: string, mtime: number, size: number, defs: Definition[], chunks: Chunk[]): void {
    this.remove(path);
    const id = this.byId.length;
    const slash = path.lastIndexOf('/');
    const file: IndexedFile = {
      id,
      path,
      mtime,
      size,
      chunks: [],
      defs,
      nameTerms: unique(pathTerms(path.slice(slash + 1)).map((t) => this.intern(t))),
      folderTerms: unique(pathTerms(path.slice(0, Math.max(0, slash))).map((t) => this.intern(t))),
    };
    for (const t of unique([...file.nameTerms, ...file.folderTerms])) this.pathPostings[t].push(id);
    for (const chunk of chunks) {
      chunk.file = id;
      const cid = this.chunks.length;
      this.chunks.push(chunk);
      file.chunks.push(cid);
      for (let k = 0; k < chunk.terms.length; k++) {
        const t = chunk.terms[k];
        this.df[t]++;
        this.postings[t].push(cid, chunk.tfs[k]);
      }
      this.liveChunks++;
      this.totalLen += chunk.len;
    }
    this.files.set(path, file);
    this.byId.push(file);
  }

  /** Takes a file out (no stale entry: its chunks no longer count nor match). */
  remove(path: string): boolean {
    const file = this.files.get(path);
    if (!file) return false;
    this.files.delete(path);
    this.byId[file.id] = undefined;
    for (const cid of file.chunks) {
      const chunk = this.chunks[cid];
      if (!chunk) continue;
      for (const t of chunk.terms) this.df[t]--;
      this.liveChunks--;
      this.deadChunks++;
      this.totalLen -= chunk.len;
      this.chunks[cid] = undefined;
    }
    if (this.deadChunks > 2000 && this.deadChunks > this.liveChunks / 2) this.sweep();
    return true;
  }

  /** Drops dead chunks and files from the postings lists. */
  sweep(): void {
    for (let t = 0; t < this.postings.length; t++) {
      const list = this.postings[t];
      const kept: number[] = [];
      for (let k = 0; k < list.length; k += 2) if (this.chunks[list[k]]) kept.push(list[k], list[k + 1]);
      this.postings[t] = kept;
      this.pathPostings[t] = this.pathPostings[t].filter((f) => this.byId[f]);
    }
    this.deadChunks = 0;
  }

  /**
   * The names the files define (symbols.ts) that start with `query`, then those that hold it
   * (case ignored), the shorter name first, each with its file and line: what the `#` menu lists at
   * once, before the language servers answer.
   */
  names(query: string, limit = 15): NameMatch[] {
    const typed = query.toLowerCase();
    // A word written with separators ("billing-api", "retry_policy") finds BillingApi… and retry_policy…
    const q = typed.replace(/[-_.\s]+/g, '');
    const loose = q !== typed;
    if (!q || limit <= 0) return [];
    const found: Array<NameMatch & { rank: number }> = [];
    for (const file of this.files.values()) {
      for (const d of file.defs) {
        let name = d.name.toLowerCase();
        if (loose && name.includes('_')) name = name.replace(/_/g, '');
        const rank = name.startsWith(q) ? 0 : name.includes(q) ? 1 : -1;
        if (rank < 0) continue;
        found.push({ path: file.path, name: d.name, line: d.line, rank });
      }
    }
    found.sort((a, b) => a.rank - b.rank || a.name.length - b.name.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    return found.slice(0, limit).map(({ path, name, line }) => ({ path, name, line }));
  }

  /** The files that best answer a question, best first, each with its best chunk and why. */
  search(question: string, limit = 10): FileMatch[] {
    const qterms = unique(tokenize(question).map((t) => this.termIds.get(t)).filter((t): t is number => t !== undefined));
    if (!qterms.length || !this.liveChunks) return [];
    const n = this.liveChunks;
    const avg = this.totalLen / n;
    const chunkScore = new Map<number, number>();
    const idfs = new Map<number, number>();
    for (const t of qterms) {
      const df = Math.max(0, this.df[t]);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfs.set(t, idf);
      const list = this.postings[t];
      for (let k = 0; k < list.length; k += 2) {
        const chunk = this.chunks[list[k]];
        if (!chunk) continue;
        const tf = list[k + 1];
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * chunk.len) / avg));
        chunkScore.set(list[k], (chunkScore.get(list[k]) ?? 0) + s);
      }
    }
    // A file's score: its best chunk, a little of its second, and its path's words.
    const best = new Map<number, { chunk: number; score: number; second: number }>();
    for (const [cid, score] of chunkScore) {
      const fid = (this.chunks[cid] as Chunk).file;
      const b = best.get(fid);
      if (!b) best.set(fid, { chunk: cid, score, second: 0 });
      else if (score > b.score) best.set(fid, { chunk: cid, score, second: b.score });
      else if (score > b.second) b.second = score;
    }
    const pathScore = new Map<number, number>();
    for (const t of qterms) {
      const idf = idfs.get(t) ?? 0;
      for (const fid of this.pathPostings[t]) {
        const file = this.byId[fid];
        if (!file) continue;
        const w = file.nameTerms.includes(t) ? NAME_WEIGHT : FOLDER_WEIGHT;
        pathScore.set(fid, (pathScore.get(fid) ?? 0) + w * idf);
      }
    }
    const scored: { fid: number; score: number }[] = [];
    for (const fid of new Set([...best.keys(), ...pathScore.keys()])) {
      const b = best.get(fid);
      scored.push({ fid, score: (b ? b.score + 0.3 * b.second : 0) + (pathScore.get(fid) ?? 0) });
    }
    scored.sort((a, b) => b.score - a.score || (this.byId[a.fid] as IndexedFile).path.localeCompare((this.byId[b.fid] as IndexedFile).path));
    const written = termsAsWritten(question);
    return scored.slice(0, limit).map(({ fid, score }) => this.explain(this.byId[fid] as IndexedFile, best.get(fid)?.chunk, qterms, score, written));
  }

  private explain(file: IndexedFile, cid: number | undefined, qterms: number[], score: number, written: Map<string, string>): FileMatch {
    const word = (t: number) => written.get(this.terms[t]) ?? this.terms[t];
    const chunk = cid === undefined ? this.chunks[file.chunks[0]] : this.chunks[cid];
    const asked = new Set(qterms);
    const defines = file.defs
      .filter((d) => (!chunk || (d.line >= chunk.start && d.line <= chunk.end)) && tokenize(d.name).some((t) => asked.has(this.termIds.get(t) ?? -1)))
      .map((d) => d.name);
    const pathWords = qterms.filter((t) => file.nameTerms.includes(t) || file.folderTerms.includes(t)).map(word);
    const mentions = chunk ? qterms.filter((t) => has(chunk.terms, t)).map(word) : [];
    return { path: file.path, score, start: chunk?.start ?? 1, end: chunk?.end ?? 1, defines: unique(defines).slice(0, 3), pathWords, mentions };
  }
}

/** Beyond this a line is minified or data: only its start counts (and a chunk stays a chunk). */
const LONG_LINE = 1000;

function shortLines(text: string): string {
  if (text.length <= LONG_LINE || !hasLongLine(text)) return text;
  return text
    .split('\n')
    .map((l) => (l.length > LONG_LINE ? l.slice(0, LONG_LINE) : l))
    .join('\n');
}

function hasLongLine(text: string): boolean {
  let from = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (at - from > LONG_LINE) return true;
    from = at + 1;
  }
  return text.length - from > LONG_LINE;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** Binary search in ascending term ids. */
function has(sorted: Uint32Array, t: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === t) return true;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
