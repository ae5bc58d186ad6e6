// A stream of many malformed or unknown parts (a broken or hostile service): the outcome stays
// bounded (a few problems and a count, one warning per kind of trouble) and the reply completes,
// or is cut cleanly at the parts cap. Speed is measured by `npm run bench:stream`, not here.
import { strict as assert } from 'node:assert';
import { decodeEventStream } from '../../../src/client/decoder';
import { ProtocolError } from '../../../src/client/errors';
import { ReplyAssembler, MAX_PROBLEMS } from '../../../src/client/reply';
import { ChatStream, MAX_REPLY_PARTS } from '../../../src/client/stream';
import type { StreamEvent } from '../../../src/client/schemas';

const enc = new TextEncoder();
const N = 100_000;

/** An NDJSON body: a good start and some text, `n` parts made by `part`, then the end of the reply. */
function body(n: number, part: (i: number) => string): Uint8Array[] {
  const chunks: Uint8Array[] = [enc.encode('{"event":"f","messageId":"m"}\n{"event":"0","data":"hi"}\n')];
  for (let i = 0; i < n; ) {
    let s = '';
    for (let k = 0; k < 1000 && i < n; k++) s += part(i++);
    chunks.push(enc.encode(s));
  }
  chunks.push(enc.encode('{"event":"e","finishReason":"stop"}\n{"event":"d","finishReason":"stop"}\n'));
  return chunks;
}

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

async function assemble(chunks: Uint8Array[]) {
  const warns: Array<{ msg: string; data?: Record<string, unknown> }> = [];
  const reply = new ReplyAssembler();
  let events = 0;
  for await (const ev of decodeEventStream(source(chunks), {
    contentType: 'application/x-ndjson',
    logger: { warn: (msg, data) => warns.push({ msg, data }) },
  })) {
    events++;
    reply.push(ev);
  }
  return { reply, warns, events };
}

describe('client: a stream of many malformed parts', () => {
  it(`${N.toLocaleString('en')} start parts whose messageId is not a string: the reply completes, a few problems and their count are kept, one warning with the count is logged`, async () => {
    const { reply, warns, events } = await assemble(body(N, (i) => `{"event":"f","messageId":${i}}\n`));
    assert.equal(events, N + 4);
    const outcome = reply.outcome;
    assert.equal(outcome.ending, 'complete');
    assert.equal(outcome.done, true);
    assert.equal(reply.text, 'hi');
    assert.equal(reply.messageId, 'm');
    assert.equal(outcome.problemCount, N);
    assert.ok(outcome.problems, 'problems are named');
    assert.ok(outcome.problems.length <= MAX_PROBLEMS + 1, `problems kept: ${outcome.problems.length}`);
    assert.ok(outcome.problems[0].startsWith('the start of the reply was malformed'), outcome.problems[0]);
    assert.ok(outcome.problems.at(-1)?.includes(`${(N - MAX_PROBLEMS).toLocaleString('en')} more`), String(outcome.problems.at(-1)));
    assert.equal(warns.length, 1, JSON.stringify(warns.slice(0, 3)));
    assert.equal(warns[0].data?.kind, 'f');
    assert.equal(warns[0].data?.count, N);
  });

  it(`${N.toLocaleString('en')} parts of unknown kinds: one warning with the count; the reply completes`, async () => {
    const { reply, warns } = await assemble(body(N, () => `{"event":"zz"}\n`));
    assert.equal(reply.outcome.ending, 'complete');
    assert.equal(reply.text, 'hi');
    assert.equal(warns.length, 1, JSON.stringify(warns.slice(0, 3)));
    assert.equal(warns[0].data?.count, N);
  });

  it(`${N.toLocaleString('en')} parts each of a new unknown kind: the first few kinds are named, the rest counted together`, async () => {
    const { reply, warns } = await assemble(body(N, (i) => `{"event":"zz${i}"}\n`));
    assert.equal(reply.outcome.ending, 'complete');
    assert.ok(warns.length <= 6, `${warns.length} warnings`);
    assert.deepEqual(warns.slice(0, 2).map((w) => [w.data?.kind, w.data?.count]), [['zz0', 1], ['zz1', 1]]);
    assert.deepEqual([warns.at(-1)?.data?.kind, warns.at(-1)?.data?.count], ['(other kinds)', N - (warns.length - 1)]);
  });

  it(`${N.toLocaleString('en')} malformed parts beside the reply (a source without url): one warning with the count; the reply completes`, async () => {
    const { reply, warns } = await assemble(body(N, (i) => `{"event":"h","title":"t${i}"}\n`));
    assert.equal(reply.outcome.ending, 'complete');
    assert.equal(reply.text, 'hi');
    assert.deepEqual(reply.sources, []);
    assert.equal(warns.length, 1, JSON.stringify(warns.slice(0, 3)));
    assert.equal(warns[0].data?.kind, 'h');
    assert.equal(warns[0].data?.count, N);
  });

  it('different troubles are each logged once, in the order they first came', async () => {
    const { warns } = await assemble(body(3000, (i) => [`{"event":"zz"}\n`, `{"event":"f","messageId":${i}}\n`, `{"event":"h"}\n`][i % 3]));
    assert.deepEqual(
      warns.map((w) => [w.msg, w.data?.kind, w.data?.count]),
      [
        ['Skipping stream event of unknown kind', 'zz', 1000],
        ['Stream start event without a usable messageId; the reply goes on', 'f', 1000],
        ['Skipping a malformed stream part', 'h', 1000],
      ],
    );
  });

  it('one malformed start part is named as before, without a count', () => {
    const reply = new ReplyAssembler();
    reply.push({ event: 'f', malformed: 'the start of the reply was malformed: "x"' });
    reply.push({ event: 'd', finishReason: 'stop' });
    assert.deepEqual(reply.outcome.problems, ['the start of the reply was malformed: "x"']);
    assert.equal(reply.outcome.problemCount, 1);
  });

  it('a reply of more parts than the cap ends cleanly: every part before the cap is given, then a ProtocolError naming the cut; the request is closed', async () => {
    assert.ok(MAX_REPLY_PARTS >= 1_000_000, 'the default cap leaves room for any real reply');
    const cap = 5000;
    let aborted = 0;
    let ended: unknown;
    const stream = new ChatStream({
      status: 200,
      headers: { 'content-type': 'application/x-ndjson' },
      body: source(body(20_000, () => '{"event":"0","data":""}\n')),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      abortRequest: () => void aborted++,
      mapError: (e) => e as never,
      onEnd: (o) => (ended = o),
      maxReplyParts: cap,
    });
    const got: StreamEvent[] = [];
    let error: unknown;
    try {
      for await (const ev of stream) got.push(ev);
    } catch (e) {
      error = e;
    }
    assert.equal(got.length, cap);
    assert.deepEqual(got.slice(0, 2), [{ event: 'f', messageId: 'm' }, { event: '0', data: 'hi' }]);
    assert.ok(error instanceof ProtocolError, String(error));
    assert.match(error.message, /more than 5,000 parts/);
    assert.ok(aborted >= 1, 'the connection is closed');
    assert.equal((ended as { complete: boolean }).complete, false);
  });
});
