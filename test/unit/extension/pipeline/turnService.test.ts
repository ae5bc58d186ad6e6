// The one turn pipeline (pipeline/common/turnService.ts) in plain Node, over the ports it reads
// (the in-memory ones of test/support/turns.ts, watched here) and, where a real stream matters,
// the reference server through the real client: what it reads for a send and when, the rule
// "cannot pay: fetch the balance, judge again", a surface's request refused, ran and settled, the
// system text it sends, the price it quotes and the queue state it hands to the gate.
import { strict as assert } from 'node:assert';
import { ChatServiceClient } from '../../../../src/client';
import {
  refusalView, selectContext, surfaceRequest,
  type ChatBackend, type ModelLike, type SendFacts, type SessionChatRequest, type TurnCharge, type TurnResult, type TurnSurface,
} from '../../../../src/core';
import { TurnService, type InstructionsPort, type SurfaceTurnResult, type TurnServiceDeps } from '../../../../src/extension/pipeline/common/turnService';
import { echoBackend } from '../../../support/backend';
import { makeTurns, type TurnsOptions } from '../../../support/turns';
import { DEMO_KEY, MODELS } from '../../../server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../../server/server';

const KEY = 'sk-test-key-0123456789';
const tick = () => new Promise((r) => setTimeout(r, 5));
const noSink = { text: () => undefined, status: () => undefined };
const signal = () => new AbortController().signal;
/** The models as the service lists them, with their prices. */
const models: readonly ModelLike[] = MODELS;
const costOf = (id: string) => models.find((m) => m.valueId === id)?.costInCreditPerUse ?? null;
const CHARGE: TurnCharge = { charged: 1, pending: false };

interface Start {
  surface: TurnSurface;
  model: string;
  expected: number | null | undefined;
  id?: string;
}

/**
 * The in-memory pipeline of test/support/turns.ts with each port watched: `log` names every read
 * in order (key, settings, cost <id>, balance, fetch, instructions, read instructions, start), the
 * accounting's starts, the results it settled and the requests that went out through its backend.
 */
function watched(opts: Partial<TurnsOptions> & { ready?: Promise<void> } = {}) {
  const made = makeTurns({ key: () => KEY, model: () => 'swift-chat', models: () => models, costOf, balance: () => 100, ...opts });
  const base = made.deps;
  const log: string[] = [];
  const starts: Start[] = [];
  const settled: TurnResult[] = [];
  const through: SessionChatRequest[] = [];
  const deps: TurnServiceDeps = {
    ...base,
    keys: {
      get: () => {
        log.push('key');
        return base.keys.get();
      },
      holds: (text) => base.keys.holds(text),
    },
    config: {
      get settings() {
        log.push('settings');
        return base.config.settings;
      },
    },
    models: {
      get models() {
        return base.models.models;
      },
      costOf: (id) => {
        log.push(`cost ${id}`);
        return base.models.costOf(id);
      },
    },
    balance: {
      get state() {
        log.push('balance');
        return base.balance.state;
      },
      fetchTotal: () => {
        log.push('fetch');
        return base.balance.fetchTotal();
      },
    },
    accounting: {
      start: (surface, model, expected, id) => {
        log.push('start');
        starts.push({ surface, model, expected, ...(id !== undefined ? { id } : {}) });
        return {
          backend: (inner: ChatBackend): ChatBackend => ({
            chat: (req, o) => inner.chat(req, o),
            chatStream: (req, o) => {
              through.push(req);
              return inner.chatStream(req, o);
            },
          }),
          settle: async (result) => {
            settled.push(result);
            return CHARGE;
          },
        };
      },
    },
    instructions: (): InstructionsPort => {
      log.push('instructions');
      const inner = base.instructions();
      return {
        ready: opts.ready ?? inner.ready,
        systemPrompt: (own) => {
          log.push('read instructions');
          return inner.systemPrompt(own);
        },
      };
    },
  };
  const count = (entry: string) => log.filter((e) => e === entry).length;
  return { turns: new TurnService(deps), log, count, starts, settled, through, fetches: made.fetches };
}

/** A promise settled from outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function refused(ran: SurfaceTurnResult): Extract<SurfaceTurnResult, { kind: 'refused' }> {
  assert.equal(ran.kind, 'refused', JSON.stringify(ran));
  return ran;
}

/** Settled once, with the turn's own result (the one run() returned), not a copy. */
function settledWith(settled: readonly TurnResult[], result: TurnResult): void {
  assert.equal(settled.length, 1, 'settled once');
  assert.equal(settled[0], result, 'with the result');
}

