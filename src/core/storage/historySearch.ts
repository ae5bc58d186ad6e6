// Full-text search over every message of every saved conversation: an inverted index of words to
// messages, updated per turn and persisted beside the conversations.
//
// Kept small: each message is a number (its document), each word a list of those numbers in
// increasing order. A list is held either as an array (being added to) or, once written to disk,
// as the same compact text it is written as (delta-coded, five bits a character), read when a
// search needs it. Loading the persisted index is parsing one JSON document; nothing is
// decoded until it is searched.
import type { Conversation, ConversationSummary } from '../chat/conversation';
import { storedMessages } from '../variants/variants';

/** Version 2: the compact form. Version 1 (MiniSearch's own) is rebuilt from the logs. */
export const SEARCH_INDEX_VERSION = 2;

export interface SearchHit {
  id: string;
  score: number;
  /** How many messages of the conversation match. */
  matches: number;
}

/** What is indexed of one conversation: its last change, and the document of each message, in order. */
interface Indexed {
  slot: number;
  updatedAt: string;
  docs: number[];
}

/** Gives the event loop a turn (timers, I/O, the user's keystrokes) in the middle of long work. */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Words longer than this (encoded data, long hashes) are not indexed. */
const MAX_WORD = 48;

/** The words of a text, lower case, each once. */
export function words(text: string): string[] {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w && w.length <= MAX_WORD) out.add(w);
  return [...out];
}

// ---- compact lists: each number as the gap from the one before, five bits a character ----

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

const CODE = new Uint8Array(ALPHABET.length);
for (let i = 0; i < ALPHABET.length; i++) CODE[i] = ALPHABET.charCodeAt(i);
/** Characters of the lists being written (a number is at most 11 of them); one buffer for the small ones. */
const MAX_CHARS = 11;
const scratch = new Uint8Array(4096 * MAX_CHARS);
const ascii = new TextDecoder('latin1');

/**
 * Numbers of at least 0 as text; `increasing`: each is written as its gap from the one before.
 * Written as bytes and decoded once: the persisted index holds millions of numbers.
 */
export function encodeList(list: readonly number[], increasing = true): string {
  const out = list.length * MAX_CHARS <= scratch.length ? scratch : new Uint8Array(list.length * MAX_CHARS);
  let o = 0;
  let prev = -1;
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    let v = increasing ? n - prev - 1 : n;
    prev = n;
    while (v >= 32) {
      out[o++] = CODE[32 | (v & 31)];
      v = Math.floor(v / 32);
    }
    out[o++] = CODE[v];
  }
  return ascii.decode(out.subarray(0, o));
}

/** The numbers encodeList wrote; undefined when the text is not such a list. */
export function decodeList(text: string, increasing = true): number[] | undefined {
  const out: number[] = [];
  let prev = -1;
  let n = 0;
  let scale = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUE[c] : -1;
    if (v < 0) return undefined;
    n += (v & 31) * scale;
    if (v & 32) scale *= 32;
    else {
      prev = increasing ? prev + n + 1 : n;
      out.push(prev);
      n = 0;
      scale = 1;
    }
  }
  return scale === 1 ? out : undefined;
}

/** The persisted form. */
interface Persisted {
  version: 2;
  /** Each conversation's slot: [id, updatedAt], or null for a slot no longer used. */
  convs: Array<[string, string] | null>;
  /** The slot of each document as runs: (slot + 1, length) pairs, 0 for a deleted document. */
  docs: string;
  /** Word, list, word, list… */
  terms: string[];
}

export class HistorySearch {
  private terms = new Map<string, number[] | string>();
  /** The words in order (a prefix's words are next to each other), made again after a new word. */
  private sorted: string[] | undefined;
  /** The conversation slot of each document; -1 once the message is gone. */
  private docSlot: number[] = [];
  private slots: Array<string | undefined> = [];
  private convs = new Map<string, Indexed>();
  private dead = 0;
  private changed = false;
  /** Changes asked for while the index is being written or compacted (made once it is). */
  private held: Array<() => void> | undefined;

  static empty(): HistorySearch {
    return new HistorySearch();
  }

  /** Loads a persisted index; an unreadable or older one gives an empty index (rebuilt by catching up). */
  static load(json: string | undefined): HistorySearch {
    const data = HistorySearch.parse(json);
    return (data && HistorySearch.from(data)) ?? HistorySearch.empty();
  }

  /** Same as load() (parsing is the whole of it; kept for callers that await it). */
  static async loadAsync(json: string | undefined): Promise<HistorySearch> {
    await Promise.resolve();
    return HistorySearch.load(json);
  }

  private static parse(json: string | undefined): Persisted | undefined {
    if (!json) return undefined;
    try {
      const data = JSON.parse(json) as Partial<Persisted> | null;
      if (!data || data.version !== SEARCH_INDEX_VERSION || !Array.isArray(data.convs) || typeof data.docs !== 'string' || !Array.isArray(data.terms)) return undefined;
      return data as Persisted;
    } catch {
      return undefined;
    }
  }

