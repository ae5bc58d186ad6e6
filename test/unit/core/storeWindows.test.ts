// Two windows on one conversations folder: two stores (and sessions) on one storage. A window
// sends and shows what is on disk (H2), and a conversation deleted in one window does not come
// back from another that still shows it (N7).
import { strict as assert } from 'node:assert';
import {
  appendMessage,
  ChatSession,
  ConversationStore,
  replayLog,
  directTurns,
  type SessionChatRequest,
  type SessionEvent,
} from '../../../src/core';
import { MemoryConversationStorage } from '../../support/memoryStorage';
import { echoBackend } from '../../support/backend';

const contents = (storage: MemoryConversationStorage, id: string) => replayLog(storage.data.get(id) ?? '', [], id)?.conv.messages.map((m) => m.content);

let windows = 0;
function windowOn(storage: MemoryConversationStorage) {
  const w = ++windows;
  let n = 0;
  const store = new ConversationStore(storage, { newId: () => `w${w}-conv-${++n}`, searchPersistDelayMs: 5 });
  const requests: SessionChatRequest[] = [];
  const events: SessionEvent[] = [];
  const backend = echoBackend(requests, (req) => `reply to ${req.messages.at(-1)?.content}`);

  const session = new ChatSession({
    store,
    turns: directTurns(() => backend),
    settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: '' }),
    modelCost: () => 1,
    onEvent: (e) => events.push(e),
    flushIntervalMs: 0,
    partialSaveIntervalMs: 0,
  });
  return { store, session, requests, events };
}

/** A conversation on disk with one turn, and its id. */
async function seeded(storage: MemoryConversationStorage): Promise<string> {
  const seed = new ConversationStore(storage);
  appendMessage(seed.current, 'user', 'Q0');
  appendMessage(seed.current, 'assistant', 'A0');
  await seed.save();
  return seed.current.id;
}

