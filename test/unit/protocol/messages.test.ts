import { strict as assert } from 'node:assert';
import {
  parseHostMessage,
  parseWebviewMessage,
  HostMessageSchema,
  WebviewMessageSchema,
  type ChatState,
} from '../../../src/protocol';

const state: ChatState = {
  conversation: {
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
  },
  models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 1,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
  busy: false,
};

const validHost: unknown[] = [
  { type: 'state', state },
  { type: 'streamStart', messageId: 'msg_001', model: 'swift-chat' },
  { type: 'streamChunk', messageId: 'msg_001', offset: 0, text: 'abc' },
  { type: 'streamEnd', messageId: 'msg_001', status: 'complete', meta: { model: 'swift-chat', credits: 1 } },
  { type: 'streamEnd', messageId: 'msg_001', status: 'stopped' },
  { type: 'streamError', messageId: 'msg_001', error: { kind: 'server', message: 'boom', actions: ['retry'] } },
  { type: 'streamStatus', messageId: 'msg_001', text: 'The service is busy; trying again in 2 s (retry 1 of 2)…' },
  { type: 'restoreInput', text: 'typed' },
  { type: 'focusInput' },
];

const invalidHost: Array<[string, unknown]> = [
  ['no type', { state }],
  ['unknown type', { type: 'evalScript', code: 'x' }],
  ['state missing fields', { type: 'state', state: { ...state, hasKey: undefined } }],
  ['state temperature out of range', { type: 'state', state: { ...state, temperature: 3 } }],
  ['streamStart without model', { type: 'streamStart', messageId: 'msg_001' }],
  ['streamChunk text not a string', { type: 'streamChunk', messageId: 'msg_001', offset: 0, text: 42 }],
  ['streamChunk negative offset', { type: 'streamChunk', messageId: 'msg_001', offset: -1, text: 'a' }],
  ['streamEnd bad status', { type: 'streamEnd', messageId: 'msg_001', status: 'done' }],
  ['streamStatus without text', { type: 'streamStatus', messageId: 'm' }],
  ['streamStatus text too long', { type: 'streamStatus', messageId: 'm', text: 'x'.repeat(1001) }],
  ['streamError unknown action', { type: 'streamError', messageId: 'm', error: { kind: 'server', message: 'x', actions: ['rm -rf'] } }],
  ['restoreInput no text', { type: 'restoreInput' }],
  ['not an object', 'state'],
  ['null', null],
];

const validWebview: unknown[] = [
  { type: 'ready' },
  { type: 'send', text: 'hello' },
  { type: 'stop' },
  { type: 'continue' },
  { type: 'retry' },
  { type: 'editLast' },
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
  { type: 'draft', text: 'half a question' },
];

const invalidWebview: Array<[string, unknown]> = [
  ['unknown type', { type: 'getApiKey' }],
  ['send empty text', { type: 'send', text: '' }],
  ['send without text', { type: 'send' }],
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
    for (const opt of HostMessageSchema.options) assert.ok(types.has(opt.shape.type.value), opt.shape.type.value);
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
    for (const opt of WebviewMessageSchema.options) assert.ok(types.has(opt.shape.type.value), opt.shape.type.value);
  });
  it('names the failing field', () => {
    const r = parseWebviewMessage({ type: 'setTemperature', value: 9 });
    assert.ok(!r.ok && r.error.startsWith('value:'), JSON.stringify(r));
  });
});
