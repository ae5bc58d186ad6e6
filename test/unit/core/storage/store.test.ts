import { strict as assert } from 'node:assert';
import { appendMessage, replayLog } from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

describe('conversation store: index and search kept up to date', () => {
  let n = 0;
  const newStore = (storage: MemoryConversationStorage) => new WindowStore(storage, { newId: () => `conv-${++n}`, searchPersistDelayMs: 5 });

  it('keeps the index file short: rewritten once most of its lines are stale', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    for (let i = 0; i < 400; i++) {
      appendMessage(s.current, 'user', `q${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
      await s.save();
    }
    const lines = (storage.index ?? '').split('\n').filter(Boolean).length;
    assert.ok(lines <= 2 * 1 + 101, `${lines} lines for one conversation`);
    const [entry] = await newStore(storage).list();
    assert.equal(entry.messageCount, 400);
  });

  it('a taken-out message (edit, retry) leaves the search, a new turn enters it', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    await s.catchUpSearch();
    appendMessage(s.current, 'user', 'about pelicans');
    appendMessage(s.current, 'assistant', 'pelicans have a pouch');
    await s.save();
    assert.equal((await s.search('pouch'))[0]?.matches, 1);
    s.current.messages.splice(0); // edit takes the turn back
    appendMessage(s.current, 'user', 'about herons');
    await s.save();
    assert.deepEqual(await s.search('pouch'), []);
    assert.equal((await s.search('herons')).length, 1);
    assert.equal((await s.search('about'))[0]?.matches, 1, 'each message indexed once');
  });

  it('a streaming reply is searchable once it ends, and the log never holds it half-written', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    await s.catchUpSearch();
    appendMessage(s.current, 'user', 'q');
    const r = appendMessage(s.current, 'assistant', 'half', new Date(), { status: 'streaming' });
    await s.save();
    assert.doesNotMatch(storage.data.get(s.current.id) ?? '', /half/);
    assert.deepEqual(await s.search('halfway'), []);
    r.content = 'halfway there';
    r.status = 'complete';
    await s.save();
    assert.equal((await s.search('halfway')).length, 1);
    assert.equal(replayLog(storage.data.get(s.current.id) ?? '')?.conv.messages[1].content, 'halfway there');
    assert.equal(storage.partials.get(s.current.id)?.size ?? 0, 0, 'side file removed');
  });

  it('a question whose record of what went with it changed (a Retry with another rule) is written again, and reads back so', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    const q = appendMessage(s.current, 'user', 'fix it', new Date(), { sent: [{ kind: 'file', name: 'a.ts', path: 'src/a.ts', bytes: 120 }] });
    appendMessage(s.current, 'assistant', 'done');
    await s.save();
    // Retry: the same question, sent again with the project instructions and a rule beside the file.
    q.sent = [...(q.sent ?? []), { kind: 'instructions', name: 'AGENTS.md', path: 'AGENTS.md', bytes: 40 }, { kind: 'rule', name: 'ts.instructions.md', path: '.github/instructions/ts.instructions.md', bytes: 30 }];
    await s.save();
    const read = replayLog(storage.data.get(s.current.id) ?? '')?.conv.messages[0];
    assert.deepEqual(read?.sent?.map((i) => i.kind), ['file', 'instructions', 'rule']);
    const again = await newStore(storage).load(s.current.id);
    assert.deepEqual(again?.messages[0].sent?.map((i) => i.name), ['a.ts', 'AGENTS.md', 'ts.instructions.md']);
  });

  it('renames the current conversation in memory and on storage', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    appendMessage(s.current, 'user', 'original');
    await s.save();
    await s.rename(s.current.id, 'New name');
    assert.equal(s.current.title, 'New name');
    assert.equal((await storage.read(s.current.id))?.title, 'New name');
    assert.equal((await newStore(storage).list())[0].title, 'New name');
  });
});
