// ChatSession (core/chat/chatSession.ts) with the repository's rules (the `rules` dep): a question
// keeps the files it carries, the rules the dep gives for exactly those files go after the system
// prompt (in the send, in Retry of a stopped or failed reply, in Retry of a send taken back), the
// reply keeps the list of rules that went, and the context preview counts them.
import { strict as assert } from 'node:assert';
import {
  ChatSession, ConversationStore, NO_RULES, directTurns, messageTokens, readRules, requestRules,
  type ChatBackend, type RequestRules, type SentRule, type SessionChatRequest, type SessionEvent, type SessionSettings, type SessionStreamEvent,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

class FakeError extends Error {
  constructor(readonly kind: string, message: string) {
    super(message);
  }
}

type Script = { events: SessionStreamEvent[]; failAfter?: Error; waitForAbort?: boolean } | Error;

const chunks = (...texts: string[]): SessionStreamEvent[] => [
  { event: 'f', messageId: 'srv' },
  ...texts.map((data) => ({ event: '0' as const, data })),
  { event: 'd', finishReason: 'stop' },
];

const RULES = readRules([
  { path: '.cursor/rules/py.mdc', content: '---\nglobs: **/*.py\n---\nPython: use type hints.' },
  { path: '.cursor/rules/ts.mdc', content: '---\nglobs: **/*.ts\n---\nTypeScript: no any.' },
]);
const PY_TEXT = 'Project rules from .cursor/rules/py.mdc (applies to src/a.py (its pattern **/*.py)):\n\nPython: use type hints.';
const PY_SENT: SentRule[] = [{ path: '.cursor/rules/py.mdc', why: 'matched `src/a.py` by `**/*.py`' }];

function setup(opts: { rules?: (files: readonly string[]) => RequestRules; contextBudget?: number } = {}) {
  const settings: SessionSettings = { model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: 'Be brief.', baseUrl: 'http://127.0.0.1:8787' };
  const storage = new MemoryConversationStorage();
  const store = new ConversationStore(storage, { newId: () => 'conv-1' });
  const requests: SessionChatRequest[] = [];
  const scripts: Script[] = [];
  const posts: SessionEvent[] = [];
  /** Each call of the rules dep: the files it was asked for. */
  const calls: string[][] = [];
  const backend: ChatBackend = {
    chat: () => Promise.reject(new Error('not used')),
    async chatStream(req, { signal }) {
      requests.push(structuredClone(req));
      const s = scripts.shift();
      if (!s) throw new Error('unexpected request');
      if (s instanceof Error) throw s;
      return {
        abort() {},
        async *[Symbol.asyncIterator]() {
          for (const ev of s.events) yield ev;
          if (s.failAfter) throw s.failAfter;
          if (s.waitForAbort) {
            await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
            throw new FakeError('aborted', 'The request was aborted');
          }
        },
      };
    },
  };
  const rules = opts.rules ?? ((files: readonly string[]) => requestRules(RULES, { files }));
  const session = new ChatSession({
    store,
    turns: directTurns(() => backend),
    settings: () => settings,
    rules: (files) => {
      calls.push([...files]);
      return rules(files);
    },
    modelCost: () => 1,
    ...(opts.contextBudget ? { contextBudget: () => opts.contextBudget! } : {}),
    onEvent: (e) => posts.push(e),
    flushIntervalMs: 0,
  });
  const streaming = async () => {
    while (!posts.some((p) => p.type === 'textAppended')) await new Promise((r) => setImmediate(r));
  };
  return { session, store, storage, requests, scripts, posts, calls, settings, streaming };
}

const systemOf = (req: SessionChatRequest) => req.messages.filter((m) => m.role === 'system').map((m) => m.content);

describe('ChatSession with the repository\'s rules', () => {
  it('send(text, { files }): the dep is asked for exactly those files, its text follows the system prompt, the question keeps its files, the reply its rules', async () => {
    const t = setup();
    t.scripts.push({ events: chunks('typed.') });
    await t.session.send('Add hints to src/a.py', { files: ['src/a.py'] });
    assert.ok(t.calls.length >= 1);
    for (const c of t.calls) assert.deepEqual(c, ['src/a.py']);
    assert.equal(t.requests.length, 1);
    assert.deepEqual(systemOf(t.requests[0]), [`Be brief.\n\n${PY_TEXT}`]);
    assert.ok(!JSON.stringify(t.requests[0]).includes('TypeScript: no any.'), 'a rule for other files does not go');
    const [user, reply] = t.session.conversation.messages;
    assert.deepEqual(user.files, ['src/a.py']);
    assert.equal(reply.status, 'complete');
    assert.deepEqual(reply.meta?.rules, PY_SENT);
    // The files are the chat's: the service gets the text only.
    assert.deepEqual(Object.keys(t.requests[0].messages.at(-1)!).sort(), ['content', 'id', 'role']);
  });

  it('a send carrying no file that a rule applies to: no rules text, no files kept, meta.rules left out', async () => {
    const t = setup();
    t.scripts.push({ events: chunks('a') }, { events: chunks('b') });
    await t.session.send('Hello');
    await t.session.send('About README.md', { files: ['README.md'] });
    assert.deepEqual(t.calls.at(0), []);
    assert.deepEqual(t.calls.at(-1), ['README.md']);
    assert.deepEqual(t.requests.map(systemOf), [['Be brief.'], ['Be brief.']]);
    const [q1, a1, q2, a2] = t.session.conversation.messages;
    assert.equal('files' in q1, false);
    assert.deepEqual(q2.files, ['README.md']);
    for (const a of [a1, a2]) {
      assert.equal(a.status, 'complete');
      assert.ok(a.meta && !('rules' in a.meta), JSON.stringify(a.meta));
    }
  });

  it('the project instructions alone in the list (no rule text): the reply still lists them', async () => {
    const instructions: SentRule = { path: 'AGENTS.md', why: 'always (the project instructions)' };
    const t = setup({ rules: () => ({ text: '', sent: [instructions] }) });
    t.scripts.push({ events: chunks('ok') });
    await t.session.send('Q');
    assert.deepEqual(systemOf(t.requests[0]), ['Be brief.'], 'no empty block after the system prompt');
    assert.deepEqual(t.session.conversation.messages[1].meta?.rules, [instructions]);
  });

  it('Retry of a stopped reply asks the dep again with the question\'s stored files, and sends the same rules', async () => {
    const t = setup();
    t.scripts.push({ events: chunks('part').slice(0, 2), waitForAbort: true });
    const done = t.session.send('Q', { files: ['src/a.py'] });
    await t.streaming();
    t.session.stop();
    await done;
    assert.equal(t.session.conversation.messages[1].status, 'stopped');
    t.calls.length = 0;
    t.scripts.push({ events: chunks('whole') });
    assert.equal(await t.session.retry(), true);
    assert.ok(t.calls.length >= 1);
    for (const c of t.calls) assert.deepEqual(c, ['src/a.py']);
    assert.deepEqual(systemOf(t.requests[1]), [`Be brief.\n\n${PY_TEXT}`]);
    assert.deepEqual(t.requests[1].messages, t.requests[0].messages);
    const reply = t.session.conversation.messages[1];
    assert.deepEqual([reply.content, reply.status], ['whole', 'complete']);
    assert.deepEqual(reply.meta?.rules, PY_SENT);
  });

  it('Retry of a reply that failed midway asks the dep again with the stored files', async () => {
    const t = setup();
    t.scripts.push({ events: chunks('one').slice(0, 2), failAfter: new FakeError('connection', 'socket closed') });
    await t.session.send('Q', { files: ['src/a.py'] });
    assert.equal(t.session.conversation.messages[1].status, 'error');
    assert.deepEqual(t.session.conversation.messages[1].meta?.rules, PY_SENT, 'a failed reply lists the rules that went too');
    t.calls.length = 0;
    t.scripts.push({ events: chunks('full') });
    await t.session.retry();
    assert.deepEqual(t.calls.at(-1), ['src/a.py']);
    assert.deepEqual(systemOf(t.requests[1]), [`Be brief.\n\n${PY_TEXT}`]);
  });

  it('a send taken back (it failed before any reply), then Retry: sent again with the same files', async () => {
    const t = setup();
    t.scripts.push(new FakeError('connection', 'refused'));
    await t.session.send('Q about src/a.py', { files: ['src/a.py'] });
    assert.equal(t.session.conversation.messages.length, 0, 'taken back');
    assert.ok(t.session.sendError);
    t.calls.length = 0;
    t.scripts.push({ events: chunks('answer') });
    assert.equal(await t.session.retry(), true);
    assert.ok(t.calls.length >= 1);
    for (const c of t.calls) assert.deepEqual(c, ['src/a.py']);
    assert.deepEqual(systemOf(t.requests[1]), [`Be brief.\n\n${PY_TEXT}`]);
    const [user, reply] = t.session.conversation.messages;
    assert.deepEqual(user.files, ['src/a.py']);
    assert.deepEqual(reply.meta?.rules, PY_SENT);
  });

  it('previewContext(text, chars, files) counts the rules text of those files in the instructions', () => {
    const t = setup();
    const without = t.session.previewContext('hello', 0);
    const other = t.session.previewContext('hello', 0, ['README.md']);
    const withRules = t.session.previewContext('hello', 0, ['src/a.py']);
    assert.deepEqual(t.calls, [[], ['README.md'], ['src/a.py']]);
    assert.equal(without.tokens.instructions, messageTokens('Be brief.'));
    assert.equal(other.tokens.instructions, without.tokens.instructions);
    assert.equal(withRules.tokens.instructions, messageTokens(`Be brief.\n\n${PY_TEXT}`));
    assert.ok(withRules.tokens.instructions > without.tokens.instructions);
    assert.equal(withRules.tokens.total - without.tokens.total, withRules.tokens.instructions - without.tokens.instructions);
  });

  it('a rule too large for the model: the send is refused before any request, naming the rule, with showRules', async () => {
    const big = readRules([{ path: '.cursor/rules/py.mdc', content: `---\nglobs: **/*.py\n---\n${'- a long Python rule line.\n'.repeat(1000)}` }]);
    const t = setup({ rules: (files) => requestRules(big, { files }), contextBudget: 3000 });
    await t.session.send('Q', { files: ['src/a.py'] });
    assert.equal(t.requests.length, 0, 'nothing sent');
    assert.equal(t.session.conversation.messages.length, 0);
    assert.match(t.session.sendError?.message ?? '', /The rule \.cursor\/rules\/py\.mdc alone takes about/);
    assert.ok(t.session.sendError?.actions.includes('showRules'), JSON.stringify(t.session.sendError?.actions));
    // Without the file the rule does not go, and the same question is sent.
    t.scripts.push({ events: chunks('ok') });
    await t.session.send('Q');
    assert.equal(t.requests.length, 1);
  });

  it('without a rules dep nothing changes: the system prompt alone, no rules kept', async () => {
    const settings: SessionSettings = { model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: 'Be brief.', baseUrl: 'http://127.0.0.1:8787' };
    const requests: SessionChatRequest[] = [];
    const backend: ChatBackend = {
      chat: () => Promise.reject(new Error('not used')),
      async chatStream(req) {
        requests.push(structuredClone(req));
        return { abort() {}, async *[Symbol.asyncIterator]() { for (const e of chunks('ok')) yield e; } };
      },
    };
    const session = new ChatSession({ store: new ConversationStore(new MemoryConversationStorage()), turns: directTurns(() => backend), settings: () => settings, modelCost: () => 1, onEvent: () => undefined, flushIntervalMs: 0 });
    await session.send('Q', { files: ['src/a.py'] });
    assert.deepEqual(systemOf(requests[0]), ['Be brief.']);
    assert.deepEqual(session.conversation.messages[0].files, ['src/a.py'], 'the files are still kept with the question');
    assert.equal(session.conversation.messages[1].meta?.rules, undefined);
    assert.deepEqual(session.previewContext('x', 0, ['src/a.py']).tokens.instructions, messageTokens('Be brief.'));
    assert.deepEqual(NO_RULES, { text: '', sent: [] });
  });

  it('the question\'s files and the reply\'s rules are on disk: a new store reads them back', async () => {
    const t = setup();
    t.scripts.push({ events: chunks('typed.') });
    await t.session.send('Q', { files: ['src/a.py', 'src/a.py', 'lib/b.py'] });
    await t.store.flush();
    const again = await new ConversationStore(t.storage).load(t.session.conversation.id);
    assert.ok(again);
    const [user, reply] = again.messages;
    assert.deepEqual(user.files, ['src/a.py', 'lib/b.py'], 'each file once');
    assert.deepEqual(reply.meta?.rules, PY_SENT);
  });
});
