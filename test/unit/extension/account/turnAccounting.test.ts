// The one turn accounting of the panel, @aichat and the language model provider: every reply is
// recorded for Show Usage with the model that answered, a send that failed before any reply is not,
// and the price is taken off the balance shown at once (pending) until the service's figure shows it.
import { strict as assert } from 'node:assert';
import { runTurn, type ChatBackend, type PendingCharge, type SessionStreamEvent, type UsageRecord } from '../../../../src/core';
import { TurnAccounting } from '../../../../src/extension/account/turnAccounting';
import type { BalanceService } from '../../../../src/extension/account/balanceService';
import type { Logger } from '../../../../src/extension/platform/log';

/** The service's balance as GET /user/balance reports it, and what the accounting tells the balance service. */
function fakeBalance(start: number, holdFirstFetch?: Promise<void>) {
  const s = { service: start, fetches: 0, pending: [] as readonly PendingCharge[], remaining: [] as number[] };
  const balance = {
    async fetchTotal() {
      if (s.fetches++ === 0 && holdFirstFetch) await holdFirstFetch;
      return s.service;
    },
    get serviceTotal() {
      return s.service;
    },
    setPendingCharges(p: readonly PendingCharge[]) {
      s.pending = p;
    },
    setRemaining(n: number) {
      s.remaining.push(n);
      s.service = n;
    },
  };
  return { s, balance: balance as unknown as BalanceService };
}

const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function setup(start = 100, holdFirstFetch?: Promise<void>) {
  const { s, balance } = fakeBalance(start, holdFirstFetch);
  const records: UsageRecord[] = [];
  const turns = new TurnAccounting({
    balance,
    record: async (rec) => {
      records.push(rec);
    },
    logger: quiet,
    now: () => 1_000,
    recheckMs: [0, 0],
    startWaitMs: holdFirstFetch ? 5 : 50,
  });
  return { s, turns, records };
}

const events: SessionStreamEvent[] = [
  { event: 'f', messageId: 'srv' },
  { event: '0', data: 'Hello' },
  { event: 'e', finishReason: 'stop', isContinued: false },
  { event: 'd', finishReason: 'stop' },
];

/** A service that charges `cost` when it answers a streamed request (as the reference server does). */
function service(s: { service: number }, cost: number, fail?: Error): ChatBackend & { models: string[] } {
  const models: string[] = [];
  return {
    models,
    chat: async () => {
      throw new Error('not used');
    },
    chatStream: async (req) => {
      if (fail) throw fail;
      models.push(req.model);
      s.service -= cost;
      return Object.assign(
        (async function* () {
          yield* events;
        })(),
        { abort() {} },
      );
    },
  };
}

const messages = [{ role: 'user' as const, content: 'Hi' }];
const sink = { text() {}, status() {} };
/** One streamed turn through the pipeline's stream loop. */
const answer = (backend: ChatBackend, model = 'deep-think', stream = true) =>
  runTurn(backend, { messages, model, stream, temperature: 1 }, sink, new AbortController().signal, { baseUrl: 'http://127.0.0.1:8787' });

