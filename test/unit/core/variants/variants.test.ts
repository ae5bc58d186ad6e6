// The variants of a reply (src/core/variants): Retry with… makes one beside the reply, the pager
// shows one, the next request holds the one shown; they live in the log (a reload, another window,
// History's search and an 0.2.0 log read as before).
import { strict as assert } from 'node:assert';
import {
  appendMessage,
  arrangeVariants,
  ChatSession,
  directTurns,
  exportFileText,
  importConversation,
  peekLog,
  replayLog,
  storedMessages,
  variantPlaces,
  type ChatBackend,
  type Conversation,
  type SessionChatRequest,
  type SessionEvent,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { echoBackend } from '../../../support/backend';
import { WindowStore } from '../../../support/windowStore';

let windows = 0;
/** A window on `storage`: its store and session, the requests it sent and the events it told. */
function windowOn(storage: MemoryConversationStorage, backend?: (requests: SessionChatRequest[]) => ChatBackend) {
  const w = ++windows;
  let n = 0;
  const store = new WindowStore(storage, { newId: () => `v${w}-conv-${++n}`, searchPersistDelayMs: 5 });
  const requests: SessionChatRequest[] = [];
  const events: SessionEvent[] = [];
  const chat = backend ? backend(requests) : echoBackend(requests, (req) => `${req.model} says: reply to ${req.messages.at(-1)?.content}`);
  const session = new ChatSession({
    store,
    turns: directTurns(() => chat),
    settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: '' }),
    modelCost: () => 1,
    onEvent: (e) => events.push(e),
    flushIntervalMs: 0,
    partialSaveIntervalMs: 0,
  });
  return { store, session, requests, events };
}

const contents = (conv: Conversation) => conv.messages.map((m) => m.content);
const lastRequest = (requests: SessionChatRequest[]) => requests.at(-1)?.messages.map((m) => m.content);

/** A conversation of `turns` turns sent in a new window. */
async function conversationOf(turns: number, storage = new MemoryConversationStorage()) {
  const win = windowOn(storage);
  for (let i = 1; i <= turns; i++) await win.session.send(`Q${i}`);
  return { storage, ...win };
}

