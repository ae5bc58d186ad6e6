import { strict as assert } from 'node:assert';
import {
  ChatSession,
  ConversationStore,
  parseConversation,
  type ChatBackend,
  type SessionChatRequest,
  type SessionStreamEvent,
  type SessionSettings,
  type TurnOutcome,
  turnOutcomeOf,
  type SessionEvent,
  directTurns,
} from '../../../../src/core';
import { toConversationView } from '../../../../src/extension/chat/common/presenter';
import { CONTINUE_PROMPT } from '../../../../src/core/chat/chatSession';
import { MessageViewSchema, parseHostMessage } from '../../../../src/protocol';
import { replyEndingText } from '../../../../src/wording';
import { viewMessages } from '../../viewMessages';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

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
  /** What the pipeline was told of each turn (its settlement). */
  const finished: Array<TurnOutcome & { conversationId: string; messageId: string; errorKind?: string }> = [];
  let stateChanges = 0;
  const fb = fakeBackend();
  const session = new ChatSession({
    store,
    turns: {
      start: (turn) => ({
        backend: fb.backend,
        settle: async (result) => {
          finished.push({
            conversationId: turn.conversationId,
            messageId: turn.messageId,
            ...turnOutcomeOf(result, turn.expected),
            ...(result.errorKind ? { errorKind: result.errorKind } : {}),
          });
          return { pending: false };
        },
      }),
    },
    settings: () => settings,
    modelCost: (id) => ({ 'swift-chat': 1, 'deep-think': 5 })[id] ?? null,
    onEvent: (e) => {
      posts.push(e);
      if (e.type === 'conversationChanged' || e.type === 'sendErrorChanged') stateChanges++;
    },
    flushIntervalMs: 0,
  });
  return { session, store, storage, posts, finished, fb, settings, stateChanges: () => stateChanges };
}

