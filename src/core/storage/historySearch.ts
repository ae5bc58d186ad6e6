// Full-text search over every message of every saved conversation (MiniSearch), updated per
// turn and persisted beside the conversations.
import MiniSearch from 'minisearch';
import type { Conversation, ConversationSummary } from '../chat/conversation';

export const SEARCH_INDEX_VERSION = 1;

/** One message: its id is `<conversation id>#<index>` (the conversation is not stored apart, to keep the index small). */
interface Doc {
  id: string;
  text: string;
}

const convOf = (docId: string) => docId.slice(0, docId.lastIndexOf('#'));

export interface SearchHit {
  id: string;
  score: number;
  /** How many messages of the conversation match. */
  matches: number;
}

/** MiniSearch's own state, read a piece at a time to write the index without holding the event loop (see toJSONAsync). */
interface MiniInternals {
  _index: Iterable<[string, Map<number, Map<number, number>>]>;
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, string>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, Record<string, unknown>>;
  _dirtCount: number;
}

/** What has been indexed of each conversation: its last change and how many messages. */
type Indexed = Record<string, { updatedAt: string; count: number }>;

/** Gives the event loop a turn (timers, I/O, the user's keystrokes) in the middle of long work. */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const OPTIONS = {
  fields: ['text'],
  searchOptions: { prefix: true, combineWith: 'AND' as const },
};

export class HistorySearch {
  private mini: MiniSearch<Doc>;
  private indexed: Indexed;
  private changed = false;
  /** Changes asked for while the index is being written (made once it is). */
  private held: Array<() => void> | undefined;

  private constructor(mini: MiniSearch<Doc>, indexed: Indexed) {
    this.mini = mini;
    this.indexed = indexed;
  }

  static empty(): HistorySearch {
    return new HistorySearch(new MiniSearch<Doc>(OPTIONS), {});
  }

  /** Loads a persisted index; an unreadable or older one gives an empty index (rebuilt by catching up). */
  static load(json: string | undefined): HistorySearch {
    const data = HistorySearch.parse(json);
    if (!data) return HistorySearch.empty();
    try {
      return new HistorySearch(MiniSearch.loadJS<Doc>(data.index, OPTIONS), data.indexed);
    } catch {
      return HistorySearch.empty();
    }
  }

  /** Same as load(), giving the event loop a turn between chunks of a large index. */
  static async loadAsync(json: string | undefined): Promise<HistorySearch> {
    const data = HistorySearch.parse(json);
    if (!data) return HistorySearch.empty();
    try {
      return new HistorySearch(await MiniSearch.loadJSAsync<Doc>(data.index, OPTIONS), data.indexed);
    } catch {
      return HistorySearch.empty();
    }
  }

  private static parse(json: string | undefined): { indexed: Indexed; index: Parameters<typeof MiniSearch.loadJS>[0] } | undefined {
    if (!json) return undefined;
    try {
      const data = JSON.parse(json) as { version?: unknown; indexed?: unknown; index?: unknown };
      if (data.version !== SEARCH_INDEX_VERSION || !data.indexed || typeof data.indexed !== 'object' || !data.index || typeof data.index !== 'object') return undefined;
      return data as { indexed: Indexed; index: Parameters<typeof MiniSearch.loadJS>[0] };
    } catch {
      return undefined;
    }
  }

  /** How many conversations are indexed. */
  get size(): number {
    return Object.keys(this.indexed).length;
  }

  /** Whether a conversation is indexed (as of its `updatedAt`, when given). */
  has(id: string, updatedAt?: string): boolean {
    const known = this.indexed[id];
    return !!known && (updatedAt === undefined || known.updatedAt === updatedAt);
  }

  /** True when there are changes not yet persisted. */
  get dirty(): boolean {
    return this.changed;
  }

  /**
   * Drops the words of removed and replaced messages from the index itself (a discard only hides
   * them from results): done before the index is persisted, so a deleted conversation's words
   * do not stay on disk.
   */
  async compact(): Promise<void> {
    if (this.mini.dirtCount > 0) await this.mini.vacuum({ batchSize: 10_000, batchWait: 0 });
  }

  toJSON(): string {
    this.changed = false;
    return JSON.stringify({ version: SEARCH_INDEX_VERSION, indexed: this.indexed, index: this.mini });
  }