function systemOf(req: SessionChatRequest): string | undefined {
  const system = req.messages.filter((m) => m.role === 'system');
  assert.ok(system.length <= 1, 'one system message at most');
  return system[0]?.content;
}

describe('TurnService (pipeline/common): the one turn pipeline without VS Code', () => {
  describe('facts()', () => {
    it('reads the key, the model, its price, the balance and the instructions once each', async () => {
      const w = watched({ systemSetting: () => 'be brief', instructions: () => 'use tabs' });
      const facts = await w.turns.facts();
      const expected: SendFacts = {
        hasKey: true,
        model: 'swift-chat',
        cost: 1,
        balance: 100,
        systemSetting: 'be brief',
        instructions: 'use tabs',
        budget: facts.budget,
      };
      assert.deepEqual(facts, expected);
      for (const read of ['key', 'settings', 'cost swift-chat', 'balance', 'instructions', 'read instructions']) assert.equal(w.count(read), 1, `${read}: ${JSON.stringify(w.log)}`);
      assert.equal(w.log.length, 6, JSON.stringify(w.log));
      assert.equal(w.fetches(), 0, 'the balance as last read: no fetch');
    });

    it("a model named reads that model's price and budget (the model's max_tokens), not the selected one's", async () => {
      const w = watched();
      const code = await w.turns.facts('code-pro');
      const swift = await w.turns.facts();
      assert.equal(code.model, 'code-pro');
      assert.equal(code.cost, 3);
      assert.deepEqual(w.log.filter((e) => e.startsWith('cost ')), ['cost code-pro', 'cost swift-chat']);
      // swift-chat states max_tokens 4096; code-pro none, so the setting's context applies.
      assert.ok(swift.budget < 4096, `swift-chat's budget ${swift.budget}`);
      assert.ok(code.budget > swift.budget, `code-pro's budget ${code.budget} is the setting's`);
    });

    it("waits for the instructions' first read, and reads them only after it", async () => {
      const ready = deferred();
      const w = watched({ ready: ready.promise, instructions: () => 'from AGENTS.md' });
      let got: SendFacts | undefined;
      const done = () => got;
      const facts = w.turns.facts().then((f) => (got = f));
      await tick();
      assert.equal(done(), undefined, 'not before the instructions file was read');
      assert.equal(w.count('read instructions'), 0);
      ready.resolve();
      await facts;
      assert.equal(done()?.instructions, 'from AGENTS.md');
      assert.equal(w.count('read instructions'), 1);
    });

    it('no key, no model, an unknown or failed balance are facts too', async () => {
      assert.equal((await watched({ key: () => undefined }).turns.facts()).hasKey, false);
      const none = await watched({ model: () => '' }).turns.facts();
      assert.equal(none.model, '');
      assert.equal(none.cost, null, 'no model: no price');
      assert.equal((await watched({ balance: () => undefined }).turns.facts()).balance, undefined);
      const failed = makeTurns({ key: () => KEY, model: () => 'swift-chat', ports: { balance: { state: { balance: { totalBalance: 9 }, error: 'offline' }, fetchTotal: async () => undefined } } });
      assert.equal(failed.turns.balance(), undefined, 'a balance whose last read failed is not known');
    });
  });

  describe('cannot pay: the balance is fetched again, then judged again', () => {
    it('a refusal for credits comes only after the fetch, with the facts read after it', async () => {
      const w = watched({ balance: () => 0.5 });
      const judged = await w.turns.judge({ text: 'hello' });
      assert.ok(judged.verdict.kind === 'refuse' && judged.verdict.reason === 'cannotPay', JSON.stringify(judged.verdict));
      assert.equal(w.fetches(), 1);
      const fetch = w.log.indexOf('fetch');
      assert.ok(w.log.indexOf('key') < fetch && w.log.lastIndexOf('key') > fetch, `facts read before and after the fetch: ${JSON.stringify(w.log)}`);
      assert.equal(w.count('key'), 2);
    });

    it('credits bought since: the send after the fetch goes, with the balance fetched', async () => {
      let total = 0.5;
      const requests: SessionChatRequest[] = [];
      const w = watched({ balance: () => total, onFetch: () => (total = 5), backend: echoBackend(requests) });
      const judged = await w.turns.judge({ text: 'hello' });
      assert.deepEqual(judged.verdict, { kind: 'send' });
      assert.equal(judged.facts.balance, 5);

      total = 0.5;
      const ran = await w.turns.run({ surface: 'aichat', prompt: 'hello' }, noSink, signal());
      assert.equal(ran.kind, 'ran');
      assert.equal(w.fetches(), 2, 'one fetch for each');
      assert.ok(w.log.indexOf('start') > w.log.lastIndexOf('fetch'), 'the turn starts after the fetch');
      assert.equal(requests.length, 1);
    });

    it('a balance that pays, or a refusal for another reason, fetches nothing', async () => {
      const paid = watched({ balance: () => 3 });
      assert.deepEqual((await paid.turns.judge({ text: 'hello' })).verdict, { kind: 'send' });
      const noKey = watched({ key: () => undefined, balance: () => 0 });
      assert.equal(refused(await noKey.turns.run({ surface: 'edit', prompt: 'x' }, noSink, signal())).reason, 'noKey');
      assert.equal(paid.fetches() + noKey.fetches(), 0);
    });
  });

  describe('run(): a surface\'s request', () => {
    const cases: Array<{ name: string; opts: Partial<TurnsOptions>; prompt: string; budget?: number; reason: string }> = [
      { name: 'no key', opts: { key: () => undefined }, prompt: 'hello', reason: 'noKey' },
      { name: 'no model', opts: { model: () => '' }, prompt: 'hello', reason: 'noModel' },
      { name: 'a prompt holding the key', opts: {}, prompt: `my key is ${KEY}`, reason: 'holdsKey' },
      { name: 'the system prompt holding the key', opts: { systemSetting: () => `key ${KEY}` }, prompt: 'hello', reason: 'systemPromptHoldsKey' },
    ];
    for (const c of cases) {
      it(`${c.name}: refused with the gate's reason and error; nothing started or sent`, async () => {
        const requests: SessionChatRequest[] = [];
        const w = watched({ ...c.opts, backend: echoBackend(requests) });
        const ran = refused(await w.turns.run({ surface: 'fix', prompt: c.prompt }, noSink, signal()));
        assert.equal(ran.reason, c.reason);
        const facts = await w.turns.facts();
        assert.deepEqual(ran.error, refusalView(ran.reason, { text: c.prompt, model: facts.model, models, cost: facts.cost, balance: facts.balance }));
        assert.deepEqual(w.starts, []);
        assert.deepEqual(requests, []);
      });
    }

    it("over budget: refused with the gate's reason and error (the request that does not fit the budget given)", async () => {
      const requests: SessionChatRequest[] = [];
      const w = watched({ backend: echoBackend(requests) });
      const prompt = 'word '.repeat(400);
      const ran = refused(await w.turns.run({ surface: 'explain', prompt, budget: 50 }, noSink, signal()));
      assert.equal(ran.reason, 'overBudget');
      const facts = await w.turns.facts();
      const gate = surfaceRequest({ prompt, system: '', budget: 50, gate: { ...facts, holdsKey: () => false, models } });
      assert.ok(gate.verdict.kind === 'refuse');
      assert.deepEqual(ran.error, gate.verdict.error);
      assert.deepEqual(w.starts, []);
      assert.deepEqual(requests, []);
      // The same prompt within the model's own budget goes.
      assert.equal((await w.turns.run({ surface: 'explain', prompt }, noSink, signal())).kind, 'ran');
    });

    it('ran: the accounting started for that surface, model and price; the request went through it; settled with the result', async () => {
      const requests: SessionChatRequest[] = [];
      const w = watched({ backend: echoBackend(requests, () => 'the answer') });
      const shown: string[] = [];
      const ran = await w.turns.run({ surface: 'commit', prompt: 'describe the change', model: 'code-pro' }, { text: (t) => shown.push(t), status: () => undefined }, signal());
      assert.ok(ran.kind === 'ran');
      assert.deepEqual(w.starts, [{ surface: 'commit', model: 'code-pro', expected: 3 }]);
      assert.equal(w.through.length, 1, "the request went out through the accounting's backend");
      assert.equal(requests[0].model, 'code-pro');
      assert.equal(requests[0].stream, true);
      assert.equal(requests[0].temperature, 1);
      assert.equal(ran.result.text, 'the answer');
      assert.equal(shown.join(''), 'the answer');
      settledWith(w.settled, ran.result);
      assert.deepEqual(await ran.charge, CHARGE, "the charge is the accounting's");
    });

    it('the search setting goes with the request only when it is on', async () => {
      const requests: SessionChatRequest[] = [];
      const on = makeTurns({ key: () => KEY, model: () => 'deep-think', models: () => models, costOf, balance: () => 100, backend: echoBackend(requests) });
      const settings = on.deps.config.settings;
      const searching = makeTurns({ key: () => KEY, model: () => 'deep-think', models: () => models, costOf, balance: () => 100, backend: echoBackend(requests), ports: { config: { settings: { ...settings, search: true, temperature: 0.3 } } } });
      await on.turns.run({ surface: 'aichat', prompt: 'a' }, noSink, signal());
      await searching.turns.run({ surface: 'aichat', prompt: 'b' }, noSink, signal());
      assert.equal(requests[0].search, undefined);
      assert.equal(requests[1].search, true);
      assert.equal(requests[1].temperature, 0.3);
    });

    it("the user's system prompt and the project instructions come first, the surface's own system text after them", async () => {
      const requests: SessionChatRequest[] = [];
      const w = watched({ systemSetting: () => 'USER RULES', instructions: () => 'PROJECT RULES', backend: echoBackend(requests) });
      await w.turns.run({ surface: 'edit', prompt: 'rename x', system: 'SURFACE RULES' }, noSink, signal());
      assert.equal(systemOf(requests[0]), 'USER RULES\n\nPROJECT RULES\n\nSURFACE RULES');
      await w.turns.run({ surface: 'edit', prompt: 'rename y' }, noSink, signal());
      assert.equal(systemOf(requests[1]), 'USER RULES\n\nPROJECT RULES');
    });

    it("ownInstructionsOnly: neither the user's system prompt nor the project instructions are sent, nor judged", async () => {
      const requests: SessionChatRequest[] = [];
      const w = watched({ systemSetting: () => 'USER RULES', instructions: () => `PROJECT RULES ${KEY}`, backend: echoBackend(requests) });
      const ran = await w.turns.run({ surface: 'lm', prompt: 'hi', system: 'CALLER RULES', ownInstructionsOnly: true }, noSink, signal());
      assert.equal(ran.kind, 'ran', 'instructions not sent are not refused for the key they hold');
      assert.equal(systemOf(requests[0]), 'CALLER RULES');
      const sent = JSON.stringify(requests[0].messages);
      assert.ok(!sent.includes('USER RULES') && !sent.includes('PROJECT RULES'), sent);
      await w.turns.run({ surface: 'lm', prompt: 'hi', ownInstructionsOnly: true }, noSink, signal());
      assert.equal(systemOf(requests[1]), undefined, 'no system message at all');
      // Without it, the same instructions are sent, and refused for the key.
      assert.equal(refused(await w.turns.run({ surface: 'lm', prompt: 'hi' }, noSink, signal())).reason, 'instructionsHoldKey');
    });

    it('the surface\'s own system text is judged like the message: one that holds the key is refused', async () => {
      const w = watched();
      assert.equal(refused(await w.turns.run({ surface: 'terminal', prompt: 'hi', system: `use ${KEY}` }, noSink, signal())).reason, 'holdsKey');
      assert.equal(refused(await w.turns.run({ surface: 'terminal', prompt: 'hi', also: [`file with ${KEY}`] }, noSink, signal())).reason, 'holdsKey');
    });
  });

  describe('run() against the reference server (the real client and stream)', () => {
    let srv: ReferenceServer;
    let client: ChatServiceClient;
    before(async () => {
      srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
      client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, maxRetries: 0 });
    });
    after(async () => {
      await client.close();
      await srv.close();
    });
    beforeEach(() => srv.control.reset());

    it('streams the reply into the sink, sends the system text and the prompt, and settles with the result', async () => {
      const w = watched({ key: () => DEMO_KEY, model: () => 'code-pro', systemSetting: () => 'be brief', ports: { clients: { get: () => client } } });
      const chunks: string[] = [];
      const ran = await w.turns.run({ surface: 'aichat', prompt: 'hello there len:600', system: 'answer in English' }, { text: (t) => chunks.push(t), status: () => undefined }, signal());
      assert.ok(ran.kind === 'ran');
      assert.equal(ran.result.ending, 'complete');
      assert.ok(chunks.length > 1, `streamed in parts: ${chunks.length}`);
      assert.equal(chunks.join(''), ran.result.text);
      assert.match(ran.result.text, /hello there/, 'the reply quotes the prompt');
      const chats = srv.control.requests().filter((r) => r.path === '/chat');
      assert.equal(chats.length, 1);
      const body = JSON.stringify(chats[0].body);
      assert.ok(body.includes('be brief') && body.indexOf('be brief') < body.indexOf('answer in English'), body);
      assert.match(body, /code-pro/);
      assert.deepEqual(w.starts, [{ surface: 'aichat', model: 'code-pro', expected: 3 }]);
      settledWith(w.settled, ran.result);
    });

    it('a reply stopped by the signal ends stopped and is still settled', async () => {
      srv.control.configure({ chunkDelayMs: 20, chunkSize: 8 });
      const w = watched({ key: () => DEMO_KEY, ports: { clients: { get: () => client } } });
      const stop = new AbortController();
      const ran = await w.turns.run({ surface: 'edit', prompt: 'long len:4000' }, { text: () => stop.abort(), status: () => undefined }, stop.signal);
      assert.ok(ran.kind === 'ran');
      assert.equal(ran.result.ending, 'stopped');
      settledWith(w.settled, ran.result);
    });
  });

  it("quote(): the model as the service lists it and its cost; the selected one by default; none when none is selected", () => {
    const w = watched();
    assert.deepEqual(w.turns.quote(), { model: 'swift-chat', name: 'Swift Chat', cost: 1 });
    assert.deepEqual(w.turns.quote('deep-think'), { model: 'deep-think', name: 'Deep Think', cost: 5 });
    assert.deepEqual(w.turns.quote('not-listed'), { model: 'not-listed', name: 'not-listed', cost: null });
    assert.equal(watched({ model: () => '' }).turns.quote(), undefined);
    assert.deepEqual(watched({ models: () => undefined }).turns.quote(), { model: 'swift-chat', name: 'swift-chat', cost: 1 }, 'models not listed yet: the id');
  });

  describe('judge(): the chat panel\'s send', () => {
    it('passes the queue state to the gate (read once, after the facts)', async () => {
      const w = watched();
      let reads = 0;
      const busy = (canQueue: boolean) => () => {
        reads++;
        w.log.push('state');
        return { busy: true, canQueue };
      };
      assert.deepEqual((await w.turns.judge({ text: 'hello', state: busy(true) })).verdict, { kind: 'queue' });
      const refusal = (await w.turns.judge({ text: 'hello', state: busy(false) })).verdict;
      assert.ok(refusal.kind === 'refuse' && refusal.reason === 'busy', JSON.stringify(refusal));
      assert.equal(reads, 2);
      assert.ok(w.log.indexOf('state') > w.log.indexOf('read instructions'));
      assert.deepEqual((await w.turns.judge({ text: 'hello', state: () => ({ busy: false }) })).verdict, { kind: 'send' });
    });

    it("passes the request's fit to the gate: one that does not fit is refused over budget", async () => {
      const w = watched();
      const selection = selectContext({ systemPrompt: '', message: 'word '.repeat(400), earlier: [], budget: 50, messageId: '0' });
      assert.equal(selection.ok, false);
      const verdict = (await w.turns.judge({ text: 'hello', state: () => ({ fit: selection }) })).verdict;
      assert.ok(verdict.kind === 'refuse' && verdict.reason === 'overBudget', JSON.stringify(verdict));
    });

    it("the surface's longest message, the model asked for and the key's check reach the gate", async () => {
      const w = watched();
      const long = (await w.turns.judge({ text: 'x'.repeat(11), maxChars: 10 })).verdict;
      assert.ok(long.kind === 'refuse' && long.reason === 'tooLong');
      assert.equal((await w.turns.judge({ text: 'hello', model: 'deep-think' })).facts.model, 'deep-think');
      const held = (await w.turns.judge({ text: `see ${KEY}` })).verdict;
      assert.ok(held.kind === 'refuse' && held.reason === 'holdsKey');
    });
  });

  it("port: the chat session's turn starts the accounting for the panel with its ids and price, and settles there", async () => {
    const requests: SessionChatRequest[] = [];
    const w = watched({ backend: echoBackend(requests) });
    const turn = w.turns.port.start({ conversationId: 'c1', messageId: 'm2', model: 'deep-think', expected: 5 });
    assert.deepEqual(w.starts, [{ surface: 'panel', model: 'deep-think', expected: 5, id: 'c1/m2' }]);
    const stream = await turn.backend.chatStream({ model: 'deep-think', messages: [{ role: 'user', content: 'hi' }], stream: true, temperature: 1 }, { signal: signal() });
    for await (const _ of stream) void _;
    assert.equal(w.through.length, 1, "through the accounting's backend");
    assert.equal(requests.length, 1, 'to the client');
    const result = { ending: 'complete' } as TurnResult;
    assert.deepEqual(await turn.settle(result), CHARGE);
    settledWith(w.settled, result);
  });

  it('holdsKey() reads the key before it checks the text', async () => {
    const order: string[] = [];
    const { turns } = makeTurns({
      key: () => KEY,
      model: () => 'swift-chat',
      ports: {
        keys: {
          get: async () => {
            await tick();
            order.push('get');
            return KEY;
          },
          holds: (text) => {
            order.push('holds');
            return text.includes(KEY);
          },
        },
      },
    });
    assert.equal(await turns.holdsKey(`a ${KEY}`), true);
    assert.deepEqual(order, ['get', 'holds']);
  });
});
