// The session owns the current conversation: reopening the last window's conversation goes
// through it and is told to every surface (conversationChanged, restored), with a version that
// grows with every change, and the pointer to the current conversation follows.
import { strict as assert } from 'node:assert';
import { ChatSession, ConversationStore, appendMessage, type SessionChatRequest, type SessionEvent, directTurns } from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { echoBackend } from '../../../support/backend';

const backend = (requests: SessionChatRequest[]) => echoBackend(requests);

function makeSession(storage: MemoryConversationStorage) {
  const store = new ConversationStore(storage);
  const events: SessionEvent[] = [];
  const requests: SessionChatRequest[] = [];
  const session = new ChatSession({
    store,
    turns: directTurns(() => backend(requests)),
    settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: '' }),
    modelCost: () => 1,
    onEvent: (e) => events.push(e),
    flushIntervalMs: 0,
  });
  return { store, session, events, requests };
}

/** Storage whose logs named in `hold` are read only once `let` says so. */
class HeldStorage extends MemoryConversationStorage {
  hold = new Set<string>();
  private waiting = new Map<string, () => void>();
  private started = new Map<string, () => void>();
  override async readLog(id: string): Promise<string | undefined> {
    if (this.hold.has(id)) {
      this.started.get(id)?.();
      await new Promise<void>((resolve) => this.waiting.set(id, resolve));
    }
    return super.readLog(id);
  }
  /** Resolves once a held log is being read. */
  reading(id: string): Promise<void> {
    return this.waiting.has(id) ? Promise.resolve() : new Promise((resolve) => this.started.set(id, resolve));
  }
  let(id: string): void {
    this.hold.delete(id);
    this.waiting.get(id)?.();
    this.waiting.delete(id);
  }
}

/** A window that had a conversation, closed; its storage is what the next window reads. */
async function lastWindow(turns = 1) {
  const storage = new MemoryConversationStorage();
  const before = makeSession(storage);
  for (let i = 0; i < turns; i++) await before.session.send(`question ${i}`);
  await before.store.flush();
  return { storage, id: before.session.conversation.id };
}

describe('chat session: the conversation of the last window', () => {
  it('the pointer follows the conversation: a turn records it', async () => {
    const { storage, id } = await lastWindow();
    assert.equal(await storage.readCurrentId(), id);
  });

  it('restoring tells every surface (conversationChanged, restored) with a newer version', async () => {
    const { storage, id } = await lastWindow(2);
    const w = makeSession(storage);
    const v0 = w.session.version;
    assert.equal(await w.session.restore((await storage.readCurrentId())), 'restored');
    assert.equal(w.session.conversation.id, id);
    assert.equal(w.session.conversation.messages.length, 4);
    assert.deepEqual(w.events, [{ type: 'conversationChanged', restored: true }]);
    assert.ok(w.session.version > v0);
  });

  it('the next message continues the restored conversation, its turns sent as history', async () => {
    const { storage, id } = await lastWindow();
    const w = makeSession(storage);
    await w.session.restore(id);
    await w.session.send('after the reload');
    assert.deepEqual(w.requests[0].messages.map((m) => m.content), ['question 0', 'reply', 'after the reload']);
  });

  it('a message sent while the conversation is being reopened waits for it and continues it', async () => {
    const { storage, id } = await lastWindow();
    const w = makeSession(storage);
    const restoring = w.session.restore(id);
    const sent = w.session.send('typed at once');
    await Promise.all([restoring, sent]);
    assert.equal(w.session.conversation.id, id);
    assert.deepEqual(w.requests[0].messages.map((m) => m.content), ['question 0', 'reply', 'typed at once']);
  });

  it('a conversation opened, or a New Chat, while the last one is being reopened is the one that stays', async () => {
    const storage = new HeldStorage();
    const before = makeSession(storage);
    await before.session.send('the older one');
    const older = before.session.conversation.id;
    await before.session.newChat();
    await before.session.send('the last one');
    await before.store.flush();
    const last = before.session.conversation.id;

    for (const pick of ['open', 'newChat'] as const) {
      const w = makeSession(storage);
      storage.hold.add(last);
      const restoring = w.session.restore(last);
      await storage.reading(last);
      // The pick is made while the last one's file is still being read; then the file comes.
      const picked = pick === 'open' ? w.session.open(older) : w.session.newChat();
      await new Promise((r) => setTimeout(r, 5));
      storage.let(last);
      await Promise.all([restoring, picked]);
      if (pick === 'open') assert.equal(w.session.conversation.id, older, 'the conversation picked is shown');
      else assert.ok(w.session.conversation.id !== last && w.session.conversation.messages.length === 0, 'New Chat is shown');
      assert.deepEqual(w.events.at(-1), { type: 'conversationChanged' });
    }
  });

  it('keeps a conversation the user already started, and says when the last one cannot be read', async () => {
    const { storage, id } = await lastWindow();
    const w = makeSession(storage);
    appendMessage(w.session.conversation, 'user', 'started here');
    assert.equal(await w.session.restore(id), 'kept');
    assert.notEqual(w.session.conversation.id, id);

    const other = makeSession(storage);
    assert.equal(await other.session.restore('missing-conversation'), 'failed');
    assert.deepEqual(other.events, [], 'nothing changed: no event');
  });

  it('every event but text put back in the box counts the version up', async () => {
    const w = makeSession(new MemoryConversationStorage());
    await w.session.send('hello');
    // (A turn's settlement changes nothing the chat shows: not counted either.)
    const counted = w.events.filter((e) => e.type !== 'inputReturned' && e.type !== 'turnSettled').length;
    assert.equal(w.session.version, counted);
  });
});
