import { strict as assert } from 'node:assert';
import {
  EventDecoder,
  INCOMPLETE_STREAM_MESSAGE,
  LineDecoder,
  decodeEventStream,
  framingFromContentType,
  sniffFraming,
  type Framing,
} from '../../../src/client/decoder';
import { ProtocolError, StreamEventError } from '../../../src/client/errors';
import type { StreamEvent } from '../../../src/client/schemas';

const enc = new TextEncoder();

/** Every way to feed `bytes`: whole, each 2-way split, and one byte at a time. */
function splits(bytes: Uint8Array): Array<{ name: string; chunks: Uint8Array[] }> {
  const out = [{ name: 'whole', chunks: [bytes] }];
  for (let i = 1; i < bytes.length; i++) {
    out.push({ name: `split at byte ${i}`, chunks: [bytes.subarray(0, i), bytes.subarray(i)] });
  }
  const single: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) single.push(bytes.subarray(i, i + 1));
  out.push({ name: 'one byte at a time', chunks: single });
  return out;
}

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

interface Outcome {
  events: StreamEvent[];
  error: unknown;
  warns: Array<{ msg: string; data?: Record<string, unknown> }>;
  framing: Framing | undefined;
}

async function decodeAll(chunks: Uint8Array[], opts: { contentType?: string; framing?: Framing; maxLineChars?: number } = {}): Promise<Outcome> {
  const warns: Outcome['warns'] = [];
  const events: StreamEvent[] = [];
  let framing: Framing | undefined;
  let error: unknown;
  try {
    for await (const ev of decodeEventStream(source(chunks), {
      ...opts,
      logger: { warn: (msg, data) => warns.push({ msg, data }) },
      onFraming: (f) => (framing = f),
    })) {
      events.push(ev);
    }
  } catch (e) {
    error = e;
  }
  return { events, error, warns, framing };
}

const TEXT = 'Grüße 😀 你好 — ok';
const f: StreamEvent = { event: 'f', messageId: 'm-1' };
const c1: StreamEvent = { event: '0', data: 'Hello, ' };
const c2: StreamEvent = { event: '0', data: TEXT };
const c3: StreamEvent = { event: '0', data: 'line1\nline2' };
const d: StreamEvent = { event: 'd', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 34 } };
const FULL = [f, c1, c2, c3, d];
const eStop: StreamEvent = { event: 'e', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 34 }, isContinued: false };
const eCont: StreamEvent = { event: 'e', finishReason: 'tool-calls', usage: { promptTokens: 12, completionTokens: 10 }, isContinued: true };

const sse = (events: unknown[], nl = '\n') =>
  events.map((e) => `data: ${JSON.stringify(e)}${nl}${nl}`).join('') + `data: [DONE]${nl}${nl}`;
const ndjson = (events: unknown[], nl = '\n') => events.map((e) => JSON.stringify(e)).join(nl) + nl;
const prefixed = (events: StreamEvent[], nl = '\n') =>
  events
    .map((e) => {
      const { event, ...rest } = e as Record<string, unknown>;
      // Text and reasoning carry a JSON string, data and annotations a JSON array, the rest an object.
      return event === '0' || event === 'g' || event === '2' || event === '8' ? `${String(event)}:${JSON.stringify(rest.data)}` : `${String(event)}:${JSON.stringify(rest)}`;
    })
    .join(nl) + nl;

