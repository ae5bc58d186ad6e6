import { strict as assert } from 'node:assert';
import { ChargeTracker, chargeDifference, pendingDeduction, turnCharge, type PendingCharge } from '../../../../src/core';

/** A tracker against a service balance the test moves; `shown` is what this window showed last. */
function tracker(opts: { service: number; shown?: number; startWaitMs?: number; recheckMs?: number[] }) {
  const calls: string[] = [];
  const logs: Array<{ msg: string; data: Record<string, unknown> }> = [];
  const pendingSeen: Array<readonly PendingCharge[]> = [];
  const s = {
    service: opts.service,
    shown: opts.shown ?? opts.service,
    fetchDelay: 0 as number,
    failFetch: false,
    sleeps: 0,
    onSleep: undefined as ((n: number) => void) | undefined,
  };
  const t = new ChargeTracker({
    fetchTotal: async () => {
      calls.push('fetch');
      // The service answers with its balance as it is when the request arrives.
      const value: number | undefined = s.failFetch ? undefined : s.service;
      if (s.fetchDelay > 0) await new Promise((r) => setTimeout(r, s.fetchDelay));
      if (value !== undefined) s.shown = value;
      return value;
    },
    currentTotal: () => s.shown,
    log: (msg, data) => logs.push({ msg, data }),
    sleep: async (ms) => {
      calls.push(`sleep ${ms}`);
      s.onSleep?.(++s.sleeps);
    },
    pendingChanged: (p) => pendingSeen.push(p),
    startWaitMs: opts.startWaitMs ?? 50,
    recheckMs: opts.recheckMs ?? [1000, 1000, 2000],
  });
  return { t, s, calls, logs, pendingSeen };
}

