import { strict as assert } from 'node:assert';
import { APIError, AuthenticationError, ConnectionError, InsufficientCreditsError, RateLimitError, ServerError, TimeoutError, UserAbortError, buildApiError } from '../../../src/client';
import { DEFAULT_RETRY, isRetryableError, isRetryableStatus, retryDelayMs, sleep } from '../../../src/client/retry';

describe('client retry policy', () => {
  const statuses: Array<[number, boolean, boolean]> = [
    // status, GET retried, POST /chat retried
    [400, false, false],
    [401, false, false],
    [402, false, false],
    [403, false, false],
    [404, false, false],
    [408, true, false],
    [409, true, false],
    [429, true, true],
    [500, true, false],
    [502, true, false],
    [503, true, true],
    [504, true, false],
  ];
  for (const [status, get, chat] of statuses) {
    it(`${status}: GET ${get ? 'retried' : 'not retried'}, POST /chat ${chat ? 'retried' : 'not retried'}`, () => {
      assert.equal(isRetryableStatus(status, 'idempotent'), get);
      assert.equal(isRetryableStatus(status, 'chat'), chat);
    });
  }

  it('exceptions: GETs retry connection errors and timeouts; POST /chat only refused or unopened connections', () => {
    const refused = new ConnectionError('x', { code: 'ECONNREFUSED' });
    const reset = new ConnectionError('x', { code: 'UND_ERR_SOCKET' });
    const connectTimeout = new TimeoutError('x', { phase: 'connect' });
    const headersTimeout = new TimeoutError('x', { phase: 'headers' });
    const bodyTimeout = new TimeoutError('x', { phase: 'body' });
    for (const e of [refused, reset, connectTimeout, headersTimeout, bodyTimeout]) assert.equal(isRetryableError(e, 'idempotent'), true);
    assert.equal(isRetryableError(refused, 'chat'), true);
    assert.equal(isRetryableError(connectTimeout, 'chat'), true);
    assert.equal(isRetryableError(reset, 'chat'), false);
    assert.equal(isRetryableError(headersTimeout, 'chat'), false);
    assert.equal(isRetryableError(bodyTimeout, 'chat'), false);
    assert.equal(isRetryableError(new UserAbortError(), 'idempotent'), false);
    assert.equal(isRetryableError(new Error('x'), 'idempotent'), false);
  });

  it('backoff doubles per retry, is capped, and jitters down by at most 25 %', () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(retryDelayMs(1, undefined, opts, () => 0), 100);
    assert.equal(retryDelayMs(2, undefined, opts, () => 0), 200);
    assert.equal(retryDelayMs(3, undefined, opts, () => 0), 400);
    assert.equal(retryDelayMs(5, undefined, opts, () => 0), 1000);
    assert.equal(retryDelayMs(1, undefined, opts, () => 0.999), 75);
    for (let i = 0; i < 50; i++) {
      const d = retryDelayMs(2, undefined, opts) ?? -1;
      assert.ok(d >= 150 && d <= 200, String(d));
    }
  });

  it('Retry-After wins over the backoff; above the cap there is no retry', () => {
    const opts = { ...DEFAULT_RETRY, maxRetryAfterMs: 60_000 };
    assert.equal(retryDelayMs(1, 0, opts), 0);
    assert.equal(retryDelayMs(3, 2500, opts), 2500);
    assert.equal(retryDelayMs(1, 60_000, opts), 60_000);
    assert.equal(retryDelayMs(1, 60_001, opts), undefined);
  });

  it('sleep resolves, and rejects with UserAbortError when aborted (before or during)', async () => {
    await sleep(1);
    await assert.rejects(sleep(10, AbortSignal.abort()), UserAbortError);
    const ac = new AbortController();
    const p = sleep(60_000, ac.signal);
    ac.abort();
    await assert.rejects(p, UserAbortError);
  });
});

describe('client error responses (buildApiError)', () => {
  it('an ErrorBody gives code, message, traceId and details', () => {
    const e = buildApiError(400, {}, JSON.stringify({ error: 'bad', code: 'INVALID_INPUT', success: false, message: 'messages[0].role must be one of user, system, assistant', traceId: 't-1', details: 'field=messages[0].role' }));
    assert.equal(e.kind, 'invalid');
    assert.equal(e.message, 'messages[0].role must be one of user, system, assistant');
    assert.equal(e.code, 'INVALID_INPUT');
    assert.equal(e.traceId, 't-1');
    assert.equal(e.details, 'field=messages[0].role');
    assert.equal((e.body as Record<string, unknown>).success, false);
  });

  it('the code refines an unusual status: AUTH_FAILED, INSUFFICIENT_CREDITS, RATE_LIMITED', () => {
    assert.ok(buildApiError(400, {}, JSON.stringify({ error: 'x', code: 'AUTH_FAILED' })) instanceof AuthenticationError);
    const credits = buildApiError(403, {}, JSON.stringify({ error: 'x', code: 'INSUFFICIENT_CREDITS', creditsRemaining: 3 }));
    assert.ok(credits instanceof InsufficientCreditsError);
    assert.equal(credits.creditsRemaining, 3);
    const rl = buildApiError(503, { 'retry-after': '4' }, JSON.stringify({ error: 'x', code: 'RATE_LIMITED' }));
    assert.ok(rl instanceof RateLimitError);
    assert.equal(rl.retryAfterMs, 4000);
  });

  it('an HTML page gives the status error with a short text excerpt in details', () => {
    const html = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><h1>Bad Gateway</h1><p>${'upstream failed '.repeat(40)}</p></body></html>`;
    const e = buildApiError(502, { 'content-type': 'text/html', 'x-request-id': 'req-9' }, html);
    assert.ok(e instanceof ServerError);
    assert.equal(e.code, undefined);
    assert.equal(e.body, html);
    assert.equal(e.traceId, 'req-9');
    assert.ok(e.details?.startsWith('502 Bad Gateway Bad Gateway upstream failed'), e.details);
    assert.ok(!e.details?.includes('color:red'));
    assert.ok((e.details ?? '').length <= 160);
    assert.match(e.message, /HTTP 502/);
  });

  it('an empty or non-object body still gives the typed error', () => {
    const empty = buildApiError(401, {}, '');
    assert.ok(empty instanceof AuthenticationError);
    assert.equal(empty.details, undefined);
    const arr = buildApiError(418, {}, '[1,2]');
    assert.equal(arr.constructor, APIError);
    assert.equal(arr.details, '[1,2]');
    const odd = buildApiError(500, {}, JSON.stringify({ message: 'boom', code: 7 }));
    assert.ok(odd instanceof ServerError);
    assert.equal(odd.message, 'boom');
    assert.equal(odd.code, undefined);
  });
});
