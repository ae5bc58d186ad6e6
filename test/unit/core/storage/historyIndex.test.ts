import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendMessage, createConversation, decodeList, encodeList, encodeLog, HistorySearch, indexLine, peekLog, replayIndex, replayIndexPaced, replayLog, summarize, type Conversation, type SearchProgress } from '../../../../src/core';
import { FileConversationStorage } from '../../../../src/extension/platform/conversationFiles';
import { GatedStorage, MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

function conversation(id: string, minute: number, texts: string[]): Conversation {
  const at = new Date(Date.UTC(2026, 0, 1, 0, minute));
  const conv = createConversation(id, at);
  texts.forEach((t, i) => appendMessage(conv, i % 2 ? 'assistant' : 'user', t, at));
  return conv;
}

function seed(storage: MemoryConversationStorage, convs: Conversation[]): void {
  for (const c of convs) storage.data.set(c.id, encodeLog(c, c.messages.map((_, i) => `s.${i}`)));
}

describe('full-text index: incremental, persisted, and searchable while it is built', () => {
  it('adds, appends to, replaces and deletes conversations', () => {
    const search = HistorySearch.empty();
    const a = conversation('a', 1, ['pelican question', 'pelicans have a pouch']);
    search.update(a);
    assert.deepEqual(
      search.search('pouch').map((h) => h.id),
      ['a'],
    );
    appendMessage(a, 'user', 'and herons?');
    search.update(a, 2);
    assert.equal(search.search('herons').length, 1);
    assert.equal(search.search('pelican')[0].matches, 2, 'the first messages are not indexed twice');
    a.messages.splice(1, 2);
    appendMessage(a, 'assistant', 'storks instead');
    search.update(a, 1);
    assert.deepEqual(search.search('pouch'), []);
    assert.deepEqual(search.search('herons'), []);
    assert.equal(search.search('storks').length, 1);
    search.remove('a');
    assert.deepEqual(search.search('storks'), []);
    assert.equal(search.size, 0);
  });

  it('the text written a chunk at a time is the same as written at once, and loads back', async () => {
    const search = HistorySearch.empty();
    for (let i = 0; i < 40; i++) search.update(conversation(`c${i}`, i, [`question ${i} about topic${i}`, `answer ${i} with word${i % 7}`]));
    const whole = search.toJSON();
    const chunked = await search.toJSONAsync(0);
    assert.equal(chunked, whole);
    for (const loaded of [HistorySearch.load(chunked), await HistorySearch.loadAsync(chunked)]) {
      assert.equal(loaded.size, 40);
      assert.deepEqual(
        loaded.search('topic17').map((h) => h.id),
        ['c17'],
      );
      assert.ok(loaded.has('c3', conversation('c3', 3, []).updatedAt));
    }
    assert.equal((await HistorySearch.empty().toJSONAsync()).length > 0, true);
    assert.equal(HistorySearch.load(await HistorySearch.empty().toJSONAsync()).size, 0);
  });

  it('changes asked for while the index is written are held, then made', async () => {
    const search = HistorySearch.empty();
    const a = conversation('a', 1, ['alpha first', 'ok']);
    search.update(a);
    search.update(conversation('gone', 2, ['doomed words', 'ok']));
    const before = search.toJSON();
    const writing = search.toJSONAsync(0);
    appendMessage(a, 'user', 'alpha second');
    search.update(a, 2);
    search.remove('gone');
    search.update(conversation('b', 3, ['beta', 'ok']));
    const text = await writing;
    assert.equal(text, before, 'the text is the index as it was when the write began');
    assert.equal(search.dirty, true, 'the held changes are still to be written');
    assert.equal(search.search('alpha')[0].matches, 2);
    assert.deepEqual(search.search('doomed'), []);
    assert.equal(search.search('beta').length, 1);
    const reloaded = HistorySearch.load(await search.toJSONAsync());
    assert.equal(reloaded.search('second').length, 1);
    assert.deepEqual(reloaded.search('doomed'), []);
  });

  it('a torn or foreign index file gives an empty index, and the store rebuilds it from the logs', async () => {
    for (const torn of ['{"version":1,"indexed":{"a":', '{"version":1,"indexed":[],"index":3}', '{"version":0,"indexed":{},"index":{}}', 'null']) {
      assert.equal((await HistorySearch.loadAsync(torn)).size, 0, torn);
      const storage = new MemoryConversationStorage();
      seed(storage, [conversation('a', 1, ['where is thing 217', 'here']), conversation('b', 2, ['something else', 'ok'])]);
      storage.searchIndex = torn;
      const store = new WindowStore(storage, { searchPersistDelayMs: 1 });
      assert.equal(await store.catchUpSearch(), 2);
      assert.deepEqual(
        (await store.search('thing 217')).map((h) => h.id),
        ['a'],
      );
      await store.flush();
      assert.equal(HistorySearch.load(storage.searchIndex).size, 2, 'the rebuilt index is persisted');
    }
  });

  it('a persisted index is used as it is: only conversations changed since are read', async () => {
    const storage = new GatedStorage();
    seed(storage, [conversation('a', 1, ['alpha words', 'ok']), conversation('b', 2, ['beta words', 'ok'])]);
    const first = new WindowStore(storage, { searchPersistDelayMs: 1 });
    await first.catchUpSearch();
    await first.flush();
    seed(storage, [conversation('b', 3, ['beta changed', 'gamma'])]);
    await first.rename('b', 'B'); // the history index learns of the change
    const entry = (await first.list()).find((e) => e.id === 'b');
    assert.ok(entry);
    storage.index += JSON.stringify({ ...entry, updatedAt: '2026-01-01T00:03:00.000Z' }) + '\n';
    storage.reads = [];
    const second = new WindowStore(storage);
    assert.equal(await second.catchUpSearch(), 1);
    assert.deepEqual(storage.reads, ['b']);
    assert.equal((await second.search('gamma')).length, 1);
    assert.equal((await second.search('alpha')).length, 1, 'from the persisted index');
  });

  it('while it is built: newest first, progress told, results found so far, and callers join one build', async () => {
    const storage = new GatedStorage();
    const convs = Array.from({ length: 6 }, (_, i) => conversation(`c${i}`, i, [`how do I do thing ${i}7?`, `like this ${i}`]));
    seed(storage, convs);
    const store = new WindowStore(storage, { searchPersistDelayMs: 60_000 });
    await store.list(); // the history index, from the logs
    storage.reads = [];
    storage.gated = true;
    const seen: SearchProgress[] = [];
    store.onSearchProgress((p) => seen.push(p));
    const told: Array<[number, number]> = [];
    const build = store.catchUpSearch((done, total) => told.push([done, total]));
    const joined = store.catchUpSearch();
    await storage.release(2);
    assert.deepEqual(seen[0], { done: 0, total: 0, building: true }, 'loading the persisted index is told first');
    assert.deepEqual(store.searchProgress, { done: 2, total: 6, building: true });
    assert.deepEqual(storage.reads.slice(0, 2), ['c5', 'c4'], 'newest first');
    assert.deepEqual(
      (await store.search('thing 57')).map((h) => h.id),
      ['c5'],
      'a phrase of a conversation already indexed is found while the others are read',
    );
    assert.deepEqual(await store.search('thing 07'), [], 'not indexed yet');
    storage.open();
    assert.equal(await build, 6);
    assert.equal(await joined, 6);
    assert.equal(storage.reads.length, 6, 'one build for both callers');
    assert.deepEqual(store.searchProgress, { done: 6, total: 6, building: false });
    assert.deepEqual(told.at(-1), [6, 6]);
    assert.equal(seen.at(-1)?.building, false);
    assert.deepEqual(
      (await store.search('thing 07')).map((h) => h.id),
      ['c0'],
    );
    assert.equal(await store.catchUpSearch(), 0, 'nothing left to read');
  });

  it('a conversation saved during the build is searchable at once and not read again', async () => {
    const storage = new GatedStorage();
    seed(storage, [conversation('old1', 1, ['first', 'one']), conversation('old2', 2, ['second', 'two'])]);
    let n = 0;
    const store = new WindowStore(storage, { newId: () => `new-${++n}`, searchPersistDelayMs: 60_000 });
    await store.list();
    storage.gated = true;
    const build = store.catchUpSearch();
    await storage.release(1);
    appendMessage(store.current, 'user', 'fresh pelicans');
    storage.gated = false;
    await store.save();
    assert.equal((await store.search('pelicans')).length, 1);
    storage.open();
    await build;
    assert.equal((await store.search('second')).length, 1);
    assert.equal((await store.search('pelicans'))[0].matches, 1);
  });

  it('writing the index to disk holds neither saves nor History', async () => {
    const storage = new GatedStorage();
    seed(storage, [conversation('a', 1, ['alpha', 'ok'])]);
    let n = 0;
    const store = new WindowStore(storage, { newId: () => `new-${++n}`, searchPersistDelayMs: 60_000 });
    await store.catchUpSearch();
    let release: () => void = () => undefined;
    storage.writeGate = new Promise<void>((resolve) => (release = resolve));
    const flushed = store.flush();
    appendMessage(store.current, 'user', 'while the index is written');
    await store.save();
    assert.equal((await store.list()).length, 2);
    assert.equal(storage.searchIndex, undefined, 'still being written');
    release();
    await flushed;
    assert.ok(HistorySearch.load(storage.searchIndex).has('a'));
  });

  it('a large index is written after a delete or a build, or once a fiftieth of it changed, not after every turn', async () => {
    const storage = new GatedStorage();
    seed(
      storage,
      Array.from({ length: 100 }, (_, i) => conversation(`c${i}`, i, [`question ${i}`, 'ok'])),
    );
    let n = 0;
    const store = new WindowStore(storage, { newId: () => `new-${++n}`, searchPersistDelayMs: 1 });
    await store.catchUpSearch();
    const settle = () => new Promise((r) => setTimeout(r, 30));
    await settle();
    const built = storage.searchWrites;
    assert.ok(built >= 1, 'written once the build ended');
    assert.equal(HistorySearch.load(storage.searchIndex).size, 100);
    appendMessage(store.current, 'user', 'one more turn');
    await store.save();
    await settle();
    assert.equal(storage.searchWrites, built, 'one turn in a hundred conversations: left for later');
    appendMessage(store.current, 'user', 'and another');
    await store.save();
    await settle();
    assert.equal(storage.searchWrites, built, 'two changes in 101 conversations: left for later');
    appendMessage(store.current, 'user', 'and a third');
    await store.save();
    await settle();
    assert.equal(storage.searchWrites, built + 1, 'three changes in 101: more than a fiftieth, written');
    await store.remove('c7');
    await settle();
    assert.equal(storage.searchWrites, built + 2, 'a delete is written soon');
    assert.equal(HistorySearch.load(storage.searchIndex).has('c7'), false);
    appendMessage(store.current, 'user', 'last words');
    await store.save();
    await store.flush();
    assert.equal(HistorySearch.load(storage.searchIndex).search('last words').length, 1, 'flush writes whatever is left');
  });

  it('side files are looked up only for conversations that have one, and still folded in', async () => {
    const storage = new GatedStorage();
    seed(storage, [conversation('a', 1, ['alpha', 'ok']), conversation('c', 3, ['gamma', 'ok'])]);
    // A window that stopped while a reply streamed: its log, and the reply in a side file.
    const writer = new WindowStore(storage, { newId: () => 'b' });
    appendMessage(writer.current, 'user', 'beta question');
    appendMessage(writer.current, 'assistant', 'interrupted reply', new Date(), { status: 'streaming' });
    await writer.save();
    assert.equal(storage.partials.get('b')?.size, 1);
    storage.index = undefined; // the history index is rebuilt from the logs
    const expected = await new WindowStore(storage).list();
    storage.index = undefined;
    storage.partialLookups = [];
    storage.partialIds = async () => new Set(storage.partials.keys());
    const store = new WindowStore(storage);
    const list = await store.list();
    assert.deepEqual(list, expected);
    assert.equal(list.find((e) => e.id === 'b')?.messageCount, 2, 'the reply in the side file is counted');
    assert.deepEqual(storage.partialLookups, ['b']);
    storage.partialLookups = [];
    await store.catchUpSearch();
    assert.deepEqual(storage.partialLookups, ['b']);
    assert.equal((await store.search('beta')).length, 1);
  });
});

describe('full-text index: files written by earlier versions', () => {
  it('an index in the form version 1 wrote (MiniSearch’s) is rebuilt from the logs, in the background', async () => {
    const MiniSearch = (await import('minisearch')).default;
    const old = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
    old.add({ id: 'a#0', text: 'where do pelicans sleep' });
    const text = JSON.stringify({ version: 1, indexed: { a: { updatedAt: 'x', count: 1 } }, index: old });
    assert.equal(HistorySearch.load(text).size, 0);
    const storage = new MemoryConversationStorage();
    seed(storage, [conversation('a', 1, ['where do pelicans sleep', 'on the water']), conversation('b', 2, ['pelicans again', 'ok'])]);
    storage.searchIndex = text;
    const store = new WindowStore(storage, { searchPersistDelayMs: 1 });
    assert.equal(await store.catchUpSearch(), 2);
    assert.deepEqual((await store.search('pelicans')).map((h) => h.id), ['b', 'a'], 'the newest first when both match alike');
    await store.flush();
    assert.equal(HistorySearch.load(storage.searchIndex).search('water')[0].id, 'a', 'written again in the new form');
  });
});

describe('full-text index: the compact form', () => {
  it('lists of numbers survive their text form, and a damaged text is refused', () => {
    const lists = [[], [0], [0, 1, 2, 3], [5, 31, 32, 33, 1023, 1024, 70_000, 2 ** 31 + 5]];
    for (const l of lists) assert.deepEqual(decodeList(encodeList(l)), l);
    assert.deepEqual(decodeList(encodeList([7, 0, 40, 40], false), false), [7, 0, 40, 40]);
    assert.equal(decodeList('A{'), undefined);
    assert.equal(decodeList(encodeList([40]).slice(0, 1)), undefined, 'a number cut short');
  });

  it('a retried reply re-indexes only the messages after the ones kept', () => {
    const search = HistorySearch.empty();
    const a = conversation('a', 1, ['question one', 'answer pelican', 'question two', 'answer heron']);
    search.update(a);
    a.messages.splice(3, 1);
    appendMessage(a, 'assistant', 'answer stork');
    search.update(a, 3);
    assert.deepEqual(search.search('heron'), []);
    assert.deepEqual(search.search('stork').map((h) => h.matches), [1]);
    assert.deepEqual(search.search('answer').map((h) => h.matches), [2]);
    assert.deepEqual(search.search('question').map((h) => h.matches), [2]);
  });

  it('a deleted conversation’s words leave the written index; the rest load back and take updates', async () => {
    const search = HistorySearch.empty();
    search.update(conversation('keep', 1, ['alpha secretless', 'ok']));
    search.update(conversation('gone', 2, ['zebra confidential', 'ok']));
    search.update(conversation('keep2', 3, ['beta', 'alphabet soup']));
    search.remove('gone');
    await search.compact();
    const text = await search.toJSONAsync();
    assert.ok(!text.includes('confidential') && !text.includes('zebra') && !text.includes('"gone"'), text);
    const loaded = HistorySearch.load(text);
    assert.equal(loaded.size, 2);
    assert.deepEqual(loaded.search('alpha').map((h) => h.id), ['keep', 'keep2'], 'a whole word before the start of a longer one');
    assert.deepEqual(loaded.search('ok').map((h) => h.id), ['keep']);
    loaded.update(conversation('keep', 4, ['alpha secretless', 'ok', 'gamma ray']), 2);
    assert.deepEqual(loaded.search('gamma').map((h) => h.id), ['keep']);
    assert.deepEqual(loaded.search('secretless ok').map((h) => h.id), [], 'every word in one message');
    assert.equal(HistorySearch.load(loaded.toJSON()).search('ray')[0].id, 'keep');
  });

  it('words are split at anything that is not a letter or a digit', () => {
    const search = HistorySearch.empty();
    search.update(conversation('a', 1, ['how do I do thing 217?', 'call `parseJSON(text)` — straße']));
    assert.equal(search.search('how do I do thing 217?')[0]?.id, 'a');
    assert.equal(search.search('parsejson')[0]?.id, 'a');
    assert.equal(search.search('STRASSE').length, 0);
    assert.equal(search.search('straße')[0]?.id, 'a');
  });
});

describe('history index: rebuilt in the background when missing', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => conversation(`c${i}`, i, [`question ${i} word${i}`, `answer ${i}`]));

  it('lists what is read so far, tells progress, takes saves and deletes meanwhile, and writes the index once whole', async () => {
    const storage = new GatedStorage();
    seed(storage, many(8));
    let n = 0;
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, newId: () => `new-${++n}`, searchPersistDelayMs: 60_000 });
    storage.gated = true;
    const seen: SearchProgress[] = [];
    store.onSearchProgress((p) => seen.push(p));
    const first = store.list();
    await storage.release(3);
    const page = await first;
    assert.ok(page.length >= 2 && page.length <= 3, `listed ${page.length} while 3 of 8 were read`);
    assert.equal(storage.index, undefined, 'no index file until it is whole');
    assert.equal(seen.at(-1)?.building, true);
    assert.equal(seen.at(-1)?.total, 8);
    // A save and a delete while it is rebuilt.
    storage.gated = false;
    appendMessage(store.current, 'user', 'fresh pelicans');
    await store.save();
    await store.remove('c7');
    assert.ok((await store.list()).some((c) => c.id === 'new-1'));
    storage.open();
    await store.catchUpSearch();
    const list = await store.list();
    assert.deepEqual(list.map((c) => c.id).sort(), ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'new-1']);
    assert.equal(seen.at(-1)?.building, false);
    const fresh = await new WindowStore(storage).list();
    assert.deepEqual(fresh.map((c) => c.id).sort(), list.map((c) => c.id).sort(), 'the index written is whole');
    assert.equal((await store.search('word3')).length, 1, 'fed to the full-text index as the logs were read');
    assert.deepEqual(await store.search('word7'), []);
  });

  it('a stop half way leaves no index file: the next start rebuilds it whole', async () => {
    const storage = new GatedStorage();
    seed(storage, many(6));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0 });
    storage.gated = true;
    const listing = store.list();
    await storage.release(2);
    await listing;
    assert.equal(storage.index, undefined);
    // The window closes here; a new one starts on the same files.
    storage.gated = false;
    const next = new WindowStore(storage, { rebuildInlineUpTo: 0 });
    await next.catchUpSearch();
    assert.equal((await next.list()).length, 6);
    assert.equal(replayIndexCount(storage.index), 6);
    storage.open();
  });

  for (const inline of [true, false]) {
    it(`a log that cannot be read while the index is rebuilt never leaves History for good (${inline ? 'read at once' : 'in the background'})`, async () => {
      class FailingStorage extends MemoryConversationStorage {
        failures = new Map<string, number>();
        override async readLog(id: string): Promise<string | undefined> {
          const left = this.failures.get(id) ?? 0;
          if (left > 0) {
            this.failures.set(id, left - 1);
            throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
          }
          return super.readLog(id);
        }
      }
      const options = { rebuildInlineUpTo: inline ? 100 : 0 };
      // A passing error: tried again at the end of the build, and the index written is whole.
      const passing = new FailingStorage();
      seed(passing, many(6));
      const id = [...passing.data.keys()][2];
      passing.failures.set(id, 1);
      const store = new WindowStore(passing, options);
      await store.list();
      await store.catchUpSearch();
      assert.equal(replayIndexCount(passing.index), 6);
      assert.equal((await new WindowStore(passing, options).list()).length, 6);
      // An error that lasts: no index file without it; once the file reads again, it is listed.
      const lasting = new FailingStorage();
      seed(lasting, many(6));
      lasting.failures.set(id, 1_000);
      const first = new WindowStore(lasting, options);
      await first.list();
      await first.catchUpSearch();
      assert.equal(lasting.index, undefined, 'no index written without the unreadable log');
      lasting.failures.clear();
      const later = await first.list();
      await first.catchUpSearch();
      assert.ok((await first.list()).some((c) => c.id === id), `listed once readable: ${later.length}`);
      assert.equal(replayIndexCount(lasting.index), 6);
    });
  }

  it('a glance at a log gives the summary its replay gives, or nothing when the log is not plainly one', () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    const conv = conversation('g', 1, ['first question', '## The answer\nmore', 'second', 'second answer']);
    conv.messages[1].meta = { model: 'swift-chat', credits: 1 };
    conv.messages[3].meta = { model: 'deep-think' };
    conv.title = 'Pelicans';
    const fork = { ...conversation('f', 2, ['q', 'a']), forkedFrom: { id: 'g', title: 'Pelicans', messageId: 'msg_001' } };
    let log = encodeLog(conv, conv.messages.map((_, i) => `k.${i}`));
    // A retry: the last reply taken out and another written; a rename; a summary; a torn last line.
    log += JSON.stringify({ t: 'x', k: ['k.3'] }) + '\n';
    log += JSON.stringify({ t: 'm', k: 'k.4', m: { id: 'msg_004', role: 'assistant', content: 'retried', createdAt: at.toISOString(), status: 'complete', meta: { model: 'quick' } } }) + '\n';
    log += JSON.stringify({ t: 'm', k: 'k.0', m: { ...conv.messages[0], content: 'first question, edited' } }) + '\n';
    log += JSON.stringify({ t: 'u', title: 'Pelicans and herons', updatedAt: '2026-02-01T00:00:00.000Z' }) + '\n';
    log += JSON.stringify({ t: 's', s: null }) + '\n';
    log += '{"t":"m","k":"k.5","m":{"id":"msg_0';
    const logs = { log, fork: encodeLog(fork, ['a', 'b']), empty: encodeLog(createConversation('e', at), []) };
    for (const [name, text] of Object.entries(logs)) {
      const replayed = replayLog(text, [], name);
      assert.ok(replayed, name);
      assert.deepEqual(peekLog(text, name), summarize(replayed.conv), name);
    }
    assert.equal(peekLog(log, 'log')?.messageCount, 4);
    assert.equal(peekLog(log, 'log')?.model, 'quick');
    // Not plainly a log: the caller replays it (which reads what it can).
    assert.equal(peekLog(JSON.stringify(conv)), undefined, 'a 0.1.0 conversation');
    assert.equal(peekLog(log.replace('"v":2', '"v":3')), undefined, 'a header of another version');
    assert.equal(peekLog(log + '\n{"t":"q"}\n'), undefined, 'a record of another kind');
    assert.equal(peekLog(log + '\n{"t":"m","k":"k.9","m":{"role":"assistant","content":7}}\n'), undefined, 'a message of another form');
    assert.equal(peekLog(''), undefined);
  });

  it('a log read before History’s first page is listed from a glance; its replay replaces that once the page is out', async () => {
    const storage = new GatedStorage();
    storage.partialIds = async () => new Set(storage.partials.keys());
    const long = conversation('long', 60, Array.from({ length: 120 }, (_, i) => `turn ${i} ${'about egrets '.repeat(60)}`));
    long.title = 'Egrets';
    // A record the replay refuses (a negative nextSeq) and a glance takes at its word.
    const log = encodeLog(long, long.messages.map((_, i) => `s.${i}`)) + JSON.stringify({ t: 'u', title: 'Glanced', nextSeq: -1 }) + '\n';
    storage.data.set('long', log);
    seed(storage, many(5));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, searchPersistDelayMs: 60_000 });
    storage.gated = true;
    const first = store.list();
    await storage.release(3);
    const page = await first;
    assert.equal(page[0]?.id, 'long');
    assert.equal(page[0]?.title, 'Glanced', 'listed from a glance at the log');
    assert.equal(page[0]?.messageCount, 120);
    const rebuilt = new Promise<void>((resolve) => store.onSearchProgress((p) => !p.building && resolve()));
    storage.open();
    await rebuilt;
    const list = await store.list();
    assert.equal(list.length, 6);
    assert.deepEqual(
      { title: list[0].title, messageCount: list[0].messageCount },
      { title: 'Egrets', messageCount: 120 },
      'the replayed summary once the page is out',
    );
    assert.deepEqual((await store.search('egrets')).map((h) => h.id), ['long'], 'searchable once replayed');
    assert.equal(replayIndex(storage.index ?? '').entries.get('long')?.title, 'Egrets', 'the index file has the replayed summary');
  });

  it('History’s first page is the newest logs: read at once (only those), a slow read of the newest waited for', async () => {
    class AtOnce extends MemoryConversationStorage {
      asyncReads: string[] = [];
      atOnce = 0;
      async partialIds(): Promise<Set<string>> {
        return new Set(this.partials.keys());
      }
      readLogAtOnce(id: string): string | undefined | false {
        this.atOnce++;
        return id === 'newest' ? false : this.data.get(id);
      }
      override async readLog(id: string): Promise<string | undefined> {
        this.asyncReads.push(id);
        await new Promise((r) => setTimeout(r, 40));
        return super.readLog(id);
      }
    }
    const storage = new AtOnce();
    const newest = conversation('newest', 500, ['the newest question', 'its answer']);
    storage.data.set('newest', encodeLog(newest, ['s.0', 's.1']));
    seed(storage, many(80));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, searchPersistDelayMs: 60_000 });
    const page = await store.list();
    assert.equal(page[0]?.id, 'newest', `the page waited for the newest log: ${page.length} listed`);
    assert.ok(page.length >= 50, `the page: ${page.length}`);
    assert.deepEqual(storage.asyncReads.slice(0, 1), ['newest'], 'the others were read at once');
    await store.catchUpSearch();
    assert.equal((await store.list()).length, 81);
    assert.equal(storage.atOnce, 50, 'the logs of the first page');
    assert.equal(storage.asyncReads.length, 32, 'the newest (slow), then the rest after the page');
  });

  it('a conversation another window saves while the index is rebuilt stays in the index file the rebuild writes', async () => {
    const storage = new GatedStorage();
    seed(storage, many(5));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, searchPersistDelayMs: 60_000 });
    storage.gated = true;
    const first = store.list();
    await storage.release(2);
    // The other window, which has a whole index, appends its new conversation to the index file.
    const other = conversation('other', 900, ['a question from the other window', 'its answer']);
    storage.data.set('other', encodeLog(other, ['s.0', 's.1']));
    storage.index = (storage.index ?? '') + indexLine(summarize(other));
    const rebuilt = new Promise<void>((resolve) => store.onSearchProgress((p) => !p.building && resolve()));
    storage.open();
    await first;
    await rebuilt;
    assert.ok(replayIndex(storage.index ?? '').entries.has('other'), 'kept in the index file');
    assert.equal(replayIndex(storage.index ?? '').entries.size, 6);
    assert.ok((await new WindowStore(storage).list()).some((c) => c.id === 'other'), 'listed by the next window');
  });

  it('a log whose glance finds no message is replayed, never dropped: the index file keeps it', async () => {
    class AtOnce extends MemoryConversationStorage {
      async partialIds(): Promise<Set<string>> {
        return new Set(this.partials.keys());
      }
      readLogAtOnce(id: string): string | undefined | false {
        return this.data.get(id);
      }
    }
    const storage = new AtOnce();
    const odd = conversation('odd', 500, ['a question about ibises', 'its answer']);
    // A removal record the replay refuses (a key that is not text), so the messages stay.
    const log = encodeLog(odd, ['s.0', 's.1']) + JSON.stringify({ t: 'x', k: ['s.0', 's.1', 1] }) + '\n';
    assert.equal(replayLog(log, [], 'odd')?.conv.messages.length, 2);
    assert.equal(peekLog(log, 'odd'), undefined, 'not plainly a log to a glance');
    storage.data.set('odd', log);
    seed(storage, many(5));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, searchPersistDelayMs: 60_000 });
    await store.list();
    await store.catchUpSearch();
    assert.ok((await store.list()).some((c) => c.id === 'odd'), 'listed');
    assert.ok(replayIndex(storage.index ?? '').entries.has('odd'), 'in the index file');
    assert.ok((await new WindowStore(storage).list()).some((c) => c.id === 'odd'), 'listed by the next window');
  });

  it('a search typed as soon as History’s first page is out finds a phrase of a conversation on it', async () => {
    const storage = new GatedStorage();
    storage.partialIds = async () => new Set(storage.partials.keys());
    seed(storage, many(8));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, searchPersistDelayMs: 60_000 });
    storage.gated = true;
    const first = store.list();
    await storage.release(3);
    const page = await first;
    assert.ok(page.some((c) => c.id === 'c1'), `c1 is on the page: ${page.map((c) => c.id).join(' ')}`);
    assert.deepEqual((await store.search('word1')).map((h) => h.id), ['c1'], 'read for the page, searched at once');
    storage.open();
    await store.catchUpSearch();
    assert.deepEqual((await store.search('word6')).map((h) => h.id), ['c6']);
  });

  it('a torn last line of the index file loses only that line', async () => {
    const storage = new MemoryConversationStorage();
    seed(storage, many(3));
    const store = new WindowStore(storage);
    await store.list();
    storage.index = (storage.index ?? '') + '{"id":"c9","title":"cut sh';
    assert.equal((await new WindowStore(storage).list()).length, 3);
  });
});

