import { strict as assert } from 'node:assert';
import { DEMO_KEY, FAULT_KINDS, type Fault } from '../../server/fixtures';
import { generateReply } from '../../server/reply';
import type { ReferenceServer } from '../../server/server';
import { get, parseSse, postChat, readAll, textOf, useServer, userMessage, waitForEntry } from './helpers';

const PROMPT = 'faulty len:300';
const streamBody = { ...userMessage(PROMPT), stream: true };

async function totalBalance(s: ReferenceServer): Promise<number> {
  const res = await get(s, '/user/balance');
  return ((await res.json()) as { balance: { totalBalance: number } }).balance.totalBalance;
}

describe('reference server: fault injection', () => {
  const ctx = useServer();
  const reply = generateReply([{ role: 'user', content: PROMPT }]);
  const chunkCount = Math.ceil(reply.length / 24);

  it('delay-headers: the response waits at least `ms`, then is normal', async () => {
    ctx.s.control.injectFault({ kind: 'delay-headers', ms: 150 });
    const t0 = Date.now();
    const res = await postChat(ctx.s, userMessage('x'));
    assert.ok(Date.now() - t0 >= 140, 'headers were not delayed');
    assert.equal(res.status, 200);
    await res.json();
    assert.equal(ctx.s.control.requests()[0].fault, 'delay-headers');
  });

  it('delay-headers: a client giving up during the delay is not charged', async () => {
    ctx.s.control.injectFault({ kind: 'delay-headers', ms: 30_000 });
    const ac = new AbortController();
    const pending = fetch(ctx.s.url + '/chat', {
      method: 'POST',
      headers: { 'x-api-key': DEMO_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(userMessage('x')),
      signal: ac.signal,
    });
    await waitForEntry(ctx.s, (e) => e.fault === 'delay-headers');
    ac.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    const entry = await waitForEntry(ctx.s, (e) => e.fault === 'delay-headers' && e.clientClosed === true);
    assert.equal(entry.status, 0);
    assert.equal(await totalBalance(ctx.s), 1000);
  });

  it('slow-chunks: chunks are spaced by `ms`', async () => {
    ctx.s.control.injectFault({ kind: 'slow-chunks', ms: 30 });
    const t0 = Date.now();
    const res = await postChat(ctx.s, { ...userMessage('slow len:100'), stream: true });
    const { events, done } = parseSse((await readAll(res)).text);
    const chunks = events.filter((e) => e.event === '0').length;
    assert.ok(done);
    assert.ok(chunks >= 4);
    assert.ok(Date.now() - t0 >= chunks * 25, 'chunks were not slowed');
  });

  it('drop-mid-stream: the socket dies after N chunks, without d', async () => {
    ctx.s.control.injectFault({ kind: 'drop-mid-stream', afterChunks: 3 });
    const res = await postChat(ctx.s, streamBody);
    assert.equal(res.status, 200);
    const { text, error } = await readAll(res);
    assert.ok(error, 'reading should fail');
    const { events, done } = parseSse(text);
    assert.equal(done, false);
    assert.deepEqual(events.map((e) => e.event), ['f', '0', '0', '0']);
    assert.equal(await totalBalance(ctx.s), 999, 'the reply had started: charged');
    const entry = ctx.s.control.requests().find((e) => e.path === '/chat')!;
    assert.equal(entry.fault, 'drop-mid-stream');
    assert.notEqual(entry.clientClosed, true, 'a server-side drop is not a client close');
  });

  it('drop-mid-stream on a non-streaming chat: body cut, connection closed', async () => {
    ctx.s.control.injectFault({ kind: 'drop-mid-stream' });
    const res = await postChat(ctx.s, userMessage('x'));
    assert.equal(res.status, 200);
    await assert.rejects(res.json());
  });

  for (const [status, code] of [[500, 'SERVER_ERROR'], [502, 'SERVER_ERROR'], [503, 'SERVER_ERROR'], [429, 'RATE_LIMITED'], [403, 'AUTH_FAILED']] as const) {
    it(`status ${status}: JSON error body with code ${code}`, async () => {
      ctx.s.control.injectFault({ kind: 'status', status });
      const res = await postChat(ctx.s, userMessage('x'));
      assert.equal(res.status, status);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.code, code);
      assert.equal(body.success, false);
      assert.equal(await totalBalance(ctx.s), 1000, 'nothing charged');
    });
  }

  it('status 429 with retryAfter sets Retry-After (seconds)', async () => {
    ctx.s.control.injectFault({ kind: 'status', status: 429, retryAfter: 3 });
    const res = await postChat(ctx.s, userMessage('x'));
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '3');
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.code, 'RATE_LIMITED');
    assert.match(String(body.message), /retry after 3 s/);
  });

  it('status 502 with html: an HTML gateway page', async () => {
    ctx.s.control.injectFault({ kind: 'status', status: 502, html: true });
    const res = await postChat(ctx.s, userMessage('x'));
    assert.equal(res.status, 502);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await res.text(), /<h1>502 Bad Gateway<\/h1>/);
  });

  it('status 402: INSUFFICIENT_CREDITS shape', async () => {
    ctx.s.control.injectFault({ kind: 'status', status: 402 });
    const res = await postChat(ctx.s, userMessage('x'));
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.code, 'INSUFFICIENT_CREDITS');
    assert.equal(body.creditsRemaining, 0);
  });

  it('times: a fault applies to the next `times` requests, then normal service', async () => {
    ctx.s.control.injectFault({ kind: 'status', status: 503, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await postChat(ctx.s, userMessage('x'));
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [503, 503, 200]);
  });

  it('faults queue in order per path; other paths are unaffected', async () => {
    ctx.s.control.injectFault({ kind: 'status', status: 500 });
    ctx.s.control.injectFault({ kind: 'status', status: 429, path: '/user/balance' });
    ctx.s.control.injectFault({ kind: 'status', status: 502 });
    const b = await get(ctx.s, '/user/balance');
    const m = await get(ctx.s, '/ai-model');
    const c1 = await postChat(ctx.s, userMessage('x'));
    const c2 = await postChat(ctx.s, userMessage('x'));
    const c3 = await postChat(ctx.s, userMessage('x'));
    assert.deepEqual([b.status, m.status, c1.status, c2.status, c3.status], [429, 200, 500, 502, 200]);
    await Promise.all([b, m, c1, c2, c3].map((r) => r.arrayBuffer()));
  });

  it("path '*' matches any service path", async () => {
    ctx.s.control.injectFault({ kind: 'status', status: 503, path: '*' });
    const res = await get(ctx.s, '/subscription');
    assert.equal(res.status, 503);
    await res.arrayBuffer();
  });

  it('a fault is consumed even when the request then fails auth', async () => {
    ctx.s.control.injectFault({ kind: 'slow-chunks', ms: 1 });
    const res = await postChat(ctx.s, userMessage('x'), { key: null });
    assert.equal(res.status, 401);
    await res.arrayBuffer();
    assert.deepEqual(ctx.s.control.pendingFaults(), []);
  });

  it('malformed-frame: one unparsable SSE frame after N chunks, then the stream goes on', async () => {
    ctx.s.control.injectFault({ kind: 'malformed-frame', afterChunks: 2 });
    const res = await postChat(ctx.s, streamBody);
    const { text } = await readAll(res);
    const blocks = text.split('\n\n').filter(Boolean);
    assert.match(blocks[3], /^data: \{"event":"0","data":"unterminated$/);
    assert.throws(() => JSON.parse(blocks[3].slice(6)));
    assert.equal(blocks.at(-1), 'data: [DONE]');
    const good = parseSse(blocks.filter((_, i) => i !== 3).join('\n\n') + '\n\n');
    assert.equal(textOf(good.events), reply);
  });

  it('malformed-frame on a JSON endpoint: a complete but unparsable body', async () => {
    ctx.s.control.injectFault({ kind: 'malformed-frame', path: '/ai-model' });
    const res = await get(ctx.s, '/ai-model');
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(text.length > 0);
    assert.throws(() => JSON.parse(text));
  });

  it('default stream is what the service sends: f, many 0, e (step finish, stop), d, [DONE]', async () => {
    const res = await postChat(ctx.s, streamBody);
    const { events, done } = parseSse((await readAll(res)).text);
    const kinds = events.map((e) => e.event);
    assert.equal(kinds[0], 'f');
    assert.ok(kinds.filter((k) => k === '0').length > 10);
    assert.deepEqual(kinds.slice(-2), ['e', 'd']);
    const e = events.at(-2) as unknown as { finishReason: string; isContinued: boolean; usage: { promptTokens: number; completionTokens: number } };
    assert.equal(e.finishReason, 'stop');
    assert.equal(e.isContinued, false);
    assert.ok(e.usage.promptTokens > 0 && e.usage.completionTokens > 0);
    assert.equal((events.at(-1) as unknown as { finishReason: string }).finishReason, 'stop');
    assert.ok(done);
    assert.equal(textOf(events), reply);
  });

  it('finish: e and d with that finishReason after N chunks', async () => {
    ctx.s.control.injectFault({ kind: 'finish', afterChunks: 2, finishReason: 'length' });
    const res = await postChat(ctx.s, streamBody);
    const { events, done } = parseSse((await readAll(res)).text);
    assert.deepEqual(events.map((e) => e.event), ['f', '0', '0', 'e', 'd']);
    assert.equal((events[3] as unknown as { finishReason: string }).finishReason, 'length');
    assert.equal((events[4] as unknown as { finishReason: string }).finishReason, 'length');
    assert.ok(done);
  });

  it('multi-step: steps joined by e isContinued:true, one d whose usage is the sum of the steps', async () => {
    ctx.s.control.injectFault({ kind: 'multi-step', steps: 3 });
    const res = await postChat(ctx.s, streamBody);
    const { events } = parseSse((await readAll(res)).text);
    const es = events.filter((e) => e.event === 'e') as unknown as Array<{ isContinued: boolean; usage: { completionTokens: number } }>;
    assert.deepEqual(es.map((e) => e.isContinued), [true, true, false]);
    assert.equal(events.filter((e) => e.event === 'f').length, 3);
    const d = events.at(-1) as unknown as { event: string; usage: { completionTokens: number } };
    assert.equal(d.event, 'd');
    const summed = es.reduce((n, e) => n + e.usage.completionTokens, 0);
    assert.ok(Math.abs(summed - d.usage.completionTokens) <= 3, `${summed} vs ${d.usage.completionTokens}`);
    assert.equal(textOf(events), reply);
  });

  it('error-part in the line-prefixed framing: 3:"message", then e/d with finishReason error; the v1 header is sent', async () => {
    ctx.s.control.injectFault({ kind: 'error-part', afterChunks: 1, message: 'model overloaded', framing: 'prefixed' });
    const res = await postChat(ctx.s, streamBody);
    assert.equal(res.headers.get('x-vercel-ai-data-stream'), 'v1');
    const lines = (await res.text()).split('\n').filter(Boolean);
    assert.equal(lines[2], '3:"model overloaded"');
    assert.match(lines[3], /^e:\{"finishReason":"error"/);
    assert.match(lines[4], /^d:\{"finishReason":"error"/);
  });

  it('error-part combined with NDJSON framing, closing the body after it', async () => {
    ctx.s.control.injectFault({ kind: 'error-part', afterChunks: 0, framing: 'ndjson', close: true });
    const res = await postChat(ctx.s, streamBody);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
    const lines = (await res.text()).split('\n').filter(Boolean);
    assert.equal(lines.length, 2);
    assert.equal(JSON.parse(lines[1]).event, '3');
  });

  it('hold-open: the whole reply and [DONE], then the body stays open until the client leaves', async () => {
    ctx.s.control.injectFault({ kind: 'hold-open', ms: 300 });
    const res = await postChat(ctx.s, streamBody);
    const started = Date.now();
    const { events, done } = parseSse((await readAll(res)).text);
    assert.ok(done);
    assert.equal(events.at(-1)!.event, 'd');
    assert.ok(Date.now() - started >= 250, 'the body ended only after the hold');
  });

  it('keep-alive-only: comments and no event', async () => {
    ctx.s.control.injectFault({ kind: 'keep-alive-only', ms: 20 });
    const res = await postChat(ctx.s, streamBody);
    const reader = res.body!.getReader();
    let text = '';
    while (text.length < 40) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    assert.match(text, /^(: keep-alive\n\n)+/);
    assert.doesNotMatch(text, /data:/);
  });

  it('truncated-body (non-streaming): half the JSON, then the connection closes', async () => {
    ctx.s.control.injectFault({ kind: 'truncated-body' });
    const res = await postChat(ctx.s, userMessage('x'));
    assert.equal(res.status, 200);
    const { text, error } = await readAll(res);
    assert.ok(error, 'the body must fail');
    assert.ok(text.startsWith('{"id":"'));
    assert.throws(() => JSON.parse(text));
  });

  it('truncated-body (GET): works on the JSON endpoints too', async () => {
    ctx.s.control.injectFault({ kind: 'truncated-body', path: '/user/balance' });
    const res = await get(ctx.s, '/user/balance');
    await assert.rejects(res.json());
  });

  it('truncated-body (streaming): ends cleanly after half the chunks, no d, no [DONE]', async () => {
    ctx.s.control.injectFault({ kind: 'truncated-body' });
    const res = await postChat(ctx.s, streamBody);
    const { text, error } = await readAll(res);
    assert.equal(error, undefined);
    const { events, done } = parseSse(text);
    assert.equal(done, false);
    assert.equal(events.filter((e) => e.event === '0').length, Math.floor(chunkCount / 2));
    assert.ok(!events.some((e) => e.event === 'd'));
  });

  it('reset-before-headers: the request fails with no response at all', async () => {
    ctx.s.control.injectFault({ kind: 'reset-before-headers' });
    await assert.rejects(postChat(ctx.s, userMessage('x')), TypeError);
    const entry = await waitForEntry(ctx.s, (e) => e.fault === 'reset-before-headers');
    assert.equal(entry.status, 0);
    assert.notEqual(entry.clientClosed, true);
    assert.equal(await totalBalance(ctx.s), 1000);
  });

  it('every fault kind is covered by a test above', () => {
    const covered: Fault['kind'][] = ['delay-headers', 'slow-chunks', 'drop-mid-stream', 'status', 'malformed-frame', 'finish', 'multi-step', 'error-part', 'hold-open', 'keep-alive-only', 'framing', 'truncated-body', 'reset-before-headers'];
    assert.deepEqual([...covered].sort(), [...FAULT_KINDS].sort());
  });

  it('rejects invalid faults', () => {
    assert.throws(() => ctx.s.control.injectFault({ kind: 'nope' } as unknown as Fault), /invalid fault/);
    assert.throws(() => ctx.s.control.injectFault({ kind: 'status' } as unknown as Fault), /status/);
    assert.throws(() => ctx.s.control.injectFault({ kind: 'delay-headers', ms: -1 }), /ms/);
    assert.throws(() => ctx.s.control.injectFault({ kind: 'status', status: 500, path: '/other' as '/chat' }), /path/);
  });

  it('the request log never holds the key itself', async () => {
    await (await postChat(ctx.s, userMessage('x'))).arrayBuffer();
    assert.equal(ctx.s.control.requests()[0].hasKey, true);
    assert.equal(JSON.stringify(ctx.s.control.requests()).includes(DEMO_KEY), false);
  });
});
