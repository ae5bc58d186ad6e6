import { strict as assert } from 'node:assert';
import { computeStatusBarState, totalCredits, type BalanceLike } from '../../../../src/core';

const now = new Date('2026-11-21T12:00:00Z');
const demo: BalanceLike = {
  regularBalance: 950,
  dailyBalance: 50,
  totalBalance: 1000,
  hasDailyCredit: true,
  credits: [
    { amount: 700, usedAmount: 0, expiresAt: '2027-06-01T00:00:00Z' },
    { amount: 300, usedAmount: 50, expiresAt: '2026-11-25T00:00:00Z' },
  ],
  dailyCredit: { grantedAmount: 50, amount: 50, used: false, grantedDate: '2026-11-21' },
};

describe('status bar state', () => {
  it('asks for a key when there is none', () => {
    const s = computeStatusBarState({ hasKey: false, loading: false, now });
    assert.equal(s.text, '$(key) Set API Key');
    assert.equal(s.background, undefined);
    assert.match(s.accessibilityLabel, /Set API Key/);
  });

  it('shows loading before the first balance', () => {
    const s = computeStatusBarState({ hasKey: true, loading: true, now });
    assert.equal(s.text, '$(sync~spin) Credits');
  });

  it('shows the total with en-US grouping and the accessibility label', () => {
    const s = computeStatusBarState({ hasKey: true, loading: false, balance: demo, selectedModel: 'swift-chat', selectedModelCost: 1, now, lastUpdated: now, formatTime: () => '12:00' });
    assert.equal(s.text, '$(credit-card) 1,000 credits');
    assert.equal(s.accessibilityLabel, 'AI Chat credits: 1,000');
    assert.equal(s.background, undefined);
    assert.match(s.tooltip, /Regular 950 · Daily 50/);
    assert.match(s.tooltip, /Daily credit not used yet/);
    assert.match(s.tooltip, /- 250 of 300 expires 2026\\-11\\-25 \\\(in 4 days\\\)/);
    assert.match(s.tooltip, /Last updated 12:00/);
    // soonest expiry listed first
    assert.ok(s.tooltip.indexOf('2026\\-11\\-25') < s.tooltip.indexOf('2027\\-06\\-01'));
  });

  it('a finished reply\'s price is taken off at once and marked pending until the service\'s figure shows it', () => {
    const s = computeStatusBarState({ hasKey: true, loading: true, balance: demo, pendingCharge: 5, selectedModel: 'deep-think', selectedModelCost: 5, now });
    assert.equal(s.text, '$(credit-card) 995 credits*');
    assert.equal(s.accessibilityLabel, "AI Chat credits: 995 (last reply's charge not yet confirmed)");
    assert.match(s.tooltip, /\*\*Total:\*\* 995 credits\\\*/);
    assert.match(s.tooltip, /5 credits for the last reply taken off; the service has not confirmed the new balance yet/);
    // Confirmed: the service's figure, no mark.
    const confirmed = computeStatusBarState({ hasKey: true, loading: false, balance: { ...demo, totalBalance: 995 }, now });
    assert.equal(confirmed.text, '$(credit-card) 995 credits');
    assert.doesNotMatch(confirmed.tooltip, /not confirmed/);
  });

  it('the pending price counts for the low-balance sign', () => {
    const s = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 12 }, pendingCharge: 5, selectedModel: 'deep-think', selectedModelCost: 5, lowCreditMessages: 10, now });
    assert.equal(s.text, '$(warning) 7 credits*');
    assert.match(s.accessibilityLabel, /low: 1 messages left/);
  });

  it('keeps the total while refreshing', () => {
    const s = computeStatusBarState({ hasKey: true, loading: true, balance: demo, now });
    assert.equal(s.text, '$(credit-card) 1,000 credits');
    assert.match(s.tooltip, /Refreshing/);
  });

  it('warns when the balance is below the selected model cost', () => {
    const s = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 2, regularBalance: 2, dailyBalance: 0 }, selectedModelCost: 5, now });
    assert.equal(s.text, '$(warning) 2 credits');
    assert.equal(s.background, 'warning');
    assert.match(s.tooltip, /Low balance: not enough/);
  });

  it('shows the sign without the warning colour below N messages of the selected model, and says how many are left', () => {
    const s = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 2 }, selectedModelCost: 1, now });
    assert.equal(s.background, undefined);
    assert.equal(s.text, '$(warning) 2 credits');
    assert.match(s.tooltip, /Low balance: 2 more messages of the selected model \\?\(the warning starts below 10/);
    assert.match(s.accessibilityLabel, /low: 2 messages left/);
    // At N messages exactly, and with N = 0 (turned off), no sign.
    const atN = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 30 }, selectedModelCost: 3, now, lowCreditMessages: 10 });
    assert.equal(atN.text, '$(credit-card) 30 credits');
    const off = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 2 }, selectedModelCost: 1, now, lowCreditMessages: 0 });
    assert.equal(off.text, '$(credit-card) 2 credits');
    assert.doesNotMatch(off.tooltip, /Low balance/);
    // A dearer model makes the same balance low; an unknown price never does.
    const dear = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 30 }, selectedModelCost: 5, now, lowCreditMessages: 10 });
    assert.match(dear.tooltip, /6 more messages/);
    const unknown = computeStatusBarState({ hasKey: true, loading: false, balance: { totalBalance: 3 }, selectedModelCost: null, now });
    assert.equal(unknown.text, '$(credit-card) 3 credits');
  });

  it('shows an error with the reason in the tooltip', () => {
    const s = computeStatusBarState({ hasKey: true, loading: false, balance: demo, error: 'connect ECONNREFUSED', now });
    assert.equal(s.text, '$(warning) Credits');
    assert.match(s.tooltip, /ECONNREFUSED/);
    assert.equal(s.background, 'warning');
  });

  it('sums regular and daily when the total is missing', () => {
    assert.equal(totalCredits({ regularBalance: 3, dailyBalance: 4 }), 7);
    assert.equal(totalCredits({}), 0);
  });

  it('escapes markdown in the error reason', () => {
    const s = computeStatusBarState({ hasKey: true, loading: false, error: '[click](command:x)', now });
    assert.ok(!s.tooltip.includes('[click](command:x)'));
  });
});
