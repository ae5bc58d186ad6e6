// Export All and Import All (core/export/archive.ts, allConversations.ts) through a real store in
// memory: the archive's round trip (History, the search and another window list what came in), a
// broken, cut-short or newer archive refused with nothing stored, Cancel half way (each
// conversation fully in or not at all, and how many said), duplicates skipped and counted, a
// conversation holding the key left out, and a failed write leaving nothing half in.
import { strict as assert } from 'node:assert';
import {
  ARCHIVE_VERSION,
  ConversationStore,
  exportAll,
  exportFileText,
  importAll,
  parseExportText,
  type Conversation,
  type ImportAllResult,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { everyField, longConversation } from './fixtures';

const AT = new Date('2026-12-01T09:00:00.000Z');
let n = 0;
const newStore = (storage = new MemoryConversationStorage()) => new ConversationStore(storage, { newId: () => `conv-a${++n}`, searchPersistDelayMs: 0 });

/** A History of `count` conversations (the first with every field), saved in a store of its own. */
async function history(count: number): Promise<{ store: ConversationStore; convs: Conversation[] }> {
  const store = newStore();
  const convs: Conversation[] = [];
  for (let i = 0; i < count; i++) {
    const conv = i === 0 ? everyField() : longConversation(1 + (i % 6), `conv-src-${i}`);
    if (i === 0) delete conv.importedFrom;
    conv.createdAt = new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 1000).toISOString();
    conv.title = `${conv.title} #${i}`;
    await store.restore(conv);
    convs.push(conv);
  }
  return { store, convs };
}

