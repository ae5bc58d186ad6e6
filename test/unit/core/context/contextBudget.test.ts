import { strict as assert } from 'node:assert';
import {
  ChatSession,
  ConversationStore,
  appendMessage,
  assembleMessage,
  budgetForModel,
  createConversation,
  estimateTokens,
  isInputTooLong,
  lmRequest,
  messageTokens,
  messageTooLongError,
  nativeContext,
  readInstructions,
  requestBudget,
  selectContext,
  systemPromptWith,
  DEFAULT_CONTEXT_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  type Attachment,
  type ChatBackend,
  type Conversation,
  type ModelLike,
  type SessionChatRequest,
  type SessionEvent,
  type StoredMessage,
  directTurns,
} from '../../../../src/core';
import { toContextMeter } from '../../../../src/extension/chat/common/presenter';
import { ContextMeterFeed } from '../../../../src/extension/chat/common/contextMeter';
import { ChatServiceClient } from '../../../../src/client';
import { DEMO_KEY } from '../../../server/fixtures';
import { startReferenceServer } from '../../../server/server';
import { parseHostMessage, type HostMessage } from '../../../../src/protocol';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

/** A conversation of `turns` turns: question i (q chars) and its reply (r chars). */
function longConversation(turns: number, q = 40, r = 400): Conversation {
  const conv = createConversation('conv-long');
  for (let i = 0; i < turns; i++) {
    appendMessage(conv, 'user', `Q${i} `.padEnd(q, 'q'), new Date());
    appendMessage(conv, 'assistant', `A${i} `.padEnd(r, 'a'), new Date(), { status: 'complete', meta: { model: 'swift-chat' } });
  }
  return conv;
}

const msg = (id: string, role: 'user' | 'assistant', content: string, status: StoredMessage['status'] = 'complete'): StoredMessage => ({ id, role, content, status, createdAt: '' });

describe('context budget: the budget of a request', () => {
  it('is the model max_tokens less room for the reply (a quarter, at most 4,096)', () => {
    assert.deepEqual(requestBudget(4096), { contextTokens: 4096, replyTokens: 1024, inputTokens: 3072, source: 'model' });
    assert.deepEqual(requestBudget(32768), { contextTokens: 32768, replyTokens: 4096, inputTokens: 28672, source: 'model' });
    assert.deepEqual(requestBudget(200_000).inputTokens, 200_000 - 4096);
  });

  it('without max_tokens: the aiChat.context.maxTokens setting (default 32,768), split the same way', () => {
    assert.equal(DEFAULT_CONTEXT_TOKENS, 32768);
    assert.deepEqual(requestBudget(undefined), { contextTokens: 32768, replyTokens: 4096, inputTokens: 28672, source: 'setting' });
    assert.deepEqual(requestBudget(null, 8000), { contextTokens: 8000, replyTokens: 2000, inputTokens: 6000, source: 'setting' });
    assert.equal(requestBudget(0, 8000).source, 'setting', 'a zero max_tokens states nothing');
    assert.equal(requestBudget(Number.NaN, 8000).inputTokens, 6000);
    assert.equal(requestBudget(10).contextTokens, 256, 'never below 256 tokens');
  });

  it('looks the model up in the list; a model not listed takes the setting', () => {
    const models: ModelLike[] = [
      { valueId: 'swift-chat', name: 'Swift', type: 'text', costInCreditPerUse: 1, isActive: true, max_tokens: 4096 },
      { valueId: 'code-pro', name: 'Code', type: 'text', costInCreditPerUse: 3, isActive: true },
    ];
    assert.equal(budgetForModel(models, 'swift-chat', 100_000).inputTokens, 3072);
    assert.deepEqual(budgetForModel(models, 'code-pro', 16_000), requestBudget(undefined, 16_000));
    assert.equal(budgetForModel(undefined, 'swift-chat', 16_000).source, 'setting', 'models not loaded yet');
  });

  it('estimates about four characters a token, and a message its framing too', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(messageTokens('x'.repeat(400)), 100 + MESSAGE_OVERHEAD_TOKENS);
  });
});