describe('credits add up: the charge of each reply', () => {
  it('turnCharge: reported wins; else the balance change; else the price as approximate; else unknown', () => {
    assert.deepEqual(turnCharge({ reported: 2, before: 10, after: 5, overlapped: false }), { charged: 2, pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 9, overlapped: false }), { charged: 1, pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 9, overlapped: true }), { pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 9, overlapped: true, expected: 1 }), { charged: 1, approximate: true, pending: false });
    assert.deepEqual(turnCharge({ before: 10, after: 10, overlapped: false, expected: 1 }), { pending: true });
    assert.deepEqual(turnCharge({ before: 10, after: 10, overlapped: false }), { pending: false });
    assert.deepEqual(turnCharge({ reported: -1, before: 10, after: 7.5, overlapped: false }), { charged: 2.5, pending: false });
    // Measured from the balance last shown (the fetch at turn start did not finish): approximate.
    assert.deepEqual(turnCharge({ before: 10, beforeExact: false, after: 9, overlapped: false, expected: 1 }), { charged: 1, approximate: true, pending: false });
  });

  it('a change larger than the price: the rest was spent elsewhere, and is not this reply\'s', () => {
    assert.deepEqual(turnCharge({ before: 100, beforeExact: true, after: 80, overlapped: false, expected: 10 }), { charged: 10, approximate: true, pending: false });
    // Less than the price: what the service took.
    assert.deepEqual(turnCharge({ before: 100, beforeExact: true, after: 96, overlapped: false, expected: 10 }), { charged: 4, pending: false });
  });

  it('probe p_charge: spending from another window before the turn is not counted (the balance is fetched at turn start)', async () => {
    // This window showed 100, fetched minutes ago.
    const { t, s, logs } = tracker({ service: 100, shown: 100 });
    s.service -= 10; // another window sends a message (10 credits)
    t.begin('conv/msg_001'); // this window's reply starts: the balance is fetched now
    await t.beforeSend('conv/msg_001'); // the reply's request goes out once that answer came
    s.service -= 10; // ...and is charged 10
    const c = await t.end('conv/msg_001', { expected: 10 });
    assert.deepEqual(c, { charged: 10, pending: false });
    assert.deepEqual(logs.filter((l) => /differs/.test(l.msg)), [], 'no difference from the price');
  });

  it('spending elsewhere during the turn is not counted as this reply\'s (its price, approximate)', async () => {
    const { t, s, logs } = tracker({ service: 100 });
    t.begin('a');
    await t.beforeSend('a');
    s.service -= 10; // this reply
    s.service -= 10; // another window, meanwhile
    const c = await t.end('a', { expected: 10 });
    assert.deepEqual(c, { charged: 10, approximate: true, pending: false });
    assert.ok(logs.some((l) => /approximate/.test(l.msg)), 'logged as approximate');
  });

  it('the fetch at turn start did not finish before the request went out: measured from the balance shown, marked approximate', async () => {
    const { t, s } = tracker({ service: 100, shown: 100, startWaitMs: 5 });
    s.fetchDelay = 40; // slower than the wait
    s.service -= 10; // spent elsewhere, not yet shown
    t.begin('a');
    await t.beforeSend('a');
    s.service -= 10;
    s.fetchDelay = 0;
    const c = await t.end('a', { expected: 10 });
    assert.deepEqual(c, { charged: 10, approximate: true, pending: false });
  });

  it('the fetch at turn start failed: measured from the balance shown, marked approximate', async () => {
    const { t, s } = tracker({ service: 100, shown: 100 });
    s.failFetch = true;
    t.begin('a');
    await t.beforeSend('a');
    s.failFetch = false;
    s.service -= 3;
    assert.deepEqual(await t.end('a', { expected: 3 }), { charged: 3, approximate: true, pending: false });
  });

  it('a non-streaming reply: creditsUsed is the charge, no balance request after it, nothing pending', async () => {
    const { t, calls, pendingSeen } = tracker({ service: 100 });
    t.begin('a');
    await t.beforeSend('a');
    assert.deepEqual(await t.end('a', { reported: 5, expected: 5 }), { charged: 5, pending: false });
    assert.deepEqual(calls, ['fetch'], 'only the fetch at turn start');
    assert.deepEqual(pendingSeen, []);
  });

  it('the charge has not shown yet: the price is pending, fetched again after 1 s, 1 s, 2 s until it shows', async () => {
    const { t, s, calls, pendingSeen } = tracker({ service: 100 });
    t.begin('a');
    await t.beforeSend('a');
    const realFetch = calls.length;
    // The service books it between the second and the third look.
    s.onSleep = (n) => {
      if (n === 2) s.service = 99;
    };
    const end = t.end('a', { expected: 1 });
    // At once, before any answer: the price is taken off the balance shown, pending.
    assert.deepEqual(pendingSeen[0], [{ amount: 1, before: 100 }]);
    assert.deepEqual(t.pendingCharges, [{ amount: 1, before: 100 }]);
    const c = await end;
    assert.equal(c.charged, 1);
    assert.deepEqual(calls.slice(realFetch), ['fetch', 'sleep 1000', 'fetch', 'sleep 1000', 'fetch']);
    assert.deepEqual(pendingSeen.at(-1), [], 'no longer pending once settled');
  });

  it('never shown: unknown after the last look, and no longer pending', async () => {
    const { t, pendingSeen } = tracker({ service: 100 });
    t.begin('a');
    await t.beforeSend('a');
    assert.deepEqual(await t.end('a', { expected: 1 }), { pending: false });
    assert.deepEqual(pendingSeen.at(-1), []);
  });

  it('two turns in flight: neither takes the other\'s charge (each counts its price, approximate)', async () => {
    const { t, s } = tracker({ service: 100 });
    t.begin('a');
    t.begin('b');
    await t.beforeSend();
    s.service = 90;
    assert.deepEqual(await t.end('a', { expected: 5 }), { charged: 5, approximate: true, pending: false });
    assert.deepEqual(await t.end('b', { expected: 5 }), { charged: 5, approximate: true, pending: false });
  });

  it('a turn abandoned before its request (refused, failed before any reply) does not make the next one approximate', async () => {
    const { t, s } = tracker({ service: 100 });
    t.begin('a');
    t.abandon('a');
    t.begin('b');
    await t.beforeSend('b');
    s.service = 95;
    assert.deepEqual(await t.end('b', { expected: 5 }), { charged: 5, pending: false });
  });

  it('a difference between the expected cost and the charge is logged', async () => {
    const { t, s, logs } = tracker({ service: 100 });
    t.begin('a');
    await t.beforeSend('a');
    s.service = 97;
    await t.end('a', { expected: 4 });
    assert.deepEqual(logs.filter((l) => /differs/.test(l.msg)).map((l) => l.data), [{ expected: 4, charged: 3, difference: -1 }]);
    assert.equal(chargeDifference(1, 1), undefined);
    assert.equal(chargeDifference(undefined, 1), undefined);
  });

  it('pendingDeduction: a price counts while the service\'s figure is not below the balance its turn started with', () => {
    assert.equal(pendingDeduction(100, [{ amount: 5, before: 100 }]), 5);
    assert.equal(pendingDeduction(95, [{ amount: 5, before: 100 }]), 0, 'the service shows the charge: nothing taken off twice');
    assert.equal(pendingDeduction(100, [{ amount: 5, before: 100 }, { amount: 1.5, before: 100 }]), 6.5);
    assert.equal(pendingDeduction(100, [{ amount: 2 }]), 2);
    assert.equal(pendingDeduction(100, []), 0);
  });
});
