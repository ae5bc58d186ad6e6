import assert from 'node:assert/strict';
import { parseHostMessage, type ChatStatus, type HostMessage, type MessageView } from '../../../src/protocol';
import { footerContexts, indexOfMessage, initialTranscript, pageMarks, reduce, type TranscriptEffect, type TranscriptState } from '../../../src/webview/transcript';

// The transcript as the chat's webview keeps it: every host message below is checked against the
// protocol's schema first (the webview drops anything else), then reduced.

const id = (n: number) => `msg_${n.toString(16).padStart(3, '0')}`;
const idle: ChatStatus = { busy: false };
const busy: ChatStatus = { busy: true };
const user = (n: number, content = `Question ${n}`): MessageView => ({ id: id(n), role: 'user', content, status: 'complete' });
const reply = (n: number, content = `Answer ${n}`, status: MessageView['status'] = 'complete'): MessageView => ({
  id: id(n),
  role: 'assistant',
  content,
  status,
  ...(status === 'complete' ? { meta: { model: 'swift-chat', credits: 2, promptTokens: 10, completionTokens: 20 } } : {}),
});
/** `turns` question-and-answer pairs, oldest first. */
const turns = (count: number): MessageView[] => Array.from({ length: count }, (_, t) => [user(2 * t), reply(2 * t + 1)]).flat();

/** A host message as the webview receives it: it must pass the protocol's schema. */
function host<M extends HostMessage>(message: M): M {
  const parsed = parseHostMessage(JSON.parse(JSON.stringify(message)));
  assert.ok(parsed.ok, `a real-shaped ${message.type} message (${parsed.ok ? '' : parsed.error})`);
  return message;
}

function conversation(messages: MessageView[], version: number, extra: { id?: string; notice?: string; status?: ChatStatus } = {}) {
  return host({ type: 'conversation', conversation: { id: extra.id ?? 'c1', title: 'A chat', messages }, status: extra.status ?? idle, version, ...(extra.notice ? { notice: extra.notice } : {}) });
}