describe('turn accounting: every surface records its replies like the panel', () => {
  it('@aichat: the reply is recorded for Show Usage with the model that answered and its charge', async () => {
    const t = setup(100);
    const turn = t.turns.start('aichat', 'deep-think', 5);
    const backend = service(t.s, 5);
    const result = await answer(turn.backend(backend));
    assert.equal(result.ending, 'complete');
    const charge = await turn.settle(result);
    assert.deepEqual(charge, { charged: 5, pending: false });
    assert.deepEqual(t.records, [{ at: 1_000, model: 'deep-think', charged: 5, surface: 'aichat' }]);
  });

  it('the language model provider: the same record, and spending elsewhere before the turn is not its charge', async () => {
    const t = setup(100);
    t.s.service -= 10; // another window, before this turn: the balance shown (100) is stale
    const turn = t.turns.start('lm', 'swift-chat', 1);
    await turn.settle(await answer(turn.backend(service(t.s, 1)), 'swift-chat'));
    assert.deepEqual(t.records, [{ at: 1_000, model: 'swift-chat', charged: 1, surface: 'lm' }]);
  });

  it('a send that failed before any reply (402) is not recorded as a reply; the balance is brought up to date', async () => {
    const t = setup(3);
    const turn = t.turns.start('aichat', 'deep-think', 5);
    const refused = Object.assign(new Error('insufficient credits'), { kind: 'credits' });
    const result = await answer(turn.backend(service(t.s, 5, refused)));
    assert.equal(result.ending, 'failed');
    const fetchesBefore = t.s.fetches;
    assert.deepEqual(await turn.settle(result), { pending: false });
    assert.deepEqual(t.records, []);
    assert.equal(t.s.fetches, fetchesBefore + 1, 'the balance was fetched after the refusal');
    assert.deepEqual(t.s.pending, [], 'nothing taken off the balance shown');
  });

  it('the panel: recorded with the model that answered (the turn\'s result), not the one selected later', async () => {
    const t = setup(100);
    const turn = t.turns.start('panel', 'deep-think', 5, 'c1/msg_001');
    const charge = await turn.settle(await answer(turn.backend(service(t.s, 5))));
    assert.deepEqual(charge, { charged: 5, pending: false });
    assert.deepEqual(t.records, [{ at: 1_000, model: 'deep-think', charged: 5 }]);
  });

  it('the panel: a send refused before any reply is not a reply', async () => {
    const t = setup(100);
    const turn = t.turns.start('panel', 'deep-think', 5, 'c1/msg_001');
    const refused = Object.assign(new Error('The API key was rejected'), { kind: 'auth' });
    await turn.settle(await answer(turn.backend(service(t.s, 5, refused))));
    assert.deepEqual(t.records, []);
  });

  it('a non-streaming reply: creditsUsed and creditsRemaining are the service\'s own figures', async () => {
    const t = setup(100);
    const turn = t.turns.start('panel', 'code-pro', 3, 'c1/msg_003');
    const nonStreaming: ChatBackend = {
      chat: async () => ({ content: 'Answer', creditsUsed: 3, creditsRemaining: 97, model: 'code-pro' }),
      chatStream: async () => {
        throw new Error('not used');
      },
    };
    const charge = await turn.settle(await answer(turn.backend(nonStreaming), 'code-pro', false));
    assert.deepEqual(charge, { charged: 3, pending: false });
    assert.deepEqual(t.s.remaining, [97]);
    assert.deepEqual(t.records, [{ at: 1_000, model: 'code-pro', charged: 3 }]);
  });

  it('the balance at turn start did not come in time: the reply is recorded with its charge marked approximate', async () => {
    let release: (() => void) | undefined;
    // The answer to the turn-start request comes only after the reply's request went out.
    const t = setup(100, new Promise<void>((r) => (release = r)));
    const turn = t.turns.start('lm', 'swift-chat', 1);
    const result = await answer(turn.backend(service(t.s, 1)), 'swift-chat');
    release?.();
    await turn.settle(result);
    assert.deepEqual(t.records, [{ at: 1_000, model: 'swift-chat', charged: 1, approximate: true, surface: 'lm' }]);
  });

  it('at the end of a reply the price is taken off at once, pending, until the service\'s figure shows the charge', async () => {
    const t = setup(100);
    // A service that books the charge a moment after the reply (the status bar must not wait for it).
    const backend: ChatBackend = {
      chat: async () => {
        throw new Error('not used');
      },
      chatStream: async () => Object.assign((async function* () { yield* events; })(), { abort() {} }),
    };
    const turn = t.turns.start('aichat', 'deep-think', 5);
    const ended = turn.settle(await answer(turn.backend(backend)));
    // Synchronously at the end: pending, before any balance answer.
    assert.deepEqual(t.s.pending, [{ amount: 5, before: 100 }]);
    t.s.service = 95; // booked
    assert.deepEqual(await ended, { charged: 5, pending: false });
    assert.deepEqual(t.s.pending, [], 'the service\'s figure replaced it');
  });
});
