import { strict as assert } from 'node:assert';
import {
  type Conversation,
  ChatSession,
  ConversationStore,
  appendMessage,
  textAttachment,
  type Attachment,
  type ChatBackend,
  type SessionStreamEvent,
  directTurns,
} from '../../../../src/core';
import { MAX_INSTRUCTIONS_NAME, MAX_NOTICE, MAX_TEXT, parseHostMessage, type HostMessage } from '../../../../src/protocol';
import { ChatController, type QueueStore } from '../../../../src/extension/chat/common/controller';
import { sendWithAttachments } from '../../../../src/extension/chat/common/sendWithAttachments';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { makeTurns, type TurnsOptions } from '../../../support/turns';

const events = (...texts: string[]): SessionStreamEvent[] => [
  { event: 'f', messageId: 'srv' },
  ...texts.map((data) => ({ event: '0' as const, data })),
  { event: 'd', finishReason: 'stop' },
];

function setup(opts: { key?: boolean; model?: string; pickGives?: string; total?: number; gated?: boolean; prices?: Record<string, number>; queueStore?: QueueStore; store?: ConversationStore; modelNotice?: () => string | undefined } = {}) {
  const settings = { model: opts.model ?? 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: 'http://127.0.0.1:8787' };
  let hold: (() => void) | undefined;
  const requests: string[] = [];
  const requestModels: string[] = [];
  const releases: Array<() => void> = [];
  const backend: ChatBackend = {
    async chat() {
      throw new Error('not used');
    },
    async chatStream(req, { signal }) {
      requests.push(req.messages[req.messages.length - 1].content);
      requestModels.push(`${req.model}: ${req.messages[req.messages.length - 1].content}`);
      const gate = opts.gated ? new Promise<void>((resolve) => releases.push(resolve)) : undefined;
      return {
        abort() {},
        async *[Symbol.asyncIterator]() {
          if (gate) await gate;
          for (const ev of events('Hel', 'lo')) yield ev;
          if (hold) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        },
      };
    },
  };
  const posted: HostMessage[] = [];
  let picks = 0;
  let busyNotes = 0;
  const cannotPay: Array<[number, number]> = [];
  let n = 0;
  const store = opts.store ?? new ConversationStore(new MemoryConversationStorage(), { newId: () => `conv-${++n}` });
  const costOf = (id: string) => (opts.prices ? (opts.prices[id] ?? null) : 1);
  const models = [{ valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true }];
  // The one turn pipeline: the key, the selected model, its price and the balance are read there.
  const turnsWith = (more: Partial<TurnsOptions> = {}) =>
    makeTurns({ key: () => ((opts.key ?? true) ? 'sk-test-key-0123456789' : undefined), model: () => settings.model, models: () => models, costOf, balance: () => opts.total, ...more });
  const pipeline = turnsWith();
  // The session reaches the controller through its events, as in the composition root.
  let controller: ChatController | undefined;
  const session = new ChatSession({
    store,
    turns: directTurns(() => backend),
    settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
    modelCost: costOf,
    onEvent: (e) => controller?.onSessionEvent(e),
    flushIntervalMs: 0,
  });
  controller = new ChatController({
    session,
    settings: () => settings,
    models: () => ({ models, loading: false, error: undefined, costOf }),
    hasKey: () => opts.key ?? true,
    ...(opts.modelNotice ? { modelNotice: opts.modelNotice } : {}),
    turns: pipeline.turns,
    pickModel: async () => {
      picks++;
      if (opts.pickGives) settings.model = opts.pickGives;
      return !!opts.pickGives;
    },
    notifyBusy: () => busyNotes++,
    notifyCannotPay: (cost, total) => cannotPay.push([cost, total]),
    ...(opts.queueStore ? { queueStore: opts.queueStore } : {}),
    post: (m) => {
      // Everything posted is valid on the wire.
      const parsed = parseHostMessage(JSON.parse(JSON.stringify(m)));
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      posted.push(m);
    },
  });
  return {
    controller,
    session,
    store,
    posted,
    requests,
    requestModels,
    settings,
    holdReplies: () => (hold = () => undefined),
    picks: () => picks,
    busyNotes: () => busyNotes,
    cannotPay,
    releases,
    turnsWith,
    balanceFetches: pipeline.fetches,
  };
}

const bytes = (m: HostMessage) => Buffer.byteLength(JSON.stringify(m));

