// Import Conversation… through the store (core/export/importConversation.ts): a file becomes a new
// conversation with its own id that History lists and the store reads back whole; the same file
// twice is found, not imported again; a refused file or a failed write leaves nothing; and a
// 1,000-turn conversation exported, imported and exported again is the same file but for its id.
import { strict as assert } from 'node:assert';
import {
  ConversationStore,
  EXPORT_VERSION,
  exportFileText,
  importConversation,
  parseExportText,
  type Conversation,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { everyField, longConversation } from './fixtures';

const AT = new Date('2026-11-28T09:00:00.000Z');
let n = 0;
const newStore = (storage = new MemoryConversationStorage()) => new ConversationStore(storage, { newId: () => `conv-i${++n}`, searchPersistDelayMs: 0 });

/** The file's conversation without what an import deliberately changes: its id and where it was imported from. */
function withoutOrigin(text: string): string {
  const parsed = parseExportText(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  const { id: _id, importedFrom: _from, ...rest } = parsed.file.conversation;
  return JSON.stringify(rest);
}

async function imported(store: ConversationStore, text: string): Promise<Conversation> {
  const r = await importConversation(store, text);
  assert.equal(r.kind, 'imported', JSON.stringify(r).slice(0, 300));
  return (r as { conversation: Conversation }).conversation;
}

describe('import a conversation file', () => {
  it('stores it under its own id, listed in History, read back whole, with where it came from', async () => {
    const storage = new MemoryConversationStorage();
    const store = newStore(storage);
    const source = everyField();
    const text = exportFileText(source, AT);
    const conv = await imported(store, text);
    assert.notEqual(conv.id, source.id);
    assert.match(conv.id, /^conv-i\d+$/);
    const parsed = parseExportText(text);
    assert.ok(parsed.ok);
    assert.deepEqual(conv.importedFrom, { id: source.id, hash: parsed.hash });
    const listed = await store.list();
    assert.deepEqual(
      listed.map((s) => [s.id, s.title, s.messageCount]),
      [[conv.id, source.title, source.messages.length]],
    );
    // Another window (a new store on the same files) reads it whole, its origin kept in the log.
    const again = await newStore(storage).load(conv.id);
    assert.deepEqual(again, conv);
    assert.equal(storage.data.size, 1);
    // Full-text search finds it.
    await store.catchUpSearch();
    assert.deepEqual((await store.search('again')).map((h) => h.id), [conv.id]);
  });

  it('the same file twice: the second finds the first (also from another window, after the first was continued); nothing new stored', async () => {
    const storage = new MemoryConversationStorage();
    const store = newStore(storage);
    const text = exportFileText(everyField(), AT);
    const first = await imported(store, text);
    const second = await importConversation(store, text);
    assert.deepEqual(second, { kind: 'duplicate', id: first.id, title: first.title });
    // Continued and renamed, in another window: still the one this file was imported as.
    const other = newStore(storage);
    const open = await other.open(first.id);
    assert.ok(open);
    open.messages.push({ id: 'msg_006', role: 'user', content: 'more', createdAt: '2026-11-28T10:00:00.000Z', status: 'complete' });
    open.updatedAt = '2026-11-28T10:00:00.000Z';
    await other.save(open);
    await other.rename(first.id, 'Renamed');
    await other.flush();
    const third = await importConversation(newStore(storage), text);
    assert.deepEqual(third, { kind: 'duplicate', id: first.id, title: 'Renamed' });
    assert.equal(storage.data.size, 1);
  });

  it('a file exported from this History, whose conversation is unchanged, opens that one; once it changed, it is imported as a new one', async () => {
    const storage = new MemoryConversationStorage();
    const store = newStore(storage);
    const original = everyField();
    delete original.importedFrom;
    await store.restore(original);
    const text = exportFileText((await store.load(original.id))!, AT);
    assert.deepEqual(await importConversation(store, text), { kind: 'duplicate', id: original.id, title: original.title });
    const changed = (await store.open(original.id))!;
    changed.messages.push({ id: 'msg_006', role: 'user', content: 'later', createdAt: '2026-11-28T10:00:00.000Z', status: 'complete' });
    await store.save(changed);
    const r = await importConversation(store, text);
    assert.equal(r.kind, 'imported');
    assert.equal((await store.list()).length, 2);
  });

  it('a window listing History while another imports: its next listing shows the import, and its own import of the file finds it', async () => {
    const storage = new MemoryConversationStorage();
    const listing = newStore(storage);
    await listing.restore(longConversation(3, 'conv-before'));
    assert.deepEqual((await listing.list()).map((s) => s.id), ['conv-before']);
    const text = exportFileText(everyField(), AT);
    const conv = await imported(newStore(storage), text);
    assert.deepEqual(
      (await listing.list()).map((s) => s.id).sort(),
      [conv.id, 'conv-before'].sort(),
    );
    assert.deepEqual(await importConversation(listing, text), { kind: 'duplicate', id: conv.id, title: conv.title });
    assert.equal(storage.data.size, 2);
  });

  it('a different file with the same creation date is not taken for the first', async () => {
    const store = newStore();
    const a = everyField();
    const b = everyField();
    b.id = 'conv-other';
    b.messages[0].content = 'Something else';
    await imported(store, exportFileText(a, AT));
    await imported(store, exportFileText(b, AT));
    assert.equal((await store.list()).length, 2);
  });

  it('a newer version or a broken file is refused with why, and nothing is stored', async () => {
    const storage = new MemoryConversationStorage();
    const store = newStore(storage);
    const file = JSON.parse(exportFileText(everyField(), AT)) as { version: number; conversation: Conversation };
    const newer = await importConversation(store, JSON.stringify({ ...file, version: EXPORT_VERSION + 1 }));
    assert.ok(newer.kind === 'refused' && newer.problem.kind === 'newer');
    assert.match(newer.problem.message, /version 2.*reads version 1/);
    file.conversation.messages[3].error = { kind: 'no-such-kind' } as never;
    const broken = await importConversation(store, new TextEncoder().encode(JSON.stringify(file)));
    assert.ok(broken.kind === 'refused' && broken.problem.kind === 'broken');
    assert.match(broken.problem.message, /conversation\.messages\[3\]\.error/);
    assert.equal(storage.data.size, 0);
    assert.deepEqual(await store.list(), []);
  });

  it('a write that fails half way (the log written, History not) leaves nothing: the conversation is taken out again', async () => {
    class FailingIndex extends MemoryConversationStorage {
      fail = true;
      override async appendIndex(text: string): Promise<void> {
        if (this.fail && !text.includes('"gone":true')) throw new Error('disk full');
        return super.appendIndex(text);
      }
    }
    const storage = new FailingIndex();
    const store = newStore(storage);
    await assert.rejects(importConversation(store, exportFileText(everyField(), AT)), /disk full/);
    assert.equal(storage.data.size, 0, 'no log left');
    storage.fail = false;
    assert.deepEqual(await newStore(storage).list(), [], 'History lists nothing');
  });
});

describe('round trip of a 1,000-turn conversation', () => {
  it('export, import, export: the same conversation, byte for byte, but for the id and where it was imported from', async () => {
    const here = newStore();
    const conv = longConversation(1000);
    await here.restore(conv);
    const first = exportFileText((await here.load(conv.id))!, AT);
    // Another machine: its own History.
    const there = newStore();
    const started = performance.now();
    const copy = await imported(there, first);
    const importMs = performance.now() - started;
    const second = exportFileText((await newStore((there as unknown as { storage: MemoryConversationStorage }).storage).load(copy.id))!, AT);
    assert.equal(withoutOrigin(second), withoutOrigin(first));
    const a = parseExportText(first);
    const b = parseExportText(second);
    assert.ok(a.ok && b.ok);
    assert.equal(a.file.conversation.messages.length, 2000);
    assert.equal(b.file.conversation.id, copy.id);
    assert.deepEqual(b.file.conversation.importedFrom, { id: conv.id, hash: a.hash });
    // The whole file differs only in those two fields.
    const back = JSON.parse(second) as { conversation: { id: string; importedFrom?: unknown } };
    back.conversation.id = conv.id;
    delete back.conversation.importedFrom;
    assert.equal(JSON.stringify(back, null, 2) + '\n', first);
    assert.ok(importMs < 5000, `import took ${Math.round(importMs)} ms`);
  });

  it('the round trip fails when a field is lost: a stored conversation without its summary is another file', async () => {
    const conv = longConversation(10);
    const first = exportFileText(conv, AT);
    delete conv.summary;
    assert.notEqual(withoutOrigin(exportFileText(conv, AT)), withoutOrigin(first));
  });
});
