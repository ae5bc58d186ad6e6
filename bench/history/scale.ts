/**
 * `npm run bench:history:scale -- --conversations 10000 [--turns 1000] [--each 4]`: History at the
 * size of a year of use. N conversations (`--each` turns each, one of them `--turns` turns) are
 * written into a temporary folder through the real file storage, then, in one run:
 *
 *   first page, no index      a new store lists History when the history index is missing (first
 *                             start after an upgrade from 0.1.0): open to the first 50 items
 *   first page, index         the same with the history index on disk (every later open)
 *   first page, while building / while saving   the same while the full-text index is built
 *                             (half way), and while it is written to disk
 *   search build              the full-text index built from every log (no persisted index)
 *   found while building      a phrase of a conversation already indexed, searched half way
 *                             through the build (what History shows while it says "Indexing…")
 *   search p95                a phrase inside one conversation, once the index is built (p95 of 20)
 *   search load               a new store loading the persisted full-text index, to its first result
 *   heap                      heap used with the index built, over the same process before seeding;
 *                             and with the persisted index loaded (a later window)
 *   upgrade from 0.1.0        the same conversations as 0.1.0 files (one JSON file each, the
 *                             current one recorded): the current conversation opened by a new store
 *                             as the chat does, History's first page, and the whole upgrade (every
 *                             file brought in, both indexes built) in the background
 *
 * Figures only: nothing here asserts a time. Run with `--expose-gc` (the npm script does) for
 * steadier heap figures.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendMessage, ConversationStore, createConversation, encodeLog } from '../../src/core';
import { FileConversationStorage } from '../../src/extension/platform/conversationFiles';
import { rng, vocabulary, zipfText } from './words';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

const text = zipfText;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** The phrase a user remembers from conversation `c` (each user message of it holds one). */
const phrase = (c: number, t: number) => `how do I do thing ${c}x${t}?`;
const query = (c: number) => `thing ${c}x1`;

