// Pins (src/core/context/pins.ts): kept with the conversation in its log (a "p" record, the last
// one wins), across a reload, into a Fork and through a repair; a log written before pins has none.
import { strict as assert } from 'node:assert';
import {
  addPin, appendMessage, ConversationStore, createConversation, encodeLog, forkConversation, MAX_PINS, pinOf, rangeFromText, removePin,
  repairConversation, replayLog, textAttachment, type Pin,
} from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

const A: Pin = { kind: 'file', path: 'src/a.ts' };
const R: Pin = { kind: 'range', path: 'src/b.ts', startLine: 3, endLine: 5 };

describe('pins of a conversation', () => {
  it('a file or a range becomes a pin, once; Problems and the terminal do not', () => {
    assert.deepEqual(pinOf(textAttachment('c1', 'selection', 'src/b.ts', 'ts', 'x', 1, { start: 3, end: 5 })), R);
    assert.equal(pinOf(textAttachment('c2', 'terminal', 'bash', '', 'x', 1)), undefined);
    assert.deepEqual(addPin(addPin([A], R), { ...A }), [A, R]);
    assert.deepEqual(removePin([A, R], { ...R }), [A]);
    const many = Array.from({ length: MAX_PINS + 3 }, (_, i): Pin => ({ kind: 'file', path: `f${i}.ts` })).reduce<Pin[]>((ps, p) => addPin(ps, p), []);
    assert.equal(many.length, MAX_PINS);
  });

  it('a pinned range is read from the text as it is now: the same lines, cut at the end of a shorter file', () => {
    const text = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    assert.equal(rangeFromText('p1', R, 'ts', text, 100)?.content, 'three\nfour\nfive\n');
    assert.equal(rangeFromText('p1', R, 'ts', 'one\ntwo\nthree\nfour', 100)?.content, 'three\nfour');
    assert.equal(rangeFromText('p1', R, 'ts', 'one\n', 100), undefined, 'its lines are gone');
  });

  it('survive a reload: saved with the conversation, changed and removed as "p" records', async () => {
    const storage = new MemoryConversationStorage();
    const store = new ConversationStore(storage);
    const conv = createConversation('conv-pins');
    conv.pins = [A];
    appendMessage(conv, 'user', 'hello');
    await store.save(conv);
    assert.deepEqual((await new ConversationStore(storage).load('conv-pins'))?.pins, [A]);
    conv.pins = [A, R];
    await store.save(conv);
    assert.deepEqual((await new ConversationStore(storage).load('conv-pins'))?.pins, [A, R]);
    delete conv.pins;
    await store.save(conv);
    const log = storage.data.get('conv-pins') ?? '';
    assert.equal(log.split('\n').filter((l) => l.startsWith('{"t":"p"')).length, 3, 'one record per change');
    assert.equal((await new ConversationStore(storage).load('conv-pins'))?.pins, undefined);
  });

  it('go with a Fork and a compacted log; a log written before pins opens without any', () => {
    const conv = createConversation('conv-f');
    conv.pins = [R];
    const q = appendMessage(conv, 'user', 'question');
    appendMessage(conv, 'assistant', 'answer');
    assert.deepEqual(forkConversation(conv, q.id, 'conv-g')?.pins, [R]);
    assert.deepEqual(replayLog(encodeLog(conv, ['k1', 'k2']))?.conv.pins, [R]);
    const old = encodeLog({ ...conv, pins: undefined }, ['k1', 'k2']);
    assert.ok(!old.includes('"t":"p"'));
    const replayed = replayLog(old);
    assert.ok(replayed && !('pins' in replayed.conv));
  });

  it('a repair keeps good pins and drops bad ones, never the conversation', () => {
    const conv = createConversation('conv-r');
    appendMessage(conv, 'user', 'question');
    const bad = { ...structuredClone(conv), title: 42, pins: [A] };
    assert.deepEqual(repairConversation(bad).conv?.pins, [A]);
    const worse = repairConversation({ ...bad, pins: [{ kind: 'folder', path: '' }] });
    assert.equal(worse.conv?.pins, undefined);
    assert.ok(worse.problems.includes('pins dropped'));
  });
});