/** A conversation of `turns` turns with replies of about `replyChars` characters. */
function fill(conv: Conversation, turns: number, replyChars: number) {
  const reply = 'A line of a reply with `code` and **bold** words.\n'.repeat(Math.ceil(replyChars / 50)).slice(0, replyChars);
  for (let i = 0; i < turns; i++) {
    appendMessage(conv, 'user', `Question ${i}`, new Date());
    appendMessage(conv, 'assistant', reply, new Date(), { status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
  }
}

/** Conversation A with a message queued while its reply streamed, then left for a new one (New Chat): A's queue is kept for it. */
async function queuedInALeft() {
  const saved: { value: unknown } = { value: undefined };
  const queueStore: QueueStore = { load: () => saved.value, save: (v) => (saved.value = v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown)) };
  const t = setup({ gated: true, queueStore });
  const first = t.controller.send('first question of conversation A');
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(await t.controller.send('my home address (queued in A)'), 'queued');
  const a = t.session.conversation.id;
  const leaving = t.session.newChat();
  t.releases.shift()?.();
  await first;
  await leaving;
  return { t, saved, a };
}

describe('chat controller', () => {
  it('the settings snapshot says when the workspace chose the model or a workspace model was ignored, and only then', () => {
    let notice: string | undefined = 'This workspace\'s settings choose the model deep-think; it is ignored unless you pick it for this workspace. Your model swift-chat is used.';
    const t = setup({ modelNotice: () => notice });
    const snapshot = t.controller.settings();
    assert.equal(snapshot.modelNotice, notice);
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify({ type: 'settings', settings: snapshot }))).ok, 'valid on the wire');
    notice = undefined;
    assert.equal('modelNotice' in t.controller.settings(), false);
    assert.equal('modelNotice' in setup().controller.settings(), false);
  });

  it('turns a streamed turn into turnStarted, chunks and the final message, never the whole conversation', async () => {
    const t = setup();
    fill(t.session.conversation, 5, 100);
    await t.controller.send('Hi');
    assert.deepEqual(
      t.posted.map((m) => m.type),
      ['turnStarted', 'streamChunk', 'streamChunk', 'turnEnded'],
    );
    const [start, , , end] = t.posted;
    assert.ok(start.type === 'turnStarted' && start.user.content === 'Hi' && start.assistant.status === 'streaming' && start.status.busy);
    assert.ok(end.type === 'turnEnded' && end.message.content === 'Hello' && end.message.status === 'complete' && !end.status.busy);
    assert.deepEqual(end.type === 'turnEnded' && end.message.meta, { model: 'swift-chat', credits: 1 });
  });

  it('queues a send while a reply runs; Stop holds the queue and sends nothing; Resume sends in order', async () => {
    const t = setup();
    t.holdReplies();
    const first = t.controller.send('first');
    while (!t.posted.some((m) => m.type === 'streamChunk')) await new Promise((r) => setImmediate(r));
    await t.controller.send('second');
    await t.controller.send('third');
    await t.controller.send('fourth');
    assert.deepEqual(t.requests, ['first']);
    assert.equal(t.busyNotes(), 0);
    const lastQueue = () => [...t.posted].reverse().find((m) => m.type === 'queue');
    const q = lastQueue();
    assert.ok(q?.type === 'queue' && q.state === 'waiting');
    assert.deepEqual(q.items.map((i) => [i.text, i.cost]), [['second', 1], ['third', 1], ['fourth', 1]]);
    t.controller.queued.remove(q.items[1].id);
    await t.controller.queueEdit(q.items[2].id, 'fourth, edited');
    t.session.stop();
    await first;
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(t.requests, ['first'], 'Stop does not send the queue');
    const held = lastQueue();
    assert.ok(held?.type === 'queue' && held.state === 'stopped' && held.items.length === 2);
    const resumed = t.controller.queueResume();
    // 'second' is held by the stream too: stop it, the queue holds again with the last one
    while (t.requests.length < 2) await new Promise((r) => setImmediate(r));
    t.session.stop();
    await resumed;
    await new Promise((r) => setTimeout(r, 10));
    const resumedAgain = t.controller.queueResume();
    while (t.requests.length < 3) await new Promise((r) => setImmediate(r));
    t.session.stop();
    await resumedAgain;
    assert.deepEqual(t.requests, ['first', 'second', 'fourth, edited']);
  });

  it('sends queued messages one after another when each reply completes', async () => {
    const t = setup({ gated: true });
    const tick = async (n: number) => {
      for (let i = 0; i < 200 && t.requests.length < n; i++) await new Promise((r) => setTimeout(r, 1));
    };
    const first = t.controller.send('one');
    await tick(1);
    await t.controller.send('two');
    await t.controller.send('three');
    assert.deepEqual(t.requests, ['one']);
    t.releases[0]();
    await first;
    await tick(2);
    assert.deepEqual(t.requests, ['one', 'two']);
    t.releases[1]();
    await tick(3);
    t.releases[2]();
    assert.deepEqual(t.requests, ['one', 'two', 'three']);
    await new Promise((r) => setTimeout(r, 10));
    const q = [...t.posted].reverse().find((m) => m.type === 'queue');
    assert.ok(q?.type === 'queue' && q.state === 'idle' && q.items.length === 0);
  });

  it('a queue clear drops what waits; a new surface gets the queue', async () => {
    const t = setup();
    t.holdReplies();
    const first = t.controller.send('first');
    while (!t.posted.some((m) => m.type === 'streamChunk')) await new Promise((r) => setImmediate(r));
    await t.controller.send('later');
    assert.ok(t.controller.initialMessages().some((m) => m.type === 'queue' && m.items.length === 1));
    t.controller.queued.clear();
    t.session.stop();
    await first;
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(t.requests, ['first']);
  });

  it('a message the balance cannot pay is not sent: the text goes back and the user is told', async () => {
    const t = setup({ total: 0.5 });
    await t.controller.send('too dear');
    assert.deepEqual(t.requests, []);
    assert.deepEqual(t.cannotPay, [[1, 0.5]]);
    assert.ok(t.posted.some((m) => m.type === 'restoreInput' && m.text === 'too dear'));
    const paid = setup({ total: 1 });
    await paid.controller.send('just enough');
    assert.deepEqual(paid.requests, ['just enough']);
    assert.deepEqual(paid.cannotPay, []);
  });

  it('a refused message opens the out-of-credits card, which closes once the balance pays again or is dismissed', async () => {
    const opts: { total?: number } = { total: 0.5 };
    const t = setup(opts);
    const card = () => {
      const last = t.posted.filter((m) => m.type === 'settings').at(-1);
      return last?.type === 'settings' ? last.settings.outOfCredits : undefined;
    };
    assert.equal(t.controller.settings().outOfCredits, undefined);
    await t.controller.send('too dear');
    assert.deepEqual(card(), { balance: 0.5, cost: 1, model: 'swift-chat', affordable: 0 });
    assert.equal(t.controller.outOfCreditsOpen, true);
    // A balance that is not known for a moment (refreshing) does not close it.
    opts.total = undefined;
    t.controller.settingsChanged();
    assert.equal(t.controller.outOfCreditsOpen, true);
    opts.total = 3;
    t.controller.settingsChanged();
    assert.equal(card(), undefined);
    assert.equal(t.controller.outOfCreditsOpen, false);
    opts.total = 3;
    await t.controller.send('now it goes');
    assert.deepEqual(t.requests, ['now it goes']);

    // Refused by the service (402): opened by the panel, dismissed by the user.
    opts.total = 0;
    t.controller.showOutOfCredits();
    assert.equal(card()?.balance, 0);
    await t.controller.receive({ type: 'dismissOutOfCredits' });
    assert.equal(card(), undefined);
  });

  it('without a key: no request, the send error in a status message, the text back in the box', async () => {
    const t = setup({ key: false });
    await t.controller.send('hello');
    assert.deepEqual(t.requests, []);
    const status = t.posted.find((m) => m.type === 'status');
    assert.ok(status?.type === 'status' && status.status.sendError?.kind === 'auth' && status.status.sendError.actions.includes('setApiKey'));
    assert.ok(t.posted.some((m) => m.type === 'restoreInput' && m.text === 'hello'));
    assert.equal(t.session.conversation.messages.length, 0);
  });

  it('without a model: asks for one; nothing is sent when none is chosen', async () => {
    const t = setup({ model: '' });
    await t.controller.send('hello');
    assert.equal(t.picks(), 1);
    assert.deepEqual(t.requests, []);
    assert.ok(t.posted.some((m) => m.type === 'restoreInput' && m.text === 'hello'));
  });

  it('without a model: the one chosen in the prompt is used', async () => {
    const t = setup({ model: '', pickGives: 'swift-chat' });
    await t.controller.send('hello');
    assert.equal(t.picks(), 1);
    assert.deepEqual(t.requests, ['hello']);
  });

  it('retry checks the model too', async () => {
    const t = setup({ model: '' });
    await t.controller.retry();
    assert.equal(t.picks(), 1);
    assert.deepEqual(t.requests, []);
  });

  it('a settings change posts a settings snapshot whose size does not depend on the conversation', () => {
    const small = setup();
    const large = setup();
    fill(large.session.conversation, 300, 8000);
    small.controller.settingsChanged();
    large.controller.settingsChanged();
    assert.deepEqual(small.posted.map((m) => m.type), ['settings']);
    assert.deepEqual(large.posted.map((m) => m.type), ['settings']);
    assert.equal(bytes(large.posted[0]), bytes(small.posted[0]));
    assert.ok(bytes(large.posted[0]) < 8 * 1024, `${bytes(large.posted[0])} bytes`);
    // the conversation itself is large: it is only sent on open, switch and restore
    assert.ok(bytes(large.controller.conversationMessage()) > 2_000_000);
  });

  it('the conversation is posted when it changes other than by a turn (new chat, edit)', async () => {
    const t = setup();
    await t.controller.send('Q1');
    t.posted.length = 0;
    await t.session.editLast();
    assert.deepEqual(t.posted.map((m) => m.type), ['conversation', 'restoreInput']);
    const conv = t.posted[0];
    assert.ok(conv.type === 'conversation' && conv.conversation.messages.length === 0);
    t.posted.length = 0;
    await t.session.newChat();
    assert.deepEqual(t.posted.map((m) => m.type), ['conversation']);
  });

  it('a new surface gets the settings, then the conversation', () => {
    const t = setup();
    fill(t.session.conversation, 2, 10);
    const msgs = t.controller.initialMessages();
    assert.deepEqual(msgs.map((m) => m.type), ['settings', 'conversation', 'queue']);
    assert.ok(msgs[1].type === 'conversation' && msgs[1].conversation.messages.length === 4);
  });
});

