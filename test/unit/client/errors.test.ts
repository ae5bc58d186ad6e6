import { strict as assert } from 'node:assert';
import {
  APIError,
  AuthenticationError,
  ChatServiceError,
  ConnectionError,
  InsufficientCreditsError,
  InvalidInputError,
  ProtocolError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  StreamEventError,
  TimeoutError,
  UserAbortError,
  formatPath,
  parseRetryAfter,
  shorten,
} from '../../../src/client/errors';

describe('client errors', () => {
  const byStatus: Array<[number, Function, string]> = [
    [400, InvalidInputError, 'invalid'],
    [401, AuthenticationError, 'auth'],
    [403, AuthenticationError, 'auth'],
    [402, InsufficientCreditsError, 'credits'],
    [429, RateLimitError, 'rate-limit'],
    [500, ServerError, 'server'],
    [502, ServerError, 'server'],
    [503, ServerError, 'server'],
    [404, APIError, 'invalid'],
    [409, APIError, 'invalid'],
    [413, APIError, 'invalid'],
    [504, ServerError, 'server'],
    [302, APIError, 'server'],
  ];
  for (const [status, cls, kind] of byStatus) {
    it(`HTTP ${status} -> ${cls.name} (kind ${kind})`, () => {
      const e = APIError.fromResponse({ status, code: 'X', message: 'm', traceId: 't', headers: { a: 'b' }, body: { error: 'm', code: 'X' } });
      assert.equal(e.constructor, cls);
      assert.ok(e instanceof APIError && e instanceof ChatServiceError && e instanceof Error);
      assert.equal(e.kind, kind);
      assert.equal(e.status, status);
      assert.equal(e.code, 'X');
      assert.equal(e.traceId, 't');
      assert.equal(e.message, 'm');
      assert.equal(e.name, cls.name);
      assert.deepEqual(e.headers, { a: 'b' });
    });
  }

  it('InsufficientCreditsError takes creditsRemaining from the body', () => {
    const e = APIError.fromResponse({ status: 402, body: { error: 'x', code: 'INSUFFICIENT_CREDITS', creditsRemaining: 2 } });
    assert.ok(e instanceof InsufficientCreditsError);
    assert.equal(e.creditsRemaining, 2);
    const none = new InsufficientCreditsError({ status: 402 });
    assert.equal(none.creditsRemaining, undefined);
    assert.match(none.message, /credits/i);
  });

  it('RateLimitError reads Retry-After from the headers', () => {
    const e = APIError.fromResponse({ status: 429, headers: { 'retry-after': '7' } });
    assert.ok(e instanceof RateLimitError);
    assert.equal(e.retryAfterMs, 7000);
    assert.equal(new RateLimitError({ status: 429 }).retryAfterMs, undefined);
  });

  it('parseRetryAfter accepts seconds and HTTP-dates', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 12 ', now), 12000);
    assert.equal(parseRetryAfter('1.5', now), 1500);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now), 30000);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('-3', now), undefined);
  });

  it('the other errors have their kinds and keep causes', () => {
    const cause = new Error('low level');
    const cases: Array<[ChatServiceError, string]> = [
      [new ConnectionError('c', { cause, code: 'ECONNREFUSED' }), 'connection'],
      [new TimeoutError('t', { phase: 'headers', timeoutMs: 5, cause }), 'timeout'],
      [new UserAbortError(undefined, { cause }), 'aborted'],
      [new ProtocolError('p', { cause, field: 'a.b' }), 'protocol'],
    ];
    for (const [e, kind] of cases) {
      assert.equal(e.kind, kind);
      assert.equal(e.cause, cause);
      assert.ok(e instanceof ChatServiceError);
    }
    assert.equal((cases[0][0] as ConnectionError).code, 'ECONNREFUSED');
    assert.equal((cases[1][0] as TimeoutError).phase, 'headers');
    const s = new StreamEventError('model overloaded', 'error', 'partial text');
    assert.equal(s.kind, 'stream');
    assert.equal(s.finishReason, 'error');
    assert.equal(s.text, 'partial text');
    const v = new RequestValidationError([{ field: 'temperature', rule: 'must be <= 2' }]);
    assert.equal(v.kind, 'validation');
    assert.equal(v.message, 'Invalid request: temperature must be <= 2');
  });

  it('formatPath and shorten', () => {
    assert.equal(formatPath(['messages', 2, 'id']), 'messages[2].id');
    assert.equal(formatPath([0, 'valueId']), '[0].valueId');
    assert.equal(formatPath([]), '(root)');
    assert.equal(shorten('a\n  b'), 'a b');
    const long = shorten('y'.repeat(500));
    assert.equal(long.length, 120);
    assert.ok(long.endsWith('…'));
  });
});
