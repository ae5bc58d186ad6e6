import { strict as assert } from 'node:assert';
import {
  appendMessage,
  buildHistory,
  createConversation,
  deriveTitle,
  formatMessageId,
  MESSAGE_ID_PATTERN,
  nextMessageId,
  parseConversation,
  repairConversation,
  ConversationSchema,
  type Conversation,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

const t0 = new Date('2026-11-21T10:00:00Z');

function conv(): Conversation {
  return createConversation('c1', t0);
}

describe('message ids', () => {
  it('formats within ^msg_[0-9a-f]{3}$ and wraps at 4096', () => {
    assert.equal(formatMessageId(0), 'msg_000');
    assert.equal(formatMessageId(255), 'msg_0ff');
    assert.equal(formatMessageId(4095), 'msg_fff');
    assert.equal(formatMessageId(4096), 'msg_000');
  });

  it('assigns sequential ids matching the pattern', () => {
    const c = conv();
    const a = appendMessage(c, 'user', 'a', t0);
    const b = appendMessage(c, 'assistant', 'b', t0);
    assert.equal(a.id, 'msg_000');
    assert.equal(b.id, 'msg_001');
    assert.match(a.id, MESSAGE_ID_PATTERN);
  });

  it('never reuses an id among the newest 4096 messages, also after wrapping', () => {
    const c = conv();
    for (let i = 0; i < 5000; i++) appendMessage(c, i % 2 ? 'assistant' : 'user', `m${i}`, t0);
    const newest = c.messages.slice(-4096).map((m) => m.id);
    assert.equal(new Set(newest).size, 4096);
    for (const id of newest) assert.match(id, MESSAGE_ID_PATTERN);
  });

  it('skips ids still in use when the counter points at one', () => {
    const c = conv();
    appendMessage(c, 'user', 'a', t0); // msg_000
    appendMessage(c, 'assistant', 'b', t0); // msg_001
    c.nextSeq = 0; // e.g. a counter lost from a stored file
    assert.equal(nextMessageId(c), 'msg_002');
  });
});

describe('titles', () => {
  it('uses the first non-empty, non-fence line', () => {
    assert.equal(deriveTitle('\n\n  Explain this   code\nmore'), 'Explain this code');
    assert.equal(deriveTitle('```ts\nconst x = 1\n```'), 'const x = 1');
  });
  it('shortens long titles', () => {
    const t = deriveTitle('x'.repeat(200), 20);
    assert.equal(t.length, 20);
    assert.ok(t.endsWith('…'));
  });
  it('sets the conversation title from the first user message', () => {
    const c = conv();
    appendMessage(c, 'user', 'First question', t0);
    appendMessage(c, 'user', 'Second question', t0);
    assert.equal(c.title, 'First question');
  });
});

describe('history', () => {
  it('sends finished messages with ids, system prompt first', () => {
    const c = conv();
    appendMessage(c, 'user', 'q1', t0);
    appendMessage(c, 'assistant', 'a1', t0);
    appendMessage(c, 'user', 'q2', t0);
    const h = buildHistory(c.messages, { systemPrompt: '  Be brief. ' });
    assert.deepEqual(h, [
      { role: 'system', content: 'Be brief.' },
      { id: 'msg_000', role: 'user', content: 'q1' },
      { id: 'msg_001', role: 'assistant', content: 'a1' },
      { id: 'msg_002', role: 'user', content: 'q2' },
    ]);
  });

  it('leaves out failed and empty replies but keeps stopped partial ones', () => {
    const c = conv();
    appendMessage(c, 'user', 'q1', t0);
    appendMessage(c, 'assistant', '', t0, { status: 'error' });
    appendMessage(c, 'user', 'q2', t0);
    appendMessage(c, 'assistant', 'partial', t0, { status: 'stopped' });
    appendMessage(c, 'user', 'q3', t0);
    assert.deepEqual(
      buildHistory(c.messages).map((m) => m.content),
      ['q1', 'q2', 'partial', 'q3'],
    );
  });

  it('trims to the newest messages and starts with a user message', () => {
    const c = conv();
    for (let i = 0; i < 10; i++) appendMessage(c, i % 2 ? 'assistant' : 'user', `m${i}`, t0);
    appendMessage(c, 'user', 'last', t0);
    const h = buildHistory(c.messages, { maxMessages: 4 });
    // newest 4 are m7 (assistant), m8, m9, last; the leading assistant is dropped
    assert.deepEqual(h.map((m) => m.content), ['m8', 'm9', 'last']);
  });

  it('trims by character budget but always keeps the newest message', () => {
    const c = conv();
    appendMessage(c, 'user', 'a'.repeat(100), t0);
    appendMessage(c, 'assistant', 'b'.repeat(100), t0);
    appendMessage(c, 'user', 'c'.repeat(500), t0);
    assert.deepEqual(buildHistory(c.messages, { maxChars: 50 }).map((m) => m.content[0]), ['c']);
    assert.deepEqual(buildHistory(c.messages, { maxChars: 700 }).map((m) => m.content[0]), ['a', 'b', 'c']);
  });

  it('keeps ids unique in a conversation longer than the id space', () => {
    const c = conv();
    for (let i = 0; i < 4200; i++) appendMessage(c, i % 2 ? 'assistant' : 'user', `m${i}`, t0);
    const h = buildHistory(c.messages);
    assert.ok(h.length <= 4096);
    assert.equal(new Set(h.map((m) => m.id)).size, h.length);
    assert.equal(h[h.length - 1].content, 'm4199');
  });
});

describe('conversation store', () => {
  let n = 0;
  const opts = { newId: () => `conv-${++n}`, now: () => t0 };

  it('saves only conversations with messages and lists newest first', async () => {
    const storage = new MemoryConversationStorage();
    const store = new WindowStore(storage, opts);
    await store.save(); // empty: not written
    assert.equal(storage.data.size, 0);
    const first = store.current;
    appendMessage(first, 'user', 'older', new Date('2026-11-20T00:00:00Z'));
    await store.save();
    const second = store.newConversation();
    appendMessage(second, 'user', 'newer', new Date('2026-11-21T00:00:00Z'));
    await store.save();
    const list = await store.list();
    assert.deepEqual(list.map((c) => c.title), ['newer', 'older']);
  });

  it('drops a saved conversation once it has no messages left', async () => {
    const storage = new MemoryConversationStorage();
    const store = new WindowStore(storage, opts);
    appendMessage(store.current, 'user', 'only', t0);
    await store.save();
    assert.equal(storage.data.size, 1);
    store.current.messages.length = 0;
    await store.save();
    assert.equal(storage.data.size, 0);
  });

  it('reopens a saved conversation with its messages', async () => {
    const storage = new MemoryConversationStorage();
    const store = new WindowStore(storage, opts);
    const c = store.current;
    appendMessage(c, 'user', 'hello', t0);
    appendMessage(c, 'assistant', 'hi', t0, { meta: { model: 'swift-chat', credits: 1 } });
    await store.save();
    const again = new WindowStore(storage, opts);
    const opened = await again.open(c.id);
    assert.ok(opened);
    assert.deepEqual(opened.messages.map((m) => m.content), ['hello', 'hi']);
    assert.equal(again.current.id, c.id);
    assert.equal(opened.messages[1].meta?.model, 'swift-chat');
  });

  it('writes a snapshot, not a live reference', async () => {
    const storage = new MemoryConversationStorage();
    const store = new WindowStore(storage, opts);
    appendMessage(store.current, 'user', 'one', t0);
    const done = store.save();
    appendMessage(store.current, 'assistant', 'two', t0);
    await done;
    const saved = parseConversation(await storage.read(store.current.id));
    assert.equal(saved?.messages.length, 1);
  });

  it('returns undefined for a missing conversation; one failing its schema opens with what can be read', async () => {
    const storage = new MemoryConversationStorage();
    storage.data.set('bad', JSON.stringify({ id: 'bad', messages: 'nope' }));
    const store = new WindowStore(storage, opts);
    assert.equal(await store.open('missing'), undefined);
    const bad = await store.open('bad');
    assert.equal(bad?.id, 'bad');
    assert.deepEqual(bad?.messages, []);
  });

  describe('repairConversation', () => {
    it('a valid conversation comes back unchanged, with no problems', () => {
      const c = conv();
      appendMessage(c, 'user', 'q', t0);
      const r = repairConversation(JSON.parse(JSON.stringify(c)));
      assert.deepEqual(r.problems, []);
      assert.deepEqual(r.conv, c);
    });

    it('repairs what fails the schema and keeps every message that can be read', () => {
      const raw = {
        version: 2,
        id: 'c1',
        createdAt: '2026-01-01T00:00:00.000Z',
        messages: [
          { id: 'msg_000', role: 'user', content: 'First question', createdAt: 'x', status: 'complete' },
          { id: 'msg_000', role: 'assistant', content: 'Answer', status: 'weird', meta: { model: 'm', credits: -3, promptTokens: 1.5, completionTokens: 7 } },
          { id: 'bad-id', role: 'assistant', content: 'Failed one', createdAt: 'x', status: 'error' },
          { role: 'system', content: 'dropped' },
          { id: 'msg_003', role: 'user', content: null },
          'garbage',
        ],
        nextSeq: -5,
      };
      const { conv: c, problems } = repairConversation(raw);
      assert.ok(c);
      assert.ok(ConversationSchema.safeParse(c).success, 'the repaired conversation passes the schema');
      assert.deepEqual(c.messages.map((m) => [m.role, m.content, m.status]), [
        ['user', 'First question', 'complete'],
        ['assistant', 'Answer', 'stopped'],
        ['assistant', 'Failed one', 'error'],
      ]);
      assert.equal(new Set(c.messages.map((m) => m.id)).size, 3, 'ids made distinct');
      assert.deepEqual(c.messages[1].meta, { model: 'm', completionTokens: 7 });
      assert.equal(c.messages[2].error?.kind, 'unknown');
      assert.equal(c.title, 'First question');
      assert.equal(c.updatedAt, '2026-01-01T00:00:00.000Z');
      assert.ok(problems.length >= 5, problems.join('; '));
    });

    it("a question repaired for another field keeps its files (the rules of its Retry); files that fail their rule are left out", () => {
      const raw = {
        version: 2,
        id: 'c1',
        createdAt: '2026-01-01T00:00:00.000Z',
        messages: [
          { id: 'msg_000', role: 'user', content: 'Q', createdAt: 'x', status: 'complete', files: ['src/a.py', 'src/b.ts'] },
          { id: 'msg_001', role: 'user', content: 'Q2', createdAt: 'x', status: 'complete', files: ['ok.py', 42] },
        ],
      };
      const { conv: c } = repairConversation(raw);
      assert.deepEqual(c?.messages.map((m) => m.files), [['src/a.py', 'src/b.ts'], undefined]);
    });

    it('uses the file name when the id is unusable; nothing to read without either', () => {
      assert.equal(repairConversation({ messages: [] }, 'from-file').conv?.id, 'from-file');
      assert.equal(repairConversation({ messages: [] }).conv, undefined);
      assert.equal(repairConversation('not an object', 'x').conv, undefined);
      assert.equal(parseConversation([1, 2], 'x'), undefined);
    });
  });

  it('turns a reply that was streaming when saved into a stopped one', () => {
    const c = conv();
    appendMessage(c, 'user', 'q', t0);
    appendMessage(c, 'assistant', 'part', t0, { status: 'streaming' });
    const parsed = parseConversation(JSON.parse(JSON.stringify(c)));
    assert.equal(parsed?.messages[1].status, 'stopped');
  });
});