  private static from(data: Persisted): HistorySearch | undefined {
    const s = new HistorySearch();
    const runs = decodeList(data.docs, false);
    if (!runs || runs.length % 2) return undefined;
    for (let i = 0; i < runs.length; i += 2) {
      const slot = runs[i] - 1;
      for (let k = 0; k < runs[i + 1]; k++) s.docSlot.push(slot);
    }
    for (const [i, c] of data.convs.entries()) {
      if (c === null) {
        s.slots.push(undefined);
        continue;
      }
      if (!Array.isArray(c) || typeof c[0] !== 'string' || typeof c[1] !== 'string') return undefined;
      s.slots.push(c[0]);
      s.convs.set(c[0], { slot: i, updatedAt: c[1], docs: [] });
    }
    for (let d = 0; d < s.docSlot.length; d++) {
      const slot = s.docSlot[d];
      const id = slot >= 0 ? s.slots[slot] : undefined;
      const conv = id === undefined ? undefined : s.convs.get(id);
      if (conv) conv.docs.push(d);
      else if (slot >= 0) return undefined;
      else s.dead++;
    }
    for (let i = 0; i + 1 < data.terms.length; i += 2) {
      const [term, list] = [data.terms[i], data.terms[i + 1]];
      if (typeof term !== 'string' || typeof list !== 'string') return undefined;
      s.terms.set(term, list);
    }
    return s;
  }

  /** How many conversations are indexed. */
  get size(): number {
    return this.convs.size;
  }

  /** Whether a conversation is indexed (as of its `updatedAt`, when given). */
  has(id: string, updatedAt?: string): boolean {
    const known = this.convs.get(id);
    return !!known && (updatedAt === undefined || known.updatedAt === updatedAt);
  }

  /** True when there are changes not yet persisted. */
  get dirty(): boolean {
    return this.changed;
  }

  /** The list of a word as numbers (decoded, and kept so, when it is to be added to). */
  private list(term: string, keep: boolean): number[] | undefined {
    const l = this.terms.get(term);
    if (typeof l !== 'string') return l;
    const decoded = decodeList(l) ?? [];
    if (keep) this.terms.set(term, decoded);
    return decoded;
  }