describe('chat controller: the queue across a reload, its model, and the limits', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('sends a queued message with the model its card showed, not the one selected when its turn comes', async () => {
    const t = setup({ prices: { 'cheap-chat': 1, 'premium-chat': 50 }, model: 'cheap-chat', gated: true });
    const first = t.controller.send('first');
    await tick();
    assert.equal(await t.controller.send('second, queued while cheap-chat was selected'), 'queued');
    const card = [...t.posted].reverse().find((m) => m.type === 'queue');
    assert.ok(card?.type === 'queue');
    assert.deepEqual(card.items.map((i) => i.cost), [1], 'the card shows the price of cheap-chat');
    t.settings.model = 'premium-chat'; // the user switches model while the reply streams
    t.releases.shift()?.();
    await first;
    await tick();
    t.releases.shift()?.();
    await tick();
    assert.deepEqual(t.requestModels, ['cheap-chat: first', 'cheap-chat: second, queued while cheap-chat was selected']);
  });

  it('keeps the queue with its conversation and brings it back, held, when that conversation is restored after a reload', async () => {
    const saved: { value: unknown } = { value: undefined };
    const queueStore: QueueStore = { load: () => saved.value, save: (v) => (saved.value = v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown)) };
    const storage = new MemoryConversationStorage();
    const before = setup({ gated: true, queueStore, store: new ConversationStore(storage) });
    const first = before.controller.send('first');
    await tick();
    await before.controller.send('typed while the reply streams');
    await before.controller.send('and another one');
    const convId = before.session.conversation.id;
    assert.ok(saved.value, 'the queue is saved as soon as a message is queued');
    // The window reloads before the reply ends (nothing of the queue was sent).
    before.session.stop();
    before.releases.shift()?.();
    await first;
    await before.store.flush();

    const after = setup({ queueStore, store: new ConversationStore(storage) });
    assert.equal(await after.session.restore(convId), 'restored');
    const q = [...after.posted].reverse().find((m) => m.type === 'queue');
    assert.ok(q?.type === 'queue', 'the restored queue is posted');
    assert.deepEqual(q.items.map((i) => i.text), ['typed while the reply streams', 'and another one']);
    assert.equal(q.state, 'stopped', 'held until the user sends it on');
    assert.deepEqual(after.requests, [], 'nothing is sent behind the user');
    await after.controller.queueResume();
    await tick();
    await tick();
    assert.deepEqual(after.requests, ['typed while the reply streams', 'and another one']);
    assert.equal(saved.value, undefined, 'an empty queue is not kept');
  });

  it('queued messages stay with their conversation: New Chat holds them there, Resume sends nothing into the new one, and they come back with it; a Delete drops them', async () => {
    const { t, saved, a } = await queuedInALeft();
    const shown = () => [...t.posted].reverse().find((m) => m.type === 'queue');
    const inB = shown();
    assert.ok(inB?.type === 'queue' && inB.items.length === 0, 'the new conversation shows no queue of A');
    await t.controller.queueResume();
    await tick();
    assert.deepEqual(t.requests, ['first question of conversation A'], 'Resume in B sends nothing of A');
    assert.deepEqual((saved.value as Array<{ conversationId: string }>).map((e) => e.conversationId), [a], 'kept with A');
    // Back to A: its queue comes back, held.
    assert.ok(await t.session.open(a));
    const back = shown();
    assert.ok(back?.type === 'queue' && back.state === 'stopped');
    assert.deepEqual(back.items.map((i) => i.text), ['my home address (queued in A)']);
    // A is deleted: its queue goes with it, from the chat and from the workspace's state.
    t.controller.queued.drop(a);
    const gone = shown();
    assert.ok(gone?.type === 'queue' && gone.items.length === 0);
    assert.equal(saved.value, undefined, 'the workspace state keeps no text of a deleted conversation');
  });

  it('N9: History > Delete of a conversation that is not the current one drops its queued messages from the workspace state', async () => {
    const { t, saved, a } = await queuedInALeft();
    assert.deepEqual((saved.value as Array<{ conversationId: string }>).map((e) => e.conversationId), [a], 'kept with A while A is not shown');
    const b = t.session.conversation.id;
    await t.session.remove(a); // History > Delete of A, not the current conversation
    assert.equal(saved.value, undefined, 'the workspace state keeps no text of a deleted conversation');
    assert.equal(t.session.conversation.id, b, 'the current conversation stays');
  });

  it('a send while a summary of earlier turns is written is queued, and goes once the summary has ended', async () => {
    const t = setup();
    await t.controller.send('first question');
    let finish: () => void = () => undefined;
    const writing = t.session.summary(() => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    assert.equal(t.session.busy, true, 'the summary is a turn of the session');
    assert.equal(await t.controller.send('typed while the summary is written'), 'queued');
    assert.deepEqual(t.requests, ['first question'], 'nothing sent in the middle of the summary');
    assert.equal(await t.session.summary(async () => 'a second one'), undefined, 'one turn at a time');
    finish();
    await writing;
    await tick();
    await tick();
    assert.deepEqual(t.requests, ['first question', 'typed while the summary is written']);
    assert.equal(t.session.busy, false);
  });

  it("the chat getting the focus back shows the turn another window added to its conversation, without a send", async () => {
    const storage = new MemoryConversationStorage();
    const t = setup({ store: new ConversationStore(storage) });
    await t.controller.send('asked in this window');
    const other = new ChatSession({
      store: new ConversationStore(storage),
      turns: directTurns(() => ({
        chat: () => Promise.reject(new Error('not used')),
        chatStream: async () => ({ abort() {}, async *[Symbol.asyncIterator]() { yield* events('answered in the other window'); } }),
      })),
      settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: '' }),
      modelCost: () => 1,
      onEvent: () => undefined,
      flushIntervalMs: 0,
    });
    assert.ok(await other.open(t.session.conversation.id));
    await other.send('asked in the other window');
    const before = t.posted.length;
    await t.controller.receive({ type: 'chatFocused' });
    const shown = t.posted.slice(before).filter((m) => m.type === 'conversation');
    assert.equal(shown.length, 1);
    assert.deepEqual(shown[0].type === 'conversation' && shown[0].conversation.messages.map((m) => m.content).slice(-2), ['asked in the other window', 'answered in the other window']);
    assert.deepEqual(t.requests, ['asked in this window'], 'nothing sent');
    await t.controller.receive({ type: 'chatFocused' });
    assert.equal(t.posted.slice(before).filter((m) => m.type === 'conversation').length, 1, 'nothing new: nothing shown again');
  });

  it('deleting the current conversation from History gives exactly one "conversation changed" and one new conversation', async () => {
    const t = setup();
    await t.controller.send('a question');
    const a = t.session.conversation.id;
    const before = t.posted.length;
    await t.session.remove(a);
    const shown = t.posted.slice(before).filter((m) => m.type === 'conversation');
    assert.equal(shown.length, 1);
    assert.ok(shown[0].type === 'conversation' && shown[0].conversation.id !== a && shown[0].conversation.messages.length === 0);
    assert.equal(shown[0].type === 'conversation' && shown[0].conversation.id, t.session.conversation.id, 'the one shown is the one the session holds');
  });

  it('a queued message is fitted to the budget of the model it goes with, not the selected one', async () => {
    const sent: Array<{ model: string; chars: number }> = [];
    const storage = new MemoryConversationStorage();
    const store = new ConversationStore(storage);
    let release: () => void = () => undefined;
    const backend: ChatBackend = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: async (req) => {
        sent.push({ model: req.model, chars: req.messages.reduce((n, m) => n + m.content.length, 0) });
        const wait = sent.length === 1 ? new Promise<void>((r) => (release = r)) : undefined;
        return { abort() {}, async *[Symbol.asyncIterator]() { if (wait) await wait; yield* events('ok'); } };
      },
    };
    const settings = { model: 'big-chat', search: false, temperature: 1, fontSize: 0, baseUrl: 'http://127.0.0.1:8787' };
    const budgets: Record<string, number> = { 'big-chat': 100_000, 'small-chat': 3_072 };
    const session = new ChatSession({
      store,
      turns: directTurns(() => backend),
      settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
      modelCost: () => 1,
      contextBudget: (id) => budgets[id] ?? 100_000,
      onEvent: (e) => controller.onSessionEvent(e),
      flushIntervalMs: 0,
    });
    fill(session.conversation, 40, 2_000);
    const controller: ChatController = new ChatController({
      session,
      settings: () => settings,
      models: () => ({ models: undefined, loading: false, error: undefined, costOf: () => 1 }),
      hasKey: () => true,
      turns: makeTurns({ key: () => 'sk-test-key-0123456789', model: () => settings.model }).turns,
      pickModel: async () => true,
      notifyBusy: () => undefined,
      post: () => undefined,
    });
    settings.model = 'big-chat';
    const first = controller.send('first');
    await tick();
    settings.model = 'small-chat';
    assert.equal(await controller.send('queued with small-chat'), 'queued');
    settings.model = 'big-chat'; // selected again before the queued message goes
    release();
    await first;
    for (let i = 0; i < 20 && sent.length < 2; i++) await tick();
    assert.equal(sent[1]?.model, 'small-chat');
    assert.ok(sent[1].chars / 4 <= budgets['small-chat'], `about ${Math.round(sent[1].chars / 4)} tokens sent to small-chat, its budget ${budgets['small-chat']}`);
    assert.ok(sent[0].chars > sent[1].chars * 4, 'the big model got far more of the conversation');
  });

  it("does not take another conversation's queue", async () => {
    const queueStore: QueueStore = { load: () => ({ conversationId: 'someone-else', items: [{ id: 'q1', text: 'not mine', model: 'swift-chat' }] }), save: () => undefined };
    const storage = new MemoryConversationStorage();
    const first = setup({ store: new ConversationStore(storage) });
    await first.controller.send('hello');
    await first.store.flush();
    const t = setup({ queueStore, store: new ConversationStore(storage) });
    assert.equal(await t.session.restore(first.session.conversation.id), 'restored');
    assert.ok(!t.posted.some((m) => m.type === 'queue' && m.items.length > 0));
  });

  it('refuses a message over the length the chat takes, queued or not: the text goes back and the user is told', async () => {
    const long = 'x'.repeat(MAX_TEXT + 1);
    const told: number[] = [];
    const t = setup({ gated: true });
    // Posted as is here; the panel puts back the text the user typed (the attachments make it long).
    const c = new ChatController({
      ...(t.controller as unknown as { deps: ConstructorParameters<typeof ChatController>[0] }).deps,
      notifyTooLong: (n) => told.push(n),
      post: (m) => t.posted.push(m),
    });
    assert.equal(await c.send(long), 'refused');
    assert.deepEqual(t.requests, []);
    const first = c.send('first');
    await tick();
    assert.equal(await c.send(long), 'refused', 'not queued either');
    assert.ok(!t.posted.some((m) => m.type === 'queue' && m.items.length > 0));
    assert.deepEqual(told, [MAX_TEXT + 1, MAX_TEXT + 1]);
    assert.equal(t.posted.filter((m) => m.type === 'restoreInput').length, 2, 'the text goes back to the box (the panel puts back what was typed)');
    t.releases.shift()?.();
    await first;
  });

  it('cuts strings from settings to what the webview takes (address notice, instructions name and line)', () => {
    const t = setup();
    const c = new ChatController({
      ...(t.controller as unknown as { deps: ConstructorParameters<typeof ChatController>[0] }).deps,
      addressNotice: () => 'AI Chat: the workspace sets https://ai.example.com/' + 'p'.repeat(1100),
      instructions: () => ({ name: 'docs/' + 'x'.repeat(400) + '.md', active: true, off: false, text: 'y'.repeat(1200) }),
    });
    const m = c.settingsMessage();
    assert.equal(parseHostMessage(m).ok, true);
    assert.ok(m.type === 'settings' && m.settings.addressNotice?.length === MAX_NOTICE && m.settings.instructions?.name.length === MAX_INSTRUCTIONS_NAME);
  });

  it('leaves out of a reply what the webview would refuse (a negative price, an overflowing token count), never the reply', () => {
    const t = setup();
    const conv = t.session.conversation;
    appendMessage(conv, 'user', 'q');
    appendMessage(conv, 'assistant', 'paid reply', new Date(), { meta: { model: 'm', credits: -3, promptTokens: 1e308, completionTokens: 12 } });
    const m = t.controller.conversationMessage();
    assert.equal(parseHostMessage(m).ok, true);
    assert.ok(m.type === 'conversation');
    assert.deepEqual(m.conversation.messages[1].meta, { model: 'm', completionTokens: 12 });
    assert.equal(m.conversation.messages[1].content, 'paid reply');
  });

  it('every message about the conversation carries the version of the state it comes from', async () => {
    const t = setup();
    const v0 = t.session.version;
    await t.controller.send('Hi');
    const versions = t.posted.filter((m) => 'version' in m).map((m) => (m as { version?: number }).version);
    assert.equal(versions.length, t.posted.length);
    assert.deepEqual(versions, [...versions].sort((a, b) => (a ?? 0) - (b ?? 0)), 'in order');
    assert.ok((versions[0] ?? 0) > v0);
    const snap = t.controller.conversationMessage();
    assert.ok(snap.type === 'conversation' && snap.version === t.session.version && snap.version === versions.at(-1));
  });
});