async function archiveOf(store: ConversationStore): Promise<Uint8Array> {
  const r = await exportAll(store, {}, AT);
  assert.equal(r.kind, 'done');
  return (r as { bytes: Uint8Array }).bytes;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytesOf = (s: string) => new TextEncoder().encode(s);
/** The conversation file of `conv` without what an import changes (its id, where it came from). */
const content = (conv: Conversation) => {
  const parsed = parseExportText(exportFileText(conv, AT));
  assert.ok(parsed.ok);
  const { id: _id, importedFrom: _from, ...rest } = parsed.file.conversation;
  return rest;
};
const done = (r: ImportAllResult) => {
  assert.ok(r.kind !== 'refused', JSON.stringify(r).slice(0, 300));
  return r;
};

describe('Export All and Import All', () => {
  it('round trip: every conversation comes back whole under its own id; History, the search and another window list them', async () => {
    const { store, convs } = await history(12);
    const bytes = await archiveOf(store);
    const lines = text(bytes).trimEnd().split('\n');
    assert.deepEqual(JSON.parse(lines[0]), { format: 'ai-chat-archive', version: ARCHIVE_VERSION, exportedAt: AT.toISOString(), conversations: 12 });
    assert.equal(lines.length, 13);
    const storage = new MemoryConversationStorage();
    const there = newStore(storage);
    const otherWindow = newStore(storage);
    assert.deepEqual(await otherWindow.list(), []);
    // (The search index loaded, as History has it once searched.)
    assert.deepEqual(await there.search('Question'), []);
    const progress: number[] = [];
    const r = done(await importAll(there, bytes, { progress: (d) => progress.push(d) }));
    assert.equal(r.kind, 'done');
    assert.equal(r.imported.length, 12);
    assert.equal(r.duplicates, 0);
    assert.equal(progress.at(-1), 12);
    for (const conv of convs) {
      const back: Conversation | undefined = r.imported.find((c) => c.title === conv.title);
      assert.ok(back, conv.title);
      assert.notEqual(back.id, conv.id);
      assert.deepEqual(content((await there.load(back.id))!), content(conv));
    }
    assert.equal((await there.list()).length, 12);
    assert.equal((await otherWindow.list()).length, 12, 'another window lists them from the same History');
    assert.equal((await there.search('Question')).length, 11, 'the search finds them at once');
    await otherWindow.catchUpSearch();
    assert.equal((await otherWindow.search('Question')).length, 11, "and the other window's search once it catches up");
  });

  it('importing the archive again, or one holding a conversation twice or the very conversations exported: skipped and counted', async () => {
    const { store } = await history(5);
    const bytes = await archiveOf(store);
    const again = done(await importAll(store, bytes));
    assert.deepEqual([again.imported.length, again.duplicates], [0, 5], 'the conversations exported from this History are there already');
    const there = newStore();
    done(await importAll(there, bytes));
    const second = done(await importAll(there, bytes));
    assert.deepEqual([second.imported.length, second.duplicates], [0, 5]);
    assert.equal((await there.list()).length, 5);
    const lines = text(bytes).split('\n');
    const twice = [JSON.stringify({ ...JSON.parse(lines[0]), conversations: 2 }), lines[1], lines[1], ''].join('\n');
    const third = done(await importAll(newStore(), bytesOf(twice)));
    assert.deepEqual([third.imported.length, third.duplicates], [1, 1]);
  });

  it('a broken archive is refused saying where, and nothing is stored: a damaged line, a line cut short, a line missing, not UTF-8, empty', async () => {
    const { store } = await history(4);
    const lines = text(await archiveOf(store)).split('\n');
    const damaged = [...lines];
    damaged[3] = damaged[3].replace('"role":"user"', '"role":"robot"');
    const cut = lines.join('\n').slice(0, -40);
    const missing = lines.filter((_l, i) => i !== 2).join('\n');
    const notUtf8 = new Uint8Array([...bytesOf(lines[0] + '\n'), 0xff, 0xfe, 0x0a]);
    const cases: Array<[Uint8Array, RegExp]> = [
      [bytesOf(damaged.join('\n')), /^line 4 of the archive \(conversation 3\): the file is damaged: conversation\.messages\[\d+\]\.role/],
      [bytesOf(cut), /^line 5 of the archive \(conversation 4\): the file is not JSON/],
      [bytesOf(missing), /cut short or damaged: its first line says it holds 4 conversations, and 3 are in it/],
      [notUtf8, /line 2 of the archive is not UTF-8 text/],
      [new Uint8Array(), /the file is empty/],
      [bytesOf('{"hello": 1}\n'), /not an AI Chat archive/],
      [bytesOf(exportFileText(everyField(), AT)), /not an AI Chat archive: its first line is not JSON/],
      [bytesOf(JSON.stringify(JSON.parse(exportFileText(everyField(), AT))) + '\n'), /it is one conversation, not an archive of them: import it with AI Chat: Import Conversation…/],
    ];
    for (const [bytes, message] of cases) {
      const storage = new MemoryConversationStorage();
      const r = await importAll(newStore(storage), bytes);
      assert.equal(r.kind, 'refused');
      assert.match((r as { problem: { message: string } }).problem.message, message);
      assert.equal(storage.data.size, 0);
      assert.equal(storage.index, undefined);
    }
  });

  it('an archive of a newer version, or with a conversation file of a newer version, is refused saying so', async () => {
    const { store } = await history(2);
    const lines = text(await archiveOf(store)).split('\n');
    const newer = [JSON.stringify({ ...JSON.parse(lines[0]), version: ARCHIVE_VERSION + 1 }), ...lines.slice(1)].join('\n');
    const r = await importAll(newStore(), bytesOf(newer));
    assert.equal(r.kind, 'refused');
    assert.equal((r as { problem: { kind: string } }).problem.kind, 'newer');
    assert.match((r as { problem: { message: string } }).problem.message, /newer version of AI Chat \(archive version 2\); this version reads version 1/);
    const newerLine = [lines[0], lines[1], JSON.stringify({ ...JSON.parse(lines[2]), version: 2 }), ''].join('\n');
    const storage = new MemoryConversationStorage();
    const r2 = await importAll(newStore(storage), bytesOf(newerLine));
    assert.equal(r2.kind, 'refused');
    assert.match((r2 as { problem: { message: string } }).problem.message, /^line 3 of the archive \(conversation 2\): the file was written by a newer version/);
    assert.equal(storage.data.size, 0);
  });

  it('Cancel half way: the conversations in are whole (and counted), the others not there at all', async () => {
    const { store, convs } = await history(40);
    const bytes = await archiveOf(store);
    const storage = new MemoryConversationStorage();
    const there = newStore(storage);
    let stored = 0;
    // Cancelled once some are stored (progress is reported as the work gives the event loop a turn).
    const r = done(await importAll(there, bytes, { sliceMs: 0, progress: (d) => (stored = d), cancelled: () => stored >= 20 }));
    assert.equal(r.kind, 'cancelled');
    assert.ok(r.imported.length > 0 && r.imported.length < 40, `${r.imported.length} came in`);
    assert.equal(r.total, 40);
    assert.equal(storage.data.size, r.imported.length, 'no other log was written');
    const listed = await there.list();
    assert.deepEqual(listed.map((c) => c.id).sort(), r.imported.map((c) => c.id).sort());
    for (const c of r.imported) {
      const source = convs.find((s) => s.title === c.title)!;
      assert.deepEqual(content((await there.load(c.id))!), content(source), `${c.title} is whole`);
    }
    // The rest comes in with the next Import All; those in are skipped.
    const rest = done(await importAll(there, bytes));
    assert.deepEqual([rest.imported.length + rest.duplicates, rest.duplicates], [40, r.imported.length]);
    assert.equal((await there.list()).length, 40);
  });

  it('a write that fails half way stops there: the conversations before are whole, the batch that failed is taken out, nothing else written', async () => {
    const { store } = await history(30);
    const bytes = await archiveOf(store);
    class FailingDisk extends MemoryConversationStorage {
      writes = 0;
      override async rewriteLog(id: string, text: string, expectedSize?: number): Promise<boolean> {
        if (++this.writes === 13) throw new Error('ENOSPC: no space left on device');
        return super.rewriteLog(id, text, expectedSize);
      }
    }
    const storage = new FailingDisk();
    const there = newStore(storage);
    const r = done(await importAll(there, bytes));
    assert.equal(r.kind, 'failed');
    assert.match((r as { error: Error }).error.message, /ENOSPC/);
    assert.equal(r.imported.length, 8, 'the first batch');
    assert.equal(storage.data.size, 8);
    assert.deepEqual((await there.list()).map((c) => c.id).sort(), r.imported.map((c) => c.id).sort());
  });

  it('a conversation holding the user\'s key is left out and counted; Export All leaves out an unreadable conversation and counts it; Cancel writes nothing', async () => {
    const { store } = await history(3);
    const bytes = await archiveOf(store);
    const r = done(await importAll(newStore(), bytes, { refuse: async (t) => t.includes('#1"') }));
    assert.deepEqual([r.imported.length, r.withKey], [2, 1]);
    const storage = new MemoryConversationStorage();
    const broken = newStore(storage);
    await broken.restore(longConversation(2, 'conv-ok'));
    await broken.restore(longConversation(2, 'conv-gone'));
    storage.data.set('conv-gone', 'not a log');
    const out = await exportAll(broken, {}, AT);
    assert.equal(out.kind, 'done');
    assert.deepEqual([(out as { count: number }).count, (out as { unreadable: number }).unreadable], [1, 1]);
    assert.deepEqual(await exportAll(store, { cancelled: () => true }), { kind: 'cancelled' });
  });
});
