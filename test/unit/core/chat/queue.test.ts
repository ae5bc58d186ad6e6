import { strict as assert } from 'node:assert';
import {
  clearQueue, editQueued, emptyQueue, enqueue, queuedCost, removeQueued, restoreQueue, resumeQueue, stopQueue, takeNext,
  type MessageQueue, type QueuedMessage,
} from '../../../../src/core';

const msg = (i: number, cost: number | null = 1.5): QueuedMessage => ({ id: `q${i}`, text: `message ${i}\n${'x'.repeat(i * 37)}`, model: 'gpt-test', ...(cost === null ? {} : { cost }) });

function drain(q: MessageQueue): { queue: MessageQueue; sent: string[] } {
  const sent: string[] = [];
  for (;;) {
    const r = takeNext(q);
    q = r.queue;
    if (!r.next) return { queue: q, sent };
    sent.push(r.next.id);
  }
}

describe('message queue', () => {
  it('sends 300 queued messages in the order they were typed', () => {
    let q = emptyQueue();
    for (let i = 0; i < 300; i++) q = enqueue(q, msg(i));
    assert.equal(q.state, 'waiting');
    const { queue, sent } = drain(q);
    assert.deepEqual(sent, Array.from({ length: 300 }, (_, i) => `q${i}`));
    assert.equal(queue.state, 'idle');
    assert.equal(queue.items.length, 0);
  });

  it('ignores blank messages', () => {
    assert.equal(enqueue(emptyQueue(), { id: 'a', text: '  \n ', model: 'm' }).items.length, 0);
  });

  it('removes a message before it goes and keeps the others in order', () => {
    let q = [1, 2, 3].reduce((acc, i) => enqueue(acc, msg(i)), emptyQueue());
    q = removeQueued(q, 'q2');
    assert.deepEqual(drain(q).sent, ['q1', 'q3']);
    assert.equal(removeQueued(removeQueued(q, 'q1'), 'q3').state, 'idle');
  });

  it('sends the edited text, and an edit to empty removes the message', () => {
    let q = [1, 2].reduce((acc, i) => enqueue(acc, msg(i)), emptyQueue());
    q = editQueued(q, 'q1', 'changed');
    const first = takeNext(q);
    assert.equal(first.next?.text, 'changed');
    q = editQueued(first.queue, 'q2', '   ');
    assert.equal(q.items.length, 0);
  });

  it('a failure in the middle holds the rest, nothing is lost, and resume carries on in order', () => {
    let q = [1, 2, 3, 4].reduce((acc, i) => enqueue(acc, msg(i)), emptyQueue());
    const a = takeNext(q);
    assert.equal(a.next?.id, 'q1');
    // the reply to q1 fails with 402
    q = stopQueue(a.queue, 'Out of credits');
    assert.equal(q.state, 'stopped');
    assert.equal(q.reason, 'Out of credits');
    assert.equal(takeNext(q).next, undefined, 'a stopped queue sends nothing');
    assert.deepEqual(q.items.map((m) => m.id), ['q2', 'q3', 'q4']);
    // editing while stopped keeps it stopped
    q = editQueued(q, 'q3', 'edited while held');
    assert.equal(q.state, 'stopped');
    q = resumeQueue(q);
    assert.equal(q.state, 'waiting');
    assert.deepEqual(drain(q).sent, ['q2', 'q3', 'q4']);
  });

  it('new messages typed after a failure join the held queue without sending it', () => {
    let q = stopQueue(enqueue(emptyQueue(), msg(1)), 'Network error');
    q = enqueue(q, msg(2));
    assert.equal(q.state, 'stopped');
    assert.equal(takeNext(q).next, undefined);
  });

  it('clear drops everything; stopping an empty queue leaves it idle', () => {
    assert.deepEqual(clearQueue(), emptyQueue());
    assert.equal(stopQueue(emptyQueue(), 'Stopped').state, 'idle');
    assert.equal(resumeQueue(stopQueue(emptyQueue(), 'x')).state, 'idle');
  });

  it('survives a reload of the panel (as JSON) held as stopped, and drops malformed items', () => {
    let q = [1, 2].reduce((acc, i) => enqueue(acc, msg(i)), emptyQueue());
    q = enqueue(q, msg(3, null));
    // A message that takes the conversation's pins when it goes keeps saying so.
    q = enqueue(q, { ...msg(4), pins: true });
    const restored = restoreQueue(JSON.parse(JSON.stringify(q)));
    assert.equal(restored.state, 'stopped');
    assert.deepEqual(restored.items, q.items);
    assert.equal(restored.items.at(-1)?.pins, true);
    const hostile = restoreQueue({ items: [null, 5, { id: 'a' }, { id: 'b', text: 'ok', model: 'm', cost: 'NaN', pins: 'yes' }, { id: 'c', text: '', model: 'm' }], reason: 7 });
    assert.deepEqual(hostile.items, [{ id: 'b', text: 'ok', model: 'm' }]);
    assert.equal(hostile.reason, undefined);
    assert.deepEqual(restoreQueue('garbage'), emptyQueue());
    assert.deepEqual(restoreQueue({ items: [] }), emptyQueue());
  });

  it('adds up the cost of what is queued and counts unknown prices', () => {
    const q = [msg(1, 0.1), msg(2, 0.2), msg(3, null)].reduce(enqueue, emptyQueue());
    assert.deepEqual(queuedCost(q), { total: 0.3, unknown: 1 });
  });
});
