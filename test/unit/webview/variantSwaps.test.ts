// Another variant of a reply shown (the pager, Retry with…): the transcript tells the page to swap
// only that reply, so a 300-turn conversation is not drawn again; any other change of a
// conversation still redraws it whole.
import assert from 'node:assert/strict';
import { parseHostMessage, type HostMessage, type MessageView } from '../../../src/protocol';
import { initialTranscript, reduce, variantSwaps } from '../../../src/webview/transcript';

const id = (n: number) => `msg_${n.toString(16).padStart(3, '0')}`;
const user = (n: number): MessageView => ({ id: id(n), role: 'user', content: `Question ${n}`, status: 'complete' });
const reply = (n: number, extra: Partial<MessageView> = {}): MessageView => ({ id: id(n), role: 'assistant', content: `Answer ${n}`, status: 'complete', meta: { model: 'swift-chat' }, ...extra });
const turns = (count: number): MessageView[] => Array.from({ length: count }, (_, t) => [user(2 * t), reply(2 * t + 1)]).flat();

function conversation(messages: MessageView[], version: number): HostMessage {
  const m: HostMessage = { type: 'conversation', conversation: { id: 'c1', title: 'A chat', messages }, status: { busy: false }, version };
  assert.ok(parseHostMessage(JSON.parse(JSON.stringify(m))).ok);
  return m;
}

describe('the transcript: another variant of a reply', () => {
  it('a reply in the middle of 300 turns shown in place of another: only it is swapped', () => {
    const before = turns(300);
    const shown = reduce(initialTranscript, conversation(before, 1)).state;
    const after = before.slice();
    after[301] = reply(0x700, { variant: { index: 2, count: 2 }, meta: { model: 'deep-think', credits: 5 } });
    const { state, effects } = reduce(shown, conversation(after, 2));
    assert.equal(effects[0].kind, 'swapped');
    assert.deepEqual(effects[0].kind === 'swapped' && effects[0].swaps, [{ from: id(301), message: after[301] }]);
    assert.equal(state.messages[301].id, id(0x700));
  });

  it('a changed view of the same message goes with it; any other change shows the conversation again', () => {
    const before = turns(3);
    const shown = reduce(initialTranscript, conversation(before, 1)).state;
    const after = before.slice();
    after[1] = reply(0x700, { variant: { index: 2, count: 2 } });
    after[3] = reply(3, { variant: { index: 1, count: 3 } });
    const swapped = variantSwaps(before, after);
    assert.deepEqual(swapped?.map((s) => s.from), [id(1), id(3)]);
    // A message more, a question changed, no variant at all: the whole conversation.
    assert.equal(variantSwaps(before, [...before, user(9)]), undefined);
    assert.equal(variantSwaps(before, [user(0x500), ...before.slice(1)]), undefined);
    assert.equal(variantSwaps(before, [before[0], reply(0x700), ...before.slice(2)]), undefined);
    assert.equal(reduce(shown, conversation([...before, user(9)], 2)).effects[0].kind, 'conversation');
  });
});

describe('the transcript: variantShown', () => {
  it('swaps the one reply; a reply not shown here asks for the whole state', () => {
    const shown = reduce(initialTranscript, conversation(turns(300), 1)).state;
    const message: MessageView = reply(0x700, { variant: { index: 1, count: 2 } });
    const { state, effects } = reduce(shown, { type: 'variantShown', from: id(301), message, version: 2 });
    assert.deepEqual(effects, [{ kind: 'swapped', swaps: [{ from: id(301), message }] }]);
    assert.equal(state.messages[301], message);
    assert.equal(state.messages.length, 600);
    const lost = reduce(state, { type: 'variantShown', from: id(301), message: reply(0x701), version: 3 });
    assert.deepEqual(lost.effects.map((e) => e.kind), ['resync']);
  });
});

describe('the transcript: a new variant starts', () => {
  it('its reply in place above already (variantShown), the turn that starts adds nothing, so the chat does not go to the end', () => {
    const shown = reduce(initialTranscript, conversation(turns(10), 1)).state;
    const streaming: MessageView = { id: id(0x700), role: 'assistant', content: '', status: 'streaming', variant: { index: 2, count: 2 } };
    const placed = reduce(shown, { type: 'variantShown', from: id(5), message: streaming, version: 2 }).state;
    const { state, effects } = reduce(placed, { type: 'turnStarted', user: user(4), assistant: streaming, status: { busy: true }, version: 3 });
    assert.deepEqual(effects.map((e) => e.kind), ['status']);
    assert.equal(state.messages.length, 20);
  });
});

describe('the transcript: branches and what is not shown', () => {
  it('another branch shown at a question draws the conversation again (its questions and turns change)', () => {
    const before = turns(10).map((m) => (m.id === id(4) ? { ...m, branch: { index: 2, count: 2 } } : m));
    const shown = reduce(initialTranscript, conversation(before, 1)).state;
    const after = [...turns(10).slice(0, 4), { ...user(0x600), branch: { index: 1, count: 2 } }, reply(0x601)];
    assert.equal(reduce(shown, conversation(after, 2)).effects[0].kind, 'conversation');
  });

  it('keeps the messages not shown for Find in chat; a variant shown in place of another trades places with it', () => {
    const m: HostMessage = {
      type: 'conversation',
      conversation: { id: 'c1', title: 'A chat', messages: turns(2), hidden: [{ id: id(0x700), role: 'assistant', content: 'Another answer', kind: 'variant' }] },
      status: { busy: false },
      version: 1,
    };
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify(m))).ok);
    const shown = reduce(initialTranscript, m).state;
    assert.deepEqual(shown.hidden.map((h) => h.id), [id(0x700)]);
    const message: MessageView = reply(0x700, { content: 'Another answer', variant: { index: 2, count: 2 } });
    const { state } = reduce(shown, { type: 'variantShown', from: id(1), message, version: 2 });
    assert.deepEqual(state.hidden, [{ id: id(1), role: 'assistant', content: 'Answer 1', kind: 'variant' }]);
    // Another conversation: its own.
    assert.deepEqual(reduce(state, conversation(turns(1), 3)).state.hidden, []);
  });
});
