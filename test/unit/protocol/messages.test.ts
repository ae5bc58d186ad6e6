import { strict as assert } from 'node:assert';
import {
  parseHostMessage,
  parseWebviewMessage,
  HostMessageSchema,
  WebviewMessageSchema,
  type ChatSettings,
  type ConversationView,
} from '../../../src/protocol';

const conversation: ConversationView = {
  id: 'c1',
  title: 'Hello',
  messages: [
    { id: 'msg_000', role: 'user', content: 'hi', status: 'complete' },
    {
      id: 'msg_001',
      role: 'assistant',
      content: 'hello',
      status: 'complete',
      meta: { model: 'swift-chat', credits: 1, promptTokens: 3, completionTokens: 5 },
    },
  ],
};

const settings: ChatSettings = {
  models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 1,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
};
const idle = { busy: false };
const failed = { busy: false, sendError: { kind: 'auth', message: 'No key', actions: ['setApiKey'] } };
const user = { id: 'msg_002', role: 'user', content: 'more', status: 'complete' };
const reply = { id: 'msg_003', role: 'assistant', content: '', status: 'streaming' };

const meter = { budget: 3072, source: 'model', instructions: 20, attachments: 0, history: 2900, message: 30, total: 2950, omittedTurns: 42, sentTurns: 6, boundaryId: 'msg_054', tooLong: false };
const validHost: unknown[] = [
  { type: 'contextMeter', meter },
  { type: 'contextMeter', meter: { ...meter, boundaryId: undefined, omittedTurns: 0, tooLong: true, source: 'setting' } },
  { type: 'settings', settings },
  { type: 'settings', settings: { ...settings, outOfCredits: { balance: 0.5, cost: 1, model: 'swift-chat', affordable: 2 } } },
  { type: 'status', status: idle },
  { type: 'status', status: failed },
  { type: 'conversation', conversation, status: idle },
  { type: 'conversation', conversation, status: idle, version: 7, notice: 'The last conversation could not be reopened.' },
  { type: 'turnStarted', user, assistant: reply, status: { busy: true } },
  { type: 'streamChunk', messageId: 'msg_003', offset: 0, text: 'abc' },
  { type: 'turnEnded', message: { ...reply, content: 'abc', status: 'complete', meta: { model: 'swift-chat', credits: 1 } }, status: idle },
  { type: 'turnEnded', message: { ...reply, status: 'stopped' }, status: idle },
  {
    type: 'turnEnded',
    message: { ...reply, status: 'error', error: { kind: 'server', message: 'boom', actions: ['retry'] } },
    status: idle,
  },
  { type: 'messageChanged', message: { ...reply, content: 'abc', status: 'complete', meta: { model: 'swift-chat', credits: 2 } } },
  {
    type: 'conversation',
    conversation: {
      ...conversation,
      messages: [{ ...user, branch: { index: 1, count: 2 } }],
      hidden: [{ id: 'msg_a05', role: 'user', content: 'Edited', kind: 'branch' }, { id: 'msg_a06', role: 'assistant', content: 'Another', kind: 'variant' }],
    },
    status: idle,
  },
  { type: 'variantShown', from: 'msg_a02', message: { ...reply, id: 'msg_a03', status: 'complete', meta: { model: 'deep-think', credits: 5 }, variant: { index: 2, count: 3 } }, version: 4 },
  { type: 'streamStatus', messageId: 'msg_003', text: 'The service is busy; trying again in 2 s (retry 1 of 2)…' },
  { type: 'restoreInput', text: 'typed' },
  { type: 'restoreInput', text: 'An edit again', editOf: 'msg_a01' },
  { type: 'focusInput' },
  { type: 'draftHoldsKey', holds: true },
  { type: 'contextChips', chips: [{ id: 'ctx_1', name: 'inventory.ts', detail: '1.2 KB', icon: 'file', path: 'src/inventory.ts' }] },
  { type: 'contextChips', chips: [{ id: 'ctx_2', name: 'a.ts:3-9', detail: '1.2 KB · kept for this conversation, no extra credits', icon: 'pinned', path: 'src/a.ts', pinned: true }, { id: 'ctx_3', name: 'b.ts', detail: '2 KB', icon: 'file', path: 'b.ts', pinnable: true }] },
  { type: 'queue', items: [{ id: 'q1', text: 'next', cost: 1.5 }, { id: 'q2', text: 'then' }], state: 'stopped', reason: 'Stopped' },
  { type: 'insertPrompt', text: 'Explain this code:\n\n```ts\nx\n```' },
  { type: 'insertPrompt', text: 'Review this', model: { id: 'deep-think', label: 'Deep Think · 3 credits' } },
  { type: 'find' },
  { type: 'find', query: 'useEffect' },
  { type: 'revealMessage', messageId: 'msg_00a' },
  { type: 'summaryProgress', running: true, turns: 42, throughId: 'msg_053', text: 'So far' },
  { type: 'summaryProgress', running: false },
  {
    type: 'conversation',
    conversation: { ...conversation, summary: { text: 'The user wants zod.', throughId: 'msg_000', turns: 1, model: 'swift-chat', cost: 2, credits: 2, edited: true } },
    status: { busy: false },
  },
  { type: 'promptList', prompts: [{ name: 'review', description: 'Review it', source: '.github/prompts/review.prompt.md', argumentHint: 'focus', note: 'Not supported: tools' }, { name: 'bad', description: '', source: 'x', error: 'never closed' }], notice: 'Restricted Mode' },
  { type: 'contextOptions', seq: 4, options: [{ kind: 'action', icon: 'search-fuzzy', label: 'codebase', detail: 'files for the question' }, { kind: 'symbol', icon: 'symbol-method', label: 'priceOf', detail: 'src/pricing.ts:12' }], pending: true },
  { type: 'contextOptions', seq: 5, options: [] },
  { type: 'replyChanges', conversationId: 'c1', replies: [{ messageId: 'msg_a02', state: 'undone', files: 3 }] },
];