/** One of each part code of the protocol: reasoning, its redaction and signature, a tool step, a source, data, annotations, a file. */
const EVERY_PART: StreamEvent[] = [
  f,
  { event: 'g', data: 'Thinking about it. ' },
  { event: 'i', data: 'redacted-bytes' },
  { event: 'j', signature: 'sig-1' },
  { event: 'b', toolCallId: 'call-2', toolName: 'web_search' },
  { event: 'c', toolCallId: 'call-2', argsTextDelta: '{"query":"q' },
  { event: '9', toolCallId: 'call-1', toolName: 'web_search', args: { query: 'Grüße' } },
  { event: 'a', toolCallId: 'call-1', result: { results: [{ url: 'https://a.example/x' }] } },
  eCont,
  { event: 'f', messageId: 'm-2' },
  { event: 'h', sourceType: 'url', id: 'src-1', url: 'https://a.example/x', title: 'A [title] with *marks*' },
  { event: '2', data: [{ step: 1 }, 'two'] },
  { event: '8', data: [{ note: 'annotation' }] },
  { event: 'k', data: 'aGVsbG8=', mimeType: 'text/plain' },
  c1,
  eStop,
  d,
];

interface Fixture {
  name: string;
  body: string | Uint8Array;
  contentType?: string;
  framing?: Framing;
  events: StreamEvent[];
  /** Expected error: class and a substring of its message. */
  error?: { type: typeof ProtocolError | typeof StreamEventError; includes: string; finishReason?: string };
  warnKinds?: string[];
  expectFraming?: Framing;
}

const longGarbage = `data: {"event":"0","data":"${'x'.repeat(300)}`;

