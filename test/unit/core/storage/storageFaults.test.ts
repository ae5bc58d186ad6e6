import { strict as assert } from 'node:assert';
import { appendMessage, ChatSession, replayLog, directTurns, type ChatBackend } from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

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
  const newStore = (storage: MemoryConversationStorage) => new WindowStore(storage, { newId: () => `conv-${++n}`, searchPersistDelayMs: 5 });

  async function turn(s: WindowStore, q: string, a: string): Promise<unknown> {
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

  it('a log deleted by another window: what this window adds is written with a header, what was deleted is not', async () => {
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
      ['QA from window A', 'reply to QA'],
    );
    const listed = await newStore(storage).list();
    assert.equal(listed.find((c) => c.id === id)?.messageCount, 2);
    assert.deepEqual((await newStore(storage).open(id))?.messages.length, 2);
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

// ---- N1, N2, N3: a failed delete, a failed save left behind, a failed index write ----

/** A memory port whose faults are switched on by the test: removal, log appends, index appends. */
class FaultyStorage extends MemoryConversationStorage {
  removeFails: string | undefined;
  diskFull = false;
  indexFails = 0;
  override async removeLog(id: string): Promise<void> {
    if (this.removeFails) throw Object.assign(new Error(`${this.removeFails}: resource busy or locked, unlink '${id}.jsonl'`), { code: this.removeFails });
    return super.removeLog(id);
  }
  override async appendLog(id: string, text: string): Promise<number> {
    if (this.diskFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return super.appendLog(id, text);
  }
  override async writePartial(id: string, writer: string, text: string): Promise<void> {
    if (this.diskFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return super.writePartial(id, writer, text);
  }
  override async appendIndex(text: string): Promise<void> {
    if (this.indexFails > 0) {
      this.indexFails--;
      throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    }
    return super.appendIndex(text);
  }
}

/** A service that answers every message with "answer to <message>". */
const echo: ChatBackend = {
  async chat() {
    throw new Error('not used');
  },
  async chatStream(req) {
    return {
      abort() {},
      async *[Symbol.asyncIterator]() {
        yield { event: 'f', messageId: 'x' } as const;
        yield { event: '0', data: `answer to ${req.messages.at(-1)?.content}` } as const;
        yield { event: 'd', finishReason: 'stop' } as const;
      },
    };
  },
};

function sessionOn(storage: MemoryConversationStorage) {
  let n = 0;
  const store = new WindowStore(storage, { newId: () => `conv-${Math.random().toString(36).slice(2, 8)}-${++n}`, searchPersistDelayMs: 5 });
  const states: string[] = [];
  store.onDidChangeSaveState((f) => states.push(f ? 'failing' : 'working'));
  const session = new ChatSession({
    store,
    turns: directTurns(() => echo),
    settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: '' }),
    modelCost: () => 1,
    onEvent: () => {},
    flushIntervalMs: 0,
    partialSaveIntervalMs: 0,
  });
  return { store, session, states };
}

describe('storage faults: a failed delete, a failed save left behind, a failed index write', () => {
  it('N1: a Delete whose file removal fails (EBUSY) says so and deletes nothing; later turns are saved', async () => {
    const storage = new FaultyStorage();
    const { store, session, states } = sessionOn(storage);
    await session.send('Q1');
    const id = session.conversation.id;
    storage.removeFails = 'EBUSY';
    await assert.rejects(store.remove(id), /EBUSY/, 'the failed delete is reported to History');
    storage.removeFails = undefined;
    assert.equal(session.conversation.id, id, 'still the current conversation');
    assert.ok((await store.list()).some((c) => c.id === id), 'still listed');
    await session.send('Q2, typed after the failed delete');
    await store.flush();
    assert.deepEqual(contents(storage, id), ['Q1', 'answer to Q1', 'Q2, typed after the failed delete', 'answer to Q2, typed after the failed delete']);
    assert.equal(store.saveFailure, undefined);
    assert.deepEqual(states, []);
    // Deleting it again works once the file is free.
    await store.remove(id);
    assert.equal(storage.data.has(id), false);
    assert.equal((await store.list()).some((c) => c.id === id), false);
  });

  it('N1: a conversation deleted here, written back by another window and opened again: its turns are saved', async () => {
    const storage = new MemoryConversationStorage();
    const a = sessionOn(storage);
    const b = sessionOn(storage);
    await a.session.send('Q1');
    const id = a.session.conversation.id;
    await a.store.flush();
    assert.ok(await b.session.open(id));
    await a.store.remove(id); // window A: History > Delete
    await a.session.newChat();
    // Window B still held it and saves it (a reply ending there): it is on disk again.
    appendMessage(b.store.current, 'user', 'Q2 from window B');
    appendMessage(b.store.current, 'assistant', 'answer to Q2 from window B');
    await b.store.save(b.store.current);
    assert.ok((await a.store.list()).some((c) => c.id === id), 'listed again');
    assert.ok(await a.session.open(id));
    await a.session.send('Q3 typed in window A after reopening it');
    await a.store.flush();
    assert.deepEqual(contents(storage, id)?.slice(-2), ['Q3 typed in window A after reopening it', 'answer to Q3 typed in window A after reopening it']);
    assert.equal(a.store.saveFailure, undefined);
  });

  for (const how of ['New Chat', 'History > open another conversation'] as const) {
    it(`N2: a turn that failed to save (disk full) survives ${how}; Retry writes it, and only then says it works again`, async () => {
      const storage = new FaultyStorage();
      const { store, session, states } = sessionOn(storage);
      await session.send('older conversation');
      const other = session.conversation.id;
      await session.newChat();
      await session.send('Q1');
      const a = session.conversation.id;
      storage.diskFull = true;
      await session.send('Q2, answered while the disk is full');
      await store.flush().catch(() => undefined);
      assert.deepEqual(states, ['failing']);
      if (how === 'New Chat') await session.newChat();
      else assert.ok(await session.open(other));
      // Retry while the disk is still full: still failing, nothing lost.
      await assert.rejects(store.saveAll());
      assert.deepEqual(states, ['failing']);
      storage.diskFull = false; // the user frees space
      await store.saveAll(); // the warning's Retry
      await store.flush();
      assert.deepEqual(states, ['failing', 'working']);
      assert.deepEqual(contents(storage, a), ['Q1', 'answer to Q1', 'Q2, answered while the disk is full', 'answer to Q2, answered while the disk is full']);
      assert.equal(store.saveFailure, undefined);
    });
  }

  it('N2: a conversation left with an unsaved turn reopens from History with that turn, and a save of another conversation writes it too', async () => {
    const storage = new FaultyStorage();
    const { store, session, states } = sessionOn(storage);
    await session.send('Q1');
    const a = session.conversation.id;
    storage.diskFull = true;
    await session.send('Q2, answered while the disk is full');
    await session.newChat();
    storage.diskFull = false;
    await session.send('a question in a new conversation');
    await store.flush();
    assert.deepEqual(contents(storage, a)?.slice(-1), ['answer to Q2, answered while the disk is full']);
    assert.deepEqual(states, ['failing', 'working']);
    assert.ok(await session.open(a));
    assert.equal(session.conversation.messages.length, 4);
  });

  it('N2: while a left conversation is still unsaved, a save of another one does not say saving works again', async () => {
    const storage = new FaultyStorage();
    const { store, session, states } = sessionOn(storage);
    await session.send('Q1');
    const a = session.conversation.id;
    storage.diskFull = true;
    await session.send('Q2, answered while the disk is full');
    await session.newChat();
    // The disk works for the new conversation's log but this one's stays refused (a locked file).
    const append = storage.appendLog.bind(storage);
    storage.diskFull = false;
    storage.appendLog = async (id: string, text: string) => {
      if (id === a) throw Object.assign(new Error('EPERM: operation not permitted, open'), { code: 'EPERM' });
      return append(id, text);
    };
    await session.send('a question in a new conversation');
    await store.flush();
    assert.deepEqual(states, ['failing'], 'still failing: conversation A is not on disk');
    assert.ok(store.saveFailure);
    storage.appendLog = append;
    await store.saveAll();
    assert.deepEqual(states, ['failing', 'working']);
    assert.deepEqual(contents(storage, a)?.length, 4);
  });

  it('N2: deleting the conversation that could not be saved ends the warning: nothing is left unwritten', async () => {
    const storage = new FaultyStorage();
    const { store, session, states } = sessionOn(storage);
    await session.send('Q1');
    const a = session.conversation.id;
    storage.diskFull = true;
    await session.send('Q2, answered while the disk is full');
    await session.newChat();
    await store.remove(a);
    assert.deepEqual(states, ['failing', 'working']);
    assert.equal(store.saveFailure, undefined);
    assert.equal(storage.data.has(a), false);
  });

  it('N3: a failed append to the history index is not counted as written: Retry writes it, History lists it', async () => {
    const storage = new FaultyStorage();
    const s = new WindowStore(storage);
    const states: string[] = [];
    s.onDidChangeSaveState((f) => states.push(f ? 'failing' : 'working'));
    await s.list(); // History was opened once (the index is loaded)
    const conv = s.current;
    appendMessage(conv, 'user', 'an important question');
    appendMessage(conv, 'assistant', 'its answer');
    storage.indexFails = 1;
    await assert.rejects(s.save(conv), /EIO/);
    await s.save(conv); // Retry
    assert.deepEqual(states, ['failing', 'working']);
    assert.deepEqual(contents(storage, conv.id), ['an important question', 'its answer']);
    assert.ok((await s.list()).some((c) => c.id === conv.id), 'History lists it');
    assert.ok((await new WindowStore(storage).list()).some((c) => c.id === conv.id), 'another window lists it');
  });

  it('N3: a failed index rewrite (the index compacted) is not counted either', async () => {
    const storage = new FaultyStorage();
    const s = new WindowStore(storage);
    await s.list();
    const conv = s.current;
    const rewrite = storage.rewriteIndex.bind(storage);
    let failRewrite = true;
    storage.rewriteIndex = async (text: string) => {
      if (failRewrite) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      return rewrite(text);
    };
    // Enough saves for the index to be rewritten (compacted) once.
    let failed = 0;
    for (let i = 0; i < 150; i++) {
      appendMessage(conv, 'user', `q${i}`);
      await s.save(conv).catch(() => failed++);
    }
    assert.ok(failed > 0, 'the compaction was tried and failed');
    failRewrite = false;
    await s.save(conv);
    const listed = (await new WindowStore(storage).list()).find((c) => c.id === conv.id);
    assert.equal(listed?.messageCount, 150);
  });
});