describe('context budget: what goes in', () => {
  it('with room for everything: every turn, nothing left out, no boundary', () => {
    const conv = longConversation(3);
    const s = selectContext({ systemPrompt: 'Be brief.', message: 'Next?', earlier: conv.messages, budget: 100_000 });
    assert.ok(s.ok);
    assert.deepEqual([s.sentTurns, s.omittedTurns, s.totalTurns], [3, 0, 3]);
    assert.equal(s.boundaryId, conv.messages[0].id);
    assert.equal(s.messages.length, 1 + 6 + 1);
    assert.equal(s.messages[0].role, 'system');
    assert.equal(s.messages.at(-1)?.content, 'Next?');
  });

  it('earlier turns newest first, whole turns only, within the budget; the boundary is the oldest question sent', () => {
    const conv = longConversation(50); // each turn: 10 + 12 + 100 + 12 = 134 tokens
    const turn = messageTokens(conv.messages[0].content) + messageTokens(conv.messages[1].content);
    const fixed = messageTokens('Be brief.') + messageTokens('Next?');
    const budget = fixed + 7 * turn + turn - 1; // room for 7 turns and most of an 8th
    const s = selectContext({ systemPrompt: 'Be brief.', message: 'Next?', earlier: conv.messages, budget });
    assert.ok(s.ok);
    assert.equal(s.sentTurns, 7);
    assert.equal(s.omittedTurns, 43);
    assert.ok(s.tokens.total <= budget);
    assert.equal(s.tokens.history, 7 * turn);
    const sent = s.messages.slice(1, -1);
    assert.deepEqual(sent.map((m) => m.content), conv.messages.slice(-14).map((m) => m.content), 'the newest 7 turns, in order');
    assert.equal(s.boundaryId, conv.messages[conv.messages.length - 14].id);
    assert.equal(sent[0].role, 'user', 'starts with a question');
    // Never a message cut: every content is whole.
    for (const m of sent) assert.ok(conv.messages.some((c) => c.content === m.content));
  });

  it('a turn whose reply does not fit is left out whole, even when its question alone would fit', () => {
    const earlier = [msg('msg_000', 'user', 'old question'), msg('msg_001', 'assistant', 'x'.repeat(4000)), msg('msg_002', 'user', 'q'), msg('msg_003', 'assistant', 'short')];
    const budget = messageTokens('new') + messageTokens('q') + messageTokens('short') + messageTokens('old question') + 5;
    const s = selectContext({ systemPrompt: '', message: 'new', earlier, budget });
    assert.ok(s.ok);
    assert.deepEqual(s.messages.map((m) => m.content), ['q', 'short', 'new']);
    assert.equal(s.omittedTurns, 1);
    assert.equal(s.boundaryId, 'msg_002');
  });

  it('the instructions and the attachments go before any earlier turn', () => {
    const conv = longConversation(10);
    const system = 'S'.repeat(2000); // 500 tokens
    const attachment = '\n\n```ts\n' + 'a'.repeat(1990) + '\n```'; // about 500 tokens
    const message = 'Explain this file' + attachment;
    const budget = 1200;
    const s = selectContext({ systemPrompt: system, message, attachmentChars: attachment.length, earlier: conv.messages, budget });
    assert.ok(s.ok);
    assert.equal(s.tokens.instructions, 500 + MESSAGE_OVERHEAD_TOKENS);
    assert.equal(s.tokens.attachments, estimateTokens(attachment));
    assert.equal(s.tokens.message, messageTokens(message) - s.tokens.attachments);
    assert.equal(s.tokens.instructions + s.tokens.attachments + s.tokens.message + s.tokens.history, s.tokens.total);
    assert.equal(s.sentTurns, 1, 'what is left of the budget takes one turn (134 tokens), not two');
    assert.equal(s.messages[0].content, system);
    assert.equal(s.messages.at(-1)?.content, message, 'the message goes whole, attachments included');
  });

  it('a message that alone exceeds the budget is refused, attachments counted', () => {
    const big = selectContext({ systemPrompt: '', message: 'x'.repeat(4000 * 4), earlier: [], budget: 3072 });
    assert.equal(big.ok, false);
    const withAttachment = 'short question\n\n' + 'y'.repeat(3000 * 4);
    const s = selectContext({ systemPrompt: 'S'.repeat(400), message: withAttachment, attachmentChars: withAttachment.length - 14, earlier: longConversation(2).messages, budget: 3072 });
    assert.equal(s.ok, false);
    assert.ok(s.tokens.attachments > 2900 && s.tokens.total > 3072, JSON.stringify(s.tokens));
    const meter = toContextMeter(s, 'model');
    assert.deepEqual([meter.tooLong, meter.omittedTurns, meter.sentTurns], [true, 2, 0]);
  });

  it('instructions that alone exceed the budget: the refusal names the instructions (not the message), with Open and Turn Off', () => {
    const agents = readInstructions({ name: 'AGENTS.md', content: new TextEncoder().encode('# Conventions\n' + '- keep functions small and documented.\n'.repeat(800)), trusted: true, enabled: true });
    const budget = requestBudget(4096).inputTokens;
    const s = selectContext({ systemPrompt: systemPromptWith('Be brief.', agents), message: 'hi', earlier: [], budget });
    assert.equal(s.ok, false);
    assert.ok(!s.ok && s.reason === 'instructions-too-long', JSON.stringify(s));
    const error = messageTooLongError(s);
    assert.match(error.message, /^The instructions are too large for the model: about 7,?8\d\d tokens \(estimated\), and at most 3,?072 can be sent in all, the message included\./, error.message);
    assert.match(error.message, /AGENTS\.md/, 'names the file');
    assert.doesNotMatch(error.message, /message is too long|Shorten it,/, 'does not blame the message');
    assert.deepEqual(error.actions, ['openInstructions', 'toggleInstructions']);
    // Without project instructions, a system prompt setting that large: its setting is offered.
    const own = selectContext({ systemPrompt: 'Answer in verse. '.repeat(1000), message: 'hi', earlier: [], budget });
    assert.ok(!own.ok && own.reason === 'instructions-too-long');
    const ownError = messageTooLongError(own);
    assert.match(ownError.message, /system prompt \(aiChat\.systemPrompt\)/);
    assert.deepEqual(ownError.actions, ['openSystemPrompt']);
    // Both large: both are offered.
    const both = selectContext({ systemPrompt: systemPromptWith('Answer in verse. '.repeat(1000), agents), message: 'hi', earlier: [], budget });
    assert.ok(!both.ok);
    assert.deepEqual(messageTooLongError(both).actions, ['openInstructions', 'toggleInstructions', 'openSystemPrompt']);
    // Instructions that fit, with a message that does not: the message is what is too long.
    const fits = selectContext({ systemPrompt: 'Be brief.', message: 'x'.repeat(4000 * 4), earlier: [], budget });
    assert.ok(!fits.ok && fits.reason === 'message-too-long');
    assert.match(messageTooLongError(fits).message, /^This message is too long for the model/);
    // Instructions that take most of the budget, with a message that then does not fit: both are said, with the buttons.
    const heavy = selectContext({ systemPrompt: systemPromptWith('', readInstructions({ name: 'AGENTS.md', content: new TextEncoder().encode('r'.repeat(2000 * 4)), trusted: true, enabled: true })), message: 'x'.repeat(1200 * 4), earlier: [], budget });
    assert.ok(!heavy.ok && heavy.reason === 'message-too-long');
    const heavyError = messageTooLongError(heavy);
    assert.match(heavyError.message, /^This message is too long for the model: .* The instructions alone take about 2,?0\d\d of them\.$/);
    assert.deepEqual(heavyError.actions, ['openInstructions', 'toggleInstructions']);
    // The meter still shows the request as over the budget.
    assert.equal(toContextMeter(s, 'model').tooLong, true);
  });

  it('failed, unfinished and empty replies are never sent; a reply without its question is not either', () => {
    const earlier = [
      msg('msg_000', 'assistant', 'orphan reply'),
      msg('msg_001', 'user', 'q1'),
      msg('msg_002', 'assistant', 'boom', 'error'),
      msg('msg_003', 'user', 'q2'),
      msg('msg_004', 'assistant', 'a2'),
    ];
    const s = selectContext({ systemPrompt: '', message: 'q3', earlier, budget: 100_000 });
    assert.ok(s.ok);
    assert.deepEqual(s.messages.map((m) => m.content), ['q1', 'q2', 'a2', 'q3']);
    assert.equal(s.totalTurns, 2);
  });

  it('at most maxTurns earlier turns ("Send with fewer earlier messages")', () => {
    const conv = longConversation(20);
    const s = selectContext({ systemPrompt: '', message: 'q', earlier: conv.messages, budget: 100_000, maxTurns: 5 });
    assert.ok(s.ok);
    assert.deepEqual([s.sentTurns, s.omittedTurns], [5, 15]);
  });

  it('ids stay distinct: an older message reusing an id is a boundary', () => {
    const earlier = [msg('msg_001', 'user', 'old'), msg('msg_002', 'assistant', 'old reply'), msg('msg_001', 'user', 'new'), msg('msg_003', 'assistant', 'new reply')];
    const s = selectContext({ systemPrompt: '', message: 'q', earlier, budget: 100_000, messageId: 'msg_004' });
    assert.ok(s.ok);
    assert.deepEqual(s.messages.map((m) => m.content), ['new', 'new reply', 'q']);
    assert.equal(s.messages.at(-1)?.id, 'msg_004');
  });

  it('recognises a refusal that says the input is too long', () => {
    assert.ok(isInputTooLong({ kind: 'invalid', status: 400, code: 'INVALID_INPUT', message: 'messages: input is too long for the model (5000 tokens, at most 4096)' }));
    assert.ok(isInputTooLong({ kind: 'invalid', status: 400, message: "This model's maximum context length is 4096 tokens" }));
    assert.ok(isInputTooLong({ kind: 'invalid', status: 413, code: 'INVALID_INPUT', message: 'request body must be at most 5242880 bytes' }));
    assert.ok(!isInputTooLong({ kind: 'invalid', status: 400, code: 'INVALID_INPUT', message: 'temperature must be at most 2' }));
    assert.ok(!isInputTooLong({ kind: 'server', status: 500, message: 'input too long' }));
    assert.ok(!isInputTooLong(undefined));
  });
});

