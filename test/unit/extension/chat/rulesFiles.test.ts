// The files a question carries, from the chips to the session (extension/chat/common): which
// attachments are workspace files (sendWithAttachments.ts attachedFiles), the files handed to the
// session by a send and by a queued message when it goes (chatSends.ts) and counted by the context
// meter (contextMeter.ts), kept by the queue across
// a reload (savedQueue.ts; restoreQueue in test/unit/core/chat/queueFiles.test.ts), so that the
// rules for them go with it.
import { strict as assert } from 'node:assert';
import {
  ChatSession, ConversationStore, directTurns, emptyQueue, enqueue, messageTokens, readRules, requestRules, textAttachment,
  type Attachment, type ChatBackend, type SessionChatRequest, type SessionStreamEvent,
} from '../../../../src/core';
import { ContextMeterFeed } from '../../../../src/extension/chat/common/contextMeter';
import { ChatController, type QueueStore } from '../../../../src/extension/chat/common/controller';
import { attachedFiles, sendWithAttachments } from '../../../../src/extension/chat/common/sendWithAttachments';
import { loadQueue, saveQueue } from '../../../../src/extension/chat/common/savedQueue';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { makeTurns } from '../../../support/turns';

const tick = () => new Promise((r) => setTimeout(r, 5));
const events = (...texts: string[]): SessionStreamEvent[] => [
  { event: 'f', messageId: 'srv' },
  ...texts.map((data) => ({ event: '0' as const, data })),
  { event: 'd', finishReason: 'stop' },
];

const attachment = (id: string, kind: Attachment['kind'], path: string): Attachment => ({ id, kind, path, language: 'text', content: `content of ${path}`, bytes: 10 });

describe('attachedFiles (extension/chat/common/sendWithAttachments.ts)', () => {
  it('files, selections and Problems by their path, each once, in order; a terminal left out', () => {
    const files = attachedFiles([
      attachment('a', 'file', 'src/a.py'),
      attachment('b', 'selection', 'lib/b.ts'),
      attachment('c', 'terminal', 'Terminal'),
      attachment('d', 'problems', 'src/a.py'),
      attachment('e', 'selection', 'src/a.py'),
      attachment('f', 'problems', 'web/c.tsx'),
    ]);
    assert.deepEqual(files, ['src/a.py', 'lib/b.ts', 'web/c.tsx']);
  });

  it('nothing but a terminal, or a path left empty: no files', () => {
    assert.deepEqual(attachedFiles([attachment('t', 'terminal', 'Terminal: bash')]), []);
    assert.deepEqual(attachedFiles([attachment('x', 'selection', '')]), []);
    assert.deepEqual(attachedFiles([]), []);
  });
});

describe('savedQueue (extension/chat/common/savedQueue.ts): the files of a queued message', () => {
  it('saved and loaded with its conversation (savedQueue.ts), the files stay', () => {
    let value: unknown;
    const store: QueueStore = { load: () => value, save: (v) => (value = v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown)) };
    saveQueue(store, 'conv-1', enqueue(emptyQueue(), { id: 'q3', text: 'about a.py', model: 'm', files: ['src/a.py'] }));
    const loaded = loadQueue(store, 'conv-1');
    assert.deepEqual(loaded?.queue.items, [{ id: 'q3', text: 'about a.py', model: 'm', files: ['src/a.py'] }]);
  });
});