describe('variants: Retry with…', () => {
  it('sends the chosen model, with the turns above the reply; the new reply is shown beside the old one (2 / 2)', async () => {
    const { session, requests } = await conversationOf(2);
    const first = session.conversation.messages[1];
    assert.ok(await session.variants.retryWith(first.id, 'deep-think'));
    assert.equal(requests.at(-1)?.model, 'deep-think', 'the request carries the chosen model');
    assert.deepEqual(lastRequest(requests), ['Q1'], 'only the turns above the reply');
    const conv = session.conversation;
    assert.deepEqual(contents(conv), ['Q1', 'deep-think says: reply to Q1', 'Q2', 'swift-chat says: reply to Q2'], 'the turns after it stay');
    assert.equal(conv.variants?.length, 1);
    assert.equal(conv.variants?.[0], first, 'the old reply stays, as a variant');
    assert.deepEqual(variantPlaces(conv).get(conv.messages[1].id), { index: 2, count: 2 });
    assert.equal(conv.messages[1].meta?.model, 'deep-think');
  });

  it('the next request holds the variant shown, and only it (unit)', async () => {
    const { session, requests } = await conversationOf(1);
    const first = session.conversation.messages[1];
    await session.variants.retryWith(first.id, 'deep-think');
    await session.send('Q2');
    assert.deepEqual(lastRequest(requests), ['Q1', 'deep-think says: reply to Q1', 'Q2']);
    // Back to the first variant: the next message goes on from it.
    const shown = session.conversation.messages[1];
    assert.ok(await session.variants.show(shown.id, { step: -1 }));
    assert.equal(session.conversation.messages[1], first);
    assert.deepEqual(variantPlaces(session.conversation).get(first.id), { index: 1, count: 2 });
    await session.send('Q3');
    assert.deepEqual(lastRequest(requests), ['Q1', 'swift-chat says: reply to Q1', 'Q2', 'swift-chat says: reply to Q2', 'Q3']);
    // The context budget counts the line sent only.
    const preview = session.previewContext('Q4');
    assert.ok(preview.ok);
    assert.equal(preview.messages.filter((m) => m.content.includes('deep-think')).length, 0);
    assert.equal(await session.variants.show(first.id, { step: -1 }), false, 'nothing before the first');
  });

  it('a reply in the middle of ten turns keeps the turns after it; three variants count 3 / 3', async () => {
    const { session, requests } = await conversationOf(10);
    const third = session.conversation.messages[5];
    await session.variants.retryWith(third.id, 'deep-think');
    await session.variants.retryWith(session.conversation.messages[5].id, 'tiny-model');
    assert.deepEqual(lastRequest(requests), ['Q1', 'swift-chat says: reply to Q1', 'Q2', 'swift-chat says: reply to Q2', 'Q3']);
    assert.equal(session.conversation.messages.length, 20);
    assert.equal(session.conversation.messages[5].content, 'tiny-model says: reply to Q3');
    assert.deepEqual(variantPlaces(session.conversation).get(session.conversation.messages[5].id), { index: 3, count: 3 });
    assert.deepEqual(session.variants.of(session.conversation.messages[5].id).map((m) => m.meta?.model), ['swift-chat', 'deep-think', 'tiny-model']);
    assert.equal(session.conversation.messages[19].content, 'swift-chat says: reply to Q10');
  });

  it('a variant of which nothing came goes, and the reply shown before it is back', async () => {
    const storage = new MemoryConversationStorage();
    let failing = false;
    const win = windowOn(storage, (requests) => {
      const echo = echoBackend(requests);
      return { chat: (req, opts) => echo.chat(req, opts), chatStream: (req, opts) => (failing ? Promise.reject(Object.assign(new Error('down'), { kind: 'network' })) : echo.chatStream(req, opts)) };
    });
    await win.session.send('Q1');
    const reply = win.session.conversation.messages[1];
    failing = true;
    assert.ok(await win.session.variants.retryWith(reply.id, 'deep-think'));
    assert.deepEqual(win.session.conversation.messages, [win.session.conversation.messages[0], reply]);
    assert.equal(win.session.conversation.variants?.length ?? 0, 0);
    assert.ok(win.session.sendError, 'the chat says why');
  });
});