describe('context budget: the same budget for @aichat and the language model provider', () => {
  it('trims the Chat view turns to the budget, newest first, whole turns', () => {
    const turns = Array.from({ length: 40 }, (_, i) => [
      { role: 'user' as const, content: `question ${i}` },
      { role: 'assistant' as const, content: 'r'.repeat(400) },
    ]).flat();
    const s = nativeContext(turns, 'latest', 'Be brief.', 1000);
    assert.ok(s.ok);
    assert.ok(s.tokens.total <= 1000);
    assert.equal(s.messages[0].role, 'system');
    assert.equal(s.messages[1].content, `question ${40 - s.sentTurns}`);
    assert.equal(s.messages.at(-1)?.content, 'latest');
    assert.equal(new Set(s.messages.filter((m) => m.id).map((m) => m.id)).size, s.messages.length - 1, 'ids distinct');
  });

  it('the provider refuses a request whose last message alone is over the budget, and trims the rest', () => {
    const text = (role: 'user' | 'assistant', value: string) => ({ role, parts: [{ kind: 'text' as const, value }] });
    // The provider's request read, then fitted as the pipeline fits it (pipeline/turnService.ts).
    const lmToServiceMessages = (messages: ReturnType<typeof text>[], budget: number) => {
      const r = lmRequest(messages);
      if (!r.ok) return r;
      const s = nativeContext(r.earlier, r.prompt, r.system, budget);
      return s.ok ? { ok: true as const, messages: s.messages } : { ok: false as const, message: messageTooLongError(s).message };
    };
    const refused = lmToServiceMessages([text('user', 'x'.repeat(20_000))], 3072);
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.match(refused.message, /too long for the model/);
    const long = Array.from({ length: 30 }, (_, i) => [text('user', `q${i}`), text('assistant', 'a'.repeat(800))]).flat();
    const r = lmToServiceMessages([...long, text('user', 'last')], 3072);
    assert.ok(r.ok);
    if (r.ok) {
      assert.ok(r.messages.length < 61 && r.messages.length > 3);
      assert.equal(r.messages.at(-1)?.content, 'last');
      assert.ok(r.messages.reduce((n, m) => n + messageTokens(m.content), 0) <= 3072);
    }
  });
});

