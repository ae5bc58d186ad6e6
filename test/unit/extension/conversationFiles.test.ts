import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendMessage, ConversationStore } from '../../../src/core';
import { FileConversationStorage } from '../../../src/extension/conversationFiles';

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
    return new ConversationStore(new FileConversationStorage(dir), { newId: () => `w${window}-conv-${++n}` });
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
    assert.equal(await b.rememberedCurrentId(), older);
    assert.equal((await b.list())[0].title.startsWith('newer'), true, 'the newest is another one');
  });

  it('has no current conversation before one was recorded, and ignores a tampered pointer', async () => {
    const s = new FileConversationStorage(dir);
    assert.equal(await s.readCurrentId(), undefined);
    await assert.rejects(s.writeCurrentId('../../etc/passwd'));
    await s.writeCurrentId('abc-123');
    assert.equal(await s.readCurrentId(), 'abc-123');
  });
});
