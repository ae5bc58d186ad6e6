import { strict as assert } from 'node:assert';
import {
  ChatSession,
  ConversationStore,
  MemoryConversationStorage,
  parseConversation,
  type ChatBackend,
  type SessionChatRequest,
  type SessionStreamEvent,
  type SessionSettings,
  type ReplyFinished,
  type SessionEvent,
} from '../../../src/core';

class FakeError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    Object.assign(this, extra);
  }
}

type StreamScript = { events: SessionStreamEvent[]; failAfter?: Error; waitForAbort?: boolean };

function fakeBackend() {
  const requests: SessionChatRequest[] = [];
  const scripts: Array<StreamScript | Error | { content: string; creditsUsed: number; creditsRemaining: number; model?: string }> = [];
  const backend: ChatBackend = {
    async chat(req) {
      requests.push(structuredClone(req));
      const s = scripts.shift();
      if (s instanceof Error) throw s;
      if (!s || !('content' in s)) throw new Error('unexpected chat call');
      return s;
    },
    async chatStream(req, { signal }) {
      requests.push(structuredClone(req));
      const s = scripts.shift();
      if (s instanceof Error) throw s;
      if (!s || !('events' in s)) throw new Error('unexpected chatStream call');
      let aborted = false;
      const abortErr = () => new FakeError('aborted', 'The request was aborted');
      return {
        abort() {
          aborted = true;
        },
        async *[Symbol.asyncIterator]() {
          for (const ev of s.events) {
            if (aborted || signal.aborted) throw abortErr();
            yield ev;
          }
          if (s.failAfter) throw s.failAfter;
          if (s.waitForAbort) {
            await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
            throw abortErr();
          }
        },
      };
    },
  };
  return { backend, requests, scripts };
}

function setup(overrides: Partial<SessionSettings> = {}) {
  const settings: SessionSettings = {
    model: 'swift-chat',
    stream: true,
    search: false,
    temperature: 1,
    systemPrompt: '',
    baseUrl: 'http://127.0.0.1:8787',
    ...overrides,
  };
  const storage = new MemoryConversationStorage();
  let n = 0;
  const store = new ConversationStore(storage, { newId: () => `conv-${++n}` });
  const posts: SessionEvent[] = [];
  const finished: ReplyFinished[] = [];
  let stateChanges = 0;
  const fb = fakeBackend();
  const session = new ChatSession({
    store,
    backend: () => fb.backend,
    settings: () => settings,
    modelCost: (id) => ({ 'swift-chat': 1, 'deep-think': 5 })[id] ?? null,
    onEvent: (e) => {
      posts.push(e);
      if (e.type === 'conversationChanged' || e.type === 'sendErrorChanged') stateChanges++;
    },
    replyFinished: (f) => finished.push(f),
    flushIntervalMs: 0,
  });
  return { session, store, storage, posts, finished, fb, settings, stateChanges: () => stateChanges };
}

const chunks = (...texts: string[]): SessionStreamEvent[] => [
  { event: 'f', messageId: 'srv' },
  ...texts.map((data) => ({ event: '0' as const, data })),
  { event: 'd', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 340 } },
];