describe('a send and a queued message hand their files to the session (chatSends.ts, controller.ts)', () => {
  const RULES = readRules([{ path: '.cursor/rules/py.mdc', content: '---\nglobs: **/*.py\n---\nPython: use type hints.' }]);

  function setup(opts: { queueStore?: QueueStore; store?: ConversationStore } = {}) {
    const requests: SessionChatRequest[] = [];
    const releases: Array<() => void> = [];
    const backend: ChatBackend = {
      chat: () => Promise.reject(new Error('not used')),
      async chatStream(req) {
        requests.push(structuredClone(req));
        const gate = new Promise<void>((resolve) => releases.push(resolve));
        return {
          abort() {},
          async *[Symbol.asyncIterator]() {
            await gate;
            for (const ev of events('ok')) yield ev;
          },
        };
      },
    };
    const settings = { model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: 'http://127.0.0.1:8787' };
    const store = opts.store ?? new ConversationStore(new MemoryConversationStorage());
    let controller: ChatController | undefined;
    const session = new ChatSession({
      store,
      turns: directTurns(() => backend),
      settings: () => ({ ...settings, stream: true, systemPrompt: 'Be brief.' }),
      rules: (files) => requestRules(RULES, { files }),
      modelCost: () => 1,
      onEvent: (e) => controller?.onSessionEvent(e),
      flushIntervalMs: 0,
    });
    /** What the session was asked to send: the text's first line and its options. */
    const sends: Array<{ text: string; opts: unknown }> = [];
    const send = session.send.bind(session);
    session.send = (text, o = {}) => {
      sends.push({ text: text.split('\n')[0], opts: structuredClone(o) });
      return send(text, o);
    };
    controller = new ChatController({
      session,
      settings: () => settings,
      models: () => ({ models: undefined, loading: false, error: undefined, costOf: () => 1 }),
      hasKey: () => true,
      turns: makeTurns({ key: () => 'sk-test-key-0123456789', model: () => settings.model }).turns,
      pickModel: async () => false,
      notifyBusy: () => undefined,
      post: () => undefined,
      ...(opts.queueStore ? { queueStore: opts.queueStore } : {}),
    });
    const release = async (n: number) => {
      for (let i = 0; i < 200 && releases.length < n; i++) await tick();
      releases[n - 1]?.();
      await tick();
    };
    return { controller, session, requests, sends, release, store };
  }

  it('a send with files: the session gets them; a send without: no files option at all', async () => {
    const t = setup();
    const first = t.controller.send('about a.py', undefined, ['src/a.py']);
    await t.release(1);
    await first;
    const second = t.controller.send('plain');
    await t.release(2);
    await second;
    assert.deepEqual(t.sends, [
      { text: 'about a.py', opts: { files: ['src/a.py'] } },
      { text: 'plain', opts: {} },
    ]);
    assert.match(t.requests[0].messages[0].content, /Python: use type hints\./);
    assert.equal(t.requests[1].messages[0].content, 'Be brief.');
  });

  it('a message queued with files goes with them (and its model) when its turn comes; its rules go too', async () => {
    const t = setup();
    const first = t.controller.send('first');
    await tick();
    assert.equal(await t.controller.send('queued about a.py', undefined, ['src/a.py']), 'queued');
    assert.deepEqual(t.controller.queued.peek()?.files, ['src/a.py']);
    await t.release(1);
    await first;
    await t.release(2);
    assert.deepEqual(t.sends, [
      { text: 'first', opts: {} },
      { text: 'queued about a.py', opts: { model: 'swift-chat', files: ['src/a.py'] } },
    ]);
    assert.equal(t.requests.length, 2);
    assert.match(t.requests[1].messages[0].content, /Project rules from \.cursor\/rules\/py\.mdc/);
    const user = t.session.conversation.messages.filter((m) => m.role === 'user').at(-1);
    assert.deepEqual(user?.files, ['src/a.py']);
  });

  it('a message queued with its chips (sendWithAttachments) goes with their files, not the terminal\'s', async () => {
    const t = setup();
    let chips: Attachment[] = [
      textAttachment('c1', 'selection', 'src/a.py', 'python', 'def f(): pass', 100, { start: 1, end: 1 }),
      textAttachment('c2', 'terminal', 'Terminal', 'text', '$ ls', 100),
    ];
    const list = {
      get attachments() {
        return chips;
      },
      sent: (sent: readonly Attachment[]) => (chips = chips.filter((c) => !sent.includes(c))),
    };
    const first = t.controller.send('first');
    await tick();
    assert.equal(await sendWithAttachments('look at this', list, t.controller, t.session), 'queued');
    await t.release(1);
    await first;
    await t.release(2);
    const { sent, ...opts } = t.sends[1].opts as { sent?: Array<{ kind: string; name: string }> };
    assert.deepEqual(opts, { model: 'swift-chat', files: ['src/a.py'] });
    assert.deepEqual(sent?.map((i) => [i.kind, i.name]), [['range', 'src/a.py:1'], ['terminal', 'Terminal']], 'and with its record, the terminal in it');
  });

  it('a queue kept across a reload brings its files back: resumed, the message goes with them', async () => {
    let value: unknown;
    const queueStore: QueueStore = { load: () => value, save: (v) => (value = v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown)) };
    const storage = new MemoryConversationStorage();
    const before = setup({ queueStore, store: new ConversationStore(storage) });
    const first = before.controller.send('first');
    await tick();
    assert.equal(await before.controller.send('queued about a.py', undefined, ['src/a.py']), 'queued');
    const id = before.session.conversation.id;
    before.session.stop();
    await before.release(1);
    await first;
    await before.store.flush();

    const after = setup({ queueStore, store: new ConversationStore(storage) });
    assert.equal(await after.session.restore(id), 'restored');
    const resumed = after.controller.queueResume();
    await after.release(1);
    await resumed;
    assert.deepEqual(after.sends, [{ text: 'queued about a.py', opts: { model: 'swift-chat', files: ['src/a.py'] } }]);
    assert.match(after.requests[0].messages[0].content, /Python: use type hints\./);
  });
});

describe('the context meter counts the rules of the attachments\' files (contextMeter.ts)', () => {
  it('a chip of a .py file adds the Python rule to the instructions; a terminal chip adds nothing', () => {
    const RULES = readRules([{ path: '.cursor/rules/py.mdc', content: '---\nglobs: **/*.py\n---\nPython: use type hints.' }]);
    const asked: string[][] = [];
    const session = new ChatSession({
      store: new ConversationStore(new MemoryConversationStorage()),
      turns: directTurns(() => ({ chat: () => Promise.reject(new Error('not used')), chatStream: () => Promise.reject(new Error('not used')) })),
      settings: () => ({ model: 'swift-chat', search: false, temperature: 1, baseUrl: 'http://127.0.0.1:8787', stream: true, systemPrompt: 'Be brief.' }),
      rules: (files) => {
        asked.push([...files]);
        return requestRules(RULES, { files });
      },
      modelCost: () => 1,
      onEvent: () => undefined,
      flushIntervalMs: 0,
    });
    let chips: Attachment[] = [textAttachment('t', 'terminal', 'Terminal', 'text', '$ ls', 100)];
    const feed = new ContextMeterFeed({ session, attachments: () => chips, source: () => 'setting', post: () => undefined });
    feed.setDraft('question', false);
    const plain = feed.message().meter.instructions;
    assert.deepEqual(asked.at(-1), []);
    assert.equal(plain, messageTokens('Be brief.'));
    chips = [...chips, textAttachment('s', 'selection', 'src/a.py', 'python', 'def f(): pass', 100, { start: 1, end: 1 })];
    const withPy = feed.message().meter.instructions;
    assert.deepEqual(asked.at(-1), ['src/a.py']);
    assert.equal(withPy, messageTokens(`Be brief.\n\n${requestRules(RULES, { files: ['src/a.py'] }).text}`));
    assert.ok(withPy > plain);
  });
});
