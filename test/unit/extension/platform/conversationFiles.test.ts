import { strict as assert } from 'node:assert';
import { fstatSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { appendMessage, createConversation, encodeLog } from '../../../../src/core';
import { FileConversationStorage } from '../../../../src/extension/platform/conversationFiles';
import { appendDurably } from '../../../../src/extension/platform/durableFiles';
import { WindowStore } from '../../../support/windowStore';

describe('conversation files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ai-chat-conv-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  // Each store (a window) makes ids of its own, as randomUUID does in the extension.
  let stores = 0;
  const newStore = () => {
    const window = ++stores;
    let n = 0;
    return new WindowStore(new FileConversationStorage(dir), { newId: () => `w${window}-conv-${++n}` });
  };

  it('saves conversations as files, lists them and reads them back in another store', async () => {
    const a = newStore();
    appendMessage(a.current, 'user', 'first question', new Date('2026-01-01T00:00:00Z'));
    await a.save();
    const b = newStore();
    const list = await b.list();
    assert.equal(list.length, 1);
    const opened = await b.open(list[0].id);
    assert.equal(opened?.messages[0].content, 'first question');
    const files = await readdir(join(dir, 'conversations'));
    assert.ok(files.every((f) => !f.endsWith('.tmp')), 'no temporary file left');
  });

  it('records the current conversation, and a new window reopens that one, not the newest', async () => {
    const a = newStore();
    appendMessage(a.current, 'user', 'older conversation', new Date('2026-01-01T00:00:00Z'));
    await a.save();
    const older = a.current.id;
    a.newConversation();
    appendMessage(a.current, 'user', 'newer conversation', new Date('2026-01-02T00:00:00Z'));
    await a.save();
    await a.open(older);
    await a.rememberCurrent();

    const b = newStore();
    assert.equal(await b.lastOpenedId(), older);
    assert.equal((await b.list())[0].title.startsWith('newer'), true, 'the newest is another one');
  });

  it('has no current conversation before one was recorded, and ignores a tampered pointer', async () => {
    const s = new FileConversationStorage(dir);
    assert.equal(await s.readCurrentId(), undefined);
    await assert.rejects(s.writeCurrentId('../../etc/passwd'));
    await s.writeCurrentId('abc-123');
    assert.equal(await s.readCurrentId(), 'abc-123');
  });

  it('a saved conversation that fails its schema is listed in History and opens with what can be read', async () => {
    await mkdir(join(dir, 'conversations'), { recursive: true });
    const broken = {
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      nextSeq: 'x',
      messages: [
        { id: 'msg_000', role: 'user', content: 'Question kept', createdAt: '2026-01-01T00:00:00.000Z', status: 'complete' },
        { id: 'msg_001', role: 'assistant', content: 'Answer kept', status: 'done', meta: { model: 'm', credits: -1 } },
      ],
    };
    await writeFile(join(dir, 'conversations', 'old-chat.json'), JSON.stringify(broken));
    const store = newStore();
    const list = await store.list();
    assert.deepEqual(list.map((c) => [c.id, c.title]), [['old-chat', 'Question kept']]);
    const opened = await store.open('old-chat');
    assert.deepEqual(opened?.messages.map((m) => m.content), ['Question kept', 'Answer kept']);
    assert.deepEqual(opened?.messages[1].meta, { model: 'm' });
  });

  it('an append after one cut short starts on a line of its own (nothing glued to the torn record)', async () => {
    const file = join(dir, 'torn.jsonl');
    await writeFile(file, '{"t":"h"}\n{"t":"m","k":"a.1","m":{"id":"msg_0');
    const size = await appendDurably(file, '{"t":"u","title":"next"}\n');
    const text = await readFile(file, 'utf8');
    assert.equal(size, Buffer.byteLength(text));
    assert.deepEqual(text.split('\n').slice(-2), ['{"t":"u","title":"next"}', '']);
    await appendDurably(file, '{"t":"u","title":"again"}\n');
    assert.ok((await readFile(file, 'utf8')).endsWith('"next"}\n{"t":"u","title":"again"}\n'), 'no blank line added after a whole one');
  });

  it('a conversation deleted in one window while another sends: only what the other window added is written, header first', async () => {
    const a = newStore();
    appendMessage(a.current, 'user', 'Q0');
    appendMessage(a.current, 'assistant', 'A0');
    await a.save();
    const id = a.current.id;
    const b = newStore();
    await b.remove(id);
    appendMessage(a.current, 'user', 'QA from window A');
    await a.save();
    const c = newStore();
    assert.deepEqual((await c.open(id))?.messages.map((m) => m.content), ['QA from window A'], 'the deleted turn stays deleted');
    assert.deepEqual(a.current.messages.map((m) => m.content), ['QA from window A'], 'and is not kept in window A either');
    assert.equal((await c.list()).find((e) => e.id === id)?.messageCount, 1);
  });

  it('a crash between writing a rewritten file and its rename leaves the old file whole; the next start reads it and removes the stray', async () => {
    const a = newStore();
    for (let i = 0; i < 3; i++) {
      appendMessage(a.current, 'user', `Q${i}`);
      appendMessage(a.current, 'assistant', `A${i}`);
      await a.save();
    }
    const id = a.current.id;
    const conversations = join(dir, 'conversations');
    const log = join(conversations, `${id}.jsonl`);
    const before = await readFile(log, 'utf8');
    // What a compaction and an index rewrite cut off before their rename leave: a temporary file
    // with part of the new text beside the untouched originals.
    const strays = [`${log}.4242.1.tmp`, join(conversations, '_index.jsonl.4242.2.tmp')];
    for (const stray of strays) {
      await writeFile(stray, before.slice(0, Math.floor(before.length / 2)));
      const old = new Date(Date.now() - 5 * 60_000);
      await utimes(stray, old, old);
    }
    const b = newStore();
    assert.deepEqual((await b.open(id))?.messages.map((m) => m.content), ['Q0', 'A0', 'Q1', 'A1', 'Q2', 'A2']);
    assert.deepEqual((await b.list()).map((e) => e.id), [id]);
    assert.equal(await readFile(log, 'utf8'), before, 'the log is the one before the crash');
    const left = await readdir(conversations);
    assert.deepEqual(left.filter((f) => f.endsWith('.tmp')), [], 'the strays are removed on start');
  });

  it('deleting a conversation migrated from 0.1.0 removes the copy the migration kept', async () => {
    const conversations = join(dir, 'conversations');
    await mkdir(conversations, { recursive: true });
    const old = { version: 1, id: 'legacy-chat', title: 'Old', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', nextSeq: 1, messages: [{ id: 'msg_000', role: 'user', content: 'a private question', createdAt: '2025-01-01T00:00:00.000Z', status: 'complete' }] };
    await writeFile(join(conversations, 'legacy-chat.json'), JSON.stringify(old));
    const store = newStore();
    assert.equal((await store.list())[0]?.id, 'legacy-chat');
    await store.finishUpgrade(); // listed from the 0.1.0 file; brought in after the indexes
    assert.deepEqual(await readdir(join(conversations, '0.1.0')), ['legacy-chat.json']);
    await store.remove('legacy-chat');
    assert.deepEqual(await readdir(join(conversations, '0.1.0')), []);
    assert.deepEqual(await store.list(), []);
  });

  it('an empty 0.1.0 conversation is brought in when read: listings after the first read the index, not every log again', async () => {
    const conversations = join(dir, 'conversations');
    await mkdir(conversations, { recursive: true });
    const at = '2025-01-01T00:00:00.000Z';
    const full = { version: 1, id: 'legacy-full', title: 'Old', createdAt: at, updatedAt: at, nextSeq: 1, messages: [{ id: 'msg_000', role: 'user', content: 'a question', createdAt: at, status: 'complete' }] };
    const empty = { ...full, id: 'legacy-empty', messages: [] };
    await writeFile(join(conversations, 'legacy-full.json'), JSON.stringify(full));
    await writeFile(join(conversations, 'legacy-empty.json'), JSON.stringify(empty));
    let listings = 0;
    class Counting extends FileConversationStorage {
      override listLogs(): Promise<string[]> {
        listings++;
        return super.listLogs();
      }
    }
    const store = new WindowStore(new Counting(dir));
    for (let i = 0; i < 4; i++) assert.deepEqual((await store.list()).map((c) => c.id), ['legacy-full']);
    const fresh = new WindowStore(new Counting(dir));
    assert.deepEqual((await fresh.list()).map((c) => c.id), ['legacy-full']);
    assert.equal(listings, 1, 'the logs were listed once, to build the index');
  });

  it('History’s first open without an index reads the folder’s names once; a log this window writes after that is listed', async () => {
    const conversations = join(dir, 'conversations');
    await mkdir(conversations, { recursive: true });
    for (let i = 0; i < 30; i++) {
      const c = createConversation(`old-${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)));
      appendMessage(c, 'user', `question ${i}`);
      await writeFile(join(conversations, `old-${i}.jsonl`), encodeLog(c, ['k.0']));
    }
    const fsp = createRequire(__filename)('node:fs/promises') as { readdir: (...args: unknown[]) => Promise<string[]> };
    const readdirBefore = fsp.readdir;
    let listings = 0;
    fsp.readdir = (...args: unknown[]) => {
      if (args[0] === conversations) listings++;
      return readdirBefore(...args);
    };
    try {
      const storage = new FileConversationStorage(dir);
      const store = new WindowStore(storage, { rebuildInlineUpTo: 0, newId: () => 'new-one' });
      // As the chat starts: the upgrade looked for, then History listed (the start, the logs, the side files).
      await store.pendingUpgrade();
      assert.equal((await store.list()).length > 0, true);
      await store.catchUpSearch();
      assert.equal(listings, 1, 'one look at the folder');
      appendMessage(store.current, 'user', 'a new question');
      await store.save();
      assert.ok((await storage.listLogs()).includes('new-one'), 'a log written since is listed');
      assert.equal(listings, 2);
      assert.equal((await store.list()).length, 31);
    } finally {
      fsp.readdir = readdirBefore;
    }
  });

  it('reads logs at once until one such read is slow (a network or sleeping disk): the rest wait their turn', async () => {
    const conversations = join(dir, 'conversations');
    await mkdir(conversations, { recursive: true });
    for (const id of ['a', 'b']) {
      const conv = createConversation(id, new Date('2026-01-01T00:00:00Z'));
      appendMessage(conv, 'user', `question ${id}`);
      await writeFile(join(conversations, `${id}.jsonl`), encodeLog(conv, ['s.0']));
    }
    const storage = new FileConversationStorage(dir);
    await storage.listLogs();
    assert.match(String(storage.readLogAtOnce('a')), /question a/, 'a quick read');
    let t = 0;
    Object.defineProperty(performance, 'now', { value: () => (t += 25), configurable: true });
    try {
      assert.match(String(storage.readLogAtOnce('a')), /question a/, 'read, slowly');
    } finally {
      delete (performance as { now?: unknown }).now;
    }
    assert.equal(storage.readLogAtOnce('b'), false, 'not at once after a slow read');
    assert.match(String(await storage.readLog('b')), /question b/);
  });

  /** Records which files and folders are flushed to disk (by inode), in order, while `run` runs. */
  async function syncsDuring(run: () => Promise<void>): Promise<number[]> {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void>; datasync: () => Promise<void> };
    await probe.close();
    const { sync, datasync } = proto;
    const synced: number[] = [];
    const record = function (this: { fd: number }, original: () => Promise<void>) {
      synced.push(fstatSync(this.fd).ino);
      return original.call(this);
    };
    proto.sync = function (this: { fd: number }) {
      return record.call(this, sync);
    };
    proto.datasync = function (this: { fd: number }) {
      return record.call(this, datasync);
    };
    try {
      await run();
    } finally {
      proto.sync = sync;
      proto.datasync = datasync;
    }
    return synced;
  }

  it('a rewritten file and a new log are durable: the conversations folder is flushed after the rename and after the creation', async () => {
    const storage = new FileConversationStorage(dir);
    await storage.appendLog('first', '{"t":"h","v":2,"id":"first","createdAt":"2026-01-01T00:00:00.000Z"}\n');
    const folder = statSync(join(dir, 'conversations')).ino;
    const rewritten = await syncsDuring(async () => {
      await storage.rewriteLog('first', '{"t":"h","v":2,"id":"first","createdAt":"2026-01-01T00:00:00.000Z"}\n');
    });
    const log = statSync(join(dir, 'conversations', 'first.jsonl')).ino;
    assert.deepEqual(rewritten, [log, folder], 'the new file, then (after its rename) the folder');
    const created = await syncsDuring(async () => {
      await storage.appendLog('second', '{"t":"h","v":2,"id":"second","createdAt":"2026-01-01T00:00:00.000Z"}\n');
    });
    assert.deepEqual(created, [statSync(join(dir, 'conversations', 'second.jsonl')).ino, folder], 'a new log: the file, then the folder that names it');
    const appended = await syncsDuring(async () => {
      await storage.appendLog('second', '{"t":"u","title":"x"}\n');
    });
    assert.deepEqual(appended, [statSync(join(dir, 'conversations', 'second.jsonl')).ino], 'an append to a log that exists flushes the file only');
  });
});
