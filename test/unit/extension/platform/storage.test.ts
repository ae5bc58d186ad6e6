import { strict as assert } from 'node:assert';
import { cp, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendMessage, type Conversation } from '../../../../src/core';
import { FileConversationStorage } from '../../../../src/extension/platform/conversationFiles';
import { WindowStore } from '../../../support/windowStore';

const FIXTURE_0_1_0 = join(__dirname, '..', '..', '..', 'fixtures', 'storage-0.1.0');
const REPLY = 'A reply of about eight kilobytes. '.repeat(240);

describe('conversation storage (logs, index, search, windows, 0.1.0 migration)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ai-chat-store-'));
  });
  // A write the store started in the last test may still land while the folder is removed: retried.
  afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

  let windows = 0;
  const newStore = (windowDir?: string, storage?: FileConversationStorage) => {
    const w = ++windows;
    let n = 0;
    return new WindowStore(storage ?? new FileConversationStorage(dir, windowDir ?? join(dir, `window-${w}`)), {
      newId: () => `w${w}-conv-${++n}`,
      searchPersistDelayMs: 10,
    });
  };
  const convDir = () => join(dir, 'conversations');
  const logOf = (id: string) => readFile(join(convDir(), `${id}.jsonl`), 'utf8');
  const turn = (c: Conversation, q: string, a: string) => {
    appendMessage(c, 'user', q);
    appendMessage(c, 'assistant', a, new Date(), { meta: { model: 'swift-chat' } });
  };

  it('a turn appends to the log of a 300-turn conversation: what was written stays byte for byte', async () => {
    const s = newStore();
    for (let i = 0; i < 300; i++) turn(s.current, `question ${i}`, REPLY);
    await s.save();
    const before = await logOf(s.current.id);
    assert.ok(before.length > 300 * 8000, 'the whole conversation is on disk');
    turn(s.current, 'question 300', 'the last reply');
    await s.save();
    const after = await logOf(s.current.id);
    assert.ok(after.startsWith(before), 'the earlier bytes are untouched');
    const added = after.slice(before.length);
    assert.ok(added.length < 1000, `only the new turn is written (${added.length} bytes)`);
    assert.match(added, /the last reply/);
    const reopened = await newStore().open(s.current.id);
    assert.equal(reopened?.messages.length, 602);
  });

  it('a streaming reply goes to a side file; a crash mid-reply reopens it as stopped, compacted', async () => {
    const s = newStore();
    appendMessage(s.current, 'user', 'tell me a story');
    const reply = appendMessage(s.current, 'assistant', 'Once upon', new Date(), { status: 'streaming' });
    await s.save();
    const logBefore = await logOf(s.current.id);
    reply.content += ' a time, there was a parser';
    await s.save();
    assert.equal(await logOf(s.current.id), logBefore, 'the partial reply does not touch the log');
    const sides = (await readdir(convDir())).filter((n) => n.endsWith('.partial'));
    assert.equal(sides.length, 1);
    // The window is gone here. Another one opens the conversation.
    const other = newStore();
    const opened = await other.open(s.current.id);
    assert.equal(opened?.messages[1].content, 'Once upon a time, there was a parser');
    assert.equal(opened?.messages[1].status, 'stopped');
    assert.deepEqual((await readdir(convDir())).filter((n) => n.endsWith('.partial')), [], 'folded into the log');
    assert.match(await logOf(s.current.id), /there was a parser/);
  });

  it('the final reply replaces its side file; edits (retry, edit last) are recorded, not lost', async () => {
    const s = newStore();
    appendMessage(s.current, 'user', 'first');
    const r = appendMessage(s.current, 'assistant', 'par', new Date(), { status: 'streaming' });
    await s.save();
    r.content = 'partial then failed';
    r.status = 'error';
    await s.save();
    assert.deepEqual((await readdir(convDir())).filter((n) => n.endsWith('.partial')), []);
    s.current.messages.pop(); // retry takes the failed reply out
    appendMessage(s.current, 'assistant', 'the good answer');
    await s.save();
    const opened = await newStore().open(s.current.id);
    assert.deepEqual(opened?.messages.map((m) => m.content), ['first', 'the good answer']);
    assert.doesNotMatch(await logOf(s.current.id), /"t":"x"/, 'compacted when opened');
  });

  it('skips a line a crash cut short, and keeps everything before it', async () => {
    const s = newStore();
    turn(s.current, 'kept question', 'kept answer');
    await s.save();
    await writeFile(join(convDir(), `${s.current.id}.jsonl`), (await logOf(s.current.id)) + '{"t":"m","k":"z","m":{"id":"msg_0', { flag: 'w' });
    const opened = await newStore().open(s.current.id);
    assert.deepEqual(opened?.messages.map((m) => m.content), ['kept question', 'kept answer']);
  });

  it('removes temporary files a crash left behind, not one being written now', async () => {
    const s = newStore();
    turn(s.current, 'q', 'a');
    await s.save();
    const stray = join(convDir(), 'x.jsonl.123.1.tmp');
    const fresh = join(convDir(), 'y.jsonl.123.2.tmp');
    await writeFile(stray, 'half');
    await writeFile(fresh, 'half');
    const old = new Date(Date.now() - 3600_000);
    await utimes(stray, old, old);
    await newStore().list();
    const names = await readdir(convDir());
    assert.ok(!names.includes('x.jsonl.123.1.tmp'), 'stray temp file removed');
    assert.ok(names.includes('y.jsonl.123.2.tmp'), 'a write in progress is left alone');
  });

  it('two windows on one folder: send in A, then in B, nothing lost', async () => {
    const a = newStore();
    turn(a.current, 'started in A', 'first reply');
    await a.save();
    const id = a.current.id;
    const b = newStore();
    await b.open(id);
    turn(a.current, 'sent in A', 'reply in A');
    await a.save();
    turn(b.current, 'sent in B', 'reply in B');
    await b.save();
    const opened = await newStore().open(id);
    assert.deepEqual(opened?.messages.map((m) => m.content), ['started in A', 'first reply', 'sent in A', 'reply in A', 'sent in B', 'reply in B']);
    assert.equal(new Set(opened?.messages.map((m) => m.id)).size, 6, 'message ids stay unique');
    assert.deepEqual(b.current.messages.map((m) => m.content), opened?.messages.map((m) => m.content), 'B took in A’s turn');
    assert.equal(new Set(b.current.messages.map((m) => m.id)).size, 6);
    const [entry] = await newStore().list();
    assert.equal(entry.messageCount, 6, 'the index counts both windows’ turns');
  });

  it('keeps the current conversation per window (workspace), not one for all', async () => {
    const a = newStore(join(dir, 'ws-a'));
    const b = newStore(join(dir, 'ws-b'));
    turn(a.current, 'in workspace A', 'x');
    await a.save();
    await a.rememberCurrent();
    turn(b.current, 'in workspace B', 'y');
    await b.save();
    await b.rememberCurrent();
    assert.equal(await newStore(join(dir, 'ws-a')).lastOpenedId(), a.current.id);
    assert.equal(await newStore(join(dir, 'ws-b')).lastOpenedId(), b.current.id);
  });

  it('lists from the index without reading any conversation, with title, dates, count, model and first line', async () => {
    const s = newStore();
    turn(s.current, 'How to parse JSON lines?', 'Split on newlines.\nThen parse each.');
    await s.save();
    class NoReads extends FileConversationStorage {
      override readLog(): Promise<string | undefined> {
        throw new Error('list() read a conversation');
      }
    }
    const listed = await newStore(undefined, new NoReads(dir, join(dir, 'w'))).list();
    assert.equal(listed.length, 1);
    assert.equal(listed[0].title, 'How to parse JSON lines?');
    assert.equal(listed[0].messageCount, 2);
    assert.equal(listed[0].model, 'swift-chat');
    assert.equal(listed[0].firstLine, 'Split on newlines.');
    assert.ok(listed[0].createdAt && listed[0].updatedAt);
  });

  it('finds a conversation by a word inside a reply, in a new window from the persisted index', async () => {
    const s = newStore();
    turn(s.current, 'What sorts in place?', 'Use the heapsort algorithm when memory is tight.');
    await s.save();
    s.newConversation();
    turn(s.current, 'Unrelated', 'Nothing to see.');
    await s.save();
    await s.catchUpSearch();
    assert.deepEqual((await s.search('heapsort')).map((h) => h.title), ['What sorts in place?']);
    assert.deepEqual((await s.search('heaps')).map((h) => h.title), ['What sorts in place?'], 'a word being typed matches');
    turn(s.current, 'More', 'A zygomorphic flower.');
    await s.save();
    assert.equal((await s.search('zygomorphic')).length, 1, 'updated per turn');
    await s.flush();
    class NoReads extends FileConversationStorage {
      override readLog(): Promise<string | undefined> {
        throw new Error('search read a conversation');
      }
    }
    const other = newStore(undefined, new NoReads(dir, join(dir, 'w')));
    assert.equal(await other.catchUpSearch(), 0, 'nothing to re-read: the index was persisted');
    assert.equal((await other.search('zygomorphic'))[0]?.title, 'Unrelated');
  });

  it('catches up with conversations another window changed', async () => {
    const a = newStore();
    const b = newStore();
    await b.catchUpSearch();
    turn(a.current, 'From A', 'a quokka appears');
    await a.save();
    assert.equal((await b.search('quokka')).length, 0);
    assert.equal(await b.catchUpSearch(), 1);
    assert.equal((await b.search('quokka'))[0]?.title, 'From A');
  });

  it('renames, removes and restores (undo) a conversation, index and search included', async () => {
    const s = newStore();
    turn(s.current, 'old title', 'the word marmalade');
    await s.save();
    const conv = s.current;
    s.newConversation();
    await s.rename(conv.id, '  Breakfast   notes ');
    let other = newStore();
    assert.equal((await other.list())[0].title, 'Breakfast notes');
    assert.equal((await other.open(conv.id))?.title, 'Breakfast notes');
    await s.catchUpSearch();
    const kept = await s.load(conv.id);
    assert.ok(kept);
    await s.remove(conv.id);
    assert.deepEqual(await s.list(), []);
    assert.deepEqual(await s.search('marmalade'), []);
    await s.restore(kept);
    other = newStore();
    assert.equal((await other.list())[0].title, 'Breakfast notes');
    assert.deepEqual((await other.open(conv.id))?.messages.map((m) => m.content), ['old title', 'the word marmalade']);
    assert.equal((await s.search('marmalade'))[0]?.id, conv.id);
  });

  it('flush() waits for the save asked for last', async () => {
    const s = newStore();
    turn(s.current, 'q', REPLY);
    void s.save();
    await s.flush();
    assert.ok((await stat(join(convDir(), `${s.current.id}.jsonl`))).size > REPLY.length);
  });

  describe('0.1.0 folder', () => {
    beforeEach(() => cp(FIXTURE_0_1_0, dir, { recursive: true }));

    it('opens every 0.1.0 conversation after the upgrade, nothing lost, the old files kept', async () => {
      const originals = new Map<string, string>();
      for (const name of await readdir(join(FIXTURE_0_1_0, 'conversations'))) {
        if (name.endsWith('.json')) originals.set(name, await readFile(join(FIXTURE_0_1_0, 'conversations', name), 'utf8'));
      }
      const s = newStore();
      const list = await s.list();
      assert.deepEqual(list.map((c) => c.title), ['Explain the borrow checker', 'How do I debounce a function in TypeScript?']);
      assert.equal(await s.lastOpenedId(), 'a3c91d7e-88b2-4f0a-b5c3-6e4d2a1f9b70', 'the 0.1.0 current conversation');
      for (const c of list) {
        const old = JSON.parse(originals.get(`${c.id}.json`) as string) as Conversation;
        const opened = await s.open(c.id);
        assert.ok(opened);
        assert.equal(opened.title, old.title);
        assert.equal(opened.createdAt, old.createdAt);
        assert.deepEqual(
          opened.messages.map((m) => [m.id, m.role, m.content, m.meta, m.error]),
          old.messages.map((m) => [m.id, m.role, m.content, m.meta, m.error]),
        );
        assert.deepEqual(
          opened.messages.map((m) => m.status),
          old.messages.map((m) => (m.status === 'streaming' ? 'stopped' : m.status)),
        );
      }
      // Migrated files are kept, unchanged; one that does not parse is left where it was.
      for (const [name, text] of originals) {
        if (name.startsWith('0c0c')) assert.equal(await readFile(join(convDir(), name), 'utf8'), text);
        else assert.equal(await readFile(join(convDir(), '0.1.0', name), 'utf8'), text);
      }
      await s.catchUpSearch();
      assert.equal((await s.search('ownership lifetimes'))[0]?.id, 'a3c91d7e-88b2-4f0a-b5c3-6e4d2a1f9b70', 'searchable');
    });

    it('a second window after the migration finds the same conversations', async () => {
      await newStore().list();
      const again = await newStore().list();
      assert.equal(again.length, 2);
    });
  });
});