const invalidHost: Array<[string, unknown]> = [
  ['contextMeter with a boundary that is not a message id', { type: 'contextMeter', meter: { ...meter, boundaryId: '<img>' } }],
  ['contextMeter with negative tokens', { type: 'contextMeter', meter: { ...meter, history: -1 } }],
  ['no type', { settings }],
  ['unknown type', { type: 'evalScript', code: 'x' }],
  ['insertPrompt empty', { type: 'insertPrompt', text: '' }],
  ['a summary placed at an id that is not one', { type: 'conversation', conversation: { ...conversation, summary: { text: 'x', throughId: '<b>', turns: 1, model: 'm', cost: 1 } }, status: { busy: false } }],
  ['an empty summary', { type: 'conversation', conversation: { ...conversation, summary: { text: '', throughId: 'msg_000', turns: 1, model: 'm', cost: 1 } }, status: { busy: false } }],
  ['summaryProgress without running', { type: 'summaryProgress', turns: 3 }],
  ['find with a query that is not text', { type: 'find', query: 3 }],
  ['revealMessage of an id that is not one', { type: 'revealMessage', messageId: '../x' }],
  ['promptList with a nameless prompt', { type: 'promptList', prompts: [{ name: '', description: '', source: 'x' }] }],
  ['contextOptions with an icon that is not a codicon name', { type: 'contextOptions', seq: 1, options: [{ kind: 'file', icon: 'x"><img', label: 'a.ts' }] }],
  ['contextOptions of an unknown kind', { type: 'contextOptions', seq: 1, options: [{ kind: 'url', icon: 'link', label: 'a' }] }],
  ['contextOptions with more than 50 options', { type: 'contextOptions', seq: 1, options: Array.from({ length: 51 }, () => ({ kind: 'file', icon: 'file', label: 'a.ts' })) }],
  ['insertPrompt not a string', { type: 'insertPrompt', text: 42 }],
  ['insertPrompt model without an id', { type: 'insertPrompt', text: 'x', model: { label: 'Deep Think' } }],
  ['settings missing fields', { type: 'settings', settings: { ...settings, hasKey: undefined } }],
  ['settings temperature out of range', { type: 'settings', settings: { ...settings, temperature: 3 } }],
  ['out-of-credits card without its cost', { type: 'settings', settings: { ...settings, outOfCredits: { balance: 0, model: 'swift-chat', affordable: 0 } } }],
  ['out-of-credits card with a fractional model count', { type: 'settings', settings: { ...settings, outOfCredits: { balance: 0, cost: 1, model: 'm', affordable: 1.5 } } }],
  ['status without busy', { type: 'status', status: {} }],
  ['conversation without status', { type: 'conversation', conversation }],
  ['conversation message with an unknown role', { type: 'conversation', conversation: { ...conversation, messages: [{ ...user, role: 'system' }] }, status: idle }],
  ['turnStarted without the reply', { type: 'turnStarted', user, status: idle }],
  ['streamChunk text not a string', { type: 'streamChunk', messageId: 'msg_001', offset: 0, text: 42 }],
  ['streamChunk negative offset', { type: 'streamChunk', messageId: 'msg_001', offset: -1, text: 'a' }],
  ['turnEnded bad status', { type: 'turnEnded', message: { ...reply, status: 'done' }, status: idle }],
  ['messageChanged without the message', { type: 'messageChanged' }],
  ['a hidden message of no known kind', { type: 'conversation', conversation: { ...conversation, hidden: [{ id: 'msg_a05', role: 'user', content: 'x', kind: 'other' }] }, status: idle }],
  ['a question of one branch only', { type: 'conversation', conversation: { ...conversation, messages: [{ ...user, branch: { index: 1, count: 1 } }] }, status: idle }],
  ['variantShown of one variant only', { type: 'variantShown', from: 'msg_a02', message: { ...reply, variant: { index: 1, count: 1 } } }],
  ['streamStatus without text', { type: 'streamStatus', messageId: 'm' }],
  ['streamStatus text too long', { type: 'streamStatus', messageId: 'm', text: 'x'.repeat(1001) }],
  [
    'turnEnded error with an unknown action',
    { type: 'turnEnded', message: { ...reply, status: 'error', error: { kind: 'server', message: 'x', actions: ['rm -rf'] } }, status: idle },
  ],
  ['restoreInput no text', { type: 'restoreInput' }],
  ['restoreInput editing a question that is not an id', { type: 'restoreInput', text: 'x', editOf: 'q1' }],
  ['not an object', 'settings'],
  ['null', null],
];