/** The conversation lines of an index (not its version line). */
function replayIndexCount(text: string | undefined): number {
  return (text ?? '').split('\n').filter((l) => l && !l.startsWith('{"index":')).length;
}

describe('upgrade from 0.1.0 files, in the background', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'ai-chat-upgrade-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function legacy(convs: Conversation[], current?: string): Promise<string> {
    const folder = join(dir, 'conversations');
    await mkdir(folder, { recursive: true });
    for (const c of convs) await writeFile(join(folder, `${c.id}.json`), JSON.stringify(c));
    if (current) await writeFile(join(folder, 'current-conversation'), current);
    return folder;
  }

  it('the current conversation opens at once, History lists and finds every one before a file is written, then all are brought in', async () => {
    const convs = Array.from({ length: 12 }, (_, i) => conversation(`old-${i}`, i, [`how do I do thing ${i}17?`, `like so ${i}`]));
    const folder = await legacy(convs, 'old-3');
    await writeFile(join(folder, 'bad.json'), '{"version":1,"id":"bad","tit');
    const store = new WindowStore(new FileConversationStorage(dir), { rebuildInlineUpTo: 0 });
    assert.equal(await store.pendingUpgrade(), 13);
    const opened = await store.open((await store.lastOpenedId()) ?? '');
    assert.equal(opened?.messages[0].content, 'how do I do thing 317?');
    assert.ok((await readdir(folder)).includes('old-3.jsonl'), 'the current one is brought in first');
    await store.catchUpSearch();
    assert.equal((await store.list()).length, 12);
    assert.deepEqual((await store.search('thing 917')).map((h) => h.id), ['old-9']);
    assert.deepEqual((await readdir(folder)).filter((n) => n.endsWith('.jsonl') && !n.startsWith('_')), ['old-3.jsonl'], 'reading them for the indexes wrote no log');
    await store.remove('old-5');
    const told: number[] = [];
    await store.finishUpgrade((done) => told.push(done));
    assert.equal(told.at(-1), 10, 'ten left (the file that does not parse was marked when it was read)');
    const names = await readdir(folder);
    assert.equal(names.filter((n) => n.endsWith('.jsonl') && !n.startsWith('_')).length, 11);
    assert.deepEqual(names.filter((n) => n.endsWith('.json')), ['bad.json'], 'one that does not parse stays where it is');
    assert.equal((await readdir(join(folder, '0.1.0'))).filter((n) => n.startsWith('old-5')).length, 0, 'deleted before it was brought in: gone for good');
    await store.flush();
    // The next start: nothing left to bring in (the bad file is marked), and the index is kept.
    const next = new WindowStore(new FileConversationStorage(dir), { rebuildInlineUpTo: 0 });
    assert.equal(await next.pendingUpgrade(), 0);
    assert.equal((await next.list()).length, 11);
    assert.equal(next.listingPartial, false);
  });

  it('an index written by another window after this one found 0.1.0 files (it lacks them) is rebuilt to list them', async () => {
    const folder = await legacy([conversation('old-a', 1, ['first question', 'first answer'])]);
    const first = new WindowStore(new FileConversationStorage(dir), { rebuildInlineUpTo: 0 });
    await first.catchUpSearch();
    await first.finishUpgrade();
    await first.flush();
    const written = await readFile(join(folder, '_index.jsonl'), 'utf8');
    assert.match(written, /old-a/);
    // More 0.1.0 files; this window finds them (and removes the index to rebuild it) ...
    await legacy([conversation('old-b', 2, ['how do I do thing 42?', 'like so'])]);
    const storage = new FileConversationStorage(dir);
    assert.equal(await storage.pendingUpgrade(), 1);
    // ... and then the other window, which never saw them, writes its index again.
    await writeFile(join(folder, '_index.jsonl'), written);
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0 });
    await store.catchUpSearch();
    assert.deepEqual((await store.list()).map((c) => c.id).sort(), ['old-a', 'old-b']);
    assert.deepEqual((await store.search('thing 42')).map((h) => h.id), ['old-b']);
  });
});

describe('history index: read a turn at a time', () => {
  it('a large index read with turns for the event loop gives what a read at once gives', async () => {
    const lines = [JSON.stringify({ index: 1 })];
    for (let i = 0; i < 3000; i++) lines.push(indexLine(summarize(conversation(`c-${i}`, i, [`question ${i}`, `answer ${i}`]))).trimEnd());
    lines.push('{"torn');
    lines.push(JSON.stringify({ id: 'c-7', gone: true }));
    const text = lines.join('\n') + '\n';
    let pauses = 0;
    const paced = await replayIndexPaced(text, async () => void pauses++, 0);
    const once = replayIndex(text);
    assert.ok(pauses >= 3000 / 64 - 1, `the read gave the event loop a turn (${pauses} times)`);
    assert.deepEqual(paced, once);
    assert.equal(paced.entries.size, 2999);
    assert.ok(paced.gone.has('c-7'));
  });
});
