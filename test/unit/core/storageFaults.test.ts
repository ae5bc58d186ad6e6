import { strict as assert } from 'node:assert';
import { appendMessage, ConversationStore, MemoryConversationStorage, replayLog } from '../../../src/core';

/** The in-memory port with a disk that can fail: the next appends throw, after writing `keep` of their text. */
class FailingStorage extends MemoryConversationStorage {
  failures: Array<{ code: string; keep: number }> = [];
  override async appendLog(id: string, text: string): Promise<number> {
    const f = this.failures.shift();
    if (f) {
      if (f.keep > 0) await super.appendLog(id, text.slice(0, Math.floor(text.length * f.keep)));
      throw Object.assign(new Error(`${f.code}: the disk refused the write`), { code: f.code });
    }
    return super.appendLog(id, text);
  }
}

const contents = (storage: MemoryConversationStorage, id: string) => replayLog(storage.data.get(id) ?? '', [], id)?.conv.messages.map((m) => m.content);

describe('conversation storage that cannot lie: failed and partial writes', () => {
  let n = 0;
  const newStore = (storage: MemoryConversationStorage) => new ConversationStore(storage, { newId: () => `conv-${++n}`, searchPersistDelayMs: 5 });

  async function turn(s: ConversationStore, q: string, a: string): Promise<unknown> {
    appendMessage(s.current, 'user', q);
    appendMessage(s.current, 'assistant', a);
    return s.save().then(
      () => undefined,
      (err: unknown) => err,
    );
  }

  for (const [name, keep] of [
    ['ENOSPC before anything was written', 0],
    ['EIO after half of the records', 0.5],
    ['a write cut in the middle of a record', 0.37],
  ] as const) {
    it(`${name}: the next save writes the turn that failed, nothing is glued to a torn line, the user is told once`, async () => {
      const storage = new FailingStorage();
      const s = newStore(storage);
      const told: Array<string | undefined> = [];
      s.onDidChangeSaveState((f) => told.push(f?.message));
      assert.equal(await turn(s, 'Q1', 'A1'), undefined);
      storage.failures.push({ code: keep === 0 ? 'ENOSPC' : 'EIO', keep });
      assert.ok(await turn(s, 'Q2 (saved while the disk fails)', 'A2'), 'the failed save is reported to the caller');
      assert.ok(s.saveFailure, 'the store knows saving fails');
      assert.equal(s.current.messages.length, 4, 'the conversation stays in memory');
      assert.equal(await turn(s, 'Q3 (disk works again)', 'A3'), undefined);
      assert.deepEqual(contents(storage, s.current.id), ['Q1', 'A1', 'Q2 (saved while the disk fails)', 'A2', 'Q3 (disk works again)', 'A3']);
      // What came after the failure is whole records on lines of their own (a torn line stays alone).
      const lines = (storage.data.get(s.current.id) ?? '').split('\n').filter(Boolean);
      const whole = lines.filter((line) => {
        try {
          JSON.parse(line);
          return true;
        } catch {
          return false;
        }
      });
      assert.ok(lines.length - whole.length <= 1, `${lines.length - whole.length} torn lines`);
      assert.ok(whole.some((l) => l.includes('Q3 (disk works again)')) && whole.some((l) => l.includes('"A3"')));
      assert.equal(told.length, 2, 'told when it failed and when it worked again, not per save');
      assert.match(told[0] ?? '', /refused/);
      assert.equal(told[1], undefined);
      // Another window reading it sees the same.
      const other = newStore(storage);
      assert.deepEqual((await other.open(s.current.id))?.messages.map((m) => m.content), contents(storage, s.current.id));
      // Opening it compacts the log: every line is a whole record again.
      for (const line of (storage.data.get(s.current.id) ?? '').split('\n').filter(Boolean)) assert.doesNotThrow(() => JSON.parse(line), line);
    });
  }

  it('a first save cut short (the header torn) is written whole by the next one: the log is readable', async () => {
    const storage = new FailingStorage();
    const s = newStore(storage);
    storage.failures.push({ code: 'EIO', keep: 0.05 });
    assert.ok(await turn(s, 'first question', 'first answer'));
    assert.equal(replayLog(storage.data.get(s.current.id) ?? ''), undefined, 'the torn log is unreadable as it stands');
    assert.equal(await turn(s, 'second question', 'second answer'), undefined);
    assert.deepEqual(contents(storage, s.current.id), ['first question', 'first answer', 'second question', 'second answer']);
    assert.equal((await newStore(storage).list())[0]?.messageCount, 4);
  });

  it('a log deleted by another window is written again with its header when this window sends', async () => {
    const storage = new MemoryConversationStorage();
    const a = newStore(storage);
    await turn(a, 'Q0', 'A0');
    const id = a.current.id;
    const b = newStore(storage);
    await b.open(id);
    await b.remove(id);
    assert.equal(storage.data.has(id), false);
    assert.equal(await turn(a, 'QA from window A', 'reply to QA'), undefined);
    const replayed = replayLog(storage.data.get(id) ?? '', [], id);
    assert.ok(replayed, 'the log is readable');
    assert.deepEqual(
      replayed.conv.messages.map((m) => m.content),
      ['Q0', 'A0', 'QA from window A', 'reply to QA'],
    );
    const listed = await newStore(storage).list();
    assert.equal(listed.find((c) => c.id === id)?.messageCount, 4);
    assert.deepEqual((await newStore(storage).open(id))?.messages.length, 4);
  });

  it('History > Delete while the reply streams: the conversation stays deleted (log, index and search)', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    await s.catchUpSearch();
    appendMessage(s.current, 'user', 'a secret I want deleted');
    const reply = appendMessage(s.current, 'assistant', 'partial', new Date(), { status: 'streaming' });
    const conv = s.current;
    await s.save(conv);
    await s.remove(conv.id);
    assert.equal(storage.data.has(conv.id), false);
    // The running turn goes on with the conversation it holds, and saves it when it stops.
    reply.content = 'partial reply…';
    reply.status = 'stopped';
    await s.save(conv);
    assert.equal(storage.data.has(conv.id), false, 'not written back');
    assert.equal(storage.partials.get(conv.id)?.size ?? 0, 0, 'no side file');
    assert.equal((await newStore(storage).list()).some((c) => c.id === conv.id), false, 'not listed');
    assert.deepEqual(await s.search('secret'), []);
    // Undo puts it back, and later saves of it work again.
    await s.restore(conv);
    appendMessage(conv, 'user', 'after undo');
    await s.save(conv);
    assert.deepEqual(contents(storage, conv.id)?.slice(-1), ['after undo']);
  });

  it('a log whose header names another id opens under its own id and later saves of it work', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    await turn(s, 'hello', 'hi');
    const good = storage.data.get(s.current.id) ?? '';
    storage.data.set('aaa', good.replace(`"id":"${s.current.id}"`, '"id":"../../evil"'));
    const other = newStore(storage);
    const opened = await other.open('aaa');
    assert.equal(opened?.id, 'aaa');
    assert.equal(other.current.id, 'aaa');
    appendMessage(other.current, 'user', 'next');
    await other.save();
    assert.deepEqual(contents(storage, 'aaa'), ['hello', 'hi', 'next']);
    assert.match(storage.data.get('aaa') ?? '', /^\{"t":"h","v":2,"id":"aaa"/);
  });

  it('a paid reply whose credits or token counts are out of range is repaired on replay, never erased by compaction', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    await turn(s, 'hi', 'Hello, this reply was paid for.');
    const id = s.current.id;
    const log = (storage.data.get(id) ?? '')
      .split('\n')
      .map((line) => (line.includes('Hello, this reply') ? line.replace('"status":"complete"', '"status":"complete","meta":{"model":"cheap-chat","promptTokens":1e400,"completionTokens":10,"credits":-1}') : line))
      .join('\n');
    assert.match(log, /"credits":-1/);
    storage.data.set(id, log);
    const other = newStore(storage);
    const conv = await other.open(id);
    assert.deepEqual(conv?.messages.map((m) => m.content), ['hi', 'Hello, this reply was paid for.']);
    assert.deepEqual(conv?.messages[1].meta, { model: 'cheap-chat', completionTokens: 10 });
    // Opened (and compacted) again elsewhere: still there.
    assert.deepEqual(contents(storage, id), ['hi', 'Hello, this reply was paid for.']);
    assert.doesNotMatch(storage.data.get(id) ?? '', /"credits":-1/, 'the compacted log holds the repaired record');
  });

  it('a deleted conversation leaves no word in the persisted search index', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    await s.catchUpSearch();
    await turn(s, 'zanzibarian pelicans', 'a unique ornithopterine answer');
    const keep = newStore(storage);
    await keep.catchUpSearch();
    await s.flush();
    assert.match(storage.searchIndex ?? '', /zanzibarian/);
    await s.remove(s.current.id === undefined ? '' : (await s.list())[0].id);
    await s.flush();
    assert.deepEqual(await s.search('zanzibarian'), []);
    assert.doesNotMatch(storage.searchIndex ?? '', /zanzibarian|ornithopterine/);
  });
});