  /**
   * The same text as toJSON(), written a few milliseconds at a time with a turn of the event loop
   * in between (a large index would otherwise hold the extension host for seconds). Changes
   * asked for meanwhile are held, and made once the text is taken.
   */
  async toJSONAsync(sliceMs = 8): Promise<string> {
    this.changed = false;
    this.held = [];
    try {
      const mini = this.mini as unknown as Partial<MiniInternals>;
      if (!(mini._index && mini._documentIds instanceof Map && mini._fieldLength instanceof Map && mini._storedFields instanceof Map)) return this.toJSON();
      const parts: string[] = [];
      let slice = Date.now();
      const pause = async () => {
        if (Date.now() - slice < sliceMs) return;
        await yieldTurn();
        slice = Date.now();
      };
      const head = JSON.stringify({ version: SEARCH_INDEX_VERSION, indexed: this.indexed });
      parts.push(head.slice(0, -1), ',"index":{');
      parts.push(`"documentCount":${JSON.stringify(mini._documentCount)},"nextId":${JSON.stringify(mini._nextId)}`);
      await pause();
      parts.push(`,"documentIds":${JSON.stringify(Object.fromEntries(mini._documentIds))}`);
      await pause();
      parts.push(`,"fieldIds":${JSON.stringify(mini._fieldIds)},"fieldLength":${JSON.stringify(Object.fromEntries(mini._fieldLength))}`);
      await pause();
      parts.push(`,"averageFieldLength":${JSON.stringify(mini._avgFieldLength)},"storedFields":${JSON.stringify(Object.fromEntries(mini._storedFields))}`);
      parts.push(`,"dirtCount":${JSON.stringify(mini._dirtCount)},"index":[`);
      let first = true;
      for (const [term, fieldIndex] of [...mini._index]) {
        const data: Record<string, Record<string, number>> = {};
        for (const [fieldId, freqs] of fieldIndex) data[fieldId] = Object.fromEntries(freqs);
        parts.push((first ? '' : ',') + JSON.stringify([term, data]));
        first = false;
        await pause();
      }
      parts.push('],"serializationVersion":2}}');
      return parts.join('');
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const change of held) change();
    }
  }

  /** The conversations whose indexed state differs from the history index (to read and re-index). */
  stale(entries: Iterable<ConversationSummary>): { outdated: string[]; removed: string[] } {
    const outdated: string[] = [];
    const live = new Set<string>();
    for (const e of entries) {
      live.add(e.id);
      if (this.indexed[e.id]?.updatedAt !== e.updatedAt) outdated.push(e.id);
    }
    const removed = Object.keys(this.indexed).filter((id) => !live.has(id));
    return { outdated, removed };
  }

  /**
   * Brings one conversation up to date. `from` is the number of leading messages known to be
   * unchanged since the last update (new messages appended after them); anything else
   * re-indexes the conversation. A reply still streaming is left for its final state.
   */
  update(conv: Conversation, from = 0): void {
    if (this.held) {
      // Made later, in full: the messages may have changed by then.
      this.held.push(() => this.update(conv));
      return;
    }
    const final = conv.messages.filter((m) => m.status !== 'streaming');
    const known = this.indexed[conv.id];
    let start = 0;
    if (known && from >= known.count && final.length >= known.count) start = known.count;
    else if (known) this.discard(conv.id);
    for (let i = start; i < final.length; i++) {
      if (final[i].content) this.mini.add({ id: `${conv.id}#${i}`, text: final[i].content });
    }
    this.indexed[conv.id] = { updatedAt: conv.updatedAt, count: final.length };
    this.changed = true;
  }

  remove(id: string): void {
    if (this.held) {
      this.held.push(() => this.remove(id));
      return;
    }
    if (!this.indexed[id]) return;
    this.discard(id);
    delete this.indexed[id];
    this.changed = true;
  }

  private discard(id: string): void {
    const count = this.indexed[id]?.count ?? 0;
    for (let i = 0; i < count; i++) {
      const doc = `${id}#${i}`;
      if (this.mini.has(doc)) this.mini.discard(doc);
    }
  }

  /** Conversations with a message matching every word of the query (words as prefixes), best first. */
  search(query: string, limit = 100): SearchHit[] {
    if (!query.trim()) return [];
    const byConv = new Map<string, SearchHit>();
    for (const r of this.mini.search(query)) {
      const conv = convOf(String(r.id));
      const hit = byConv.get(conv);
      if (hit) {
        hit.matches++;
        hit.score = Math.max(hit.score, r.score);
      } else byConv.set(conv, { id: conv, score: r.score, matches: 1 });
    }
    return [...byConv.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
