// Full-text search over every message of every saved conversation (MiniSearch), updated per
// turn and persisted beside the conversations.
import MiniSearch from 'minisearch';
import type { Conversation, ConversationSummary } from '../chat/conversation';

export const SEARCH_INDEX_VERSION = 1;

interface Doc {
  id: string;
  conv: string;
  text: string;
}

export interface SearchHit {
  id: string;
  score: number;
  /** How many messages of the conversation match. */
  matches: number;
}

/** What has been indexed of each conversation: its last change and how many messages. */
type Indexed = Record<string, { updatedAt: string; count: number }>;

/** Gives the event loop a turn (timers, I/O, the user's keystrokes) in the middle of long work. */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const OPTIONS = {
  fields: ['text'],
  storeFields: ['conv'],
  searchOptions: { prefix: true, combineWith: 'AND' as const },
};

export class HistorySearch {
  private mini: MiniSearch<Doc>;
  private indexed: Indexed;
  private changed = false;

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
   * The same text as toJSON(), written a chunk of terms at a time with a turn of the event loop
   * between chunks (a large index would otherwise hold the extension host for seconds).
   */
  async toJSONAsync(chunk = 5000): Promise<string> {
    this.changed = false;
    const { index, ...rest } = this.mini.toJSON();
    const head = JSON.stringify({ version: SEARCH_INDEX_VERSION, indexed: this.indexed });
    const parts: string[] = [head.slice(0, -1), ',"index":', JSON.stringify(rest).slice(0, -1), ',"index":['];
    for (let i = 0; i < index.length; i += chunk) {
      if (i > 0) {
        parts.push(',');
        await yieldTurn();
      }
      parts.push(JSON.stringify(index.slice(i, i + chunk)).slice(1, -1));
    }
    parts.push(']}}');
    return parts.join('');
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
    const final = conv.messages.filter((m) => m.status !== 'streaming');
    const known = this.indexed[conv.id];
    let start = 0;
    if (known && from >= known.count && final.length >= known.count) start = known.count;
    else if (known) this.discard(conv.id);
    for (let i = start; i < final.length; i++) {
      if (final[i].content) this.mini.add({ id: `${conv.id}#${i}`, conv: conv.id, text: final[i].content });
    }
    this.indexed[conv.id] = { updatedAt: conv.updatedAt, count: final.length };
    this.changed = true;
  }

  remove(id: string): void {
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
      const conv = r.conv as string;
      const hit = byConv.get(conv);
      if (hit) {
        hit.matches++;
        hit.score = Math.max(hit.score, r.score);
      } else byConv.set(conv, { id: conv, score: r.score, matches: 1 });
    }
    return [...byConv.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