describe('a message with chips', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));
  function chipList() {
    let items: Attachment[] = [];
    return {
      get attachments() {
        return items;
      },
      add(a: Attachment) {
        items = [...items, a];
      },
      sent(sent: readonly Attachment[]) {
        items = items.filter((a) => !sent.includes(a));
      },
    };
  }

  it('typed while a reply streams is queued with its attachments, and the chips go: the file is not sent again', async () => {
    const t = setup({ gated: true });
    const chips = chipList();
    const first = sendWithAttachments('first question', chips, t.controller, t.session);
    await tick();
    chips.add(textAttachment('ctx_1', 'selection', 'src/secret.ts', 'typescript', 'const token = "abc";', 100, { start: 1, end: 1 }));
    assert.equal(await sendWithAttachments('second question, with src/secret.ts attached', chips, t.controller, t.session), 'queued');
    assert.equal(chips.attachments.length, 0, 'the chips are cleared once the message is queued');
    t.releases.shift()?.();
    await first;
    await tick();
    t.releases.shift()?.();
    await tick();
    const third = sendWithAttachments('third question, nothing attached', chips, t.controller, t.session);
    await tick();
    t.releases.shift()?.();
    await third;
    const users = t.session.conversation.messages.filter((m) => m.role === 'user');
    assert.deepEqual(
      users.map((m) => [m.content.split('\n')[0], m.content.includes('`src/secret.ts`')]),
      [
        ['first question', false],
        ['second question, with src/secret.ts attached', true],
        ['third question, nothing attached', false],
      ],
    );
  });

  it('five selections in three files, one added twice and one inside an attached file, go once each', async () => {
    const t = setup();
    const chips = chipList();
    const sel = (path: string, start: number, end: number) => textAttachment(`ctx_${path}_${start}`, 'selection', path, 'ts', `text of ${path} ${start}-${end}`, 100, { start, end });
    const five = [sel('src/a.ts', 1, 3), sel('src/a.ts', 10, 12), sel('src/b.ts', 4, 4), sel('src/b.ts', 7, 9), sel('src/c.ts', 2, 5)];
    for (const a of five) chips.add(a);
    chips.add({ ...five[1], id: 'again' });
    chips.add(textAttachment('ctx_d', 'selection', 'src/d.ts', 'ts', 'inside d', 100, { start: 2, end: 2 }));
    chips.add({ id: 'ctx_file_d', kind: 'file', path: 'src/d.ts', language: 'ts', content: 'line 1\ninside d\n', bytes: 16 });
    assert.equal(await sendWithAttachments('compare', chips, t.controller, t.session), 'sent');
    const body = t.requests.at(-1) ?? '';
    for (const a of five) assert.equal(body.split(a.content).length - 1, 1, `${a.path}:${a.startLine} once`);
    assert.equal(body.split('inside d').length - 1, 1, 'the range of src/d.ts goes with the file');
    assert.equal(chips.attachments.length, 0, 'all chips go once sent, those sent with another included');
  });

  it('refused (no key), the chips stay for the next try', async () => {
    const t = setup({ key: false });
    const chips = chipList();
    chips.add(textAttachment('ctx_1', 'selection', 'src/a.ts', 'typescript', 'x', 1, { start: 1, end: 1 }));
    assert.equal(await sendWithAttachments('question', chips, t.controller, t.session), 'refused');
    assert.equal(chips.attachments.length, 1);
  });
});

