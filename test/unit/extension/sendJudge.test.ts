// The one turn pipeline judges a send (TurnService as SendJudge): it alone reads the key, the model,
// its price, the balance and the instructions. The rule "cannot pay: fetch the balance, judge
// again" is in one place (TurnService), once per send, for judge() and for every surface's run().
import { strict as assert } from 'node:assert';
import { scriptedBackend } from '../../support/backend';
import { makeTurns } from '../../support/turns';

const KEY = 'sk-test-key-0123456789';
const reply = scriptedBackend([{ event: 'f', messageId: 'm' }, { event: '0', data: 'ok' }, { event: 'd', finishReason: 'stop' }]);

/** A pipeline whose balance is `balance` until a fetch finds `fetched` (credits bought since). */
function pipeline(balance: number, fetched = balance) {
  let total = balance;
  const made = makeTurns({ key: () => KEY, model: () => 'swift-chat', costOf: () => 1, balance: () => total, onFetch: () => (total = fetched), backend: reply });
  return { ...made, total: () => total };
}

describe('the one pipeline judges a send (TurnService as SendJudge, the chat panel\'s port)', () => {
  it('cannot pay: the balance is fetched again once, then judged again; credits bought since let the message go', async () => {
    const bought = pipeline(0.5, 5);
    const judged = await bought.turns.judge({ text: 'hello' });
    assert.deepEqual(judged.verdict, { kind: 'send' });
    assert.equal(bought.fetches(), 1);
    assert.equal(judged.facts.balance, 5, 'the verdict\'s facts are those read after the fetch');

    const poor = pipeline(0.5);
    const refused = await poor.turns.judge({ text: 'hello' });
    assert.ok(refused.verdict.kind === 'refuse' && refused.verdict.reason === 'cannotPay');
    assert.equal(poor.fetches(), 1, 'fetched once, not again');

    const paid = pipeline(3);
    assert.deepEqual((await paid.turns.judge({ text: 'hello' })).verdict, { kind: 'send' });
    assert.equal(paid.fetches(), 0, 'a balance that pays is not fetched');
  });

  it('the same rule, in the same place, for a surface\'s request (TurnService.run): one fetch', async () => {
    const poor = pipeline(0.5);
    const ran = await poor.turns.run({ surface: 'aichat', prompt: 'hello' }, { text: () => undefined, status: () => undefined }, new AbortController().signal);
    assert.ok(ran.kind === 'refused' && ran.reason === 'cannotPay');
    assert.equal(poor.fetches(), 1);
    const bought = pipeline(0.5, 5);
    const sent = await bought.turns.run({ surface: 'aichat', prompt: 'hello' }, { text: () => undefined, status: () => undefined }, new AbortController().signal);
    assert.equal(sent.kind, 'ran');
    assert.equal(bought.fetches(), 1);
  });
});
