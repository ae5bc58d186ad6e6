import { strict as assert } from 'node:assert';
import { DEMO_KEY } from '../../server/fixtures';
import { estimateTokens, generateReply } from '../../server/reply';
import {
  get,
  parseNdjson,
  parsePrefixed,
  parseSse,
  postChat,
  readAll,
  textOf,
  useServer,
  userMessage,
  UUID_RE,
  waitForEntry,
  type StreamEventLike,
} from './helpers';

const PROMPT = 'Stream this please 🚀 len:600';

function checkEventOrder(events: StreamEventLike[], expectedText: string): void {
  assert.equal(events[0].event, 'f');
  assert.match(String(events[0].messageId), UUID_RE);
  const step = events.at(-2)!;
  assert.equal(step.event, 'e');
  assert.equal(step.finishReason, 'stop');
  assert.equal(step.isContinued, false);
  const last = events.at(-1)!;
  assert.equal(last.event, 'd');
  assert.equal(last.finishReason, 'stop');
  const usage = last.usage as { promptTokens: number; completionTokens: number };
  assert.ok(Number.isInteger(usage.promptTokens) && Number.isInteger(usage.completionTokens));
  assert.equal(usage.promptTokens, estimateTokens(PROMPT.length));
  assert.equal(usage.completionTokens, estimateTokens(expectedText.length));
  assert.ok(events.slice(1, -2).every((e) => e.event === '0' && typeof e.data === 'string'));
  assert.equal(textOf(events), expectedText);
}

describe('reference server: streaming', () => {
  const ctx = useServer();
  const expected = generateReply([{ role: 'user', content: PROMPT }]);

  it('SSE by default: headers, f, chunks, e (step finish, stop), d with usage, [DONE]', async () => {
    const res = await postChat(ctx.s, { ...userMessage(PROMPT), stream: true });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    const { text } = await readAll(res);
    assert.ok(text.endsWith('data: [DONE]\n\n'));
    const { events, done } = parseSse(text);
    assert.ok(done);
    checkEventOrder(events, expected);
  });

  it('the streamed text equals the non-streaming content for the same prompt', async () => {
    const res = await postChat(ctx.s, userMessage(PROMPT));
    assert.equal(((await res.json()) as { content: string }).content, expected);
  });

  it('splits into chunks of chunkSize characters, never inside a surrogate pair', async () => {
    ctx.s.control.configure({ chunkSize: 5 });
    const prompt = '🚀🚀🚀 emoji everywhere len:400';
    const res = await postChat(ctx.s, { ...userMessage(prompt), stream: true });
    const { events } = parseSse((await readAll(res)).text);
    const chunks = events.filter((e) => e.event === '0').map((e) => e.data as string);
    const reply = generateReply([{ role: 'user', content: prompt }]);
    assert.equal(chunks.join(''), reply);
    assert.ok(/[\u{1F300}-\u{1FAFF}]/u.test(reply), 'the reply contains an astral-plane emoji');
    for (const c of chunks) {
      assert.ok(c.length <= 5, `chunk too long: ${JSON.stringify(c)}`);
      assert.ok(!/^[\uDC00-\uDFFF]/.test(c) && !/[\uD800-\uDBFF]$/.test(c), `split surrogate: ${JSON.stringify(c)}`);
    }
    assert.ok(chunks.filter((c) => c.length === 5).length > chunks.length / 2);
  });

  it('NDJSON framing (fault `framing`)', async () => {
    ctx.s.control.injectFault({ kind: 'framing', framing: 'ndjson' });
    const res = await postChat(ctx.s, { ...userMessage(PROMPT), stream: true });
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
    const { text } = await readAll(res);
    assert.ok(!text.includes('[DONE]'));
    checkEventOrder(parseNdjson(text), expected);
  });

  it('line-prefixed framing (fault `framing`)', async () => {
    ctx.s.control.injectFault({ kind: 'framing', framing: 'prefixed' });
    const res = await postChat(ctx.s, { ...userMessage(PROMPT), stream: true });
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    const { text } = await readAll(res);
    const lines = text.split('\n').filter(Boolean);
    assert.match(lines[0], /^f:\{"messageId":"[0-9a-f-]{36}"\}$/);
    assert.match(lines[1], /^0:"/);
    assert.match(lines.at(-2)!, /^e:\{"finishReason":"stop","usage":\{"promptTokens":\d+,"completionTokens":\d+\},"isContinued":false\}$/);
    assert.match(lines.at(-1)!, /^d:\{"finishReason":"stop","usage":\{"promptTokens":\d+,"completionTokens":\d+\}\}$/);
    assert.equal(res.headers.get('x-vercel-ai-data-stream'), 'v1');
    checkEventOrder(parsePrefixed(text), expected);
  });

  it('the framing fault applies once, then SSE again', async () => {
    ctx.s.control.injectFault({ kind: 'framing', framing: 'ndjson' });
    const a = await postChat(ctx.s, { ...userMessage('a'), stream: true });
    await a.arrayBuffer();
    const b = await postChat(ctx.s, { ...userMessage('b'), stream: true });
    assert.equal(a.headers.get('content-type'), 'application/x-ndjson');
    assert.equal(b.headers.get('content-type'), 'text/event-stream');
    await b.arrayBuffer();
  });

  it('configure({framing}) changes the default framing until reset', async () => {
    ctx.s.control.configure({ framing: 'prefixed' });
    const res = await postChat(ctx.s, { ...userMessage(PROMPT), stream: true });
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    checkEventOrder(parsePrefixed((await readAll(res)).text), expected);
    ctx.s.control.reset();
    const res2 = await postChat(ctx.s, { ...userMessage(PROMPT), stream: true });
    assert.equal(res2.headers.get('content-type'), 'text/event-stream');
    await res2.arrayBuffer();
  });

  it('headers arrive before the first chunk is due (flushed at once)', async () => {
    ctx.s.control.configure({ chunkDelayMs: 60_000 });
    const res = await postChat(ctx.s, { ...userMessage('slow'), stream: true });
    assert.equal(res.status, 200);
    // The f event is sent with the headers; chunks would take a minute each.
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /^data: \{"event":"f"/);
    await reader.cancel();
  });

  it('client disconnect: stops the stream and logs clientClosed, credits stay charged', async () => {
    ctx.s.control.configure({ chunkDelayMs: 20 });
    const ac = new AbortController();
    const res = await fetch(ctx.s.url + '/chat', {
      method: 'POST',
      headers: { 'x-api-key': DEMO_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ ...userMessage('long one len:100000'), stream: true }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    const entry = await waitForEntry(ctx.s, (e) => e.path === '/chat' && e.clientClosed === true);
    assert.equal(entry.status, 200);
    const bal = (await (await get(ctx.s, '/user/balance')).json()) as { balance: { totalBalance: number } };
    assert.equal(bal.balance.totalBalance, 999);
  });

  it('a long reply (len:200000) streams completely with backpressure', async () => {
    ctx.s.control.configure({ chunkSize: 4096 });
    const res = await postChat(ctx.s, { ...userMessage('big len:200000'), stream: true });
    const { events, done } = parseSse((await readAll(res)).text);
    assert.ok(done);
    const text = textOf(events);
    assert.equal(text, generateReply([{ role: 'user', content: 'big len:200000' }]));
    assert.ok(text.length > 150_000);
  });
});