describe('variants: stored in the log', () => {
  it('survive a reload, with the one shown; the log is appended, never rewritten', async () => {
    const { storage, session, store } = await conversationOf(3);
    const id = session.conversation.id;
    const before = storage.data.get(id) ?? '';
    await session.variants.retryWith(session.conversation.messages[3].id, 'deep-think');
    await session.variants.retryWith(session.conversation.messages[3].id, 'tiny-model');
    await session.variants.show(session.conversation.messages[3].id, { step: -1 });
    await store.flush();
    const after = storage.data.get(id) ?? '';
    assert.ok(after.startsWith(before), 'appended');
    const reloaded = windowOn(storage);
    assert.ok(await reloaded.session.open(id));
    const conv = reloaded.session.conversation;
    assert.deepEqual(contents(conv), ['Q1', 'swift-chat says: reply to Q1', 'Q2', 'deep-think says: reply to Q2', 'Q3', 'swift-chat says: reply to Q3']);
    assert.deepEqual(reloaded.session.variants.of(conv.messages[3].id).map((m) => m.meta?.model), ['swift-chat', 'deep-think', 'tiny-model']);
    assert.deepEqual(variantPlaces(conv).get(conv.messages[3].id), { index: 2, count: 3 });
    // The next message after the reload goes on from the variant shown.
    await reloaded.session.send('Q4');
    assert.deepEqual(lastRequest(reloaded.requests)?.slice(2, 4), ['Q2', 'deep-think says: reply to Q2']);
  });

  it('reads an 0.2.0 log unchanged (no variant, no record of one)', () => {
    const log = [
      '{"t":"h","v":2,"id":"old","createdAt":"2026-10-01T10:00:00.000Z"}',
      '{"t":"m","k":"a.1","m":{"id":"msg_000","role":"user","content":"Hi","createdAt":"2026-10-01T10:00:00.000Z","status":"complete"}}',
      '{"t":"m","k":"a.2","m":{"id":"msg_001","role":"assistant","content":"Hello","createdAt":"2026-10-01T10:00:01.000Z","status":"complete","meta":{"model":"swift-chat","credits":1}}}',
      '{"t":"m","k":"a.3","m":{"id":"msg_002","role":"user","content":"Again","createdAt":"2026-10-01T10:01:00.000Z","status":"complete"}}',
      '{"t":"x","k":["a.3"]}',
      '{"t":"u","title":"Hi","updatedAt":"2026-10-01T10:01:00.000Z","nextSeq":3}',
      '{"t":"m","k":"a.4","m":{"id":"msg_003","role":"user","content":"Again",',
      '',
    ].join('\n');
    const r = replayLog(log, [], 'old');
    assert.ok(r);
    assert.deepEqual(contents(r.conv), ['Hi', 'Hello']);
    assert.equal('variants' in r.conv, false);
    assert.deepEqual(r.keys, ['a.1', 'a.2']);
    assert.ok(r.untidy, 'the torn line and the drop make it compacted');
    assert.deepEqual(arrangeVariants(r.conv.messages, new Map()).messages, r.conv.messages);
  });

  it('a torn last line after a variant, and a variant streaming in a side file, read back in their place (crash repair)', async () => {
    const { storage, session, store } = await conversationOf(2);
    const id = session.conversation.id;
    await session.variants.retryWith(session.conversation.messages[1].id, 'deep-think');
    await store.flush();
    const log = storage.data.get(id) ?? '';
    // A crash while the next variant streamed: its record cut short, its side file holding its text so far.
    const streaming = { id: 'msg_00f', role: 'assistant', content: 'half of a third', createdAt: '2099-01-01T00:00:00.000Z', status: 'streaming', variantOf: session.conversation.messages[0].id };
    // (Its turn's first save wrote that it is shown, as the log of a reply that starts does.)
    const torn = log + '{"t":"v","q":"msg_000","m":"msg_00f"}\n{"t":"m","k":"zz.1","m":{"id":"msg_00f","ro\n';
    const r = replayLog(torn, [JSON.stringify({ t: 'm', k: 'zz.1', m: streaming }), '{"t":"m","k":"zz.2"'], id);
    assert.ok(r);
    assert.deepEqual(contents(r.conv), ['Q1', 'half of a third', 'Q2', 'swift-chat says: reply to Q2'], 'the variant that streamed is shown, in its reply\'s place');
    assert.equal(r.conv.messages[1].status, 'stopped');
    assert.equal(r.conv.variants?.length, 2);
    assert.equal(storedMessages(r.conv).length, r.keys.length);
    assert.ok(r.untidy);
  });

  it('two windows adding variants to the same reply keep both', async () => {
    const { storage, session: A, store: storeA } = await conversationOf(2);
    const id = A.conversation.id;
    const B = windowOn(storage);
    assert.ok(await B.session.open(id));
    const replyId = A.conversation.messages[1].id;
    await A.variants.retryWith(replyId, 'deep-think');
    await B.session.variants.retryWith(replyId, 'tiny-model');
    await storeA.flush();
    await B.store.flush();
    // B took in A's variant when it retried; A takes in B's on its next change.
    assert.deepEqual(B.session.variants.of(B.session.conversation.messages[1].id).map((m) => m.meta?.model), ['swift-chat', 'deep-think', 'tiny-model']);
    await A.showLatest();
    assert.deepEqual(A.variants.of(A.conversation.messages[1].id).map((m) => m.meta?.model), ['swift-chat', 'deep-think', 'tiny-model']);
    const reloaded = windowOn(storage);
    await reloaded.session.open(id);
    const conv = reloaded.session.conversation;
    assert.deepEqual(reloaded.session.variants.of(conv.messages[1].id).map((m) => m.meta?.model), ['swift-chat', 'deep-think', 'tiny-model']);
    assert.deepEqual(contents(conv).slice(2), ['Q2', 'swift-chat says: reply to Q2'], 'the turn after it once');
    assert.equal(new Set(storedMessages(conv).map((m) => m.id)).size, storedMessages(conv).length, 'ids stay distinct');
  });

  it("History's search finds a word only a hidden variant has", async () => {
    const { session, store, storage } = await conversationOf(1);
    await store.catchUpSearch();
    const reply = session.conversation.messages[1];
    await session.variants.retryWith(reply.id, 'deep-think');
    reply.content += ' platypus';
    await store.save(session.conversation);
    await store.flush();
    assert.notEqual(session.conversation.messages[1], reply, 'the word is in the variant not shown');
    assert.equal((await store.search('platypus'))[0]?.id, session.conversation.id);
    // Opened from the search, the variant that holds the word is shown.
    assert.ok(await session.variants.showMatching('Platypus'));
    assert.equal(session.conversation.messages[1], reply);
    assert.equal(await session.variants.showMatching('platypus'), false, 'a word shown already changes nothing');
    // And once the index is built again from the logs (another window, a lost index).
    const other = new WindowStore(storage, { searchPersistDelayMs: 5 });
    storage.searchIndex = undefined;
    await other.catchUpSearch();
    assert.equal((await other.search('platypus'))[0]?.id, session.conversation.id);
  });

  it('Edit of the question takes its variants out with it', async () => {
    const { session, store, storage } = await conversationOf(1);
    await session.variants.retryWith(session.conversation.messages[1].id, 'deep-think');
    assert.ok(await session.editLast());
    assert.equal(session.conversation.variants, undefined);
    appendMessage(session.conversation, 'user', 'Q1 again');
    await store.save(session.conversation);
    await store.flush();
    const r = replayLog(storage.data.get(session.conversation.id) ?? '', [], session.conversation.id);
    assert.deepEqual(r && contents(r.conv), ['Q1 again']);
    assert.equal(r?.conv.variants, undefined);
  });

  it('the conversation file writes every variant and which one is shown; its import reads them back', async () => {
    const { session, store, storage } = await conversationOf(2);
    await session.variants.retryWith(session.conversation.messages[1].id, 'deep-think');
    await session.variants.retryWith(session.conversation.messages[1].id, 'tiny-model');
    await session.variants.show(session.conversation.messages[1].id, { step: -1 });
    const text = exportFileText(session.conversation);
    await store.remove(session.conversation.id);
    const result = await importConversation(store, text);
    assert.equal(result.kind, 'imported');
    const other = windowOn(storage);
    assert.ok(result.kind === 'imported' && (await other.session.open(result.conversation.id)));
    const conv = other.session.conversation;
    assert.deepEqual(contents(conv), ['Q1', 'deep-think says: reply to Q1', 'Q2', 'swift-chat says: reply to Q2']);
    assert.deepEqual(other.session.variants.of(conv.messages[1].id).map((m) => m.meta?.model), ['swift-chat', 'deep-think', 'tiny-model']);
  });

  it('Fork takes the variant shown, and none of the others', async () => {
    const { session } = await conversationOf(2);
    await session.variants.retryWith(session.conversation.messages[1].id, 'deep-think');
    assert.ok(await session.fork(session.conversation.messages[3].id));
    assert.deepEqual(contents(session.conversation), ['Q1', 'deep-think says: reply to Q1', 'Q2', 'swift-chat says: reply to Q2']);
    assert.equal(session.conversation.variants, undefined);
    assert.equal(variantPlaces(session.conversation).size, 0, 'no pager in the fork');
  });

  it("History lists the line's messages (a reply's variants count once), from its index and from a glance at the log", async () => {
    const { session, store, storage } = await conversationOf(2);
    await session.variants.retryWith(session.conversation.messages[1].id, 'deep-think');
    await session.variants.retryWith(session.conversation.messages[3].id, 'tiny-model');
    await store.flush();
    const entry = (await store.list()).find((c) => c.id === session.conversation.id);
    assert.equal(entry?.messageCount, 4);
    const glance = peekLog(storage.data.get(session.conversation.id) ?? '', session.conversation.id);
    assert.equal(glance?.messageCount, 4);
    assert.equal(glance?.title, entry?.title);
  });
});
