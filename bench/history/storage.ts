// Storage and History benchmark: generated conversations written to a temporary folder through
// the real file storage, then
//   list1000Ms      History listing of 1,000 saved conversations (a fresh store each time: the
//                   index file is read and parsed; median of 7)
//   search10k*      full-text search over 10,000 messages, 100 queries of one or two words
//                   taken from the generated text (p50, p95)
//   hostMsPerTurn   host time the storage takes per turn at 300 turns (8 KB replies): the four
//                   saves of a turn (start, two partial saves while streaming, end), median of 30 turns;
//                   beside it, the same four saves the 0.1.0 way (deep copy + rewrite of the whole file)
// Run alone: npx tsx bench/history/storage.ts
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendMessage, createConversation, encodeLog, type Conversation } from '../../src/core';
import { FileConversationStorage } from '../../src/extension/platform/conversationFiles';
import { rng, vocabulary, zipfText } from './words';
import { WindowStore } from '../../test/support/windowStore';

export interface StorageFigures {
  list1000Ms: number;
  search10kP50Ms: number;
  search10kP95Ms: number;
  hostMsPerTurn: number;
  /** The same turns saved the 0.1.0 way, for comparison. */
  hostMsPerTurnRewrite: number;
  /** Building the full-text index from the 1,000 logs (the first History after the upgrade). */
  searchBuildMs: number;
  /** Loading the persisted full-text index (the first History of a window). */
  searchLoadMs: number;
  /** Size of the persisted full-text index. */
  searchIndexKB: number;
}

const text = (words: string[], rand: () => number, chars: number) => zipfText(words, rand, chars, 0.08);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const round = (n: number) => Math.round(n * 100) / 100;

/** Writes `count` conversations of `turns` turns straight as logs (the format a store writes). */
async function seed(dir: string, count: number, turns: number, replyChars: number, words: string[], rand: () => number): Promise<void> {
  const storage = new FileConversationStorage(dir);
  await storage.listLogs(); // creates the folder
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let c = 0; c < count; c++) {
    const conv = createConversation(`bench-${c}`, new Date(base + c * 60_000));
    for (let t = 0; t < turns; t++) {
      const at = new Date(base + c * 60_000 + t * 1000);
      appendMessage(conv, 'user', text(words, rand, 80), at);
      appendMessage(conv, 'assistant', text(words, rand, replyChars), at, { meta: { model: 'swift-chat', credits: 1 } });
    }
    await storage.rewriteLog(conv.id, encodeLog(conv, conv.messages.map((_, i) => `b.${i}`)));
  }
}