type Script = Error | { text: string };

function sessionOn(conv: Conversation, budget: number | undefined, systemPrompt = '') {
  const requests: SessionChatRequest[] = [];
  const scripts: Script[] = [];
  const events: SessionEvent[] = [];
  const backend: ChatBackend = {
    async chat() {
      throw new Error('not used');
    },
    async chatStream(req) {
      requests.push(structuredClone(req));
      const s = scripts.shift() ?? { text: 'ok' };
      if (s instanceof Error) throw s;
      return {
        abort() {},
        async *[Symbol.asyncIterator]() {
          yield { event: 'f' as const, messageId: 'x' };
          yield { event: '0' as const, data: s.text };
          yield { event: 'd' as const, finishReason: 'stop' };
        },
      };
    },
  };
  const store = new ConversationStore(new MemoryConversationStorage());
  const settings = { model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt, baseUrl: 'http://127.0.0.1' };
  const session = new ChatSession({
    store,
    turns: directTurns(() => backend),
    settings: () => settings,
    modelCost: () => 1,
    onEvent: (e) => events.push(e),
    flushIntervalMs: 0,
    ...(budget !== undefined ? { contextBudget: () => budget } : {}),
  });
  return {
    session,
    settings,
    requests,
    scripts,
    events,
    open: async () => {
      await store.save(conv);
      await session.open(conv.id);
    },
  };
}

