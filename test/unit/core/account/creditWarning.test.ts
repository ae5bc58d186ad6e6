import { strict as assert } from 'node:assert';
import { affordableChatModels, affordableModels, canAfford, checkLowCredit, messagesLeft, outOfCreditsCard, type ModelLike } from '../../../../src/core';

describe('credit warnings', () => {
  it('counts the messages the balance pays', () => {
    assert.equal(messagesLeft(10, 1), 10);
    assert.equal(messagesLeft(0.3, 0.1), 3, 'no float rounding loss');
    assert.equal(messagesLeft(5, 0), undefined);
    assert.equal(messagesLeft(5, null), undefined);
  });

  it('warns once when the balance goes below N messages, and again only after a top-up', () => {
    let state = { below: false };
    const seen: boolean[] = [];
    for (const total of [20, 11, 10, 9.99, 8, 3, 50, 5, 4]) {
      const r = checkLowCredit(state, total, 1, 10);
      state = r.state;
      seen.push(r.warn);
    }
    assert.deepEqual(seen, [false, false, false, true, false, false, false, true, false]);
  });

  it('follows the model: a dearer model crosses sooner', () => {
    assert.equal(checkLowCredit({ below: false }, 50, 1, 10).warn, false);
    assert.equal(checkLowCredit({ below: false }, 50, 6, 10).warn, true);
  });

  it('does not warn when the balance or the price is unknown, or N is 0', () => {
    assert.deepEqual(checkLowCredit({ below: true }, undefined, 1, 10), { state: { below: true }, warn: false });
    assert.equal(checkLowCredit({ below: false }, 1, undefined, 10).warn, false);
    assert.equal(checkLowCredit({ below: false }, 1, 1, 0).warn, false);
  });

  it('refuses a message the balance cannot pay', () => {
    assert.equal(canAfford(0.5, 1), false);
    assert.equal(canAfford(1, 1), true);
  });

  it('lists the models the balance pays, cheapest first', () => {
    const models = [{ id: 'big', cost: 5 }, { id: 'free?', cost: null }, { id: 'small', cost: 0.5 }, { id: 'mid', cost: 2 }];
    assert.deepEqual(affordableModels(models, 2).map((m) => m.id), ['small', 'mid']);
    assert.deepEqual(affordableModels(models, 0.1), []);
  });

  const catalogue: ModelLike[] = [
    { valueId: 'big-chat', name: 'Big', type: 'text', costInCreditPerUse: 5, isActive: true },
    { valueId: 'swift-chat', name: 'Swift', type: 'text', costInCreditPerUse: 1, isActive: true },
    { valueId: 'cheap-chat', name: 'Cheap', type: 'text', costInCreditPerUse: 0.5, isActive: true },
    { valueId: 'old-chat', name: 'Old', type: 'text', costInCreditPerUse: 0.1, isActive: false },
    { valueId: 'pixels', name: 'Pixels', type: 'image', costInCreditPerUse: 0.1, isActive: true },
    { valueId: 'Bad_Id', name: 'Bad', type: 'text', costInCreditPerUse: 0.1, isActive: true },
  ];

  it('lists only the chat models the balance pays (not inactive, image or unusable ids), cheapest first', () => {
    assert.deepEqual(affordableChatModels(catalogue, 1).map((m) => m.id), ['cheap-chat', 'swift-chat']);
    assert.deepEqual(affordableChatModels(catalogue, 0.2), []);
  });

  it('shows the out-of-credits card only while the balance cannot pay the selected model', () => {
    assert.deepEqual(outOfCreditsCard(0.7, 'big-chat', 5, catalogue), { balance: 0.7, cost: 5, model: 'big-chat', affordable: 1 });
    assert.deepEqual(outOfCreditsCard(0, 'swift-chat', 1, catalogue), { balance: 0, cost: 1, model: 'swift-chat', affordable: 0 });
    assert.equal(outOfCreditsCard(5, 'big-chat', 5, catalogue), undefined);
    assert.equal(outOfCreditsCard(undefined, 'big-chat', 5, catalogue), undefined);
    assert.equal(outOfCreditsCard(0, 'mystery', null, catalogue), undefined);
  });
});
