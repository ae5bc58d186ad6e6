// The one stream loop (core/chat/turn.ts) with every part of the stream, and what its result means
// for the stored reply and the accounting (turnRecord.ts): the panel, @aichat, the language model
// provider and every other surface answer through it.
import { strict as assert } from 'node:assert';
import {
  replyRecord, runTurn, turnOutcomeOf,
  type ChatBackend, type SessionChatRequest, type SessionStreamEvent, type TurnResult,
} from '../../../../src/core';
import { scriptedBackend } from '../../../support/backend';

const baseUrl = 'https://chat.example/api';
const req: SessionChatRequest = { messages: [{ role: 'user', content: 'q' }], model: 'deep-think', stream: true, temperature: 1 };

const backend = scriptedBackend;

async function run(events: SessionStreamEvent[], opts: Parameters<typeof backend>[1] = {}, signal = new AbortController().signal, silenceNoticeMs?: number) {
  const text: string[] = [];
  const status: string[] = [];
  const result = await runTurn(backend(events, opts), req, { text: (c) => text.push(c), status: (s) => status.push(s) }, signal, {
    baseUrl,
    ...(silenceNoticeMs !== undefined ? { silenceNoticeMs } : {}),
  });
  return { result, text, status };
}

const stop = { event: 'e', finishReason: 'stop', usage: { promptTokens: 7, completionTokens: 9 }, isContinued: false } as const;
const done = { event: 'd', finishReason: 'stop', usage: { promptTokens: 7, completionTokens: 9 } } as const;