const requestTokens = (req: SessionChatRequest) => req.messages.reduce((n, m) => n + messageTokens(m.content), 0);

describe('context budget: the chat session', () => {
  it('a 300-turn conversation sends only the newest turns that fit the model budget, and the preview said which', async () => {
    const conv = longConversation(300);
    const budget = requestBudget(4096).inputTokens;
    const t = sessionOn(conv, budget, 'Be brief.');
    await t.open();
    const preview = t.session.previewContext('And now?');
    assert.ok(preview.ok && preview.omittedTurns > 0);
    await t.session.send('And now?');
    const req = t.requests[0];
    assert.ok(requestTokens(req) <= budget, `${requestTokens(req)} > ${budget}`);
    assert.ok(JSON.stringify(req).length <= budget * 4, 'bytes within the budget too');
    assert.equal(req.messages[0].role, 'system');
    assert.equal(req.messages.at(-1)?.content, 'And now?');
    // The request holds exactly the turns after the boundary the preview showed.
    const at = conv.messages.findIndex((m) => m.id === preview.boundaryId);
    assert.deepEqual(req.messages.slice(1, -1).map((m) => m.id), conv.messages.slice(at, 600).map((m) => m.id));
    assert.equal(req.messages.slice(1, -1).length, preview.sentTurns * 2);
    // The conversation itself (History, Export) keeps every message.
    assert.equal(t.session.conversation.messages.length, 602);
  });

  it('without a budget (no contextBudget) the whole conversation goes, as before', async () => {
    const t = sessionOn(longConversation(30), undefined);
    await t.open();
    await t.session.send('q');
    assert.equal(t.requests[0].messages.length, 61);
  });

  it('a message that alone exceeds the budget is refused before sending, with a clear error, and goes back to the box', async () => {
    const t = sessionOn(longConversation(3), 3072);
    await t.open();
    const text = 'z'.repeat(3100 * 4);
    await t.session.send(text);
    assert.equal(t.requests.length, 0, 'nothing sent');
    assert.equal(t.session.conversation.messages.length, 6, 'no turn added');
    assert.match(t.session.sendError?.message ?? '', /too long for the model: about 3,?1\d\d tokens .*at most 3,?072/);
    assert.ok(t.events.some((e) => e.type === 'inputReturned' && e.text === text));
  });

  it('project instructions larger than a small model\'s budget (probe p_budget_instructions): "hi" is refused naming the instructions, with Open and Turn Off', async () => {
    const agents = readInstructions({ name: 'AGENTS.md', content: new TextEncoder().encode('# Conventions\n' + '- keep functions small and documented.\n'.repeat(800)), trusted: true, enabled: true });
    assert.equal(agents.state, 'active');
    const t = sessionOn(longConversation(1), requestBudget(4096).inputTokens, systemPromptWith('', agents));
    await t.open();
    await t.session.send('hi');
    assert.equal(t.requests.length, 0, 'nothing sent');
    const error = t.session.sendError;
    assert.match(error?.message ?? '', /^The instructions are too large for the model/, error?.message);
    assert.doesNotMatch(error?.message ?? '', /This message is too long/);
    assert.deepEqual(error?.actions, ['openInstructions', 'toggleInstructions']);
    assert.ok(t.events.some((e) => e.type === 'inputReturned' && e.text === 'hi'), 'the text goes back to the box');
  });

  it('a 400 "input is too long" offers Send with fewer earlier messages, which sends half the earlier turns', async () => {
    const t = sessionOn(longConversation(40), 100_000);
    await t.open();
    t.scripts.push(Object.assign(new Error('input is too long for the model (9000 tokens, at most 8192)'), { kind: 'invalid', status: 400, code: 'INVALID_INPUT' }));
    await t.session.send('my question');
    assert.deepEqual(t.session.sendError?.actions, ['fewerMessages', 'retry']);
    assert.ok(t.events.some((e) => e.type === 'inputReturned' && e.text === 'my question'), 'the text stays');
    assert.equal(t.requests[0].messages.length, 81);
    t.session.fewerEarlierTurns();
    await t.session.send('my question');
    assert.equal(t.requests[1].messages.length, 1 + 20 * 2, '20 earlier turns, then the question');
    assert.equal(t.session.sendError, undefined);
    // Again: half of that.
    t.session.fewerEarlierTurns();
    assert.equal((t.session.previewContext('next') as { sentTurns: number }).sentTurns, 10);
    // Another model: its own budget decides again.
    t.settings.model = 'deep-think';
    assert.equal((t.session.previewContext('next') as { sentTurns: number }).sentTurns, 41);
  });

  it('through the real client: the service\'s 400 "input is too long" is recognised, another 400 is not', async () => {
    const srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
    try {
      const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY });
      const errorOf = async () => client.chatStream({ messages: [{ role: 'user', content: 'hi' }], model: 'swift-chat', stream: true }).then(() => undefined, (e: unknown) => e);
      srv.control.injectFault({ kind: 'status', status: 400, message: 'messages: input is too long for the model (about 5,000 tokens, at most 4,096)' });
      assert.ok(isInputTooLong(await errorOf()));
      srv.control.injectFault({ kind: 'status', status: 400 });
      const other = await errorOf();
      assert.ok(other && !isInputTooLong(other));
    } finally {
      await srv.close();
    }
  });

  it('another 400 does not offer it', async () => {
    const t = sessionOn(longConversation(4), 100_000);
    await t.open();
    t.scripts.push(Object.assign(new Error('temperature must be at most 2'), { kind: 'invalid', status: 400, code: 'INVALID_INPUT' }));
    await t.session.send('q');
    assert.deepEqual(t.session.sendError?.actions, ['retry']);
  });
});

