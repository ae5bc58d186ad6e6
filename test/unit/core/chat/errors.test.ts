import { strict as assert } from 'node:assert';
import { errorKind, errorToView, DEFAULT_RETRY_AFTER_SECONDS } from '../../../../src/core';

const base = 'http://127.0.0.1:8787';
function err(kind: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(typeof extra.message === 'string' ? extra.message : `${kind} failure`), { kind }, extra);
}

describe('error -> action mapping', () => {
  it('auth -> Set API Key', () => {
    const v = errorToView(err('auth', { traceId: 't-1' }), base);
    assert.equal(v.kind, 'auth');
    assert.deepEqual(v.actions, ['setApiKey']);
    assert.match(v.message, /trace t-1/);
  });
  it('credits -> Show Subscriptions, with the remaining credits', () => {
    const v = errorToView(err('credits', { creditsRemaining: 0 }), base);
    assert.deepEqual(v.actions, ['showSubscriptions']);
    assert.match(v.message, /0 left/);
  });
  it('rate-limit -> retry after N seconds', () => {
    const v = errorToView(err('rate-limit', { retryAfterMs: 2500 }), base);
    assert.deepEqual(v.actions, ['retry']);
    assert.equal(v.retryAfterSeconds, 3);
    assert.equal(errorToView(err('rate-limit'), base).retryAfterSeconds, DEFAULT_RETRY_AFTER_SECONDS);
  });
  it('connection and timeout name the base URL and offer Open Settings and Retry', () => {
    for (const kind of ['connection', 'timeout']) {
      const v = errorToView(err(kind), base);
      assert.ok(v.message.includes(base), v.message);
      assert.equal(v.baseUrl, base);
      assert.deepEqual(v.actions, ['openSettings', 'retry']);
    }
  });
  it('server, protocol and stream -> message and Retry', () => {
    for (const kind of ['server', 'protocol', 'stream']) {
      const v = errorToView(err(kind, { message: 'bad thing' }), base);
      assert.deepEqual(v.actions, ['retry']);
      assert.match(v.message, /bad thing/);
    }
  });
  it('names a 5xx a server error, and a broken connection a connection failure', () => {
    assert.match(errorToView(err('server', { message: 'The service failed (HTTP 500)' }), base).message, /^Server error/);
    assert.match(errorToView(err('connection', { message: 'socket closed' }), base).message, /^Connection to the service at http:\/\/127\.0\.0\.1:8787 failed/);
  });
  it('says when no key is set', () => {
    const v = errorToView(err('auth', { code: 'MISSING_API_KEY' }), base);
    assert.match(v.message, /No API key/);
    assert.deepEqual(v.actions, ['setApiKey']);
  });
  it('unknown errors still get a message and Retry', () => {
    const v = errorToView(new TypeError('oops'), base);
    assert.equal(v.kind, 'unknown');
    assert.deepEqual(v.actions, ['retry']);
    assert.equal(errorKind({ name: 'AbortError' }), 'aborted');
    assert.equal(errorKind(undefined), 'unknown');
  });
});
