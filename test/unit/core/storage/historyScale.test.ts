import { strict as assert } from 'node:assert';
import { appendMessage, createConversation, decodeList, encodeList, encodeLog, type Conversation } from '../../../../src/core';
import { GatedStorage, MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

/** The text form of a list as it was written one number at a time (the reference for the faster writer). */
function reference(list: readonly number[], increasing = true): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  let prev = -1;
  for (const n of list) {
    let v = increasing ? n - prev - 1 : n;
    prev = n;
    while (v >= 32) {
      out += alphabet[32 | (v & 31)];
      v = Math.floor(v / 32);
    }
    out += alphabet[v];
  }
  return out;
}

function conversation(id: string, minute: number, texts: string[]): Conversation {
  const at = new Date(Date.UTC(2026, 0, 1, 0, minute));
  const conv = createConversation(id, at);
  texts.forEach((t, i) => appendMessage(conv, i % 2 ? 'assistant' : 'user', t, at));
  return conv;
}

describe('History at scale', () => {
  it('a list of numbers is written as it always was, short or long, gaps large or small', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const lists: number[][] = [[], [0], [31], [32], [2 ** 31 + 5], [2 ** 40 + 3, 2 ** 40 + 4]];
    for (const len of [3, 100, 5000, 60_000]) {
      const l: number[] = [];
      let n = -1;
      for (let i = 0; i < len; i++) l.push((n += 1 + Math.floor(rand() ** 4 * 5000)));
      lists.push(l);
    }
    const texts = lists.map((l) => encodeList(l));
    lists.forEach((l, i) => {
      assert.equal(texts[i], reference(l), `list ${i} (${l.length} numbers)`);
      assert.deepEqual(decodeList(texts[i]), l);
    });
    const runs = [3, 1, 0, 70_000, 5, 2];
    assert.equal(encodeList(runs, false), reference(runs, false));
    assert.deepEqual(decodeList(encodeList(runs, false), false), runs);
  });

  it('conversations read before History’s first page are searchable once it is out; a save meanwhile is kept', async () => {
    const storage = new GatedStorage();
    storage.gated = true;
    const convs = Array.from({ length: 6 }, (_, i) => conversation(`c${i}`, i, [`question ${i} kestrel${i}`, `answer ${i}`]));
    for (const c of convs) storage.data.set(c.id, encodeLog(c, c.messages.map((_, i) => `s.${i}`)));
    const store = new WindowStore(storage, { rebuildInlineUpTo: 0, searchPersistDelayMs: 60_000 });
    const page = store.list();
    await storage.release(2);
    // Fewer than a page read: the page is given after its wait, the two read so far on it.
    assert.deepEqual((await page).map((c) => c.id).sort(), ['c0', 'c1']);
    // One of them opened and added to while the rest are read: the save indexes its new state.
    storage.gated = false;
    const opened = await store.open('c0');
    assert.ok(opened);
    appendMessage(opened, 'user', 'a later ptarmigan');
    await store.save();
    // The rebuild's end, without a catch-up of the full-text index (which would mend what it missed).
    const rebuilt = new Promise<void>((resolve) => store.onSearchProgress((p) => !p.building && resolve()));
    storage.open();
    await rebuilt;
    assert.deepEqual((await store.search('kestrel1')).map((h) => h.id), ['c1'], 'read before the page, indexed after it');
    assert.deepEqual((await store.search('ptarmigan')).map((h) => h.id), ['c0'], 'the save is not undone by the earlier reading');
    assert.deepEqual((await store.search('kestrel0')).map((h) => h.id), ['c0']);
    assert.deepEqual((await store.search('kestrel5')).map((h) => h.id), ['c5']);
    assert.equal((await store.search('ptarmigan'))[0]?.matches, 1);
  });

  it('the full-text index is written on its timer only once the user pauses searching; flush() writes it at once', async () => {
    const storage = new MemoryConversationStorage();
    let n = 0;
    const store = new WindowStore(storage, { searchPersistDelayMs: 5, newId: () => `s-${++n}` });
    await store.search('anything');
    appendMessage(store.current, 'user', 'a question about herons');
    await store.save();
    const written = () => storage.searchIndex?.includes('herons') === true;
    // Searching on, every 20 ms for well over the timer's 5 ms: nothing is written meanwhile.
    for (let i = 0; i < 15; i++) {
      assert.deepEqual((await store.search('herons')).map((h) => h.id), ['s-1']);
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(written(), false, 'written while the user was searching');
    // A pause: written.
    for (let i = 0; i < 300 && !written(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(written(), true, 'not written after the user paused');
    // flush() does not wait for a pause.
    appendMessage(store.current, 'assistant', 'egrets too');
    await store.save();
    await store.search('egrets');
    await store.flush();
    assert.ok(storage.searchIndex?.includes('egrets'));
  });
});
