// Every host -> webview message over a limit of the schema: the webview would drop it, and what
// the host posts (fitHostMessage) is cut to the limit instead, still parsed by the webview.
import { strict as assert } from 'node:assert';
import {
  MAX_CHIPS,
  MAX_INSTRUCTIONS_NAME,
  MAX_MODEL_ID,
  MAX_NOTICE,
  MAX_QUEUED,
  MAX_TEXT,
  clip,
  fitHostMessage,
  parseHostMessage,
  type ChatSettings,
  type HostMessage,
} from '../../../src/protocol';
import { MAX_ATTACHMENTS } from '../../../src/core/context/context';
import { MAX_PINS } from '../../../src/core/context/pins';

const settings: ChatSettings = {
  models: [{ valueId: 'swift-chat', name: 'Swift', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 1,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
};
const chip = (i: number, path = `src/f${i}.ts`) => ({ id: `ctx_${i}`, name: `f${i}.ts`, detail: '1 KB', icon: 'file', path });
const over = (n: number) => 'x'.repeat(n + 1);
const reply = { id: 'msg_001', role: 'assistant' as const, content: 'ok', status: 'complete' as const };

/** [name, message over its limit, where it is cut, what must be kept] */
const cases: Array<[string, HostMessage, (m: HostMessage) => void]> = [
  ['201 chips', { type: 'contextChips', chips: Array.from({ length: MAX_CHIPS + 1 }, (_, i) => chip(i)) }, (m) => assert.equal(m.type === 'contextChips' && m.chips.length, MAX_CHIPS)],
  ['a chip path over 2,000 characters', { type: 'contextChips', chips: [chip(1, '/d'.repeat(1050))] }, (m) => assert.equal(m.type === 'contextChips' && m.chips[0].path.length, 2000)],
  ['a queued message over 10 M characters', { type: 'queue', items: [{ id: 'q1', text: over(MAX_TEXT), cost: 1 }], state: 'waiting' }, (m) => assert.equal(m.type === 'queue' && m.items[0].text.length, MAX_TEXT)],
  ['more than 1,000 queued messages', { type: 'queue', items: Array.from({ length: MAX_QUEUED + 1 }, (_, i) => ({ id: `q${i}`, text: 't' })), state: 'waiting' }, (m) => assert.equal(m.type === 'queue' && m.items.length, MAX_QUEUED)],
  ['a queue reason over 1,000 characters', { type: 'queue', items: [{ id: 'q1', text: 't' }], state: 'stopped', reason: over(MAX_NOTICE) }, (m) => assert.equal(m.type === 'queue' && m.reason?.length, MAX_NOTICE)],
  ['an address notice of a 923-character workspace address', { type: 'settings', settings: { ...settings, addressNotice: over(MAX_NOTICE) } }, (m) => assert.equal(m.type === 'settings' && m.settings.addressNotice?.length, MAX_NOTICE)],
  ['an instructions file name over 300 characters', { type: 'settings', settings: { ...settings, instructions: { name: over(MAX_INSTRUCTIONS_NAME), active: true, off: false, text: 'x' } } }, (m) => assert.equal(m.type === 'settings' && m.settings.instructions?.name.length, MAX_INSTRUCTIONS_NAME)],
  ['an instructions line over 1,000 characters', { type: 'settings', settings: { ...settings, instructions: { name: 'AGENTS.md', active: true, off: false, text: over(MAX_NOTICE) } } }, (m) => assert.equal(m.type === 'settings' && m.settings.instructions?.text.length, MAX_NOTICE)],
  ['an out-of-credits model over 200 characters', { type: 'settings', settings: { ...settings, outOfCredits: { balance: 0, cost: 1, model: over(MAX_MODEL_ID), affordable: 0 } } }, (m) => assert.equal(m.type === 'settings' && m.settings.outOfCredits?.model.length, MAX_MODEL_ID)],
  ['a retry notice over 1,000 characters', { type: 'streamStatus', messageId: 'msg_001', text: over(MAX_NOTICE), version: 3 }, (m) => assert.equal(m.type === 'streamStatus' && m.text.length, MAX_NOTICE)],
  ['a stream chunk over 10 M characters', { type: 'streamChunk', messageId: 'msg_001', offset: 0, text: over(MAX_TEXT), version: 3 }, (m) => assert.equal(m.type === 'streamChunk' && m.text.length, MAX_TEXT)],
  ['text put back into the box over 10 M characters', { type: 'restoreInput', text: over(MAX_TEXT) }, (m) => assert.equal(m.type === 'restoreInput' && m.text.length, MAX_TEXT)],
  ['a prompt over 10 M characters', { type: 'insertPrompt', text: over(MAX_TEXT) }, (m) => assert.equal(m.type === 'insertPrompt' && m.text.length, MAX_TEXT)],
  ['a conversation notice over 1,000 characters', { type: 'conversation', conversation: { id: 'c', title: 't', messages: [reply] }, status: { busy: false }, version: 2, notice: over(MAX_NOTICE) }, (m) => assert.equal(m.type === 'conversation' && m.notice?.length, MAX_NOTICE)],
  ['a reply note over 500 characters', { type: 'turnEnded', message: { ...reply, meta: { model: 'm', note: over(500) } }, status: { busy: false }, version: 4 }, (m) => assert.equal(m.type === 'turnEnded' && m.message.meta?.note?.length, 500)],
];

describe('protocol: host messages over their limits', () => {
  for (const [name, message, check] of cases) {
    it(`${name}: refused by the webview's parser, cut to the limit by the host`, () => {
      assert.equal(parseHostMessage(message).ok, false, 'over the limit, the webview drops it');
      const fitted = fitHostMessage(message);
      assert.ok(fitted.ok, fitted.ok ? '' : fitted.error);
      if (!fitted.ok) return;
      assert.ok(fitted.cut.length > 0, 'says what was cut');
      assert.equal(parseHostMessage(fitted.message).ok, true, 'the cut message is accepted');
      check(fitted.message);
    });
  }

  it('shows every chip the next message can hold: its attachments and the conversation\'s pins together', () => {
    // The chips' message is cut at MAX_CHIPS; a full message (attachments at their limit) in a
    // conversation with every pin it may keep must not reach the cut.
    assert.ok(MAX_ATTACHMENTS + MAX_PINS <= MAX_CHIPS, `${MAX_ATTACHMENTS} attachments + ${MAX_PINS} pins > ${MAX_CHIPS} chips`);
    const full: HostMessage = { type: 'contextChips', chips: Array.from({ length: MAX_ATTACHMENTS + MAX_PINS }, (_, i) => chip(i)) };
    assert.equal(parseHostMessage(full).ok, true);
  });

  it('leaves a message within its limits as it is', () => {
    const m: HostMessage = { type: 'queue', items: [{ id: 'q1', text: 'hello', cost: 1 }], state: 'waiting' };
    const fitted = fitHostMessage(m);
    assert.ok(fitted.ok);
    if (fitted.ok) {
      assert.deepEqual(fitted.message, m);
      assert.deepEqual(fitted.cut, []);
    }
  });

  it('refuses, with the reason, what cutting cannot fix (a negative price in a reply)', () => {
    const fitted = fitHostMessage({ type: 'turnEnded', message: { ...reply, meta: { model: 'm', credits: -1 } }, status: { busy: false }, version: 1 });
    assert.equal(fitted.ok, false);
    if (!fitted.ok) assert.match(fitted.error, /credits/);
  });

  it('clip marks a cut string and keeps it at the limit', () => {
    assert.equal(clip('abc', 3), 'abc');
    assert.equal(clip('abcd', 3), 'ab…');
  });
});