/** Frozen all the way down: a reducer that changed what it was given would throw. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

/** Reduces each message in turn (each state frozen first), collecting the effects. */
function run(messages: HostMessage[], from: TranscriptState = initialTranscript): { state: TranscriptState; effects: TranscriptEffect[] } {
  let state = from;
  const effects: TranscriptEffect[] = [];
  for (const m of messages) {
    const r = reduce(frozen(state), m);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}

const kinds = (effects: TranscriptEffect[]) => effects.map((e) => e.kind);

/** One sample of every kind of host message (the type makes sure none is missing). */
const samples: { [K in HostMessage['type']]: Extract<HostMessage, { type: K }> } = {
  replyChanges: { type: 'replyChanges', conversationId: 'c1', replies: [{ messageId: 'msg_a02', state: 'applied', files: 3 }] },
  settings: {
    type: 'settings',
    settings: { models: [{ valueId: 'm1', name: 'Swift', cost: 2, usable: true }], modelsLoading: false, selectedModel: 'm1', selectedModelCost: 2, search: false, temperature: 0.7, fontSize: 0, hasKey: true },
  },
  status: { type: 'status', status: busy, version: 1 },
  conversation: { type: 'conversation', conversation: { id: 'c1', title: 'A chat', messages: [] }, status: idle, version: 1 },
  turnStarted: { type: 'turnStarted', user: user(0), assistant: reply(1, '', 'streaming'), status: busy, version: 1 },
  streamChunk: { type: 'streamChunk', messageId: id(1), offset: 0, text: 'Hello', version: 1 },
  turnEnded: { type: 'turnEnded', message: reply(1), status: idle, version: 1 },
  messageChanged: { type: 'messageChanged', message: reply(1), version: 1 },
  variantShown: { type: 'variantShown', from: id(1), message: { ...reply(0x101), variant: { index: 2, count: 2 } }, version: 1 },
  streamStatus: { type: 'streamStatus', messageId: id(1), text: 'Searching the web…', version: 1 },
  restoreInput: { type: 'restoreInput', text: 'my draft' },
  focusInput: { type: 'focusInput' },
  draftHoldsKey: { type: 'draftHoldsKey', holds: true },
  contextChips: { type: 'contextChips', chips: [{ id: 'ctx_1', name: 'a.ts', detail: 'src', icon: 'file', path: '/w/src/a.ts' }] },
  queue: { type: 'queue', items: [{ id: 'q1', text: 'next', cost: 2 }], state: 'waiting' },
  insertPrompt: { type: 'insertPrompt', text: 'Explain this', model: { id: 'm2', label: 'Deep (5 credits)' } },
  contextMeter: {
    type: 'contextMeter',
    meter: { budget: 3072, source: 'model', instructions: 10, attachments: 0, history: 2000, message: 5, total: 2015, omittedTurns: 3, sentTurns: 4, boundaryId: id(6), tooLong: false },
  },
  find: { type: 'find', query: 'apple' },
  revealMessage: { type: 'revealMessage', messageId: id(0) },
  summaryProgress: { type: 'summaryProgress', running: true, turns: 3, throughId: id(5), text: 'So far' },
  contextOptions: { type: 'contextOptions', seq: 3, options: [{ kind: 'file', icon: 'file', label: 'pricing.ts', detail: 'src/pricing.ts' }], pending: true },
  promptList: { type: 'promptList', prompts: [{ name: 'explain', description: 'Explain the code', source: 'built-in' }] },
};

describe('the transcript of the chat webview', () => {
  it('every sample is a real host message (the schema takes it)', () => {
    for (const m of Object.values(samples)) host(m);
  });

  it('starts empty: no version, no conversation, not busy', () => {
    assert.deepEqual(pageMarks(initialTranscript), { sessionVersion: '-1', busy: 'false', lastStatus: 'none', messages: '0' });
    assert.equal(initialTranscript.conversationId, undefined);
  });

  describe('a whole conversation', () => {
    it('is shown with its status; the page is told it is another conversation than before', () => {
      const summary = { text: 'Earlier: setup', throughId: id(1), turns: 1, model: 'swift-chat', cost: 1 };
      const m = host({ type: 'conversation', conversation: { id: 'c1', title: 'A chat', messages: turns(2), summary }, status: busy, version: 4 });
      const { state, effects } = run([m]);
      assert.equal(state.conversationId, 'c1');
      assert.deepEqual(state.messages.map((x) => x.id), [id(0), id(1), id(2), id(3)]);
      assert.deepEqual(state.status, busy);
      assert.equal(state.version, 4);
      assert.deepEqual(effects, [
        { kind: 'conversation', summary, notice: undefined, opened: true },
        { kind: 'status', status: busy },
      ]);
      assert.deepEqual(pageMarks(state), { sessionVersion: '4', busy: 'true', lastStatus: 'complete', messages: '4' });
    });

    it('the same conversation at the version shown is not drawn again; one with a notice, another one or a newer one is', () => {
      const first = run([conversation(turns(1), 3)]).state;
      const again = reduce(frozen(first), conversation(turns(1), 3));
      assert.equal(again.state, first, 'the same state');
      assert.deepEqual(again.effects, []);

      const notice = 'The last conversation could not be reopened.';
      const withNotice = reduce(first, conversation([], 3, { notice }));
      assert.deepEqual(kinds(withNotice.effects), ['conversation', 'status']);
      assert.equal((withNotice.effects[0] as Extract<TranscriptEffect, { kind: 'conversation' }>).notice, notice);

      const other = reduce(first, conversation(turns(3), 3, { id: 'c2' }));
      assert.equal(other.state.conversationId, 'c2');
      assert.equal((other.effects[0] as Extract<TranscriptEffect, { kind: 'conversation' }>).opened, true);

      const newer = reduce(first, conversation(turns(2), 4));
      assert.equal(newer.state.messages.length, 4);
      assert.equal((newer.effects[0] as Extract<TranscriptEffect, { kind: 'conversation' }>).opened, false, 'the same conversation, changed');
    });

    it('an older conversation than the one shown is ignored', () => {
      const shown = run([conversation(turns(2), 5)]).state;
      const older = reduce(shown, conversation([], 4, { id: 'c0' }));
      assert.equal(older.state, shown);
      assert.deepEqual(older.effects, []);
    });

    it('a message without a version (a surface that starts) is always taken', () => {
      const m = host({ type: 'conversation', conversation: { id: 'c9', title: 'x', messages: turns(1) }, status: idle });
      const { state } = run([conversation(turns(2), 7), m]);
      assert.equal(state.conversationId, 'c9');
      assert.equal(state.version, 7, 'the version shown stays');
    });
  });

  describe('a turn', () => {
    const started = (n: number, version: number, userText?: string) =>
      host({ type: 'turnStarted', user: user(n, userText), assistant: reply(n + 1, '', 'streaming'), status: busy, version });
    const chunk = (n: number, offset: number, text: string, version: number) => host({ type: 'streamChunk', messageId: id(n), offset, text, version });

    it('begins below the newest message with the user message and the empty reply', () => {
      const { state, effects } = run([conversation(turns(1), 1), started(2, 2)]);
      assert.deepEqual(state.messages.map((m) => [m.id, m.status]), [
        [id(0), 'complete'],
        [id(1), 'complete'],
        [id(2), 'complete'],
        [id(3), 'streaming'],
      ]);
      assert.deepEqual(kinds(effects), ['conversation', 'status', 'added', 'status']);
      assert.deepEqual((effects[2] as Extract<TranscriptEffect, { kind: 'added' }>).messages.map((m) => m.id), [id(2), id(3)]);
      assert.deepEqual(pageMarks(state), { sessionVersion: '2', busy: 'true', lastStatus: 'streaming', messages: '4' });
    });

    it('a resent question already shown is not added twice', () => {
      const { state, effects } = run([conversation([user(0)], 1), started(0, 2)]);
      assert.deepEqual(state.messages.map((m) => m.id), [id(0), id(1)]);
      assert.deepEqual((effects.find((e) => e.kind === 'added') as Extract<TranscriptEffect, { kind: 'added' }>).messages.map((m) => m.id), [id(1)]);
    });

    it('streams its text in: each chunk once, the first one ending the wait', () => {
      const { state, effects } = run([conversation([], 1), started(0, 2), chunk(1, 0, 'Hel', 3), chunk(1, 3, 'lo', 4)]);
      assert.equal(state.messages[1].content, 'Hello');
      assert.deepEqual(
        effects.filter((e) => e.kind === 'text'),
        [
          { kind: 'text', id: id(1), text: 'Hel', starts: true },
          { kind: 'text', id: id(1), text: 'lo', starts: false },
        ],
      );
    });

    it('a chunk the conversation already had adds only what is new, or nothing', () => {
      // The panel started while the reply streamed: the whole state had "Hello wor" already.
      const shown = run([conversation([user(0), reply(1, 'Hello wor', 'streaming')], 5, { status: busy })]).state;
      const overlap = reduce(shown, chunk(1, 6, 'world', 6));
      assert.equal(overlap.state.messages[1].content, 'Hello world');
      assert.deepEqual(overlap.effects, [{ kind: 'text', id: id(1), text: 'ld', starts: false }]);
      const old = reduce(overlap.state, chunk(1, 0, 'Hello', 7));
      assert.equal(old.state.messages[1].content, 'Hello world');
      assert.deepEqual(old.effects, []);
      assert.equal(old.state.version, 7, 'its version still counts');
      const again = reduce(old.state, chunk(1, 6, 'world', 8));
      assert.deepEqual(again.effects, [], 'a chunk ending where the text ends adds nothing');
      assert.equal(again.state.messages, old.state.messages);
    });

    it('a chunk for a message the transcript does not have changes nothing', () => {
      const shown = run([conversation(turns(1), 1)]).state;
      const r = reduce(shown, chunk(0x77, 0, 'stray', 2));
      assert.equal(r.state.messages, shown.messages);
      assert.deepEqual(r.effects, []);
    });

    it('what a reply says while it waits is cleared by its text, and by an empty progress message', () => {
      const waitFor = (text: string, version: number) => host({ type: 'streamStatus', messageId: id(1), text, version });
      const begun = run([conversation([], 1), started(0, 2), chunk(1, 0, 'Let me check. ', 3)]).state;
      const waiting = run([waitFor('Searching the web…', 4)], begun);
      assert.equal(waiting.state.waitingId, id(1));
      assert.deepEqual(waiting.effects, [{ kind: 'waiting', id: id(1), text: 'Searching the web…' }]);
      const more = run([chunk(1, 14, 'Found it.', 5)], waiting.state);
      assert.deepEqual(more.effects, [{ kind: 'text', id: id(1), text: 'Found it.', starts: true }], 'the text replaces the wait');
      assert.equal(more.state.waitingId, undefined);
      const cleared = run([waitFor('Retrying in 3 s', 6), waitFor('', 7)], more.state);
      assert.equal(cleared.state.waitingId, undefined);
      assert.deepEqual(kinds(cleared.effects), ['waiting', 'waiting']);
    });

    it('progress of a message the transcript does not have changes nothing', () => {
      const shown = run([conversation(turns(1), 1)]).state;
      const r = reduce(shown, host({ type: 'streamStatus', messageId: id(9), text: 'Thinking', version: 2 }));
      assert.deepEqual(r.effects, []);
      assert.equal(r.state.waitingId, undefined);
    });

    it("ends with the reply's final state and the status; only a stopped reply is said to be stopped", () => {
      const begun = run([conversation([], 1), started(0, 2), chunk(1, 0, 'Partial', 3)]).state;
      const done = reduce(frozen(begun), host({ type: 'turnEnded', message: reply(1, 'Partial answer'), status: idle, version: 4 }));
      assert.deepEqual(done.state.messages[1], reply(1, 'Partial answer'));
      assert.deepEqual(done.effects, [
        { kind: 'message', message: reply(1, 'Partial answer') },
        { kind: 'status', status: idle },
      ]);
      assert.equal(begun.messages[1].content, 'Partial', 'the state before is left as it was');
      const stopped = reduce(begun, host({ type: 'turnEnded', message: reply(1, 'Partial', 'stopped'), status: idle, version: 4 }));
      assert.deepEqual(kinds(stopped.effects), ['message', 'status', 'stopped']);
      assert.equal(pageMarks(stopped.state).lastStatus, 'stopped');
      const failed = reduce(begun, host({ type: 'turnEnded', message: { ...reply(1, '', 'error'), error: { kind: 'server', message: 'The service failed.', actions: ['retry'] } }, status: idle, version: 4 }));
      assert.deepEqual(kinds(failed.effects), ['message', 'status']);
      assert.equal(failed.state.messages[1].error?.kind, 'server');
    });

    it('a finished message that changes (its charge became known) is replaced, and the footers told', () => {
      const shown = run([conversation(turns(2), 1)]).state;
      const charged = { ...reply(3), meta: { model: 'swift-chat', credits: 5 } };
      const r = reduce(frozen(shown), host({ type: 'messageChanged', message: charged, version: 2 }));
      assert.deepEqual(r.state.messages[3], charged);
      assert.equal(r.state.messages[0], shown.messages[0], 'the other messages are the same objects');
      assert.deepEqual(r.effects, [{ kind: 'message', message: charged }, { kind: 'footers' }]);
      assert.deepEqual(r.state.status, idle, 'no status in it');
    });
  });

  describe('versions', () => {
    it('a change already shown is ignored', () => {
      const shown = run([conversation(turns(1), 5)]).state;
      for (const v of [3, 5]) {
        const r = reduce(shown, host({ type: 'status', status: busy, version: v }));
        assert.equal(r.state, shown, `version ${v}`);
        assert.deepEqual(r.effects, []);
      }
    });

    it('a change after a missing one is applied and asks for the whole state once, until it comes', () => {
      const shown = run([conversation(turns(1), 5)]).state;
      const gap = run([host({ type: 'status', status: busy, version: 7 }), host({ type: 'status', status: idle, version: 9 })], shown);
      assert.deepEqual(kinds(gap.effects), ['resync', 'status', 'status'], 'asked once');
      assert.equal(gap.state.resyncing, true);
      assert.equal(gap.state.version, 9);
      // The whole state comes at the version shown: it is taken (it is what was asked for).
      const whole = reduce(gap.state, conversation(turns(2), 9));
      assert.deepEqual(kinds(whole.effects), ['conversation', 'status']);
      assert.equal(whole.state.resyncing, false);
      assert.equal(whole.state.messages.length, 4);
      // And a later gap asks again.
      assert.deepEqual(kinds(reduce(whole.state, host({ type: 'status', status: idle, version: 11 })).effects), ['resync', 'status']);
    });

    it('before any conversation, a change of any version is taken without asking', () => {
      const r = reduce(initialTranscript, host({ type: 'status', status: busy, version: 12 }));
      assert.deepEqual(kinds(r.effects), ['status']);
      assert.equal(r.state.version, 12);
    });
  });

  it('messages that are not about the conversation leave it as it is (their parts take them)', () => {
    const shown = run([conversation(turns(2), 3)]).state;
    const others = Object.values(samples).filter((m) => !('version' in m));
    assert.deepEqual(others.map((m) => m.type).sort(), [
      'contextChips',
      'contextMeter',
      'contextOptions',
      'draftHoldsKey',
      'find',
      'focusInput',
      'insertPrompt',
      'promptList',
      'queue',
      'replyChanges',
      'restoreInput',
      'revealMessage',
      'settings',
      'summaryProgress',
    ]);
    for (const m of others) {
      const r = reduce(frozen(shown), m);
      assert.equal(r.state, shown, m.type);
      assert.deepEqual(r.effects, [], m.type);
    }
  });

  it('every message about the conversation changes it or says what to do', () => {
    const begun = run([conversation([user(0), reply(1, '', 'streaming')], 0, { status: busy })]).state;
    for (const m of Object.values(samples).filter((x) => 'version' in x)) {
      const r = reduce(begun, m);
      assert.ok(r.effects.length > 0, `${m.type} has effects`);
      assert.notEqual(r.state, begun, `${m.type} gives a new state`);
    }
  });

  it('footers depend on the newest few messages, the last question, the status and a send error', () => {
    const shown = run([conversation(turns(5), 1, { status: { busy: false, sendError: { kind: 'auth', message: 'Set the key', actions: ['setApiKey'] } } })]).state;
    const contexts = footerContexts(shown, 0);
    assert.deepEqual(contexts.map((c) => c.message.id), [id(6), id(7), id(8), id(9)], 'the newest four');
    assert.deepEqual(contexts.map((c) => c.context), [
      { isLastUser: false, isLast: false, busy: false, hasSendError: true },
      { isLastUser: false, isLast: false, busy: false, hasSendError: true },
      { isLastUser: true, isLast: false, busy: false, hasSendError: true },
      { isLastUser: false, isLast: true, busy: false, hasSendError: true },
    ]);
    assert.deepEqual(footerContexts(shown, 8).map((c) => c.message.id), [id(8), id(9)], 'none above the first rendered');
    assert.deepEqual(footerContexts(initialTranscript, 0), []);
  });

  it('a 300-turn conversation: a turn streams at its end, the earlier messages untouched', () => {
    const long = turns(300);
    const shown = run([conversation(long, 10)]).state;
    assert.equal(shown.messages.length, 600);
    assert.equal(indexOfMessage(shown.messages, id(0)), 0);
    assert.equal(indexOfMessage(shown.messages, id(599)), 599);
    assert.equal(indexOfMessage(shown.messages, id(600)), -1);

    const words = Array.from({ length: 200 }, (_, i) => `word${i} `);
    const stream: HostMessage[] = [host({ type: 'turnStarted', user: user(600, 'One more question'), assistant: reply(601, '', 'streaming'), status: busy, version: 11 })];
    let offset = 0;
    words.forEach((w, i) => {
      stream.push(host({ type: 'streamChunk', messageId: id(601), offset, text: w, version: 12 + i }));
      offset += w.length;
    });
    const text = words.join('');
    stream.push(host({ type: 'turnEnded', message: reply(601, text), status: idle, version: 12 + words.length }));
    const { state, effects } = run(stream, shown);

    assert.equal(state.messages.length, 602);
    assert.equal(state.messages[601].content, text);
    assert.equal(state.messages[601].status, 'complete');
    for (let i = 0; i < 600; i++) assert.equal(state.messages[i], long[i], `message ${i} is the one the conversation had`);
    const streamed = effects.filter((e): e is Extract<TranscriptEffect, { kind: 'text' }> => e.kind === 'text');
    assert.equal(streamed.length, words.length);
    assert.equal(streamed.map((e) => e.text).join(''), text);
    assert.deepEqual(streamed.map((e) => e.starts).filter(Boolean), [true], 'only the first chunk ends the wait');
    assert.equal(kinds(effects).includes('resync'), false, 'no change was missing');
    assert.deepEqual(pageMarks(state), { sessionVersion: String(12 + words.length), busy: 'false', lastStatus: 'complete', messages: '602' });
    assert.deepEqual(footerContexts(state, 590).map((c) => c.message.id), [id(598), id(599), id(600), id(601)]);
  });
});