const validWebview: unknown[] = [
  { type: 'ready' },
  { type: 'resync' },
  { type: 'send', text: 'hello' },
  { type: 'send', text: 'hello', model: 'deep-think' },
  { type: 'stop' },
  { type: 'continue' },
  { type: 'retry' },
  { type: 'editLast' },
  { type: 'fork', messageId: 'msg_0a3' },
  { type: 'newChat' },
  { type: 'openHistory' },
  { type: 'loadConversation', id: 'abc' },
  { type: 'selectModel' },
  { type: 'selectModel', valueId: 'deep-think' },
  { type: 'setSearch', value: true },
  { type: 'setTemperature', value: 0.7 },
  { type: 'codeAction', action: 'insert', code: 'x = 1', language: 'python' },
  { type: 'openLink', href: 'https://example.com' },
  { type: 'runCommand', command: 'setApiKey' },
  { type: 'runCommand', command: 'openSettings' },
  { type: 'draft', text: '' },
  { type: 'summarize' },
  { type: 'summaryStop' },
  { type: 'summaryEdit', text: 'My own summary' },
  { type: 'summaryRemove' },
  { type: 'draft', text: 'half a question' },
  { type: 'removeContext', id: 'ctx_3' },
  { type: 'openSent', path: 'src/a.ts', startLine: 12, endLine: 40 },
  { type: 'openSent', path: 'AGENTS.md' },
  { type: 'pinContext', id: 'ctx_4' },
  { type: 'contextSearch', seq: 0, query: '' },
  { type: 'contextSearch', seq: 12, query: 'pricing' },
  { type: 'contextChoose', seq: 12, kind: 'symbol', label: 'priceOf', detail: 'src/pricing.ts:12', question: 'Where is the price computed?' },
  { type: 'contextChoose', seq: 12, kind: 'action', label: 'codebase', question: '' },
  { type: 'queueRemove', id: 'q1' },
  { type: 'queueEdit', id: 'q1', text: 'edited' },
  { type: 'queueResume' },
  { type: 'queueClear' },
  { type: 'dismissOutOfCredits' },
  { type: 'chatFocused' },
  { type: 'dropUris', uris: ['file:///w/a.ts'], total: 1, outsideFiles: 0 },
  { type: 'sendFewer' },
  { type: 'sendFewer', text: 'the same question' },
  { type: 'expandPrompt', name: 'review' },
  { type: 'expandPrompt', name: 'fix-issue', args: '42' },
  { type: 'promptsWanted' },
  { type: 'replyChangesAction', action: 'apply', messageId: 'msg_a02' },
  { type: 'replyChangesAction', action: 'undo', messageId: 'msg_a02' },
  { type: 'retryWith', messageId: 'msg_a02' },
  { type: 'showVariant', messageId: 'msg_a02', step: -1 },
  { type: 'showVariant', messageId: 'msg_a02', step: 1 },
  { type: 'compareVariants', messageId: 'msg_a02' },
  { type: 'showBranch', messageId: 'msg_a01', step: -1 },
  { type: 'showBranch', messageId: 'msg_a01', step: 1 },
  { type: 'showHiddenMessage', messageId: 'msg_a04' },
  { type: 'send', text: 'hello again', editOf: 'msg_a01' },
];

