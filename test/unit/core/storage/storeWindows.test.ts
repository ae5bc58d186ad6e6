// Two windows on one conversations folder: two stores (and sessions) on one storage. A window
// sends and shows what is on disk (H2), and a conversation deleted in one window does not come
// back from another that still shows it (N7).
import { strict as assert } from 'node:assert';
import {
  appendMessage,
  ChatSession,
  replayLog,
  directTurns,
  type ChatBackend,
  type SessionChatRequest,
  type SessionEvent,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { echoBackend } from '../../../support/backend';
import { WindowStore } from '../../../support/windowStore';

const contents = (storage: MemoryConversationStorage, id: string) => replayLog(storage.data.get(id) ?? '', [], id)?.conv.messages.map((m) => m.content);

let windows = 0;
function windowOn(storage: MemoryConversationStorage) {
  const w = ++windows;
  let n = 0;
  const store = new WindowStore(storage, { newId: () => `w${w}-conv-${++n}`, searchPersistDelayMs: 5 });
  const requests: SessionChatRequest[] = [];
  const events: SessionEvent[] = [];
  const echo = echoBackend(requests, (req) => `reply to ${req.messages.at(-1)?.content}`);
  // A question marked "(fails)" gets part of a reply, then the connection drops.
  const backend: ChatBackend = {
    chat: (req, opts) => echo.chat(req, opts),
    async chatStream(req, opts) {
      const question = req.messages.at(-1)?.content ?? '';
      if (!question.includes('(fails)')) return echo.chatStream(req, opts);
      requests.push(structuredClone(req));
      return {
        abort() {},
        async *[Symbol.asyncIterator]() {
          yield { event: 'f', messageId: 'x' } as const;
          yield { event: '0', data: `part of a reply to ${question}` } as const;
          throw Object.assign(new Error('connection reset'), { kind: 'network' });
        },
      };
    },
  };

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
  const seed = new WindowStore(storage);
  appendMessage(seed.current, 'user', 'Q0');
  appendMessage(seed.current, 'assistant', 'A0');
  await seed.save();
  return seed.current.id;
}

/** Another window opens the conversation and adds a turn to it (written to its log). */
async function otherWindowAdds(storage: MemoryConversationStorage, id: string, question: string, answer: string): Promise<void> {
  const b = new WindowStore(storage);
  const other = await b.open(id);
  assert.ok(other);
  appendMessage(other, 'user', question);
  appendMessage(other, 'assistant', answer);
  await b.save(other);
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
    const a = new WindowStore(storage);
    const conv = a.current;
    appendMessage(conv, 'user', 'Q1 (deleted later)');
    appendMessage(conv, 'assistant', 'A1 (deleted later)');
    await a.save(conv);
    const b = new WindowStore(storage);
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
    assert.equal((await new WindowStore(storage).list()).find((c) => c.id === conv.id)?.messageCount, 3);
  });

  it('a log removed by hand while the index still lists it is written again whole, header first', async () => {
    const storage = new MemoryConversationStorage();
    const a = new WindowStore(storage);
    appendMessage(a.current, 'user', 'Q0');
    appendMessage(a.current, 'assistant', 'A0');
    await a.save();
    const id = a.current.id;
    storage.data.delete(id); // the file removed by hand (or by a sync client): not a Delete
    appendMessage(a.current, 'user', 'Q1');
    await a.save();
    assert.deepEqual(contents(storage, id), ['Q0', 'A0', 'Q1']);
  });

  describe('P1: Edit and Retry take in what another window wrote first', () => {
    const texts = (x: ReturnType<typeof windowOn>) => x.session.conversation.messages.map((m) => m.content);
    for (const earlier of [0, 1]) {
      it(`Edit of window A's last question after window B added a turn (${earlier} earlier turn of A): nothing is edited, B's turn is shown, on disk once and in the next request`, async () => {
        const storage = new MemoryConversationStorage();
        const A = windowOn(storage);
        const B = windowOn(storage);
        for (let i = 0; i < earlier; i++) await A.session.send('Q0 (an earlier turn of A)');
        await A.session.send('Q1 from window A');
        const id = A.session.conversation.id;
        const clicked = A.session.conversation.messages.at(-2)?.id;
        await A.store.flush();
        assert.ok(await B.session.open(id));
        await B.session.send('Q2 from window B');
        await B.store.flush();
        A.events.length = 0;
        assert.equal(await A.session.editLast(clicked), false, 'nothing was edited');
        await A.store.flush();
        const all = [...(earlier ? ['Q0 (an earlier turn of A)', 'reply to Q0 (an earlier turn of A)'] : []), 'Q1 from window A', 'reply to Q1 from window A', 'Q2 from window B', 'reply to Q2 from window B'];
        assert.deepEqual(contents(storage, id), all, "B's turn is on disk exactly once");
        assert.deepEqual(texts(A), all, "window A shows B's turn");
        const changed = A.events.filter((e) => e.type === 'conversationChanged');
        assert.equal(changed.length, 1);
        assert.match(changed[0].type === 'conversationChanged' ? (changed[0].notice ?? '') : '', /Another window added a turn after this question/);
        assert.equal(A.events.some((e) => e.type === 'inputReturned'), false, 'no text goes back to the box');
        await B.session.send('Q3 from window B');
        assert.equal(B.session.conversation.id, id, 'window B goes on in the same conversation');
        assert.deepEqual(B.requests.at(-1)?.messages.map((m) => m.content), [...all, 'Q3 from window B']);
        // The Edit of the question that is now the last one does what it says.
        await A.session.send('Q4 from window A');
        assert.equal(await A.session.editLast(A.session.conversation.messages.at(-2)?.id), true);
        await A.store.flush();
        assert.deepEqual(contents(storage, id), [...all, 'Q3 from window B', 'reply to Q3 from window B']);
      });
    }

    it("the log of A's only turn is not erased when another window appended to it after A last read it (Edit saved in a race)", async () => {
      const storage = new MemoryConversationStorage();
      const a = new WindowStore(storage);
      const conv = a.current;
      appendMessage(conv, 'user', 'Q1 from window A');
      appendMessage(conv, 'assistant', 'A1');
      await a.save(conv);
      await otherWindowAdds(storage, conv.id, 'Q2 from window B', 'A2');
      conv.messages.splice(0); // window A takes its only turn out without reading the disk first
      await a.save(conv);
      assert.deepEqual(contents(storage, conv.id), ['Q2 from window B', 'A2'], "B's turn stays, once");
      assert.deepEqual(conv.messages.map((m) => m.content), ['Q2 from window B', 'A2']);
      assert.equal((await new WindowStore(storage).list()).some((c) => c.id === conv.id), true, 'still listed');
    });

    it('a turn taken out and another window\'s turn written after it replay once each, in order', async () => {
      const storage = new MemoryConversationStorage();
      const a = new WindowStore(storage);
      const conv = a.current;
      for (const t of ['Q0', 'A0', 'Q1', 'A1']) appendMessage(conv, t.startsWith('Q') ? 'user' : 'assistant', t);
      await a.save(conv);
      await otherWindowAdds(storage, conv.id, 'Q2 from window B', 'A2');
      conv.messages.splice(2);
      await a.save(conv);
      assert.deepEqual(contents(storage, conv.id), ['Q0', 'A0', 'Q2 from window B', 'A2']);
      assert.deepEqual((await new WindowStore(storage).open(conv.id))?.messages.map((m) => m.content), ['Q0', 'A0', 'Q2 from window B', 'A2'], 'a new window opens it so');
    });

    it("Retry of window A's failed reply after window B added a turn: nothing is sent again, B's turn is shown and on disk once", async () => {
      const storage = new MemoryConversationStorage();
      const A = windowOn(storage);
      const B = windowOn(storage);
      await A.session.send('Q0');
      await A.session.send('Q1 from window A (fails)');
      assert.equal(A.session.conversation.messages.at(-1)?.status, 'error');
      const id = A.session.conversation.id;
      await A.store.flush();
      assert.ok(await B.session.open(id));
      await B.session.send('Q2 from window B');
      await B.store.flush();
      const sent = A.requests.length;
      A.events.length = 0;
      assert.equal(await A.session.retry(), false);
      await A.store.flush();
      assert.equal(A.requests.length, sent, 'no request');
      const all = ['Q0', 'reply to Q0', 'Q1 from window A (fails)', 'part of a reply to Q1 from window A (fails)', 'Q2 from window B', 'reply to Q2 from window B'];
      assert.deepEqual(contents(storage, id), all);
      assert.deepEqual(texts(A), all);
      const changed = A.events.find((e) => e.type === 'conversationChanged');
      assert.match(changed?.type === 'conversationChanged' ? (changed.notice ?? '') : '', /Another window added a turn after this reply/);
      // Nothing came in since: Retry resends as before.
      await A.session.send('Q3 from window A (fails)');
      assert.equal(await A.session.retry(), true);
      // (A failed reply is not sent as context.)
      assert.deepEqual(A.requests.at(-1)?.messages.map((m) => m.content), [...all.filter((t) => !t.startsWith('part of')), 'Q3 from window A (fails)']);
    });

    it("a window that gets the focus back shows another window's new turn, without a send", async () => {
      const storage = new MemoryConversationStorage();
      const A = windowOn(storage);
      const B = windowOn(storage);
      await A.session.send('Q1 from window A');
      const id = A.session.conversation.id;
      await A.store.flush();
      assert.ok(await B.session.open(id));
      A.events.length = 0;
      assert.equal(await A.session.showLatest(), false, 'nothing new: nothing shown again');
      assert.equal(A.events.length, 0);
      await B.session.send('Q2 from window B');
      assert.equal(await A.session.showLatest(), true);
      assert.deepEqual(texts(A).slice(-2), ['Q2 from window B', 'reply to Q2 from window B']);
      assert.deepEqual(A.events.map((e) => e.type), ['conversationChanged']);
      assert.equal(A.requests.length, 1, 'no request');
      // Deleted in window B: A keeps showing it until its next change.
      await B.session.remove(id);
      assert.equal(await A.session.showLatest(), false);
      assert.equal(A.session.conversation.id, id);
    });
  });
});