export async function measureStorage(): Promise<StorageFigures> {
  const rand = rng(10);
  const words = vocabulary(3000, rand);
  const root = await mkdtemp(join(tmpdir(), 'ai-chat-bench-history-'));
  try {
    // 1,000 conversations of 5 turns: 10,000 messages (replies of about 600 characters).
    const dir = join(root, 'history');
    await seed(dir, 1000, 5, 600, words, rand);
    // Builds the history index once (in the background above 100 conversations: waited for here);
    // the full-text index it fed on the way is dropped, to be built and timed below.
    const builder = new WindowStore(new FileConversationStorage(dir));
    await builder.catchUpSearch();
    await builder.flush();
    await rm(join(dir, 'conversations', '_search.json'), { force: true });
    const listTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const store = new WindowStore(new FileConversationStorage(dir));
      const t0 = performance.now();
      const list = await store.list();
      listTimes.push(performance.now() - t0);
      if (list.length !== 1000) throw new Error(`listed ${list.length} conversations, expected 1000`);
    }

    const store = new WindowStore(new FileConversationStorage(dir));
    let t0 = performance.now();
    await store.catchUpSearch();
    const searchBuildMs = performance.now() - t0;
    await store.flush();
    const searchIndexKB = (await stat(join(dir, 'conversations', '_search.json'))).size / 1024;
    // Queries: one or two words of the text, rarer words too (they are what users look for).
    const searchTimes: number[] = [];
    let found = 0;
    const searcher = new WindowStore(new FileConversationStorage(dir));
    t0 = performance.now();
    const reread = await searcher.catchUpSearch(); // loads the persisted index (nothing to re-read)
    const searchLoadMs = performance.now() - t0;
    if (reread !== 0) throw new Error(`${reread} conversations re-read after loading the persisted index`);
    for (let q = 0; q < 100; q++) {
      const a = words[Math.floor(words.length * rand() ** 2)];
      const query = q % 2 ? `${a} ${words[Math.floor(words.length * rand() ** 3)]}` : a;
      t0 = performance.now();
      const hits = await searcher.search(query);
      searchTimes.push(performance.now() - t0);
      if (hits.length) found++;
    }
    if (found < 50) throw new Error(`only ${found} of 100 queries found something`);

    // A 300-turn conversation with 8 KB replies, then 30 more turns saved as the chat saves them.
    const long = join(root, 'long');
    const reply = text(words, rand, 8000);
    const turnStore = new WindowStore(new FileConversationStorage(long));
    await turnStore.catchUpSearch();
    const conv = turnStore.current;
    for (let t = 0; t < 300; t++) {
      appendMessage(conv, 'user', `question ${t}`);
      appendMessage(conv, 'assistant', reply, new Date(), { meta: { model: 'swift-chat' } });
    }
    await turnStore.save();
    const turnTimes: number[] = [];
    const rewriteTimes: number[] = [];
    const rewriteFile = join(long, 'rewrite.json');
    const rewrite = async (c: Conversation) => {
      const snapshot = JSON.parse(JSON.stringify(c)) as Conversation;
      const tmp = `${rewriteFile}.tmp`;
      await writeFile(tmp, JSON.stringify(snapshot));
      await rename(tmp, rewriteFile);
    };
    for (let t = 0; t < 30; t++) {
      appendMessage(conv, 'user', `question ${300 + t}`);
      const r = appendMessage(conv, 'assistant', '', new Date(), { status: 'streaming' });
      const steps = [
        () => undefined,
        () => (r.content = reply.slice(0, 3000)),
        () => (r.content = reply.slice(0, 6000)),
        () => {
          r.content = reply;
          r.status = 'complete';
        },
      ];
      let ours = 0;
      let old = 0;
      for (const step of steps) {
        step();
        let t0 = performance.now();
        await turnStore.save(conv);
        ours += performance.now() - t0;
        t0 = performance.now();
        await rewrite(conv);
        old += performance.now() - t0;
      }
      turnTimes.push(ours);
      rewriteTimes.push(old);
    }
    await turnStore.flush();

    return {
      list1000Ms: round(median(listTimes)),
      search10kP50Ms: round(percentile(searchTimes, 50)),
      search10kP95Ms: round(percentile(searchTimes, 95)),
      hostMsPerTurn: round(median(turnTimes)),
      hostMsPerTurnRewrite: round(median(rewriteTimes)),
      searchBuildMs: round(searchBuildMs),
      searchLoadMs: round(searchLoadMs),
      searchIndexKB: Math.round(searchIndexKB),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void measureStorage().then(
    (f) => {
      console.log('History listing, 1,000 conversations (index read, median of 7):', f.list1000Ms, 'ms');
      console.log('Full-text search, 10,000 messages, 100 queries: p50', f.search10kP50Ms, 'ms, p95', f.search10kP95Ms, 'ms');
      console.log('Full-text index: built from 1,000 logs in', f.searchBuildMs, 'ms; persisted', f.searchIndexKB, 'KB, loaded in', f.searchLoadMs, 'ms');
      console.log('Host time per turn at 300 turns (4 saves):', f.hostMsPerTurn, 'ms; whole-file rewrite as in 0.1.0:', f.hostMsPerTurnRewrite, 'ms');
      console.log(
        `storage: list1000Ms=${f.list1000Ms} search10kP50Ms=${f.search10kP50Ms} search10kP95Ms=${f.search10kP95Ms} hostMsPerTurn=${f.hostMsPerTurn} hostMsPerTurnRewrite=${f.hostMsPerTurnRewrite}`,
      );
    },
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
