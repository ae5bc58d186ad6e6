// The chat panel joins the one turn pipeline: its sends are judged by TurnService through its port
// (SendJudge), which alone reads the key, the model, its price, the balance and the instructions.
// The rule "cannot pay: fetch the balance, judge again" is in one place (TurnService), once per
// send, for the panel and every other surface; the budget check and the queue's next message go
// through the gate too.
import { strict as assert } from 'node:assert';
import { messageTooLongError, selectContext, type ChatBackend, type GateVerdict, type SendJudge } from '../../../../src/core';
import type { HostMessage } from '../../../../src/protocol';
import { scriptedBackend } from '../../../support/backend';
import { makeController } from '../../../support/session';
import { makeTurns } from '../../../support/turns';

const KEY = 'sk-test-key-0123456789';
const reply = scriptedBackend([{ event: 'f', messageId: 'm' }, { event: '0', data: 'ok' }, { event: 'd', finishReason: 'stop' }]);
const tick = () => new Promise((r) => setTimeout(r, 5));

/** A pipeline whose balance is `balance` until a fetch finds `fetched` (credits bought since). */
function pipeline(balance: number, fetched = balance) {
  let total = balance;
  const made = makeTurns({ key: () => KEY, model: () => 'swift-chat', costOf: () => 1, balance: () => total, onFetch: () => (total = fetched), backend: reply });
  return { ...made, total: () => total };
}

/** The port, with every verdict it gave kept. */
function watched(turns: SendJudge): { port: SendJudge; verdicts: GateVerdict[] } {
  const verdicts: GateVerdict[] = [];
  return {
    verdicts,
    port: {
      judge: async (q) => {
        const judged = await turns.judge(q);
        verdicts.push(judged.verdict);
        return judged;
      },
      balance: () => turns.balance(),
      holdsKey: (text) => turns.holdsKey(text),
    },
  };
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

  it('the panel has no balance rule of its own: a send it cannot pay fetches the balance once, through the pipeline, and opens the card', async () => {
    const poor = pipeline(0.5);
    const posted: HostMessage[] = [];
    const t = makeController({ backend: reply, controller: { turns: poor.turns, post: (m) => posted.push(m) } });
    assert.equal(await t.controller.send('too dear'), 'refused');
    assert.equal(poor.fetches(), 1);
    assert.ok(posted.some((m) => m.type === 'restoreInput' && m.text === 'too dear'));
    assert.ok(t.controller.outOfCreditsOpen);

    const bought = pipeline(0.5, 5);
    const u = makeController({ backend: reply, controller: { turns: bought.turns } });
    assert.equal(await u.controller.send('now it goes'), 'sent');
    assert.equal(bought.fetches(), 1);
    assert.equal(u.session.conversation.messages.at(-1)?.content, 'ok');
  });

  it('the budget check is part of the gate: a message over the model\'s budget is refused by the pipeline\'s verdict, with the gate\'s wording', async () => {
    const { port, verdicts } = watched(pipeline(100).turns);
    const text = 'x'.repeat(4000);
    let sent = 0;
    const counting: ChatBackend = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: (req, opts) => {
        sent++;
        return reply.chatStream(req, opts);
      },
    };
    const t = makeController({
      backend: counting,
      contextBudget: () => 100,
      controller: { turns: port },
    });
    assert.equal(await t.controller.send(text), 'refused');
    assert.deepEqual(verdicts.map((v) => (v.kind === 'refuse' ? v.reason : v.kind)), ['overBudget']);
    assert.equal(sent, 0);
    assert.equal(t.session.conversation.messages.length, 0);
    const fit = selectContext({ systemPrompt: '', message: text, earlier: [], budget: 100 });
    assert.ok(!fit.ok);
    assert.equal(t.session.sendError?.message, messageTooLongError(fit).message);
  });

  it('the queue\'s next message goes through the gate: one the balance cannot pay holds the queue after one fetch', async () => {
    let release: () => void = () => undefined;
    const hold = new Promise<void>((r) => (release = r));
    let total = 5;
    const made = makeTurns({ key: () => KEY, model: () => 'swift-chat', costOf: () => 1, balance: () => total });
    const posted: HostMessage[] = [];
    const t = makeController({
      backend: scriptedBackend([{ event: 'f', messageId: 'm' }, { event: '0', data: 'ok' }, { event: 'd', finishReason: 'stop' }], { hold }),
      controller: { turns: made.turns, post: (m) => posted.push(m) },
    });
    const first = t.controller.send('first');
    await tick();
    assert.equal(await t.controller.send('second'), 'queued');
    total = 0; // the first reply spent the rest
    release();
    await first;
    for (let i = 0; i < 20 && !t.controller.outOfCreditsOpen; i++) await tick();
    const queue = posted.filter((m) => m.type === 'queue').at(-1);
    assert.ok(queue?.type === 'queue' && queue.state === 'stopped' && queue.items.length === 1, JSON.stringify(queue));
    assert.equal(made.fetches(), 1, 'the balance was fetched again once before the queue was held');
    assert.ok(t.controller.outOfCreditsOpen);
    assert.deepEqual(t.session.conversation.messages.filter((m) => m.role === 'user').map((m) => m.content), ['first']);
  });
});