describe('context budget: the history no longer grows without bound (finding L3, probe p_history_cap)', () => {
  it('three 2 MB messages then a short one on a model without max_tokens: every send completes, each request within the budget', async function () {
    this.timeout(60_000);
    const srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
    try {
      const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY });
      const models = await client.models();
      // code-pro states no max_tokens: the setting decides (here 1,200,000 tokens, about 4.8 M characters).
      const model = 'code-pro';
      const budget = budgetForModel(models, model, 1_200_000);
      assert.equal(budget.source, 'setting');
      const store = new ConversationStore(new MemoryConversationStorage());
      const session = new ChatSession({
        store,
        turns: directTurns(() => client),
        settings: () => ({ model, stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: srv.url }),
        modelCost: () => 3,
        onEvent: () => undefined,
        flushIntervalMs: 0,
        // As the extension wires it (extension.ts).
        contextBudget: (id) => budgetForModel(models, id, 1_200_000).inputTokens,
      });
      const att = Array.from({ length: 20 }, (_, j) => ({ id: `ctx_${j}`, kind: 'file' as const, path: `src/f${j}.ts`, language: 'typescript', content: `// file ${j}\n` + 'const x = 1;\n'.repeat(7800), bytes: 100 * 1024 }));
      const outcomes: string[] = [];
      for (let i = 1; i <= 4; i++) {
        const text = i < 4 ? assembleMessage(`review batch ${i}`, att) : 'thanks, one short question';
        await session.send(text);
        outcomes.push(session.sendError ? `refused: ${session.sendError.message.slice(0, 80)}` : String(session.conversation.messages.at(-1)?.status));
      }
      assert.deepEqual(outcomes, ['complete', 'complete', 'complete', 'complete']);
      const bodies = srv.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat').map((r) => r.body as { messages: Array<{ content: string }> });
      assert.equal(bodies.length, 4);
      for (const b of bodies) assert.ok(b.messages.reduce((n, m) => n + messageTokens(m.content), 0) <= budget.inputTokens);
      assert.equal(bodies[2].messages.length, 3, 'send 3 leaves out the first turn (whole), keeps the second');
      assert.equal(session.conversation.messages.length, 8, 'the conversation keeps every message');
    } finally {
      await srv.close();
    }
  });
});