async function seed(dir: string, count: number, each: number, longTurns: number, rand: () => number, words: string[]): Promise<void> {
  const storage = new FileConversationStorage(dir);
  await storage.listLogs();
  const base = Date.parse('2025-11-01T00:00:00Z');
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const c = next++;
      const turns = c === 0 && longTurns > 0 ? longTurns : each;
      const conv = createConversation(`scale-${c}`, new Date(base + c * 60_000));
      for (let t = 0; t < turns; t++) {
        const at = new Date(base + c * 60_000 + t * 1000);
        appendMessage(conv, 'user', `${phrase(c, t)} ${text(words, rand, 60)}`, at);
        appendMessage(conv, 'assistant', text(words, rand, 500), at, { meta: { model: 'swift-chat', credits: 1 } });
      }
      await storage.rewriteLog(conv.id, encodeLog(conv, conv.messages.map((_, i) => `b.${i}`)));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** The conversations as 0.1.0 saved them: conversations/<id>.json, and the current one named in conversations/current-conversation. */
async function seedLegacy(dir: string, count: number, each: number, longTurns: number, rand: () => number, words: string[]): Promise<void> {
  const folder = join(dir, 'conversations');
  await mkdir(folder, { recursive: true });
  const base = Date.parse('2025-11-01T00:00:00Z');
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const c = next++;
      const turns = c === 0 && longTurns > 0 ? longTurns : each;
      const conv = createConversation(`legacy-${c}`, new Date(base + c * 60_000));
      for (let t = 0; t < turns; t++) {
        const at = new Date(base + c * 60_000 + t * 1000);
        appendMessage(conv, 'user', `${phrase(c, t)} ${text(words, rand, 60)}`, at);
        appendMessage(conv, 'assistant', text(words, rand, 500), at, { meta: { model: 'swift-chat', credits: 1 } });
      }
      await writeFile(join(folder, `${conv.id}.json`), JSON.stringify(conv));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  // The 1,000-turn conversation was the current one.
  await writeFile(join(folder, 'current-conversation'), 'legacy-0');
}

async function upgrade(dir: string, count: number): Promise<{ openMs: number; turns: number; pageMs: number; listed: number; indexedMs: number; wholeMs: number; found: boolean }> {
  const t0 = performance.now();
  const store = new ConversationStore(new FileConversationStorage(dir));
  // What the extension does when the chat is built: the upgrade in the background, the current conversation opened at once.
  let indexedMs = 0;
  const whole = (async () => {
    await store.pendingUpgrade();
    await store.catchUpSearch();
    indexedMs = performance.now() - t0;
    await store.finishUpgrade();
    return performance.now() - t0;
  })();
  const id = await store.lastOpenedId();
  const conv = id ? await store.open(id) : undefined;
  const openMs = performance.now() - t0;
  const p0 = performance.now();
  const page = (await store.list()).slice(0, 50);
  const pageMs = performance.now() - p0;
  const wholeMs = await whole;
  const hits = await store.search(query(count - 1));
  return { openMs, turns: (conv?.messages.length ?? 0) / 2, pageMs, listed: page.length, indexedMs, wholeMs, found: hits.some((h) => h.id === `legacy-${count - 1}`) };
}

async function firstPage(dir: string): Promise<{ ms: number; count: number; store: ConversationStore }> {
  const t0 = performance.now();
  const store = new ConversationStore(new FileConversationStorage(dir));
  const list = await store.list();
  const page = list.slice(0, 50).map((c) => `${c.title} · ${c.messageCount} · ${c.firstLine}`);
  const elapsed = performance.now() - t0;
  if (page.length === 0) throw new Error('History listed nothing');
  return { ms: elapsed, count: list.length, store };
}

async function main(): Promise<void> {
  const count = arg('conversations', 3000);
  const longTurns = arg('turns', 1000);
  const each = arg('each', 4);
  const heap0 = heapUsed();
  const rand = rng(33);
  const words = vocabulary(3000, rand);
  const root = await mkdtemp(join(tmpdir(), 'ai-chat-bench-scale-'));
  try {
    const dir = join(root, 'global');
    let t0 = performance.now();
    await seed(dir, count, each, longTurns, rand, words);
    console.log(`Seeded ${count} conversations (${each} turns each, one of ${longTurns}) in ${ms(performance.now() - t0)}`);

    const { rebuildMs, noIndex } = await (async () => {
      const page = await firstPage(dir);
      // The rest of the history index is rebuilt in the background (both indexes from one reading).
      const r0 = performance.now();
      await page.store.catchUpSearch();
      await page.store.flush();
      return { rebuildMs: performance.now() - r0 + page.ms, noIndex: { ms: page.ms, count: page.count } };
    })();
    const withIndex = await firstPage(dir);
    await rm(join(dir, 'conversations', '_search.json'));

    // The full-text index built from the logs, with a search half way through.
    const store = new ConversationStore(new FileConversationStorage(dir), { searchPersistDelayMs: 60_000 });
    let foundWhileBuilding: string = 'not tried';
    let halfway: Promise<void> | undefined;
    let pageWhileBuilding: Promise<{ ms: number; count: number }> | undefined;
    t0 = performance.now();
    await store.catchUpSearch((done, total) => {
      if (total > 0 && done === Math.floor(total / 2) && !halfway) {
        // The newest conversations are indexed first: one of them is certainly indexed by now.
        pageWhileBuilding = firstPage(dir);
        const c = count - 1;
        halfway = store.search(query(c)).then((hits) => {
          foundWhileBuilding = hits.some((h) => h.id === `scale-${c}`) ? `found (${done} of ${total} indexed)` : `NOT found (${done} of ${total} indexed)`;
        });
      }
    });
    const buildMs = performance.now() - t0;
    await halfway;
    const whileBuilding = await pageWhileBuilding;
    const heapBuilt = heapUsed();

    const searchTimes: number[] = [];
    let found = 0;
    for (let i = 0; i < 20; i++) {
      const c = Math.floor(rand() * count);
      const s0 = performance.now();
      const hits = await store.search(query(c));
      searchTimes.push(performance.now() - s0);
      if (hits[0]?.id === `scale-${c}` || hits.some((h) => h.id === `scale-${c}`)) found++;
    }
    const longStart = performance.now();
    const longHits = await store.search(query(0));
    const longMs = performance.now() - longStart;

    // Persisting the index, with History opened in another store meanwhile.
    t0 = performance.now();
    const persisted = store.flush();
    const whileSaving = await firstPage(dir);
    await persisted;
    const persistMs = performance.now() - t0;
    const indexBytes = (await stat(join(dir, 'conversations', '_search.json'))).size;

    t0 = performance.now();
    const fresh = new ConversationStore(new FileConversationStorage(dir));
    await fresh.catchUpSearch();
    const loaded = await fresh.search(query(count - 2));
    const loadMs = performance.now() - t0;
    const heapLoaded = heapUsed();

    const legacyDir = join(root, 'legacy');
    t0 = performance.now();
    await seedLegacy(legacyDir, count, each, longTurns, rand, words);
    console.log(`Seeded ${count} conversations as 0.1.0 files in ${ms(performance.now() - t0)}`);
    const up = await upgrade(legacyDir, count);

    console.log('');
    console.log(`History at ${count} conversations (goal in brackets):`);
    console.log(`  first page, no history index (after a crash): ${ms(noIndex.ms)}, ${noIndex.count} listed so far (<= 300); both indexes rebuilt in the background in ${ms(rebuildMs)}`);
    console.log(`  first page, history index on disk: ${ms(withIndex.ms)} (<= 300)`);
    console.log(`  first page, while the full-text index is built (half way): ${whileBuilding ? ms(whileBuilding.ms) : 'not measured'} (<= 300)`);
    console.log(`  first page, while the full-text index is written: ${ms(whileSaving.ms)} (<= 300)`);
    console.log(`  full-text index built from every log: ${ms(buildMs)}; a phrase of an indexed conversation half way: ${foundWhileBuilding}`);
    console.log(`  search for a phrase inside one conversation, built index: p50 ${ms(percentile(searchTimes, 50))}, p95 ${ms(percentile(searchTimes, 95))}, found ${found} of 20 (p95 <= 100)`);
    console.log(`  search in the ${longTurns}-turn conversation: ${ms(longMs)}, ${longHits[0]?.matches ?? 0} matching messages`);
    console.log(`  full-text index persisted: ${mb(indexBytes)} in ${ms(persistMs)}; loaded by a new store to its first result: ${ms(loadMs)} (${loaded.length} hits)`);
    console.log(`  heap used with the index built: ${mb(heapBuilt - heap0)} over the empty process (<= 150 MB)${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for a steadier figure)'}`);
    console.log(`  heap used with a second store's persisted index loaded as well: ${mb(heapLoaded - heap0)} over the empty process`);
    console.log(`  upgrade from 0.1.0 files: the current conversation (${up.turns} turns) opened in ${ms(up.openMs)} (<= 1000); History's first page ${ms(up.pageMs)}, ${up.listed} listed (<= 300)`);
    console.log(`  upgrade from 0.1.0 files, in the background: both indexes built in ${ms(up.indexedMs)}, every file brought in by ${ms(up.wholeMs)}; the newest conversation found by a phrase: ${up.found ? 'yes' : 'NO'}`);
    console.log(
      `scale: conversations=${count} firstPageNoIndexMs=${noIndex.ms.toFixed(0)} firstPageMs=${withIndex.ms.toFixed(0)} firstPageWhileSavingMs=${whileSaving.ms.toFixed(0)} ` +
        `searchBuildMs=${buildMs.toFixed(0)} searchP95Ms=${percentile(searchTimes, 95).toFixed(1)} searchLoadMs=${loadMs.toFixed(0)} heapMB=${((heapBuilt - heap0) / 2 ** 20).toFixed(0)} ` +
        `upgradeOpenMs=${up.openMs.toFixed(0)} upgradeFirstPageMs=${up.pageMs.toFixed(0)} upgradeIndexedMs=${up.indexedMs.toFixed(0)} upgradeWholeMs=${up.wholeMs.toFixed(0)}`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