  /**
   * Drops the words of removed and replaced messages from the index itself (until then they are
   * only hidden from results): done before the index is persisted, so a deleted conversation's
   * words do not stay on disk. Documents are numbered again without gaps, in the same order.
   */
  async compact(sliceMs = 8): Promise<void> {
    if (this.dead === 0) return;
    const own = !this.held;
    this.held ??= [];
    try {
      const renumber = new Int32Array(this.docSlot.length);
      const docSlot: number[] = [];
      for (let d = 0; d < this.docSlot.length; d++) {
        renumber[d] = this.docSlot[d] < 0 ? -1 : docSlot.length;
        if (this.docSlot[d] >= 0) docSlot.push(this.docSlot[d]);
      }
      const terms = new Map<string, number[] | string>();
      let slice = Date.now();
      for (const [term, l] of this.terms) {
        const list = typeof l === 'string' ? (decodeList(l) ?? []) : l;
        const kept: number[] = [];
        for (const d of list) if (renumber[d] >= 0) kept.push(renumber[d]);
        if (kept.length) terms.set(term, typeof l === 'string' ? encodeList(kept) : kept);
        if (Date.now() - slice > sliceMs) {
          await yieldTurn();
          slice = Date.now();
        }
      }
      this.terms = terms;
      this.sorted = undefined;
      this.docSlot = docSlot;
      for (const c of this.convs.values()) c.docs = c.docs.map((d) => renumber[d]);
      this.dead = 0;
      this.changed = true;
    } finally {
      if (own) this.release();
    }
  }

  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const change of held) change();
  }

  toJSON(): string {
    const parts: string[] = [];
    for (const _ of this.serialize(parts));
    return parts.join('');
  }

  /**
   * The persisted text, a piece at a time (a pause after each yield). Lists held as arrays are
   * written out and kept as their compact text from then on.
   */
  private *serialize(parts: string[]): Generator<void> {
    this.changed = false;
    const convs: Persisted['convs'] = this.slots.map((id) => {
      const c = id === undefined ? undefined : this.convs.get(id);
      return id === undefined || !c ? null : [id, c.updatedAt];
    });
    const runs: number[] = [];
    for (let d = 0; d < this.docSlot.length; ) {
      const slot = this.docSlot[d];
      let end = d;
      while (end < this.docSlot.length && this.docSlot[end] === slot) end++;
      runs.push(slot + 1, end - d);
      d = end;
    }
    parts.push(`{"version":${SEARCH_INDEX_VERSION},"convs":${JSON.stringify(convs)},"docs":${JSON.stringify(encodeList(runs, false))},"terms":[`);
    yield;
    let first = true;
    for (const [term, l] of this.terms) {
      const text = typeof l === 'string' ? l : encodeList(l);
      if (typeof l !== 'string') this.terms.set(term, text);
      parts.push(`${first ? '' : ','}${JSON.stringify(term)},"${text}"`);
      first = false;
      // (The caller looks at the clock here: a long list is a few milliseconds.)
      if (typeof l !== 'string') yield;
    }
    parts.push(']}');
  }

  /**
   * The same text as toJSON(), written a few milliseconds at a time with a turn of the event loop
   * in between. Changes asked for meanwhile are held, and made once the text is taken.
   */
  async toJSONAsync(sliceMs = 8): Promise<string> {
    const own = !this.held;
    this.held ??= [];
    try {
      const parts: string[] = [];
      let slice = Date.now();
      for (const _ of this.serialize(parts)) {
        if (Date.now() - slice < sliceMs) continue;
        await yieldTurn();
        slice = Date.now();
      }
      return parts.join('');
    } finally {
      if (own) this.release();
    }
  }

  /** The conversations whose indexed state differs from the history index (to read and re-index). */
  stale(entries: Iterable<ConversationSummary>): { outdated: string[]; removed: string[] } {
    const outdated: string[] = [];
    const live = new Set<string>();
    for (const e of entries) {
      live.add(e.id);
      if (this.convs.get(e.id)?.updatedAt !== e.updatedAt) outdated.push(e.id);
    }
    const removed = [...this.convs.keys()].filter((id) => !live.has(id));
    return { outdated, removed };
  }

  /**
   * Brings one conversation up to date. `from` is the number of leading messages known to be
   * unchanged since the last update (new messages appended after them); the messages after
   * them are indexed again. A reply still streaming is left for its final state.
   */
  update(conv: Conversation, from = 0): void {
    if (this.held) {
      // Made later, in full: the messages may have changed by then.
      this.held.push(() => this.update(conv));
      return;
    }
    // Every variant of a reply is found, the ones not shown too.
    const final = storedMessages(conv).filter((m) => m.status !== 'streaming');
    let known = this.convs.get(conv.id);
    if (!known) {
      known = { slot: this.slots.length, updatedAt: conv.updatedAt, docs: [] };
      this.slots.push(conv.id);
      this.convs.set(conv.id, known);
    }
    const start = Math.max(0, Math.min(from, known.docs.length, final.length));
    for (const d of known.docs.splice(start)) this.kill(d);
    for (let i = start; i < final.length; i++) {
      const doc = this.docSlot.length;
      this.docSlot.push(known.slot);
      known.docs.push(doc);
      for (const w of words(final[i].content)) {
        const list = this.list(w, true);
        if (list) list.push(doc);
        else {
          this.terms.set(w, [doc]);
          this.sorted = undefined;
        }
      }
    }
    known.updatedAt = conv.updatedAt;
    this.changed = true;
  }

  private kill(doc: number): void {
    if (this.docSlot[doc] >= 0) {
      this.docSlot[doc] = -1;
      this.dead++;
    }
  }

  remove(id: string): void {
    if (this.held) {
      this.held.push(() => this.remove(id));
      return;
    }
    const known = this.convs.get(id);
    if (!known) return;
    for (const d of known.docs) this.kill(d);
    this.convs.delete(id);
    this.slots[known.slot] = undefined;
    this.changed = true;
  }

  /**
   * Conversations with a message containing every word of the query (each word also as the start
   * of a longer one), best first: rarer words and whole words count more; ties go to the newest.
   */
  search(query: string, limit = 100): SearchHit[] {
    const asked = words(query);
    if (!asked.length) return [];
    const n = this.docSlot.length;
    const live = n - this.dead;
    let total: Float64Array | undefined;
    let candidates: number[] = [];
    const sorted = (this.sorted ??= [...this.terms.keys()].sort());
    for (const w of asked) {
      const score = new Float32Array(n);
      for (let i = firstAtLeast(sorted, w); i < sorted.length && sorted[i].startsWith(w); i++) {
        const term = sorted[i];
        const list = this.list(term, false) ?? [];
        const weight = (term.length === w.length ? 1 : 0.5) * Math.log(1 + live / (list.length + 0.5));
        for (const d of list) if (score[d] < weight) score[d] = weight;
      }
      if (!total) {
        total = new Float64Array(n);
        for (let d = 0; d < n; d++) {
          if (score[d] > 0 && this.docSlot[d] >= 0) {
            candidates.push(d);
            total[d] = score[d];
          }
        }
      } else {
        const t = total;
        candidates = candidates.filter((d) => score[d] > 0);
        for (const d of candidates) t[d] += score[d];
      }
      if (!candidates.length) return [];
    }
    const byConv = new Map<string, SearchHit>();
    for (const d of candidates) {
      const id = this.slots[this.docSlot[d]];
      if (id === undefined) continue;
      const s = (total as Float64Array)[d];
      const hit = byConv.get(id);
      if (hit) {
        hit.matches++;
        hit.score = Math.max(hit.score, s);
      } else byConv.set(id, { id, score: s, matches: 1 });
    }
    const newer = (a: SearchHit, b: SearchHit) => (this.convs.get(b.id)?.updatedAt ?? '').localeCompare(this.convs.get(a.id)?.updatedAt ?? '');
    return [...byConv.values()].sort((a, b) => b.score - a.score || newer(a, b)).slice(0, limit);
  }
}

/** The index of the first string in `sorted` that is not before `s`. */
function firstAtLeast(sorted: readonly string[], s: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
