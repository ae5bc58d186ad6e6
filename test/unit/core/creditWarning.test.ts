import { strict as assert } from 'node:assert';
import { affordableModels, canAfford, checkLowCredit, messagesLeft } from '../../../src/core';

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
});