describe('two windows on one conversations folder', () => {
  it("H2: window B's request carries window A's turn, and A's next request carries B's", async () => {
    const storage = new MemoryConversationStorage();
    const id = await seeded(storage);
    const A = windowOn(storage);
    const B = windowOn(storage);
    assert.ok(await A.session.open(id));
    assert.ok(await B.session.open(id));
    await A.session.send('QA from window A');
    await B.session.send('QB from window B');
    assert.deepEqual(
      B.requests[0].messages.map((m) => m.content),
      ['Q0', 'A0', 'QA from window A', 'reply to QA from window A', 'QB from window B'],
    );
    A.events.length = 0;
    await A.session.send('QA2 from window A');
    assert.deepEqual(
      A.requests[1].messages.map((m) => m.content),
      ['Q0', 'A0', 'QA from window A', 'reply to QA from window A', 'QB from window B', 'reply to QB from window B', 'QA2 from window A'],
    );
    assert.equal(A.events[0]?.type, 'conversationChanged', "window A is told to show B's turn before its own");
    await A.store.flush();
    await B.store.flush();
    // Both windows show what is on disk, and the disk holds every turn once.
    const onDisk = contents(storage, id);
    assert.deepEqual(onDisk, A.session.conversation.messages.map((m) => m.content));
    assert.equal(new Set(A.session.conversation.messages.map((m) => m.id)).size, 8, 'message ids stay unique');
    assert.deepEqual(onDisk, [
      'Q0',
      'A0',
      'QA from window A',
      'reply to QA from window A',
      'QB from window B',
      'reply to QB from window B',
      'QA2 from window A',
      'reply to QA2 from window A',
    ]);
  });

  it('H2: a window brought up to date from disk (no send) shows the other window\'s turn; nothing changed: no event', async () => {
    const storage = new MemoryConversationStorage();
    const id = await seeded(storage);
    const A = windowOn(storage);
    const B = windowOn(storage);
    await A.session.open(id);
    await B.session.open(id);
    assert.equal(await A.store.refresh(A.session.conversation), 'same');
    await B.session.send('QB from window B');
    assert.equal(await A.store.refresh(A.session.conversation), 'changed');
    assert.deepEqual(A.session.conversation.messages.map((m) => m.content), ['Q0', 'A0', 'QB from window B', 'reply to QB from window B']);
    assert.equal(await A.store.refresh(A.session.conversation), 'same');
    // History > open of the conversation on screen shows what is on disk too.
    await B.session.send('QB2');
    A.events.length = 0;
    assert.ok(await A.session.open(id));
    assert.deepEqual(A.session.conversation.messages.map((m) => m.content).slice(-2), ['QB2', 'reply to QB2']);
    assert.deepEqual(A.events.map((e) => e.type), ['conversationChanged']);
  });

  it('N7: a conversation deleted in window B does not come back from window A: A\'s next message starts a new conversation', async () => {
    const storage = new MemoryConversationStorage();
    const A = windowOn(storage);
    const B = windowOn(storage);
    await A.session.send('Q1 (deleted later)');
    const id = A.session.conversation.id;
    await A.store.flush();
    assert.ok(await B.session.open(id));
    await B.store.remove(id); // window B: History > Delete
    await B.session.newChat();
    A.events.length = 0;
    await A.session.send('Q2 typed in window A');
    await A.store.flush();
    assert.equal(storage.data.has(id), false, 'the deleted log is not written again');
    assert.equal((await B.store.list()).some((c) => c.id === id), false, 'not listed again');
    const now = A.session.conversation.id;
    assert.notEqual(now, id);
    assert.deepEqual(contents(storage, now), ['Q2 typed in window A', 'reply to Q2 typed in window A']);
    assert.deepEqual(A.requests.at(-1)?.messages.map((m) => m.content), ['Q2 typed in window A'], 'the deleted turn is not sent again');
    assert.equal(A.events[0]?.type, 'conversationChanged');
  });

  it('N7: a reply that ends after the other window deleted its conversation keeps only what this window added', async () => {
    const storage = new MemoryConversationStorage();
    const a = new ConversationStore(storage);
    const conv = a.current;
    appendMessage(conv, 'user', 'Q1 (deleted later)');
    appendMessage(conv, 'assistant', 'A1 (deleted later)');
    await a.save(conv);
    const b = new ConversationStore(storage);
    await b.remove(conv.id);
    // A turn was already running in window A: it saves when its reply ends.
    appendMessage(conv, 'user', 'Q2 typed in window A');
    appendMessage(conv, 'assistant', 'A2');
    await a.save(conv);
    assert.deepEqual(contents(storage, conv.id), ['Q2 typed in window A', 'A2'], 'the deleted turn is not on disk again');
    assert.deepEqual(conv.messages.map((m) => m.content), ['Q2 typed in window A', 'A2'], 'nor shown or sent again by window A');
    assert.match(storage.data.get(conv.id) ?? '', /^\{"t":"h"/, 'the log starts with its header');
    assert.equal(await a.refresh(conv), 'changed', 'the session is told the conversation changed');
    appendMessage(conv, 'user', 'Q3');
    await a.save(conv);
    assert.deepEqual(contents(storage, conv.id), ['Q2 typed in window A', 'A2', 'Q3']);
    assert.equal((await new ConversationStore(storage).list()).find((c) => c.id === conv.id)?.messageCount, 3);
  });

  it('a log removed by hand while the index still lists it is written again whole, header first', async () => {
    const storage = new MemoryConversationStorage();
    const a = new ConversationStore(storage);
    appendMessage(a.current, 'user', 'Q0');
    appendMessage(a.current, 'assistant', 'A0');
    await a.save();
    const id = a.current.id;
    storage.data.delete(id); // the file removed by hand (or by a sync client): not a Delete
    appendMessage(a.current, 'user', 'Q1');
    await a.save();
    assert.deepEqual(contents(storage, id), ['Q0', 'A0', 'Q1']);
  });
});