const chunks = (...texts: string[]): SessionStreamEvent[] => [
  { event: 'f', messageId: 'srv' },
  ...texts.map((data) => ({ event: '0' as const, data })),
  { event: 'e', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 340 }, isContinued: false },
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
    // The turn is settled after it ended (its charge known): told last.
    assert.deepEqual(types, ['turnStarted', 'textAppended', 'textAppended', 'turnEnded', 'turnSettled']);
    const offsets = t.posts.flatMap((p) => (p.type === 'textAppended' ? [[p.offset, p.text]] : []));
    assert.deepEqual(offsets, [[0, 'Hel'], [3, 'lo']]);
    assert.equal(t.session.busy, false);
    assert.deepEqual(t.finished, [
      { answered: true, model: 'swift-chat', messageId: 'msg_001', conversationId: 'conv-1', expected: 1 },
    ]);
    const saved = parseConversation(await t.storage.read('conv-1'));
    assert.equal(saved?.messages[1].content, 'Hello');
  });

  it('a reply with thinking, sources, a file, data and annotations: the text and its sections shown, data and annotations kept in the log, not sent to the panel; a fork keeps them', async () => {
    const t = setup({ model: 'deep-think' });
    t.fb.scripts.push({
      events: [
        { event: 'f', messageId: 'srv' },
        { event: 'g', data: 'Weighing it up.' },
        { event: '2', data: [{ progress: 1 }, 'two'] },
        { event: 'h', sourceType: 'url', id: 's1', url: 'https://a.example/doc', title: 'Doc [1]' },
        { event: 'k', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { event: '0', data: 'The answer.' },
        { event: '8', data: [{ rating: 'good' }] },
        { event: 'e', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 4 }, isContinued: false },
        { event: 'd', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 4 } },
      ],
    });
    await t.session.send('Why?');
    const reply = t.session.conversation.messages[1];
    assert.equal(reply.status, 'complete');
    assert.match(reply.content, /^The answer\.\n\n\*\*Sources\*\*\n\n1\. \[Doc \\\[1\\\]\]\(<https:\/\/a\.example\/doc>\)\n{2,3}\*\*Files\*\*\n\n1\. file-1\.png \(image\/png, 8 bytes\)/);
    assert.equal(reply.meta?.reasoning, 'Weighing it up.');
    assert.deepEqual(JSON.parse(reply.meta?.extras ?? '{}'), { data: [{ progress: 1 }, 'two'], annotations: [{ rating: 'good' }], cut: false });
    // The stored log keeps them.
    await t.store.flush();
    const saved = parseConversation(await t.storage.read(t.session.conversation.id));
    assert.equal(saved?.messages[1].meta?.extras, reply.meta?.extras);
    assert.equal(saved?.messages[1].meta?.reasoning, 'Weighing it up.');
    // The panel is never sent the data and annotations.
    for (const p of viewMessages(t.session, t.posts)) {
      assert.ok(parseHostMessage(p).ok, `the panel accepts ${p.type}`);
      assert.doesNotMatch(JSON.stringify(p), /progress|rating/, `${p.type} carries no data or annotation`);
    }
    // A fork carries the reply with its thinking and what was kept.
    const fork = await t.store.fork(t.session.conversation, reply.id);
    assert.equal(fork?.messages[1].meta?.reasoning, 'Weighing it up.');
    assert.equal(fork?.messages[1].meta?.extras, reply.meta?.extras);
    assert.equal(fork?.messages[1].content, reply.content);
  });

  it('uses credits of a non-streaming reply and reports the remaining balance', async () => {
    const t = setup({ stream: false });
    t.fb.scripts.push({ content: 'Answer', creditsUsed: 1, creditsRemaining: 999, model: 'swift-chat' });
    await t.session.send('Q');
    const reply = t.session.conversation.messages[1];
    assert.equal(reply.content, 'Answer');
    assert.equal(reply.meta?.credits, 1);
    assert.equal(t.fb.requests[0].search, undefined);
    assert.deepEqual(t.finished, [
      { answered: true, model: 'swift-chat', remaining: 999, reported: 1, messageId: 'msg_001', conversationId: 'conv-1', expected: 1 },
    ]);
  });

  it('tells the model that answered: the one a non-streaming reply names, the turn\'s own when the selection changes meanwhile', async () => {
    const t = setup({ stream: false });
    t.fb.scripts.push({ content: 'Answer', creditsUsed: 5, creditsRemaining: 990, model: 'deep-think' });
    await t.session.send('Q');
    assert.equal(t.finished[0].model, 'deep-think');
    t.settings.stream = true;
    t.fb.scripts.push({ events: chunks('slow') });
    const sent = t.session.send('Q2');
    t.settings.model = 'deep-think'; // picked while the reply streams
    t.settings.model = 'swift-chat';
    t.settings.model = 'other-model';
    await sent;
    assert.equal(t.finished[1].model, 'swift-chat');
    assert.equal(t.finished[1].answered, true);
  });

  it('batches chunks into fewer posts when a flush interval is set', async () => {
    const t = setup();
    const storage = new MemoryConversationStorage();
    const posts: SessionEvent[] = [];
    const session = new ChatSession({
      store: new ConversationStore(storage),
      turns: directTurns(() => t.fb.backend),
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
    // Not a reply: the turn accounting does not record it.
    assert.equal(t.finished.length, 1);
    assert.equal(t.finished[0].answered, false);
    assert.equal(t.finished[0].errorKind, 'auth');
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
    const last = t.posts.filter((p) => p.type !== 'turnSettled').at(-1);
    assert.equal(last?.type, 'turnEnded');
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

  describe('reply endings (the stream as the service sends it)', () => {
    const reply = (finishReason: string, ...texts: string[]): SessionStreamEvent[] => [
      { event: 'f', messageId: 'srv' },
      ...texts.map((data) => ({ event: '0' as const, data })),
      { event: 'e', finishReason, usage: { promptTokens: 5, completionTokens: 7 }, isContinued: false },
      { event: 'd', finishReason, usage: { promptTokens: 5, completionTokens: 7 } },
    ];

    for (const reason of ['stop', 'other', 'unknown', 'tool-calls']) {
      it(`finishReason ${reason}: a normal end, no error, no note`, async () => {
        const t = setup();
        t.fb.scripts.push({ events: reply(reason, 'All ', 'good') });
        await t.session.send('Q');
        const m = t.session.conversation.messages[1];
        assert.equal(m.status, 'complete');
        assert.equal(m.content, 'All good');
        assert.equal(m.error, undefined);
        assert.equal(m.meta?.ending, undefined);
        assert.ok(!t.posts.some((p) => p.type === 'turnEnded' && p.message.status === 'error'));
        assert.equal(t.finished[0].errorKind, undefined);
      });
    }

    it('finishReason length: complete, marked cut (note + Continue), and Continue sends a follow-up asking to continue', async () => {
      const t = setup();
      t.fb.scripts.push({ events: reply('length', 'Half of the ans') });
      await t.session.send('Q');
      const m = t.session.conversation.messages[1];
      assert.equal(m.status, 'complete');
      assert.equal(m.meta?.ending, 'length');
      const end = t.posts.find((p) => p.type === 'turnEnded');
      assert.ok(end && end.type === 'turnEnded' && end.message.meta?.ending === 'length');
      t.fb.scripts.push({ events: reply('stop', 'wer.') });
      await t.session.continueReply();
      assert.equal(t.fb.requests.length, 2);
      const sent = t.fb.requests[1].messages;
      assert.equal(sent.at(-1)!.content, CONTINUE_PROMPT);
      assert.equal(sent.at(-2)!.content, 'Half of the ans');
      // Continue does nothing after a reply that was not cut.
      await t.session.continueReply();
      assert.equal(t.fb.requests.length, 2);
    });

    it('finishReason content-filter (or content_filter): complete, with the filter note', async () => {
      const t = setup();
      t.fb.scripts.push({ events: reply('content_filter', 'Some text') });
      await t.session.send('Q');
      const m = t.session.conversation.messages[1];
      assert.equal(m.status, 'complete');
      assert.equal(m.meta?.ending, 'content-filter');
      assert.match(replyEndingText(m.meta?.ending) ?? '', /content filter/);
    });

    it('finishReason error: a failure shown after the text that came, which is kept (paid), Retry warns about credits', async () => {
      const t = setup();
      t.fb.scripts.push({ events: reply('error', 'Partial') });
      await t.session.send('Q');
      const m = t.session.conversation.messages[1];
      assert.equal(m.status, 'error');
      assert.equal(m.content, 'Partial');
      assert.equal(m.error?.kind, 'stream');
      assert.match(m.error?.message ?? '', /finishReason: error/);
      assert.match(m.error?.message ?? '', /costs credits again/);
      assert.equal(m.meta?.credits, 1);
    });

    it('a 3 error part: an error with its text, after the text kept', async () => {
      const t = setup();
      t.fb.scripts.push({
        events: [
          { event: 'f', messageId: 'srv' },
          { event: '0', data: 'Begin' },
          { event: '3', error: 'The model is overloaded' },
          { event: 'e', finishReason: 'error', isContinued: false },
          { event: 'd', finishReason: 'error' },
        ],
      });
      await t.session.send('Q');
      const m = t.session.conversation.messages[1];
      assert.equal(m.status, 'error');
      assert.equal(m.content, 'Begin');
      assert.match(m.error?.message ?? '', /The model is overloaded/);
      const err = t.posts.find((p) => p.type === 'turnEnded' && p.message.status === 'error');
      assert.ok(err);
    });

    it('multi-step: one reply in the panel, usage summed over the steps', async () => {
      const t = setup();
      t.fb.scripts.push({
        events: [
          { event: 'f', messageId: 's1' },
          { event: '0', data: 'Step one. ' },
          { event: 'e', finishReason: 'tool-calls', usage: { promptTokens: 10, completionTokens: 4 }, isContinued: true },
          { event: 'f', messageId: 's2' },
          { event: '0', data: 'Step two.' },
          { event: 'e', finishReason: 'stop', usage: { promptTokens: 20, completionTokens: 6 }, isContinued: false },
          { event: 'd', finishReason: 'stop', usage: { promptTokens: 30, completionTokens: 10 } },
        ],
      });
      await t.session.send('Q');
      const msgs = t.session.conversation.messages;
      assert.equal(msgs.length, 2);
      assert.equal(msgs[1].content, 'Step one. Step two.');
      assert.equal(msgs[1].status, 'complete');
      assert.equal(msgs[1].meta?.promptTokens, 30);
      assert.equal(msgs[1].meta?.completionTokens, 10);
      assert.equal(t.posts.filter((p) => p.type === 'turnStarted').length, 1);
    });

    it('out-of-range values (negative/fractional tokens and credits, odd model id, missing fields) keep the panel usable', async () => {
      const warnings: string[] = [];
      const t = setup();
      const session = new ChatSession({
        store: t.store,
        turns: directTurns(() => t.fb.backend),
        settings: () => t.settings,
        modelCost: () => null,
        onEvent: (e) => t.posts.push(e),
        flushIntervalMs: 0,
        logger: { debug() {}, warn: (msg, data) => warnings.push(`${msg} ${String(data?.field)}`) },
      });
      t.fb.scripts.push({
        events: [
          { event: 'f' },
          { event: '0', data: 'Text' },
          { event: 'e', usage: { promptTokens: -3, completionTokens: 2.6 } },
          { event: 'e', usage: { promptTokens: -1, completionTokens: 1.2 } },
          { event: 'd' },
        ] as SessionStreamEvent[],
      });
      await session.send('Q');
      t.settings.stream = false;
      t.fb.scripts.push({ content: 'Second', creditsUsed: -4, creditsRemaining: 12.345, model: '<b>odd model</b>' });
      await session.send('Q2');
      // Every message posted to the panel passes the panel's own validation.
      for (const p of viewMessages(session, t.posts)) assert.ok(parseHostMessage(p).ok, `${p.type}: ${JSON.stringify(p)}`);
      const view = { conversation: toConversationView(session.conversation) };
      for (const m of view.conversation.messages) assert.ok(MessageViewSchema.safeParse(m).success, JSON.stringify(m));
      const [, first, , second] = session.conversation.messages;
      assert.equal(first.status, 'complete');
      assert.equal(first.meta?.promptTokens, undefined);
      assert.equal(first.meta?.completionTokens, 4);
      assert.equal(second.content, 'Second');
      assert.equal(second.meta?.credits, undefined);
      assert.equal(second.meta?.model, 'swift-chat');
      // Logged once per field, however often it came.
      assert.equal(warnings.filter((w) => w.includes('e.usage.promptTokens')).length, 1);
      assert.ok(warnings.some((w) => w.includes('creditsUsed')));
      assert.ok(warnings.some((w) => w.includes('model')));
    });
  });

  describe('Retry target and paid replies', () => {
    it('Retry regenerates the turn that failed, never an older stopped one above it', async () => {
      const t = setup();
      t.fb.scripts.push({ events: chunks('part').slice(0, 2), waitForAbort: true });
      const done = t.session.send('Old question');
      while (!t.posts.some((p) => p.type === 'textAppended')) await new Promise((r) => setImmediate(r));
      t.session.stop();
      await done;
      // The next send fails before any reply: the turn is taken back, the text returned.
      t.fb.scripts.push(new FakeError('connection', 'refused'));
      await t.session.send('New question');
      assert.ok(t.session.sendError);
      t.fb.scripts.push({ events: chunks('New answer') });
      await t.session.retry();
      const last = t.fb.requests.at(-1)!.messages.at(-1)!;
      assert.equal(last.content, 'New question');
      assert.deepEqual(t.session.conversation.messages.map((m) => [m.content, m.status]), [
        ['Old question', 'complete'],
        ['part', 'stopped'],
        ['New question', 'complete'],
        ['New answer', 'complete'],
      ]);
    });

    it('a reply the service paid for is kept when the stream breaks (f came, even with no text), Retry warns it costs again', async () => {
      const t = setup();
      t.fb.scripts.push({ events: [{ event: 'f', messageId: 'srv' }], failAfter: new FakeError('protocol', 'Malformed stream frame') });
      await t.session.send('Q');
      const msgs = t.session.conversation.messages;
      assert.equal(msgs.length, 2, 'the turn is kept');
      assert.equal(msgs[1].status, 'error');
      assert.match(msgs[1].error?.message ?? '', /costs credits again/);
      assert.equal(t.session.sendError, undefined);
    });

    it('a stream that fails right after the 200, before any event, keeps the turn (paid) with Retry warning about credits', async () => {
      const t = setup();
      t.fb.scripts.push({ events: [], failAfter: new FakeError('protocol', 'Malformed stream frame') });
      await t.session.send('Q');
      const msgs = t.session.conversation.messages;
      assert.equal(msgs.length, 2);
      assert.equal(msgs[1].status, 'error');
      assert.match(msgs[1].error?.message ?? '', /costs credits again/);
    });

    it('a malformed f: the reply is kept and its note says what was wrong', async () => {
      const t = setup();
      t.fb.scripts.push({
        events: [
          { event: 'f', malformed: 'the start of the reply was malformed: "f:{x"' },
          { event: '0', data: 'Text' },
          { event: 'e', finishReason: 'stop', isContinued: false },
          { event: 'd', finishReason: 'stop' },
        ],
      });
      await t.session.send('Q');
      const m = t.session.conversation.messages[1];
      assert.equal(m.status, 'complete');
      assert.equal(m.content, 'Text');
      assert.match(m.meta?.note ?? '', /start of the reply was malformed/);
    });

    it('a non-streaming reply missing fields after a 200 keeps its text and says what was wrong', async () => {
      const t = setup({ stream: false });
      t.fb.scripts.push({ content: 'Kept', problems: ['creditsUsed is missing'] } as never);
      await t.session.send('Q');
      const m = t.session.conversation.messages[1];
      assert.equal(m.content, 'Kept');
      assert.equal(m.status, 'complete');
      assert.match(m.meta?.note ?? '', /creditsUsed is missing/);
      assert.equal(m.meta?.credits, 1, 'the model price stands in for the missing charge');
    });
  });
});
