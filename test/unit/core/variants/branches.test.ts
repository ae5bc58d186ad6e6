// The branches of a conversation (src/core/variants/branches.ts): Edit of an earlier question starts
// a branch there, the old question and every turn after it stay reachable from the pager on the
// question ("1 / 2"), the next request holds the branch shown only; they live in the log (a
// reload, another window, a crash, History's search, the conversation file, Fork).
import { strict as assert } from 'node:assert';
import {
  branchPlaces,
  ChatSession,
  directTurns,
  exportFileText,
  importConversation,
  conversationToMarkdown,
  replayLog,
  storedMessages,
  type Conversation,
  type SessionChatRequest,
  type SessionEvent,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { echoBackend } from '../../../support/backend';
import { WindowStore } from '../../../support/windowStore';

let windows = 0;
function windowOn(storage: MemoryConversationStorage, failing?: () => boolean) {
  const w = ++windows;
  let n = 0;
  const store = new WindowStore(storage, { newId: () => `b${w}-conv-${++n}`, searchPersistDelayMs: 5 });
  const requests: SessionChatRequest[] = [];
  const events: SessionEvent[] = [];
  const echo = echoBackend(requests, (req) => `reply to ${req.messages.at(-1)?.content}`);
  const session = new ChatSession({
    store,
    turns: directTurns(() => ({
      chat: (req, opts) => echo.chat(req, opts),
      chatStream: (req, opts) => (failing?.() ? Promise.reject(Object.assign(new Error('down'), { kind: 'network' })) : echo.chatStream(req, opts)),
    })),
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
/** Q1, reply to Q1, … Qn, reply to Qn. */
const turns = (from: number, to: number, q = 'Q') => Array.from({ length: to - from + 1 }, (_, i) => [`${q}${from + i}`, `reply to ${q}${from + i}`]).flat();

async function conversationOf(count: number, storage = new MemoryConversationStorage()) {
  const win = windowOn(storage);
  for (let i = 1; i <= count; i++) await win.session.send(`Q${i}`);
  return { storage, ...win };
}

/** Edit of the shown question `questionId` with `text`, as the chat sends it. */
async function edit(session: ChatSession, questionId: string, text: string): Promise<void> {
  session.variants.editNext(questionId);
  await session.send(text);
}

describe('branches: Edit of an earlier question', () => {
  it('a branch edited at turn 3 of 10 keeps turns 4–10 in the old branch, reachable from the pager on the question', async () => {
    const { session, requests } = await conversationOf(10);
    const q3 = session.conversation.messages[4];
    await edit(session, q3.id, 'Q3 edited');
    assert.deepEqual(lastRequest(requests), ['Q1', 'reply to Q1', 'Q2', 'reply to Q2', 'Q3 edited'], 'the request holds the branch up to the edit');
    const conv = session.conversation;
    assert.deepEqual(contents(conv), [...turns(1, 2), 'Q3 edited', 'reply to Q3 edited']);
    const edited = conv.messages[4];
    assert.deepEqual(branchPlaces(conv).get(edited.id), { index: 2, count: 2 });
    assert.equal(storedMessages(conv).length, 22, 'nothing is lost');
    // The old branch, whole, one page back.
    assert.ok(await session.variants.showBranch(edited.id, -1));
    assert.deepEqual(contents(session.conversation), turns(1, 10));
    assert.equal(session.conversation.messages[4], q3);
    assert.deepEqual(branchPlaces(session.conversation).get(q3.id), { index: 1, count: 2 });
    assert.equal(await session.variants.showBranch(q3.id, -1), false, 'nothing before the first');
  });

  it('the next request follows the branch shown, and the context budget counts only it', async () => {
    const { session, requests } = await conversationOf(3);
    const q2 = session.conversation.messages[2];
    await edit(session, q2.id, 'Q2 edited');
    await session.send('Q3 after the edit');
    assert.deepEqual(lastRequest(requests), ['Q1', 'reply to Q1', 'Q2 edited', 'reply to Q2 edited', 'Q3 after the edit']);
    const preview = session.previewContext('next');
    assert.ok(preview.ok);
    assert.equal(preview.messages.filter((m) => m.content === 'reply to Q3').length, 0, 'the old branch is not counted');
    // Back to the old branch: the next message goes on from its last turn.
    assert.ok(await session.variants.showBranch(session.conversation.messages[2].id, -1));
    await session.send('Q4');
    assert.deepEqual(lastRequest(requests), [...turns(1, 3), 'Q4']);
    // And forward again: the new branch has its own two turns, the old one its four.
    assert.ok(await session.variants.showBranch(session.conversation.messages[2].id, 1));
    assert.deepEqual(contents(session.conversation), ['Q1', 'reply to Q1', 'Q2 edited', 'reply to Q2 edited', 'Q3 after the edit', 'reply to Q3 after the edit']);
    await session.send('Q4 of the new branch');
    assert.equal(lastRequest(requests)?.includes('reply to Q3'), false);
  });

  it('a branch inside a branch; editing an edited question adds to the same place (1 / 3)', async () => {
    const { session } = await conversationOf(3);
    await edit(session, session.conversation.messages[2].id, 'Q2 b');
    await session.send('Q3 b');
    await edit(session, session.conversation.messages[4].id, 'Q3 c');
    assert.deepEqual(contents(session.conversation), ['Q1', 'reply to Q1', 'Q2 b', 'reply to Q2 b', 'Q3 c', 'reply to Q3 c']);
    await edit(session, session.conversation.messages[2].id, 'Q2 d');
    assert.deepEqual(branchPlaces(session.conversation).get(session.conversation.messages[2].id), { index: 3, count: 3 });
    // The middle one shows the branch it left: its inner edit (Q3 c) still shown.
    assert.ok(await session.variants.showBranch(session.conversation.messages[2].id, -1));
    assert.deepEqual(contents(session.conversation), ['Q1', 'reply to Q1', 'Q2 b', 'reply to Q2 b', 'Q3 c', 'reply to Q3 c']);
    assert.deepEqual(branchPlaces(session.conversation).get(session.conversation.messages[4].id), { index: 2, count: 2 });
  });

  it('a branch of which no reply came goes, and the branch shown before it is back with the text in the box', async () => {
    const storage = new MemoryConversationStorage();
    let down = false;
    const win = windowOn(storage, () => down);
    for (const q of ['Q1', 'Q2', 'Q3']) await win.session.send(q);
    down = true;
    await edit(win.session, win.session.conversation.messages[2].id, 'Q2 edited');
    assert.deepEqual(contents(win.session.conversation), turns(1, 3));
    assert.equal(branchPlaces(win.session.conversation).size, 0, 'no pager: the branch is gone');
    assert.ok(win.session.sendError);
    // The text back in the box is the edit of the question shown in its place, again.
    assert.deepEqual(win.events.filter((e) => e.type === 'inputReturned').at(-1), { type: 'inputReturned', text: 'Q2 edited', editOf: win.session.conversation.messages[2].id });
  });

  it("the edit takes in first what another window added (the same first step as send): its turn stays in the old branch", async () => {
    const { session, storage, requests } = await conversationOf(2);
    const other = windowOn(storage);
    await other.session.open(session.conversation.id);
    await other.session.send('Q3 from the other window');
    await other.store.flush();
    await edit(session, session.conversation.messages[2].id, 'Q2 edited');
    assert.deepEqual(lastRequest(requests), ['Q1', 'reply to Q1', 'Q2 edited']);
    assert.ok(await session.variants.showBranch(session.conversation.messages[2].id, -1));
    assert.deepEqual(contents(session.conversation), [...turns(1, 2), 'Q3 from the other window', 'reply to Q3 from the other window']);
  });
});

describe('branches: stored in the log', () => {
  it('survive a reload with the branch shown; the log is appended, never rewritten', async () => {
    const { storage, session, store } = await conversationOf(4);
    const id = session.conversation.id;
    const before = storage.data.get(id) ?? '';
    await edit(session, session.conversation.messages[2].id, 'Q2 edited');
    await session.send('Q3 b');
    await store.flush();
    assert.ok((storage.data.get(id) ?? '').startsWith(before), 'appended');
    const reloaded = windowOn(storage);
    assert.ok(await reloaded.session.open(id));
    assert.deepEqual(contents(reloaded.session.conversation), ['Q1', 'reply to Q1', 'Q2 edited', 'reply to Q2 edited', 'Q3 b', 'reply to Q3 b']);
    assert.ok(await reloaded.session.variants.showBranch(reloaded.session.conversation.messages[2].id, -1));
    assert.deepEqual(contents(reloaded.session.conversation), turns(1, 4));
    await reloaded.store.flush();
    const again = windowOn(storage);
    assert.ok(await again.session.open(id));
    assert.deepEqual(contents(again.session.conversation), turns(1, 4), 'the branch shown is recorded');
  });

  it('reads logs written before branches unchanged (0.2.0, and with variants)', async () => {
    const log = [
      '{"t":"h","v":2,"id":"old","createdAt":"2026-10-01T10:00:00.000Z"}',
      '{"t":"m","k":"a.1","m":{"id":"msg_000","role":"user","content":"Hi","createdAt":"2026-10-01T10:00:00.000Z","status":"complete"}}',
      '{"t":"m","k":"a.2","m":{"id":"msg_001","role":"assistant","content":"Hello","createdAt":"2026-10-01T10:00:01.000Z","status":"complete","variantOf":"msg_000"}}',
      '{"t":"m","k":"a.3","m":{"id":"msg_002","role":"user","content":"Again","createdAt":"2026-10-01T10:01:00.000Z","status":"complete"}}',
      '{"t":"m","k":"a.4","m":{"id":"msg_003","role":"assistant","content":"Hello again","createdAt":"2026-10-01T10:01:01.000Z","status":"complete"}}',
      '{"t":"m","k":"a.5","m":{"id":"msg_004","role":"assistant","content":"Hi there","createdAt":"2026-10-01T10:02:00.000Z","status":"complete","variantOf":"msg_000"}}',
      '{"t":"v","q":"msg_000","m":"msg_001"}',
      '{"t":"u","title":"Hi","updatedAt":"2026-10-01T10:02:00.000Z","nextSeq":5}',
    ].join('\n');
    const r = replayLog(log, [], 'old');
    assert.ok(r);
    assert.deepEqual(contents(r.conv), ['Hi', 'Hello', 'Again', 'Hello again']);
    assert.deepEqual(r.conv.variants?.map((m) => m.content), ['Hi there']);
    assert.equal(branchPlaces(r.conv).size, 0);
    assert.equal(storedMessages(r.conv).some((m) => 'branch' in m || 'branchOf' in m), false);
    assert.equal(r.untidy, false);
  });

  it('a torn last line after a branch, and its reply streaming in a side file, read back in their place (crash repair)', async () => {
    const { storage, session, store } = await conversationOf(3);
    const id = session.conversation.id;
    await edit(session, session.conversation.messages[2].id, 'Q2 edited');
    await store.flush();
    const edited = session.conversation.messages[2];
    const log = storage.data.get(id) ?? '';
    // A crash while the branch's next reply streamed: its question written, the reply's record cut short, its side file holding its text so far.
    const question = { id: 'msg_01e', role: 'user', content: 'Q3 b', createdAt: '2099-01-01T00:00:00.000Z', status: 'complete', branch: edited.id };
    const streaming = { id: 'msg_01f', role: 'assistant', content: 'half a reply', createdAt: '2099-01-01T00:00:01.000Z', status: 'streaming', branch: edited.id };
    const torn = `${log}{"t":"m","k":"zz.1","m":${JSON.stringify(question)}}\n{"t":"m","k":"zz.2","m":{"id":"msg_01f","ro\n`;
    const r = replayLog(torn, [JSON.stringify({ t: 'm', k: 'zz.2', m: streaming })], id);
    assert.ok(r);
    assert.deepEqual(contents(r.conv), ['Q1', 'reply to Q1', 'Q2 edited', 'reply to Q2 edited', 'Q3 b', 'half a reply']);
    assert.equal(r.conv.messages[5].status, 'stopped');
    assert.deepEqual(r.conv.variants?.map((m) => m.content), turns(2, 3));
    assert.equal(storedMessages(r.conv).length, r.keys.length);
    assert.ok(r.untidy);
    // A branch's turns whose question was lost join the first branch: nothing is lost.
    const lost = log.split('\n').filter((l) => !l.includes('"Q2 edited"')).join('\n');
    const r2 = replayLog(lost, [], id);
    assert.ok(r2);
    assert.ok(contents(r2.conv).includes('reply to Q2 edited'));
    assert.ok(contents(r2.conv).includes('reply to Q3'));
  });

  it('two windows adding branches at the same question keep both', async () => {
    const { storage, session: A, store: storeA } = await conversationOf(3);
    const id = A.conversation.id;
    const B = windowOn(storage);
    assert.ok(await B.session.open(id));
    const q2 = A.conversation.messages[2].id;
    await edit(A, q2, 'Q2 from A');
    await A.send('Q3 from A');
    await storeA.flush();
    await edit(B.session, q2, 'Q2 from B');
    await B.store.flush();
    assert.deepEqual(B.session.variants.branchesOf(B.session.conversation.messages[2].id).map((m) => m.content), ['Q2', 'Q2 from A', 'Q2 from B']);
    await A.showLatest();
    assert.deepEqual(contents(A.conversation).slice(2), ['Q2 from A', 'reply to Q2 from A', 'Q3 from A', 'reply to Q3 from A'], 'A still shows its branch');
    assert.deepEqual(A.variants.branchesOf(A.conversation.messages[2].id).map((m) => m.content), ['Q2', 'Q2 from A', 'Q2 from B']);
    const reloaded = windowOn(storage);
    await reloaded.session.open(id);
    const conv = reloaded.session.conversation;
    assert.equal(storedMessages(conv).length, 12);
    assert.equal(new Set(storedMessages(conv).map((m) => m.id)).size, 12, 'ids stay distinct');
    assert.ok(await reloaded.session.variants.showBranch(conv.messages[2].id, -1));
    assert.deepEqual(contents(reloaded.session.conversation).slice(2), ['Q2 from A', 'reply to Q2 from A', 'Q3 from A', 'reply to Q3 from A']);
    assert.ok(await reloaded.session.variants.showBranch(conv.messages[2].id, -1));
    assert.deepEqual(contents(reloaded.session.conversation), turns(1, 3));
  });

  it("History's search finds a word only a hidden branch has, and shows that branch", async () => {
    const { session, store } = await conversationOf(3);
    await store.catchUpSearch();
    await edit(session, session.conversation.messages[2].id, 'Q2 about wombats');
    assert.ok(await session.variants.showBranch(session.conversation.messages[2].id, -1));
    await store.flush();
    assert.equal((await store.search('wombats'))[0]?.id, session.conversation.id);
    assert.ok(await session.variants.showMatching('wombats'));
    assert.equal(session.conversation.messages[2].content, 'Q2 about wombats');
    // A turn deep in a hidden branch: the places above it show their branch too.
    assert.ok(await session.variants.showMatching('Q3'));
    assert.deepEqual(contents(session.conversation), turns(1, 3));
  });

  it('the conversation file keeps every branch and the one shown; Markdown holds the branch shown; Fork takes it only', async () => {
    const { session, store, storage } = await conversationOf(3);
    await edit(session, session.conversation.messages[2].id, 'Q2 edited');
    const text = exportFileText(session.conversation);
    const md = conversationToMarkdown(session.conversation);
    assert.ok(md.includes('Q2 edited') && !md.includes('reply to Q3'));
    await store.remove(session.conversation.id);
    const result = await importConversation(store, text);
    assert.equal(result.kind, 'imported');
    const other = windowOn(storage);
    assert.ok(result.kind === 'imported' && (await other.session.open(result.conversation.id)));
    assert.deepEqual(contents(other.session.conversation).slice(2), ['Q2 edited', 'reply to Q2 edited']);
    assert.ok(await other.session.variants.showBranch(other.session.conversation.messages[2].id, -1));
    assert.deepEqual(contents(other.session.conversation), turns(1, 3));
    // Fork: the branch shown, as a conversation of one branch.
    assert.ok(await other.session.fork(other.session.conversation.messages[3].id));
    const fork = other.session.conversation;
    assert.deepEqual(contents(fork), turns(1, 2));
    assert.equal(fork.variants, undefined);
    assert.equal(branchPlaces(fork).size, 0);
    await other.session.send('Q3 of the fork');
    assert.deepEqual(contents(other.session.conversation).slice(4), ['Q3 of the fork', 'reply to Q3 of the fork']);
  });
});