describe('the one turn: runTurn with every part of the stream', () => {
  it('text: streamed in order into the sink, complete, with the usage of the steps', async () => {
    const { result, text } = await run([{ event: 'f', messageId: 'm' }, { event: '0', data: 'Hel' }, { event: '0', data: 'lo' }, stop, done]);
    assert.deepEqual(text, ['Hel', 'lo']);
    assert.equal(result.ending, 'complete');
    assert.equal(result.text, 'Hello');
    assert.equal(result.answered, true);
    assert.deepEqual(result.meta, { model: 'deep-think', promptTokens: 7, completionTokens: 9 });
  });

  it('reasoning: Thinking… before the text, the reasoning kept with the reply, never in its text', async () => {
    const { result, text, status } = await run([{ event: 'f', messageId: 'm' }, { event: 'g', data: 'Let me think. ' }, { event: 'g', data: 'Yes.' }, { event: '0', data: 'Answer' }, stop, done]);
    assert.deepEqual(status, ['Thinking…']);
    assert.deepEqual(text, ['Answer']);
    assert.equal(result.meta.reasoning, 'Let me think. Yes.');
  });

  it('a tool step (a search): Searching…, then the sources as numbered links and the files after the text', async () => {
    const { result, text, status } = await run([
      { event: 'f', messageId: 'm' },
      { event: '9', toolCallId: 't1', toolName: 'search', args: { q: 'tides' } },
      { event: 'a', toolCallId: 't1', result: { ok: true } },
      { event: 'e', finishReason: 'tool-calls', isContinued: true },
      { event: 'f', messageId: 'm2' },
      { event: 'h', sourceType: 'url', id: 's1', url: 'https://tides.example/neap', title: 'Neap tides' },
      { event: '0', data: 'Neap tides are weak.' },
      { event: 'k', data: 'aGVsbG8=', mimeType: 'text/plain' },
      stop,
      done,
    ]);
    assert.deepEqual(status, ['Searching…']);
    assert.equal(text[0], 'Neap tides are weak.');
    assert.match(result.text, /Neap tides are weak\.[\s\S]*1\.[\s\S]*Neap tides[\s\S]*https:\/\/tides\.example\/neap/);
    assert.equal(result.sources.length, 1);
    assert.equal(result.files.length, 1);
    assert.equal(result.ending, 'complete');
  });

  it('data and annotations: kept with the reply as extras, not in its text', async () => {
    const { result } = await run([{ event: 'f', messageId: 'm' }, { event: '2', data: [{ step: 1 }] }, { event: '8', data: [{ note: 'x' }] }, { event: '0', data: 'ok' }, stop, done]);
    assert.equal(result.text, 'ok');
    assert.match(result.meta.extras ?? '', /"step":1/);
    assert.match(result.meta.extras ?? '', /"note":"x"/);
  });

  it('a reply cut at the model\'s length limit: complete, marked length', async () => {
    const { result } = await run([{ event: 'f', messageId: 'm' }, { event: '0', data: 'cut' }, { event: 'e', finishReason: 'length', isContinued: false }, { event: 'd', finishReason: 'length' }]);
    assert.equal(result.ending, 'complete');
    assert.equal(result.meta.ending, 'length');
  });

  it('an error part after some text: error, the text kept, paid for; the record says Retry costs again', async () => {
    const { result } = await run([{ event: 'f', messageId: 'm' }, { event: '0', data: 'Partial ' }, { event: '3', error: 'model overloaded' }]);
    assert.equal(result.ending, 'error');
    assert.equal(result.text, 'Partial ');
    assert.match(result.error?.message ?? '', /model overloaded/);
    const record = replyRecord(result, 5);
    assert.ok(!record.takeBack && record.status === 'error');
    assert.ok(!record.takeBack && /costs credits again/.test(record.error?.message ?? ''));
    assert.ok(!record.takeBack && record.meta.credits === 5);
  });

  it('a failure before any reply (no connection, 402): failed, nothing in the sink, taken back, not a reply for the accounting', async () => {
    const err = Object.assign(new Error('connect ECONNREFUSED'), { kind: 'connection' });
    const { result, text } = await run([], { fail: err });
    assert.equal(result.ending, 'failed');
    assert.deepEqual(text, []);
    assert.equal(result.answered, false);
    assert.ok(replyRecord(result, 1).takeBack);
    assert.equal(turnOutcomeOf(result, 1).answered, false);
  });

  it('Stop: ends the reply where it is, stopped; what arrived is kept and paid for', async () => {
    const controller = new AbortController();
    const text: string[] = [];
    const result: TurnResult = await runTurn(
      backend([{ event: 'f', messageId: 'm' }, { event: '0', data: 'one ' }, { event: '0', data: 'two ' }, { event: '0', data: 'three' }, stop, done]),
      req,
      { text: (c) => { text.push(c); controller.abort(); }, status: () => undefined },
      controller.signal,
      { baseUrl },
    );
    assert.equal(result.ending, 'stopped');
    assert.deepEqual(text, ['one ']);
    const record = replyRecord(result, 5);
    assert.ok(!record.takeBack && record.status === 'stopped' && record.meta.credits === 5);
  });

  it('a Stop before the request: nothing is sent', async () => {
    const controller = new AbortController();
    controller.abort();
    const b = backend([{ event: '0', data: 'x' }]);
    const result = await runTurn(b, req, { text: () => undefined, status: () => undefined }, controller.signal, { baseUrl });
    assert.equal(result.ending, 'stopped');
    assert.equal(b.sent.length, 0);
  });

  it('silence: the sink is told the reply waits for the service, and the next part clears it', async () => {
    let release: () => void = () => undefined;
    const hold = new Promise<void>((r) => (release = r));
    const events: SessionStreamEvent[] = [{ event: 'f', messageId: 'm' }, { event: '0', data: 'a' }];
    const status: string[] = [];
    const b: ChatBackend = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: async () => ({
        abort: () => undefined,
        async *[Symbol.asyncIterator]() {
          yield events[0];
          await hold;
          yield { event: 'e', finishReason: 'stop', isContinued: false };
          yield events[1];
          yield done;
        },
      }),
    };
    const running = runTurn(b, req, { text: () => undefined, status: (s) => {
      status.push(s);
      if (s.startsWith('Waiting for the service')) release();
    } }, new AbortController().signal, { baseUrl, silenceNoticeMs: 20 });
    const result = await running;
    assert.equal(result.ending, 'complete');
    assert.ok(status.some((s) => /^Waiting for the service… \d+ s$/.test(s)), JSON.stringify(status));
    assert.equal(status.at(-1), '', 'the next part cleared the notice');
  });

  it('a non-streaming reply: the service\'s figures and the model it names, for the accounting', async () => {
    const b: ChatBackend = {
      chat: async () => ({ content: 'Answer', creditsUsed: 3, creditsRemaining: 97, model: 'code-pro' }),
      chatStream: () => Promise.reject(new Error('not used')),
    };
    const text: string[] = [];
    const result = await runTurn(b, { ...req, stream: false }, { text: (c) => text.push(c), status: () => undefined }, new AbortController().signal, { baseUrl });
    assert.deepEqual(text, ['Answer']);
    assert.equal(result.meta.model, 'code-pro');
    assert.deepEqual(turnOutcomeOf(result, 3), { answered: true, model: 'code-pro', reported: 3, remaining: 97, expected: 3 });
  });
});