const fixtures: Fixture[] = [
  { name: 'SSE, LF', body: sse(FULL), contentType: 'text/event-stream', events: FULL, expectFraming: 'sse' },
  { name: 'SSE, CRLF', body: sse(FULL, '\r\n'), contentType: 'text/event-stream', events: FULL },
  { name: 'SSE, CR only', body: sse(FULL, '\r'), contentType: 'text/event-stream; charset=utf-8', events: FULL },
  {
    name: 'SSE with comments, event/id/retry fields, multi-line data, data without space, leading blank lines',
    body:
      '\n\n: keep-alive comment\n' +
      'event: message\nid: 1\nretry: 3000\n' +
      `data: ${JSON.stringify(f)}\n\n` +
      ': another comment\n' +
      'data: {"event":"0",\ndata:  "data":"Hello, "}\n\n' +
      `data:${JSON.stringify(c2)}\nunknownfield: whatever\n\n` +
      `id\n\ndata: ${JSON.stringify(c3)}\n\n` +
      `data: ${JSON.stringify(d)}\n\n` +
      'data: [DONE]\n\n',
    contentType: 'text/event-stream',
    events: FULL,
  },
  {
    name: 'SSE sniffed (no content type), BOM, [DONE] on a last line without newline',
    body: '\uFEFF' + sse(FULL).replace(/\n\n$/, ''),
    events: FULL,
    expectFraming: 'sse',
  },
  {
    name: 'SSE ending with a d event on a last line without newline or [DONE]',
    body: `data: ${JSON.stringify(f)}\n\ndata: ${JSON.stringify(d)}`,
    contentType: 'text/event-stream',
    events: [f, d],
  },
  {
    name: 'SSE declared as text/plain is sniffed as SSE',
    body: sse(FULL),
    contentType: 'text/plain; charset=utf-8',
    events: FULL,
    expectFraming: 'sse',
  },
  {
    name: 'SSE [DONE] without d is complete; bytes after [DONE] are ignored',
    body: `data: ${JSON.stringify(f)}\n\ndata: ${JSON.stringify(c1)}\n\ndata: [DONE]\n\ndata: not json\n\n`,
    contentType: 'text/event-stream',
    events: [f, c1],
  },
  { name: 'NDJSON, LF', body: ndjson(FULL), contentType: 'application/x-ndjson', events: FULL, expectFraming: 'ndjson' },
  { name: 'NDJSON, CRLF with blank lines', body: '\r\n' + ndjson(FULL, '\r\n\r\n'), contentType: 'application/jsonl', events: FULL },
  { name: 'NDJSON, CR only', body: ndjson(FULL, '\r'), contentType: 'application/x-ndjson', events: FULL },
  {
    name: 'NDJSON sniffed, last line without newline',
    body: ndjson(FULL).replace(/\n$/, ''),
    events: FULL,
    expectFraming: 'ndjson',
  },
  {
    name: 'line-prefixed (text/plain), LF',
    body: prefixed(FULL),
    contentType: 'text/plain; charset=utf-8',
    events: FULL,
    expectFraming: 'prefixed',
  },
  { name: 'line-prefixed, CRLF', body: prefixed(FULL, '\r\n'), contentType: 'text/plain', events: FULL },
  { name: 'line-prefixed, CR only, no final newline', body: prefixed(FULL, '\r').replace(/\r$/, ''), events: FULL },
  {
    name: 'line-prefixed with a continued e event',
    body: prefixed([f, c1, { event: 'e', finishReason: 'length', isContinued: true }, c2, d]),
    framing: 'prefixed',
    events: [f, c1, { event: 'e', finishReason: 'length', isContinued: true }, c2, d],
  },
  {
    name: 'unknown event kinds are skipped and reported (SSE)',
    body: sse([f, { event: 'x', foo: 1 }, c1, { event: 'tool', a: [] }, d]),
    contentType: 'text/event-stream',
    events: [f, c1, d],
    warnKinds: ['x', 'tool'],
  },
  {
    name: 'unknown event kinds are skipped and reported (NDJSON)',
    body: ndjson([f, { event: '7' }, c1, d]),
    contentType: 'application/x-ndjson',
    events: [f, c1, d],
    warnKinds: ['7'],
  },
  {
    name: 'unknown event kinds are skipped and reported (line-prefixed)',
    body: 'f:{"messageId":"m-1"}\n7:[{"x":1}]\n1:{"a":1}\n0:"Hello, "\nd:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":34}}\n',
    contentType: 'text/plain',
    events: [f, c1, d],
    warnKinds: ['7', '1'],
  },
  ...(['sse', 'ndjson', 'prefixed'] as const).map((framing): Fixture => ({
    name: `every part of the data stream protocol (v4) is decoded, typed (${framing})`,
    body: framing === 'sse' ? sse(EVERY_PART) : framing === 'ndjson' ? ndjson(EVERY_PART) : prefixed(EVERY_PART),
    contentType: framing === 'sse' ? 'text/event-stream' : framing === 'ndjson' ? 'application/x-ndjson' : 'text/plain',
    events: EVERY_PART,
  })),
  {
    name: 'a malformed part beside the reply (an annotation that is not an array, a source without url) is skipped and reported; the reply goes on',
    body: 'f:{"messageId":"m-1"}\n8:{"a":1}\nh:{"title":"no url"}\n0:"Hello, "\nd:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":34}}\n',
    contentType: 'text/plain',
    events: [f, c1, d],
    warnKinds: ['8', 'h'],
  },
  {
    name: 'extra unknown fields pass through',
    body: ndjson([{ ...f, extra: { a: 1 } }, { ...d, usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } }]),
    contentType: 'application/x-ndjson',
    events: [
      { event: 'f', messageId: 'm-1', extra: { a: 1 } },
      { event: 'd', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
    ],
  },
  {
    name: 'malformed SSE data line is quoted after the events before it',
    body: `data: ${JSON.stringify(f)}\n\ndata: ${JSON.stringify(c1)}\n\ndata: {"event":"0","data":oops}\n\ndata: ${JSON.stringify(d)}\n\n`,
    contentType: 'text/event-stream',
    events: [f, c1],
    error: { type: ProtocolError, includes: '"{"event":"0","data":oops}"' },
  },
  {
    name: 'malformed long NDJSON line is quoted shortened to about 120 characters',
    body: ndjson([f]) + longGarbage.slice(6) + '\n' + ndjson([d]),
    contentType: 'application/x-ndjson',
    events: [f],
    error: { type: ProtocolError, includes: `"{"event":"0","data":"${'x'.repeat(90)}` },
  },
  {
    name: 'malformed line-prefixed line',
    body: 'f:{"messageId":"m-1"}\n0:"Hello, "\nthis is not a frame\nd:{"finishReason":"stop"}\n',
    contentType: 'text/plain',
    events: [f, c1],
    error: { type: ProtocolError, includes: '"this is not a frame"' },
  },
  {
    name: 'line-prefixed chunk whose payload is not a string',
    body: 'f:{"messageId":"m-1"}\n0:{"data":"x"}\n',
    contentType: 'text/plain',
    events: [f],
    error: { type: ProtocolError, includes: 'data must be a string' },
  },
  {
    name: 'known event kind with a mistyped field names the field',
    body: ndjson([f, { event: 'd', finishReason: 'stop', usage: { promptTokens: 'many', completionTokens: 1 } }]),
    contentType: 'application/x-ndjson',
    events: [f],
    error: { type: ProtocolError, includes: 'usage.promptTokens must be a number' },
  },
  {
    name: 'event object without an event field',
    body: ndjson([f, { data: 'x' }, d]),
    contentType: 'application/x-ndjson',
    events: [f],
    error: { type: ProtocolError, includes: 'no string `event` field' },
  },
  {
    name: 'unrecognised framing is quoted',
    body: '<html><body>Bad Gateway</body></html>\n',
    events: [],
    error: { type: ProtocolError, includes: '"<html><body>Bad Gateway</body></html>"' },
  },
  {
    name: 'e is a step finish, not an error: f, 0, e (stop), d in SSE',
    body: sse([f, c1, eStop, d]),
    contentType: 'text/event-stream',
    events: [f, c1, eStop, d],
  },
  {
    name: 'e with isContinued true: the next step follows (NDJSON)',
    body: ndjson([f, c1, eCont, f, c2, eStop, d]),
    contentType: 'application/x-ndjson',
    events: [f, c1, eCont, f, c2, eStop, d],
  },
  {
    name: 'e with finishReason error is yielded (the consumer decides), line-prefixed',
    body: prefixed([f, c1, { event: 'e', finishReason: 'error', isContinued: false }, d]),
    contentType: 'text/plain',
    events: [f, c1, { event: 'e', finishReason: 'error', isContinued: false }, d],
  },
  {
    name: '3 error part, line-prefixed: 3:"message"',
    body: prefixed([f, c1]) + '3:"model overloaded"\n' + prefixed([d]),
    contentType: 'text/plain',
    events: [f, c1, { event: '3', error: 'model overloaded' }, d],
  },
  {
    name: '3 error part, SSE JSON object with `error`',
    body: sse([f, c1, { event: '3', error: 'model overloaded' }, d]),
    contentType: 'text/event-stream',
    events: [f, c1, { event: '3', error: 'model overloaded' }, d],
  },
  {
    name: '3 error part, NDJSON object with `message`, body ending without d: no incomplete-stream error',
    body: ndjson([f, c1, { event: '3', message: 'model overloaded' }]),
    contentType: 'application/x-ndjson',
    events: [f, c1, { event: '3', message: 'model overloaded', error: 'model overloaded' }],
  },
  {
    name: 'f without messageId is tolerated (the reply goes on)',
    body: ndjson([{ event: 'f' }, c1, d]),
    contentType: 'application/x-ndjson',
    events: [{ event: 'f', malformed: 'the start of the reply was malformed: "{"event":"f"}"' }, c1, d],
    warnKinds: ['f'],
  },
  {
    name: 'a malformed f in the line-prefixed framing: the reply goes on, the event says what was wrong',
    body: 'f:{not json\n' + prefixed([c1, d]),
    contentType: 'text/plain',
    events: [{ event: 'f', malformed: 'the start of the reply was malformed: "f:{not json"' }, c1, d],
    warnKinds: ['f'],
  },
  {
    name: 'stream ending without d or [DONE] fails after yielding what came',
    body: sse([f, c1, c2]).replace('data: [DONE]\n\n', ''),
    contentType: 'text/event-stream',
    events: [f, c1, c2],
    error: { type: ProtocolError, includes: INCOMPLETE_STREAM_MESSAGE },
  },
  {
    name: 'NDJSON ending without d fails after yielding what came',
    body: ndjson([f, c1]),
    contentType: 'application/x-ndjson',
    events: [f, c1],
    error: { type: ProtocolError, includes: INCOMPLETE_STREAM_MESSAGE },
  },
  {
    name: 'empty body is incomplete',
    body: '',
    contentType: 'text/event-stream',
    events: [],
    error: { type: ProtocolError, includes: INCOMPLETE_STREAM_MESSAGE },
  },
];

