import { strict as assert } from 'node:assert';
import { ChargeTracker, chargeDifference, turnCharge } from '../../../src/core';

function tracker(totals: Array<number | undefined>, start: number | undefined) {
  const calls: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  let current = start;
  const t = new ChargeTracker({
    fetchTotal: async () => {
      calls.push('fetch');
      current = totals.shift();
      return current;
    },
    currentTotal: () => current,
    log: (_msg, data) => logs.push(data),
    sleep: async (ms) => {
      calls.push(`sleep ${ms}`);
    },
    recheckMs: 3000,
  });
  return { t, calls, logs, setCurrent: (n: number) => (current = n) };
}

describe('credits add up: the charge of each reply', () => {
  it('turnCharge: reported wins; else the balance change; else unknown', () => {
    assert.deepEqual(turnCharge({ reported: 2, before: 10, after: 5, overlapped: false }), { charged: 2, pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 9, overlapped: false }), { charged: 1, pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 9, overlapped: true }), { pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 10, overlapped: false, expected: 1 }), { pending: true });
    assert.deepEqual(turnCharge({ before: 10, after: 10, overlapped: false }), { pending: false });
    assert.deepEqual(turnCharge({ reported: -1, before: 10, after: 7.5, overlapped: false }), { charged: 2.5, pending: false });
  });

  it('a non-streaming reply: creditsUsed is the charge, no balance request needed for it', async () => {
    const { t, calls } = tracker([], 100);
    t.begin('a');
    assert.deepEqual(await t.end('a', { reported: 5, expected: 5 }), { charged: 5, pending: false });
    assert.deepEqual(calls, []);
  });

  it('a streamed reply: the balance is fetched after the reply finished, and what it shows during the turn does not count', async () => {
    const { t, calls, setCurrent } = tracker([95], 100);
    t.begin('a');
    setCurrent(97); // an answer to a request made during the reply
    const c = await t.end('a', { expected: 5 });
    assert.deepEqual(calls, ['fetch']);
    assert.deepEqual(c, { charged: 5, pending: false });
  });

  it('the charge has not shown yet: fetched again a few seconds later, until it shows', async () => {
    const { t, calls } = tracker([100, 100, 99], 100);
    t.begin('a');
    const c = await t.end('a', { expected: 1 });
    assert.deepEqual(calls, ['fetch', 'sleep 3000', 'fetch', 'sleep 3000', 'fetch']);
    assert.equal(c.charged, 1);
  });

  it('two turns in flight: the balance change is not attributed to either', async () => {
    const { t } = tracker([90, 90], 100);
    t.begin('a');
    t.begin('b');
    assert.equal((await t.end('a', { expected: 5 })).charged, undefined);
    assert.equal((await t.end('b', { expected: 5 })).charged, undefined);
  });

  it('a difference between the expected cost and the charge is logged', async () => {
    const { t, logs } = tracker([97], 100);
    t.begin('a');
    await t.end('a', { expected: 1 });
    assert.deepEqual(logs, [{ expected: 1, charged: 3, difference: 2 }]);
    assert.equal(chargeDifference(1, 1), undefined);
    assert.equal(chargeDifference(undefined, 1), undefined);
  });
});