describe('a message that holds the API key', () => {
  const KEY = 'sk-live-4f9a2c7e1b';
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const withKeyCheck = (t: ReturnType<typeof setup>, notes: string[] = []) =>
    new ChatController({
      ...(t.controller as unknown as { deps: ConstructorParameters<typeof ChatController>[0] }).deps,
      turns: t.turnsWith({ holds: (text) => text.includes(KEY) }).turns,
      notifyHoldsKey: () => notes.push('told'),
    });

  it('is not sent, stored or kept for Retry: the text goes back with a validation error, and a text without it goes', async () => {
    const storage = new MemoryConversationStorage();
    const t = setup({ store: new ConversationStore(storage) });
    const c = withKeyCheck(t);
    assert.equal(await c.send(`my key is ${KEY}, is it valid?`), 'refused');
    assert.deepEqual(t.requests, []);
    assert.equal(t.session.conversation.messages.length, 0);
    assert.equal(t.session.sendError?.kind, 'validation');
    assert.match(t.session.sendError?.message ?? '', /holds your AI Chat API key/);
    assert.deepEqual(t.posted.filter((m) => m.type === 'restoreInput').map((m) => m.type === 'restoreInput' && m.text), [`my key is ${KEY}, is it valid?`]);
    await t.session.retry();
    assert.deepEqual(t.requests, [], 'Retry does not send it');
    assert.ok(![...storage.data.values()].some((v) => v.includes(KEY)), 'nothing stored holds the key');
    // The same words without the key go.
    assert.equal(await c.send('is a key of the form sk-… valid?'), 'sent');
    assert.deepEqual(t.requests, ['is a key of the form sk-… valid?']);
  });

  it('typed while a reply streams is not queued, and a queued message edited to hold it keeps its text', async () => {
    const saved: { value: unknown } = { value: undefined };
    const queueStore: QueueStore = { load: () => saved.value, save: (v) => (saved.value = v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown)) };
    const t = setup({ gated: true, queueStore });
    const notes: string[] = [];
    const c = withKeyCheck(t, notes);
    const first = c.send('first');
    await tick();
    assert.equal(await c.send(`queued ${KEY}`), 'refused');
    assert.equal(await c.send('second'), 'queued');
    const lastQueue = () => [...t.posted].reverse().find((m) => m.type === 'queue');
    const q = lastQueue();
    assert.ok(q?.type === 'queue');
    assert.deepEqual(q.items.map((i) => i.text), ['second']);
    const before = t.posted.length;
    await c.queueEdit(q.items[0].id, `second, with ${KEY}`);
    assert.deepEqual(notes, ['told']);
    const after = lastQueue();
    assert.ok(t.posted.length > before && after?.type === 'queue');
    assert.deepEqual(after.items.map((i) => i.text), ['second'], 'the card shows the text it had');
    assert.ok(!JSON.stringify(saved.value).includes(KEY), 'the saved queue never held the key');
    assert.deepEqual(t.requests, ['first']);
    t.releases.shift()?.();
    await first;
  });

  it('in an attached file: refused, the chips stay, and the box gets back what was typed', async () => {
    const t = setup();
    const c = withKeyCheck(t);
    let items: Attachment[] = [textAttachment('ctx_1', 'selection', '.env', 'dotenv', `AI_CHAT_KEY=${KEY}`, 100, { start: 1, end: 1 })];
    const chips = { get attachments() { return items; }, sent(sent: readonly Attachment[]) { items = items.filter((a) => !sent.includes(a)); } };
    const sending: Array<{ full: string; text: string } | undefined> = [];
    assert.equal(await sendWithAttachments('what is in this file?', chips, c, t.session, (s) => sending.push(s)), 'refused');
    assert.equal(items.length, 1);
    assert.deepEqual(t.requests, []);
    assert.ok(sending[0]?.full.includes(KEY) && sending[0].text === 'what is in this file?', 'the panel is told what was typed, to put back');
  });
});