const invalidWebview: Array<[string, unknown]> = [
  ['openSent without a path', { type: 'openSent', path: '', startLine: 1 }],
  ['pinContext of an id that is not a chip', { type: 'pinContext', id: 'q1' }],
  ['contextSearch with a word over 200 characters', { type: 'contextSearch', seq: 1, query: 'x'.repeat(201) }],
  ['contextSearch with a negative number', { type: 'contextSearch', seq: -1, query: 'a' }],
  ['contextChoose of an unknown kind', { type: 'contextChoose', seq: 1, kind: 'url', label: 'a' }],
  ['contextChoose with a label over 300 characters', { type: 'contextChoose', seq: 1, kind: 'file', label: 'x'.repeat(301) }],
  ['openSent at line 0', { type: 'openSent', path: 'a.ts', startLine: 0 }],
  ['summaryEdit with no text', { type: 'summaryEdit', text: '' }],
  ['fork without a message id', { type: 'fork' }],
  ['fork of a message id that is not one', { type: 'fork', messageId: '../../x' }],
  ['unknown type', { type: 'getApiKey' }],
  ['send empty text', { type: 'send', text: '' }],
  ['send editing a question that is not an id', { type: 'send', text: 'x', editOf: '<b>' }],
  ['showBranch two steps', { type: 'showBranch', messageId: 'msg_a01', step: 2 }],
  ['send without text', { type: 'send' }],
  ['send with an empty model', { type: 'send', text: 'hello', model: '' }],
  ['loadConversation empty id', { type: 'loadConversation', id: '' }],
  ['setSearch not boolean', { type: 'setSearch', value: 'yes' }],
  ['setTemperature above 2', { type: 'setTemperature', value: 2.5 }],
  ['setTemperature below 0', { type: 'setTemperature', value: -1 }],
  ['codeAction unknown action', { type: 'codeAction', action: 'run', code: 'x', language: 'sh' }],
  ['openLink not a string', { type: 'openLink', href: 5 }],
  ['runCommand not allowlisted', { type: 'runCommand', command: 'workbench.action.terminal.new' }],
  ['draft without text', { type: 'draft' }],
  ['array', [{ type: 'ready' }]],
  ['undefined', undefined],
  ['queueEdit without text', { type: 'queueEdit', id: 'q1' }],
  ['sendFewer with empty text', { type: 'sendFewer', text: '' }],
  ['expandPrompt without a name', { type: 'expandPrompt', name: '' }],
  ['replyChangesAction of an unknown action', { type: 'replyChangesAction', action: 'delete', messageId: 'msg_a02' }],
  ['replyChangesAction of a message id that is not one', { type: 'replyChangesAction', action: 'undo', messageId: '../x' }],
  ['showVariant more than one step', { type: 'showVariant', messageId: 'msg_a02', step: 2 }],
  ['retryWith of a message id that is not one', { type: 'retryWith', messageId: 'x' }],
];

describe('protocol: host -> webview', () => {
  for (const msg of validHost) {
    it(`accepts ${(msg as { type: string }).type}`, () => {
      const r = parseHostMessage(msg);
      assert.equal(r.ok, true, r.ok ? '' : r.error);
    });
  }
  for (const [name, msg] of invalidHost) {
    it(`rejects ${name}`, () => {
      const r = parseHostMessage(msg);
      assert.equal(r.ok, false);
      if (!r.ok) assert.ok(r.error.length > 0);
    });
  }
  it('covers every host message type', () => {
    const types = new Set(validHost.map((m) => (m as { type: string }).type));
    for (const opt of HostMessageSchema.def.options) assert.ok(types.has(opt.shape.type.def.values[0]), String(opt.shape.type.def.values[0]));
  });
  it('drops unknown extra fields', () => {
    const r = parseHostMessage({ type: 'focusInput', apiKey: 'sk-secret' });
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.message, { type: 'focusInput' });
  });
});

describe('protocol: webview -> host', () => {
  for (const msg of validWebview) {
    it(`accepts ${JSON.stringify(msg)}`, () => {
      const r = parseWebviewMessage(msg);
      assert.equal(r.ok, true, r.ok ? '' : r.error);
    });
  }
  for (const [name, msg] of invalidWebview) {
    it(`rejects ${name}`, () => {
      assert.equal(parseWebviewMessage(msg).ok, false);
    });
  }
  it('covers every webview message type', () => {
    const types = new Set(validWebview.map((m) => (m as { type: string }).type));
    for (const opt of WebviewMessageSchema.def.options) assert.ok(types.has(opt.shape.type.def.values[0]), String(opt.shape.type.def.values[0]));
  });
  it('names the failing field', () => {
    const r = parseWebviewMessage({ type: 'setTemperature', value: 9 });
    assert.ok(!r.ok && r.error.startsWith('value:'), JSON.stringify(r));
  });
});
