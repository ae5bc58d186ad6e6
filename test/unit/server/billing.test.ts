import { strict as assert } from 'node:assert';
import { DEMO_KEY, EMPTY_KEY, LOW_KEY } from '../../server/fixtures';
import type { ReferenceServer } from '../../server/server';
import { get, parseSse, postChat, readAll, useServer, userMessage } from './helpers';

interface Credit {
  id: string;
  amount: number;
  usedAmount: number;
  expiresAt: string;
  extendedExpiresAt: string;
}
interface Balance {
  regularBalance: number;
  dailyBalance: number;
  totalBalance: number;
  hasDailyCredit: boolean;
  credits: Credit[];
  dailyCredit: { amount: number; grantedAmount: number; used: boolean };
}

async function balance(s: ReferenceServer, key = DEMO_KEY): Promise<Balance> {
  const res = await get(s, '/user/balance', key);
  assert.equal(res.status, 200);
  return ((await res.json()) as { balance: Balance }).balance;
}

async function chat(s: ReferenceServer, model: string, key = DEMO_KEY): Promise<Response> {
  return postChat(s, { ...userMessage('bill me'), model }, { key });
}

describe('reference server: billing', () => {
  const ctx = useServer();

  it('spends the daily credit before regular credits', async () => {
    const res = await chat(ctx.s, 'code-pro');
    const body = (await res.json()) as { creditsUsed: number; creditsRemaining: number };
    assert.deepEqual([body.creditsUsed, body.creditsRemaining], [3, 997]);
    const b = await balance(ctx.s);
    assert.deepEqual([b.dailyBalance, b.regularBalance, b.totalBalance], [47, 950, 997]);
    assert.equal(b.dailyCredit.amount, 47);
    assert.equal(b.dailyCredit.used, false);
  });

  it('moves on to regular credits when the daily credit runs out, soonest-expiring grant first', async () => {
    ctx.s.control.setBalance({
      key: DEMO_KEY,
      daily: 2,
      credits: [
        { amount: 10, expiresInDays: 30, type: 'purchase' },
        { amount: 10, expiresInDays: 3, type: 'bonus' },
        { amount: 10, expiresInDays: 90, type: 'purchase' },
      ],
    });
    const res = await chat(ctx.s, 'deep-think'); // cost 5: 2 daily + 3 from the grant expiring in 3 days
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { creditsRemaining: number }).creditsRemaining, 27);
    const b = await balance(ctx.s);
    assert.equal(b.dailyBalance, 0);
    assert.equal(b.dailyCredit.used, true);
    assert.deepEqual(b.credits.map((c) => c.usedAmount), [0, 3, 0]);
    assert.equal(b.regularBalance, 27);
  });

  it('spans grants in expiry order when one is not enough', async () => {
    ctx.s.control.setBalance({
      key: DEMO_KEY,
      daily: 0,
      credits: [
        { amount: 10, expiresInDays: 20 },
        { amount: 4, usedAmount: 2, expiresInDays: 5 },
      ],
    });
    await (await chat(ctx.s, 'deep-think')).arrayBuffer();
    const b = await balance(ctx.s);
    assert.deepEqual(b.credits.map((c) => c.usedAmount), [3, 4]);
    assert.equal(b.totalBalance, 7);
  });

  it('orders grants by their extended expiry', async () => {
    ctx.s.control.setBalance({
      key: DEMO_KEY,
      daily: 0,
      credits: [
        { amount: 10, expiresInDays: 2, extendedByDays: 60 },
        { amount: 10, expiresInDays: 10 },
      ],
    });
    await (await chat(ctx.s, 'swift-chat')).arrayBuffer();
    const b = await balance(ctx.s);
    assert.deepEqual(b.credits.map((c) => c.usedAmount), [0, 1]);
  });

  it('ignores expired grants in the balance and when charging', async () => {
    ctx.s.control.setBalance({
      key: DEMO_KEY,
      daily: 0,
      credits: [
        { amount: 100, expiresInDays: -1 },
        { amount: 3, expiresInDays: 1 },
      ],
    });
    let b = await balance(ctx.s);
    assert.equal(b.regularBalance, 3);
    assert.equal(b.credits.length, 2, 'expired grants are still listed');
    const res = await chat(ctx.s, 'deep-think');
    assert.equal(res.status, 402);
    const err = (await res.json()) as Record<string, unknown>;
    assert.equal(err.creditsRemaining, 3);
    await (await chat(ctx.s, 'code-pro')).arrayBuffer();
    b = await balance(ctx.s);
    assert.deepEqual(b.credits.map((c) => c.usedAmount), [0, 3]);
    assert.equal(b.totalBalance, 0);
  });

  it('answers 402 INSUFFICIENT_CREDITS for the empty user, charging nothing', async () => {
    const res = await chat(ctx.s, 'swift-chat', EMPTY_KEY);
    assert.equal(res.status, 402);
    const err = (await res.json()) as Record<string, unknown>;
    assert.equal(err.code, 'INSUFFICIENT_CREDITS');
    assert.equal(err.success, false);
    assert.equal(err.creditsRemaining, 0);
    assert.equal(typeof err.error, 'string');
    assert.equal((await balance(ctx.s, EMPTY_KEY)).totalBalance, 0);
  });

  it('low user: 402 for a model above the balance, success below it, down to 0', async () => {
    assert.equal((await balance(ctx.s, LOW_KEY)).totalBalance, 2);
    const deep = await chat(ctx.s, 'deep-think', LOW_KEY);
    assert.equal(deep.status, 402);
    assert.equal(((await deep.json()) as { creditsRemaining: number }).creditsRemaining, 2);
    const ok = await chat(ctx.s, 'swift-chat', LOW_KEY);
    assert.equal(((await ok.json()) as { creditsRemaining: number }).creditsRemaining, 1);
    const ok2 = await chat(ctx.s, 'swift-chat', LOW_KEY);
    assert.equal(((await ok2.json()) as { creditsRemaining: number }).creditsRemaining, 0);
    const no = await chat(ctx.s, 'swift-chat', LOW_KEY);
    assert.equal(no.status, 402);
    await no.arrayBuffer();
  });

  it('streaming: 402 before any stream byte, and a stream charges once', async () => {
    const res402 = await postChat(ctx.s, { ...userMessage('x'), stream: true }, { key: EMPTY_KEY });
    assert.equal(res402.status, 402);
    assert.match(res402.headers.get('content-type') ?? '', /^application\/json/);
    await res402.arrayBuffer();

    const res = await postChat(ctx.s, { ...userMessage('x'), stream: true, model: 'code-pro' });
    assert.equal(res.status, 200);
    const { events, done } = parseSse((await readAll(res)).text);
    assert.ok(done);
    assert.equal(events[0].event, 'f');
    assert.equal((await balance(ctx.s)).totalBalance, 997);
  });

  it('bookingDelayMs: a streamed reply\'s charge is booked after its response ended, once', async () => {
    ctx.s.control.configure({ bookingDelayMs: 1000 });
    const res = await postChat(ctx.s, { ...userMessage('x'), stream: true, model: 'code-pro' });
    assert.equal(res.status, 200);
    assert.ok(parseSse((await readAll(res)).text).done);
    assert.equal((await balance(ctx.s)).totalBalance, 1000, 'not booked yet when the reply ended');
    let total = 1000;
    for (let i = 0; i < 100 && total === 1000; i++) {
      await new Promise((r) => setTimeout(r, 50));
      total = (await balance(ctx.s)).totalBalance;
    }
    assert.equal(total, 997, 'booked a moment later');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await balance(ctx.s)).totalBalance, 997, 'booked once');
  });

  it('setBalance with regular/daily replaces the balance; an unknown key becomes a user', async () => {
    ctx.s.control.setBalance({ key: 'sk-new-user-0000000000', regular: 7, daily: 3 });
    const b = await balance(ctx.s, 'sk-new-user-0000000000');
    assert.deepEqual([b.regularBalance, b.dailyBalance, b.totalBalance, b.hasDailyCredit], [7, 3, 10, true]);
    ctx.s.control.reset();
    const res = await get(ctx.s, '/user/balance', 'sk-new-user-0000000000');
    assert.equal(res.status, 401, 'reset forgets added users');
    await res.arrayBuffer();
  });
});