describe('context budget: the meter feed', () => {
  it('posts the figures of the draft and the attachments, valid for the webview, only when they change', async () => {
    const conv = longConversation(100);
    const t = sessionOn(conv, 3072, 'Be brief.');
    await t.open();
    const posted: HostMessage[] = [];
    const attachments: Attachment[] = [];
    const feed = new ContextMeterFeed({ session: t.session, attachments: () => attachments, source: () => 'model', post: (m) => posted.push(m) });
    feed.update();
    feed.update();
    assert.equal(posted.length, 1, 'the same figures are not posted twice');
    feed.setDraft('What about the tests?');
    assert.equal(posted.length, 2);
    const last = posted.at(-1);
    assert.ok(last && parseHostMessage(last).ok);
    assert.ok(last?.type === 'contextMeter');
    const m = last.meter;
    assert.equal(m.budget, 3072);
    assert.equal(m.message, messageTokens('What about the tests?'));
    assert.equal(m.attachments, 0);
    assert.ok(m.omittedTurns > 70 && m.sentTurns > 10 && m.total <= 3072 && !m.tooLong);
    assert.equal(m.sentTurns + m.omittedTurns, 100);
    assert.equal(m.boundaryId, conv.messages[200 - m.sentTurns * 2].id);
    attachments.push({ id: 'ctx_1', kind: 'file', path: 'src/a.ts', language: 'ts', content: 'x'.repeat(4000), bytes: 4000 });
    feed.update();
    const withFile = posted.at(-1);
    assert.ok(withFile?.type === 'contextMeter');
    assert.ok(withFile.meter.attachments >= 1000, 'the attachment is counted');
    assert.ok(withFile.meter.sentTurns < m.sentTurns, 'fewer earlier turns fit beside it');
  });
});
