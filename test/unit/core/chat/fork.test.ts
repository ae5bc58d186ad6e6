import { strict as assert } from 'node:assert';
import {
  appendMessage,
  createConversation,
  forkConversation,
  parseConversation,
  replayLog,
  type Conversation,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

/** A conversation of `turns` question/reply pairs. */
function longConversation(turns: number): Conversation {
  const conv = createConversation('orig', new Date(Date.UTC(2026, 10, 1)));
  for (let i = 0; i < turns; i++) {
    appendMessage(conv, 'user', `question ${i} about tide tables`);
    appendMessage(conv, 'assistant', `answer ${i}: the tide turns every six hours`, undefined, { status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
  }
  conv.title = 'Tide tables';
  return conv;
}

describe('fork: a new conversation from an earlier message', () => {
  it('copies every message up to and including the one picked, records the origin, and leaves the original alone', () => {
    const conv = longConversation(300);
    const before = JSON.stringify(conv);
    const pick = conv.messages[299]; // the reply of turn 150
    const fork = forkConversation(conv, pick.id, 'fork-1', new Date(Date.UTC(2026, 10, 2)));
    assert.ok(fork);
    assert.equal(fork.messages.length, 300);
    assert.equal(fork.messages[299].content, 'answer 149: the tide turns every six hours');
    assert.deepEqual(fork.forkedFrom, { id: 'orig', title: 'Tide tables', messageId: pick.id });
    assert.equal(fork.id, 'fork-1');
    assert.equal(fork.createdAt, '2026-11-02T00:00:00.000Z');
    assert.equal(JSON.stringify(conv), before, 'the original is unchanged');
    fork.messages[0].content = 'changed';
    assert.equal(conv.messages[0].content, 'question 0 about tide tables', 'copies, not shared objects');
    // A new turn in the fork takes a fresh id.
    const next = appendMessage(fork, 'user', 'and in spring?');
    assert.ok(!fork.messages.slice(0, -1).some((m) => m.id === next.id));
  });

  it('an unknown message gives nothing; a reply still streaming is not copied', () => {
    const conv = longConversation(2);
    assert.equal(forkConversation(conv, 'zzzz', 'x'), undefined);
    const streaming = appendMessage(conv, 'assistant', 'half a rep', undefined, { status: 'streaming' });
    const fork = forkConversation(conv, streaming.id, 'x');
    assert.equal(fork?.messages.length, 4);
  });

  it('the store saves the fork, lists it as a fork of the original, and reopens it with its origin', async () => {
    const storage = new MemoryConversationStorage();
    let n = 0;
    const store = new WindowStore(storage, { newId: () => `conv-${++n}`, searchPersistDelayMs: 5 });
    const conv = store.current;
    appendMessage(conv, 'user', 'first question');
    appendMessage(conv, 'assistant', 'first answer about herons', undefined, { status: 'complete' });
    appendMessage(conv, 'user', 'second question');
    appendMessage(conv, 'assistant', 'second answer', undefined, { status: 'complete' });
    conv.title = 'Herons';
    await store.save();
    const fork = await store.forkCurrent(conv.messages[1].id);
    assert.ok(fork);
    assert.equal(store.current.id, conv.id, 'the current conversation is still the original');
    const listed = await store.list();
    const entry = listed.find((e) => e.id === fork.id);
    assert.deepEqual(entry?.forkedFrom, { id: conv.id, title: 'Herons' });
    assert.equal(entry?.messageCount, 2);
    assert.equal(listed.find((e) => e.id === conv.id)?.messageCount, 4);
    // From disk, in another window.
    const other = new WindowStore(storage, { newId: () => 'other', searchPersistDelayMs: 5 });
    const opened = await other.open(fork.id);
    assert.equal(opened?.forkedFrom?.id, conv.id);
    assert.deepEqual(
      opened?.messages.map((m) => m.content),
      ['first question', 'first answer about herons'],
    );
    assert.equal((await other.list()).find((e) => e.id === fork.id)?.forkedFrom?.title, 'Herons');
    await store.catchUpSearch();
    assert.equal((await store.search('herons')).length, 2, 'the fork is searchable');
  });

  it('conversations without an origin (stored before forks existed) read as before', () => {
    const log = '{"t":"h","v":2,"id":"old-1","createdAt":"2026-01-01T00:00:00.000Z"}\n{"t":"m","k":"a.1","m":{"id":"msg_000","role":"user","content":"hi","status":"complete","createdAt":"2026-01-01T00:00:00.000Z"}}\n';
    const r = replayLog(log);
    assert.equal(r?.conv.forkedFrom, undefined);
    assert.equal(r?.conv.messages.length, 1);
    const v1 = parseConversation({ version: 1, id: 'v1', title: 'Old', createdAt: 'x', updatedAt: 'x', nextSeq: 0, messages: [] });
    assert.equal(v1?.forkedFrom, undefined);
    assert.equal(v1?.title, 'Old');
  });
});