describe('client stream decoder', () => {
  describe('LineDecoder', () => {
    const cases: Array<[string, string[]]> = [
      ['a\nb\n', ['a', 'b']],
      ['a\r\nb\r\n', ['a', 'b']],
      ['a\rb\r', ['a', 'b']],
      ['a\r\rb', ['a', '', 'b']],
      ['a\r\n\r\nb', ['a', '', 'b']],
      ['\n\n', ['', '']],
      ['last line', ['last line']],
      ['x\n\r\ny', ['x', '', 'y']],
      ['😀\r\n你好', ['😀', '你好']],
    ];
    for (const [input, expected] of cases) {
      it(`splits ${JSON.stringify(input)} the same way at every chunk split`, () => {
        for (const { name, chunks } of splits(enc.encode(input))) {
          const dec = new LineDecoder();
          const lines = chunks.flatMap((c) => dec.push(c));
          lines.push(...dec.end());
          assert.deepEqual(lines, expected, name);
        }
      });
    }

    it('keeps a CR at a chunk end pending until the next chunk shows whether LF follows', () => {
      const dec = new LineDecoder();
      assert.deepEqual(dec.push(enc.encode('a\r')), ['a']);
      assert.deepEqual(dec.push(enc.encode('\nb\r')), ['b']);
      assert.deepEqual(dec.push(enc.encode('\nc')), []);
      assert.deepEqual(dec.end(), ['c']);
    });

    it('holds back an incomplete UTF-8 sequence and replaces one left at the end', () => {
      const bytes = enc.encode('€'); // e2 82 ac
      const dec = new LineDecoder();
      assert.deepEqual(dec.push(bytes.subarray(0, 2)), []);
      assert.deepEqual(dec.push(enc.encode('\n')), ['\uFFFD']);
      const dec2 = new LineDecoder();
      assert.deepEqual(dec2.push(bytes.subarray(0, 1)), []);
      assert.deepEqual(dec2.end(), ['\uFFFD']);
    });
  });

  describe('framing choice', () => {
    const byType: Array<[string | undefined, Framing | undefined]> = [
      ['text/event-stream', 'sse'],
      ['Text/Event-Stream; charset=utf-8', 'sse'],
      ['application/x-ndjson', 'ndjson'],
      ['application/jsonl', 'ndjson'],
      ['application/ndjson; charset=utf-8', 'ndjson'],
      ['text/plain; charset=utf-8', undefined],
      ['application/json', undefined],
      [undefined, undefined],
    ];
    for (const [ct, expected] of byType) {
      it(`content type ${String(ct)} -> ${String(expected ?? 'sniff')}`, () => {
        assert.equal(framingFromContentType(ct), expected);
      });
    }
    const sniffs: Array<[string, Framing | undefined]> = [
      ['data: {}', 'sse'],
      ['data:{}', 'sse'],
      [': comment', 'sse'],
      ['event: message', 'sse'],
      ['retry: 100', 'sse'],
      ['{"event":"f"}', 'ndjson'],
      ['0:"text"', 'prefixed'],
      ['f:{"messageId":"x"}', 'prefixed'],
      ['e:{}', 'prefixed'],
      ['d:{}', 'prefixed'],
      ['<html>', undefined],
      ['hello', undefined],
    ];
    for (const [line, expected] of sniffs) {
      it(`sniffs ${JSON.stringify(line)} as ${String(expected)}`, () => {
        assert.equal(sniffFraming(line), expected);
      });
    }
  });

  describe('fixtures fed whole, at every 2-way split and one byte at a time', () => {
    for (const fx of fixtures) {
      it(fx.name, async () => {
        const bytes = typeof fx.body === 'string' ? enc.encode(fx.body) : fx.body;
        const ways = splits(bytes);
        assert.ok(ways.length >= 2);
        for (const { name, chunks } of ways) {
          const out = await decodeAll(chunks, { contentType: fx.contentType, framing: fx.framing });
          assert.deepEqual(out.events, fx.events, `${name}: events`);
          if (fx.error) {
            assert.ok(out.error instanceof fx.error.type, `${name}: expected ${fx.error.type.name}, got ${String(out.error)}`);
            assert.ok(
              (out.error as Error).message.includes(fx.error.includes),
              `${name}: message ${JSON.stringify((out.error as Error).message)} lacks ${JSON.stringify(fx.error.includes)}`,
            );
            if (fx.error.finishReason) assert.equal((out.error as StreamEventError).finishReason, fx.error.finishReason);
          } else {
            assert.equal(out.error, undefined, `${name}: unexpected ${String(out.error)}`);
          }
          assert.deepEqual(
            out.warns.map((w) => w.data?.kind),
            fx.warnKinds ?? [],
            `${name}: warnings`,
          );
          if (fx.expectFraming) assert.equal(out.framing, fx.expectFraming, `${name}: framing`);
        }
      });
    }
  });

  it('quotes a malformed line shortened to about 120 characters', async () => {
    const out = await decodeAll([enc.encode(longGarbage + '\n\n')], { contentType: 'text/event-stream' });
    assert.ok(out.error instanceof ProtocolError);
    const excerpt = out.error.excerpt ?? '';
    assert.ok(excerpt.length <= 120 && excerpt.length >= 100, `excerpt length ${excerpt.length}`);
    assert.ok(excerpt.endsWith('…'));
    assert.ok(out.error.message.length < 200);
  });

  it('warnings about unknown kinds carry no message content', async () => {
    const secret = 'PRIVATE-CONTENT';
    const out = await decodeAll([enc.encode(ndjson([{ event: 'z', data: secret }, f, d]))], { contentType: 'application/x-ndjson' });
    assert.equal(out.error, undefined);
    assert.equal(out.warns.length, 1);
    assert.ok(!JSON.stringify(out.warns).includes(secret));
  });

  it('yields each event as soon as its frame is complete (no buffering of the whole stream)', async () => {
    const seen: string[] = [];
    const chunks = [`data: ${JSON.stringify(f)}\n\n`, `data: ${JSON.stringify(c1)}\n\n`, `data: ${JSON.stringify(d)}\n\n`];
    async function* slow(): AsyncGenerator<Uint8Array> {
      for (const c of chunks) {
        seen.push(`chunk`);
        yield enc.encode(c);
      }
    }
    for await (const ev of decodeEventStream(slow(), { contentType: 'text/event-stream' })) seen.push(ev.event);
    assert.deepEqual(seen, ['chunk', 'f', 'chunk', '0', 'chunk', 'd']);
  });

  it('breaking out early returns the source (so the request can be aborted)', async () => {
    let returned = false;
    async function* src(): AsyncGenerator<Uint8Array> {
      try {
        yield enc.encode(ndjson([f, c1]));
        yield enc.encode(ndjson([c2, d]));
      } finally {
        returned = true;
      }
    }
    for await (const ev of decodeEventStream(src(), { contentType: 'application/x-ndjson' })) {
      if (ev.event === '0') break;
    }
    assert.equal(returned, true);
  });

  it('the reply is complete at d: the decoder returns without waiting for the end of the input, and leaves the source open', async () => {
    let returned = false;
    let pulledAfterD = false;
    async function* heldOpen(): AsyncGenerator<Uint8Array> {
      try {
        yield enc.encode(sse([f, c1, eStop, d]).replace('data: [DONE]\n\n', ''));
        pulledAfterD = true;
        await new Promise(() => {}); // the server keeps the connection open
      } finally {
        returned = true;
      }
    }
    const got: StreamEvent[] = [];
    for await (const ev of decodeEventStream(heldOpen(), { contentType: 'text/event-stream' })) got.push(ev);
    assert.deepEqual(got, [f, c1, eStop, d]);
    assert.equal(pulledAfterD, false, 'nothing was read after d');
    assert.equal(returned, false, 'the source is left to its owner (drained or closed after a grace)');
  });

  it('a line over 1 MB is a protocol error, not unbounded memory (also in SSE events of many data lines)', async () => {
    const long = '0:"' + 'x'.repeat(2 * 1024 * 1024) + '"\n';
    const out = await decodeAll([enc.encode(prefixed([f])), enc.encode(long.slice(0, 1_500_000)), enc.encode(long.slice(1_500_000))], { contentType: 'text/plain' });
    assert.deepEqual(out.events, [f]);
    assert.ok(out.error instanceof ProtocolError, String(out.error));
    assert.match((out.error as Error).message, /longer than 1 MB/);
    const manyData = 'data: {"event":"0","data":"\n' + 'data: xxxxxxxxxxxxxxxx\n'.repeat(80_000) + '\n';
    const sseOut = await decodeAll([enc.encode(manyData)], { contentType: 'text/event-stream' });
    assert.ok(sseOut.error instanceof ProtocolError);
    assert.match((sseOut.error as Error).message, /longer than 1 MB/);
    const small = await decodeAll([enc.encode(prefixed([f]) + '0:"' + 'x'.repeat(1000) + '"\n' + prefixed([d]))], { contentType: 'text/plain', maxLineChars: 100 });
    assert.ok(small.error instanceof ProtocolError, 'the limit is configurable');
  });

  it('a source failing after the reply was complete loses nothing; failing before, the error propagates', async () => {
    async function* failingAfter(text: string): AsyncGenerator<Uint8Array> {
      yield enc.encode(text);
      throw new Error('socket hang up');
    }
    const complete: StreamEvent[] = [];
    for await (const ev of decodeEventStream(failingAfter(sse([f, c1, d])), { contentType: 'text/event-stream' })) complete.push(ev);
    assert.deepEqual(complete, [f, c1, d]);
    const got: StreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of decodeEventStream(failingAfter(sse([f, c1]).replace('data: [DONE]\n\n', '')), { contentType: 'text/event-stream' })) got.push(ev);
      })(),
      /socket hang up/,
    );
    assert.deepEqual(got, [f, c1]);
  });

  it('a malformed frame returns the source', async () => {
    let returned = false;
    async function* src(): AsyncGenerator<Uint8Array> {
      try {
        yield enc.encode('{"event":"f","messageId":"m"}\nnot json\n');
        yield enc.encode(ndjson([d]));
      } finally {
        returned = true;
      }
    }
    await assert.rejects(
      (async () => {
        for await (const _ of decodeEventStream(src(), { contentType: 'application/x-ndjson' })) void _;
      })(),
      ProtocolError,
    );
    assert.equal(returned, true);
  });

  it('EventDecoder stops at the first malformed frame and ignores later input', () => {
    const dec = new EventDecoder({ framing: 'ndjson' });
    const items = dec.push(enc.encode(`${JSON.stringify(f)}\nnope\n${JSON.stringify(d)}\n`));
    assert.deepEqual(
      items.map((i) => i.type),
      ['event', 'error'],
    );
    assert.deepEqual(dec.push(enc.encode(`${JSON.stringify(d)}\n`)), []);
    assert.deepEqual(dec.end(), []);
  });
});