describe('chat session', () => {
  it('streams a reply, records meta and saves the turn', async () => {
    const t = setup({ systemPrompt: 'Be brief', search: true, temperature: 0.5 });
    t.fb.scripts.push({ events: chunks('Hel', 'lo') });
    await t.session.send('Hi there');
    const msgs = t.session.conversation.messages;
    assert.deepEqual(msgs.map((m) => [m.id, m.role, m.content, m.status]), [
      ['msg_000', 'user', 'Hi there', 'complete'],
      ['msg_001', 'assistant', 'Hello', 'complete'],
    ]);
    assert.deepEqual(msgs[1].meta, { model: 'swift-chat', credits: 1, promptTokens: 12, completionTokens: 340 });
    assert.deepEqual(t.fb.requests[0], {
      messages: [
        { role: 'system', content: 'Be brief' },
        { id: 'msg_000', role: 'user', content: 'Hi there' },
      ],
      model: 'swift-chat',
      stream: true,
      temperature: 0.5,
      search: true,
    });
    const types = t.posts.map((p) => p.type);
    assert.deepEqual(types, ['turnStarted', 'textAppended', 'textAppended', 'turnEnded']);
    const offsets = t.posts.flatMap((p) => (p.type === 'textAppended' ? [[p.offset, p.text]] : []));
    assert.deepEqual(offsets, [[0, 'Hel'], [3, 'lo']]);
    assert.equal(t.session.busy, false);
    assert.deepEqual(t.finished, [{ streamed: true }]);
    const saved = parseConversation(await t.storage.read('conv-1'));
    assert.equal(saved?.messages[1].content, 'Hello');
  });

  it('uses credits of a non-streaming reply and reports the remaining balance', async () => {
    const t = setup({ stream: false });
    t.fb.scripts.push({ content: 'Answer', creditsUsed: 1, creditsRemaining: 999, model: 'swift-chat' });
    await t.session.send('Q');
    const reply = t.session.conversation.messages[1];
    assert.equal(reply.content, 'Answer');
    assert.equal(reply.meta?.credits, 1);
    assert.equal(t.fb.requests[0].search, undefined);
    assert.deepEqual(t.finished, [{ streamed: false, creditsRemaining: 999 }]);
  });

  it('batches chunks into fewer posts when a flush interval is set', async () => {
    const t = setup();
    const storage = new MemoryConversationStorage();
    const posts: SessionEvent[] = [];
    const session = new ChatSession({
      store: new ConversationStore(storage),
      backend: () => t.fb.backend,
      settings: () => t.settings,
      modelCost: () => 1,
      onEvent: (e) => posts.push(e),
      flushIntervalMs: 1000,
    });
    t.fb.scripts.push({ events: chunks('a', 'b', 'c', 'd') });
    await session.send('Q');
    const chunkPosts = posts.filter((p) => p.type === 'textAppended');
    // all four chunks arrive within one interval: one post carries them all
    assert.equal(chunkPosts.length, 1);
    assert.ok(chunkPosts[0].type === 'textAppended' && chunkPosts[0].text === 'abcd');
  });

  it('returns the typed text to the box when the send fails before the reply', async () => {
    const t = setup();
    t.fb.scripts.push(new FakeError('auth', 'The API key was rejected (HTTP 401)'));
    await t.session.send('my precious text');
    assert.equal(t.session.conversation.messages.length, 0);
    assert.equal(t.storage.data.size, 0, 'the taken-back turn is not left on disk');
    assert.deepEqual(t.session.sendError?.actions, ['setApiKey']);
    assert.ok(t.posts.some((p) => p.type === 'inputReturned' && p.text === 'my precious text'));
    assert.equal(t.session.busy, false);
  });

  it('retries a send that failed before the reply with the same text', async () => {
    const t = setup();
    t.fb.scripts.push(new FakeError('rate-limit', 'Too many requests', { retryAfterMs: 2000 }));
    await t.session.send('again please');
    assert.equal(t.session.sendError?.retryAfterSeconds, 2);
    t.fb.scripts.push({ events: chunks('ok') });
    await t.session.retry();
    assert.equal(t.session.sendError, undefined);
    assert.deepEqual(t.session.conversation.messages.map((m) => m.content), ['again please', 'ok']);
  });

  it('keeps a partial reply with the error when the stream breaks, and Retry resends the same history', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('one').slice(0, 2), failAfter: new FakeError('connection', 'socket closed') });
    await t.session.send('Q1');
    const failed = t.session.conversation.messages[1];
    assert.equal(failed.status, 'error');
    assert.equal(failed.content, 'one');
    assert.deepEqual(failed.error?.actions, ['openSettings', 'retry']);
    assert.ok(failed.error?.message.includes('http://127.0.0.1:8787'));
    assert.ok(t.posts.some((p) => p.type === 'turnEnded' && p.message.status === 'error'));

    t.fb.scripts.push({ events: chunks('full answer') });
    await t.session.retry();
    assert.deepEqual(t.fb.requests[1], t.fb.requests[0]);
    assert.deepEqual(t.session.conversation.messages.map((m) => [m.content, m.status]), [
      ['Q1', 'complete'],
      ['full answer', 'complete'],
    ]);
  });

  it('Stop keeps the partial reply marked stopped', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('partial').slice(0, 2), waitForAbort: true });
    const done = t.session.send('long one');
    // wait until the chunk was posted
    while (!t.posts.some((p) => p.type === 'textAppended')) await new Promise((r) => setImmediate(r));
    assert.equal(t.session.busy, true);
    // the turn is on disk while the reply streams; reopened, it is a stopped reply
    const during = parseConversation(await t.storage.read(t.session.conversation.id));
    assert.deepEqual(during?.messages.map((m) => [m.role, m.status]), [['user', 'complete'], ['assistant', 'stopped']]);
    t.session.stop();
    await done;
    const reply = t.session.conversation.messages[1];
    assert.equal(reply.status, 'stopped');
    assert.equal(reply.content, 'partial');
    const end = t.posts.find((p) => p.type === 'turnEnded');
    assert.ok(end && end.type === 'turnEnded' && end.message.status === 'stopped');
    assert.equal(t.session.busy, false);
  });

  it('Retry after Stop resends the same history and replaces the stopped reply', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('part').slice(0, 2), waitForAbort: true });
    const done = t.session.send('Q');
    while (!t.posts.some((p) => p.type === 'textAppended')) await new Promise((r) => setImmediate(r));
    t.session.stop();
    await done;
    t.fb.scripts.push({ events: chunks('whole') });
    await t.session.retry();
    assert.deepEqual(t.fb.requests[1], t.fb.requests[0]);
    assert.deepEqual(t.session.conversation.messages.map((m) => [m.content, m.status]), [
      ['Q', 'complete'],
      ['whole', 'complete'],
    ]);
  });

  it('a second send while a reply runs gives the text back instead of sending', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('x').slice(0, 2), waitForAbort: true });
    const done = t.session.send('first');
    while (!t.posts.some((p) => p.type === 'textAppended')) await new Promise((r) => setImmediate(r));
    await t.session.send('second');
    assert.ok(t.posts.some((p) => p.type === 'inputReturned' && p.text === 'second'));
    assert.equal(t.fb.requests.length, 1);
    t.session.stop();
    await done;
  });

  it('Edit removes the last turn and puts its text back', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('A1') }, { events: chunks('A2') }, { events: chunks('A3') });
    await t.session.send('Q1');
    await t.session.send('Q2');
    await t.session.editLast();
    assert.deepEqual(t.session.conversation.messages.map((m) => m.content), ['Q1', 'A1']);
    assert.equal(t.session.conversation.title, 'Q1');
    await t.session.editLast();
    assert.equal(t.session.conversation.title, 'New chat', 'no message left: the title is reset');
    await t.session.send('Q1 again');
    const last = t.posts[t.posts.length - 1];
    assert.equal(last.type, 'turnEnded');
    assert.ok(t.posts.some((p) => p.type === 'inputReturned' && p.text === 'Q2'));
    const saved = parseConversation(await t.storage.read('conv-1'));
    assert.equal(saved?.messages.length, 2);
    assert.equal(saved?.title, 'Q1 again');
  });

  it('sends the whole history with unique ids on the next turn', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('A1') }, { events: chunks('A2') });
    await t.session.send('Q1');
    await t.session.send('Q2');
    assert.deepEqual(
      t.fb.requests[1].messages.map((m) => m.id),
      ['msg_000', 'msg_001', 'msg_002'],
    );
  });

  it('New Chat starts an empty conversation and the old one stays saved', async () => {
    const t = setup();
    t.fb.scripts.push({ events: chunks('A1') });
    await t.session.send('Q1');
    const oldId = t.session.conversation.id;
    await t.session.newChat();
    assert.equal(t.session.conversation.messages.length, 0);
    assert.ok(await t.session.open(oldId));
    assert.equal(t.session.conversation.messages.length, 2);
  });
});
