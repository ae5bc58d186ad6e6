import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  APIError,
  AuthenticationError,
  ChatServiceClient,
  ConnectionError,
  InsufficientCreditsError,
  InvalidInputError,
  ProtocolError,
  MAX_REPLY_CHARS,
  RateLimitError,
  ReplyTooLargeError,
  RequestValidationError,
  ServerError,
  StreamEventError,
  TimeoutError,
  UserAbortError,
  collectStream,
  type ChatServiceClientOptions,
  type ChatStream,
  type Logger,
  type StreamEvent,
} from '../../../src/client';
import { DEMO_KEY, EMPTY_KEY, LOW_KEY } from '../../server/fixtures';
import { startConnectProxy } from '../connectProxy';
import { startReferenceServer, type ReferenceServer } from '../../server/server';

type LogCall = { level: keyof Logger; msg: string; data?: Record<string, unknown> };

function captureLogger(): { logger: Logger; calls: LogCall[] } {
  const calls: LogCall[] = [];
  const at = (level: keyof Logger) => (msg: string, data?: Record<string, unknown>) => calls.push({ level, msg, data });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, calls };
}

const hello = { messages: [{ role: 'user' as const, content: 'hello there' }] };

async function waitFor(cond: () => boolean | Promise<boolean>, what: string | (() => string), ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function expectError<E extends Error>(p: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof type, `expected ${type.name}, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    return e;
  }
  throw new assert.AssertionError({ message: `expected ${type.name}, but the call succeeded` });
}

/** Reads a stream, returning the events that came and the error that ended it (if any). */
async function drain(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const ev of stream) events.push(ev);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

function resourceCounts(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

/** A local server for cases the reference server does not produce (403, path prefixes, proxies). */
async function tinyServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

describe('ChatServiceClient against the reference server', function () {
  let srv: ReferenceServer;
  let log: ReturnType<typeof captureLogger>;
  const clients: ChatServiceClient[] = [];

  function client(opts: Partial<ChatServiceClientOptions> = {}): ChatServiceClient {
    const c = new ChatServiceClient({
      baseUrl: srv.url,
      apiKey: () => DEMO_KEY,
      logger: log.logger,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
      ...opts,
    });
    clients.push(c);
    return c;
  }
  const requests = (path?: string) => srv.control.requests().filter((r) => path === undefined || r.path === path);

  before(async () => {
    srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
  });
  after(async () => {
    await srv.close();
  });
  beforeEach(() => {
    srv.control.reset();
    log = captureLogger();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  describe('endpoints', () => {
    it('GET /user/balance returns the parsed balance, sending x-api-key', async () => {
      const b = await client().balance();
      assert.equal(b.balance.totalBalance, 1000);
      assert.equal(b.balance.regularBalance, 950);
      assert.equal(b.balance.dailyBalance, 50);
      assert.equal(b.balance.hasDailyCredit, true);
      assert.equal(b.balance.credits?.length, 2);
      assert.deepEqual(
        requests().map((r) => [r.method, r.path, r.hasKey, r.status]),
        [['GET', '/user/balance', true, 200]],
      );
    });

    it('GET /ai-model lists every model, including one whose id the request pattern rejects', async () => {
      const models = await client().models();
      assert.deepEqual(
        models.map((m) => m.valueId),
        ['swift-chat', 'deep-think', 'code-pro', 'legacy-chat', 'pixel-art', 'turbo-v2'],
      );
      const deep = models.find((m) => m.valueId === 'deep-think');
      assert.equal(deep?.costInCreditPerUse, 5);
      assert.equal(deep?.max_tokens, 32768);
      assert.equal(models.find((m) => m.valueId === 'code-pro')?.max_tokens, undefined);
      assert.equal(models.find((m) => m.valueId === 'legacy-chat')?.isActive, false);
      assert.equal(typeof models[0].totalUses, 'string');
    });

    it('GET /subscription lists the plans', async () => {
      const subs = await client().subscriptions();
      assert.ok(subs.length >= 1);
      for (const s of subs) {
        assert.equal(typeof s.name, 'string');
        assert.equal(typeof s.price, 'number');
      }
    });

    it('POST /chat (non-streaming) returns the reply and charges the model cost', async () => {
      const c = client();
      const r = await c.chat({ ...hello, model: 'code-pro', temperature: 0.5 });
      assert.equal(r.role, 'assistant');
      assert.ok(r.content.length > 100);
      assert.equal(r.creditsUsed, 3);
      assert.equal(r.creditsRemaining, 997);
      assert.equal(r.model, 'code-pro');
      assert.equal((await c.balance()).balance.totalBalance, 997);
      const sent = requests('/chat')[0].body as Record<string, unknown>;
      assert.equal(sent.stream, false);
      assert.equal(sent.model, 'code-pro');
    });

    it('POST /chat streamed: f, chunks, d; collectStream gives the same text as the non-streaming reply', async () => {
      const c = client();
      const whole = await c.chat(hello);
      const stream = await c.chatStream(hello);
      assert.equal(stream.status, 200);
      const seen: StreamEvent[] = [];
      const got = await collectStream(stream, (ev) => seen.push(ev));
      assert.equal(got.text, whole.content);
      assert.equal(got.finishReason, 'stop');
      assert.ok(got.messageId && got.messageId.length > 0);
      assert.ok(got.usage && got.usage.completionTokens! > 0 && got.usage.promptTokens! > 0);
      assert.equal(seen[0].event, 'f');
      assert.equal(seen[seen.length - 1].event, 'd');
      assert.ok(seen.filter((e) => e.event === '0').length > 10);
      assert.equal(stream.framing, 'sse');
      assert.equal((requests('/chat')[1].body as Record<string, unknown>).stream, true);
    });

    for (const framing of ['sse', 'ndjson', 'prefixed'] as const) {
      it(`decodes a long multi-byte reply in the ${framing} framing`, async () => {
        srv.control.configure({ chunkSize: 7 });
        srv.control.injectFault({ kind: 'framing', framing });
        const c = client();
        const prompt = { messages: [{ role: 'user' as const, content: 'Grüße 😀 你好 len:6000' }] };
        const got = await collectStream(await c.chatStream(prompt));
        const whole = await c.chat(prompt);
        assert.equal(got.text, whole.content);
        assert.ok(got.text.length >= 5000, `length ${got.text.length}`);
        assert.ok(got.text.includes('😀'));
      });
    }

    it('a stream from another server: prefixed framing, CRLF, split writes, an unknown kind reported to the logger', async () => {
      const body = 'f:{"messageId":"m-9"}\r\n7:[{"tool":"x"}]\r\n0:"Grüße "\r\n0:"😀"\r\nd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}\r\n';
      const bytes = Buffer.from(body, 'utf8');
      const { server, url } = await tinyServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        let i = 0;
        const step = () => {
          if (i >= bytes.length) return void res.end();
          res.write(bytes.subarray(i, i + 5)); // splits CRLF pairs and UTF-8 sequences
          i += 5;
          setImmediate(step);
        };
        step();
      });
      try {
        const stream = await client({ baseUrl: url }).chatStream(hello);
        const got = await collectStream(stream);
        assert.equal(got.text, 'Grüße 😀');
        assert.equal(got.messageId, 'm-9');
        assert.deepEqual(got.usage, { promptTokens: 1, completionTokens: 2 });
        assert.equal(stream.framing, 'prefixed');
        const warn = log.calls.find((l) => l.level === 'warn' && l.msg.includes('unknown kind'));
        assert.equal(warn?.data?.kind, '7');
      } finally {
        await closeServer(server);
      }
    });

    it('keeps a base URL path prefix and strips trailing slashes', async () => {
      const paths: string[] = [];
      const { server, url } = await tinyServer((req, res) => {
        paths.push(`${req.method} ${req.url} ${String(req.headers['x-api-key'])}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url?.endsWith('/ai-model') ? [] : { balance: { regularBalance: 1, dailyBalance: 0, totalBalance: 1 } }));
      });
      try {
        const c = client({ baseUrl: `${url}/api/public//` });
        assert.equal(c.baseUrl, `${url}/api/public`);
        assert.equal((await c.balance()).balance.totalBalance, 1);
        assert.deepEqual(await c.models(), []);
        assert.deepEqual(paths, [`GET /api/public/user/balance ${DEMO_KEY}`, `GET /api/public/ai-model ${DEMO_KEY}`]);
      } finally {
        await closeServer(server);
      }
    });

    it('goes through the configured proxy', async () => {
      const proxy = await startConnectProxy();
      try {
        const c = client({ proxy: proxy.url });
        assert.equal((await c.balance()).balance.totalBalance, 1000);
        assert.deepEqual(proxy.tunnels, [new URL(srv.url).host]);
        await c.close();
      } finally {
        await proxy.close();
      }
    });
  });

  describe('errors', () => {
    for (const [name, provider] of [
      ['undefined', () => undefined],
      ['an empty string', () => ''],
      ['whitespace', () => '   '],
      ['undefined from an async provider', async () => undefined],
    ] as const) {
      it(`a missing API key (${name}) -> AuthenticationError without any request`, async () => {
        const c = client({ apiKey: provider });
        for (const call of [() => c.balance(), () => c.models(), () => c.subscriptions(), () => c.chat(hello), () => c.chatStream(hello)]) {
          const e = await expectError(call(), AuthenticationError);
          assert.equal(e.kind, 'auth');
          assert.equal(e.code, 'MISSING_API_KEY');
          assert.match(e.message, /API key/);
          assert.equal(e.status, undefined);
        }
        assert.deepEqual(requests(), []);
      });
    }

    it('an invalid API key -> AuthenticationError (401, AUTH_FAILED, traceId) on every endpoint, not retried', async () => {
      const c = client({ apiKey: () => 'sk-wrong' });
      for (const call of [() => c.balance(), () => c.models(), () => c.subscriptions(), () => c.chat(hello), () => c.chatStream(hello)]) {
        const e = await expectError(call(), AuthenticationError);
        assert.equal(e.status, 401);
        assert.equal(e.code, 'AUTH_FAILED');
        assert.match(e.traceId ?? '', /^[0-9a-f-]{36}$/);
        assert.equal(typeof e.body, 'object');
      }
      assert.equal(requests().length, 5);
    });

    it('403 -> AuthenticationError', async () => {
      const { server, url } = await tinyServer((_req, res) => {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'forbidden', code: 'AUTH_FAILED', success: false }));
      });
      try {
        const e = await expectError(client({ baseUrl: url }).balance(), AuthenticationError);
        assert.equal(e.status, 403);
        assert.equal(e.message, 'forbidden');
      } finally {
        await closeServer(server);
      }
    });

    it('an invalid request is rejected before sending: no request, no credits spent', async () => {
      const c = client();
      const e = await expectError(
        c.chatStream({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }, { role: 'user', content: 'c', id: 'msg_12' }] }),
        RequestValidationError,
      );
      assert.equal(e.field, 'messages[2].id');
      assert.match(e.rule, /msg_/);
      await expectError(c.chat({ messages: [] }), RequestValidationError);
      await expectError(c.chat({ ...hello, temperature: 3 }), RequestValidationError);
      await expectError(c.chat({ ...hello, model: 'turbo-v2' }), RequestValidationError);
      assert.deepEqual(requests(), []);
    });

    for (const [name, req, pattern] of [
      ['an unknown model', { ...hello, model: 'no-such-model' }, /model/],
      ['an inactive model', { ...hello, model: 'legacy-chat' }, /legacy-chat|active/],
      ['an image model', { ...hello, model: 'pixel-art' }, /pixel-art|text/],
      ['search on a model without search', { ...hello, model: 'swift-chat', search: true }, /search/],
    ] as const) {
      it(`400 for ${name} -> InvalidInputError with the service's message, not retried`, async () => {
        const e = await expectError(client().chat(req), InvalidInputError);
        assert.equal(e.kind, 'invalid');
        assert.equal(e.status, 400);
        assert.equal(e.code, 'INVALID_INPUT');
        assert.match(e.message, pattern);
        assert.equal(requests('/chat').length, 1);
      });
    }

    it('402 -> InsufficientCreditsError with creditsRemaining', async () => {
      const empty = await expectError(client({ apiKey: () => EMPTY_KEY }).chatStream(hello), InsufficientCreditsError);
      assert.equal(empty.kind, 'credits');
      assert.equal(empty.status, 402);
      assert.equal(empty.code, 'INSUFFICIENT_CREDITS');
      assert.equal(empty.creditsRemaining, 0);
      const low = await expectError(client({ apiKey: () => LOW_KEY }).chat({ ...hello, model: 'deep-think' }), InsufficientCreditsError);
      assert.equal(low.creditsRemaining, 2);
      assert.equal(requests('/chat').length, 2);
    });

    it('HTML 502 on a GET -> ServerError with a short excerpt, retried maxRetries times', async () => {
      srv.control.injectFault({ kind: 'status', status: 502, html: true, path: '/user/balance', times: 10 });
      const e = await expectError(client().balance(), ServerError);
      assert.equal(e.kind, 'server');
      assert.equal(e.status, 502);
      assert.match(e.details ?? '', /502 Bad Gateway/);
      assert.ok(!(e.details ?? '').includes('<'), 'tags stripped');
      assert.ok((e.details ?? '').length <= 160);
      assert.equal(requests('/user/balance').length, 3);
    });

    it('HTML 500 on POST /chat -> ServerError, not retried', async () => {
      srv.control.injectFault({ kind: 'status', status: 500, html: true, times: 3 });
      const e = await expectError(client().chat(hello), ServerError);
      assert.equal(e.status, 500);
      assert.match(e.details ?? '', /Internal Server Error/);
      assert.equal(requests('/chat').length, 1);
    });

    it('other statuses -> APIError (e.g. 404 of an unknown path prefix)', async () => {
      const c = client({ baseUrl: `${srv.url}/nope` });
      const e = await expectError(c.balance(), APIError);
      assert.equal(e.status, 404);
      assert.equal(e.kind, 'invalid');
      assert.match(e.message, /no such endpoint/);
      assert.equal(requests().length, 1);
    });

    it('a truncated JSON body (connection closed) on POST /chat -> ConnectionError, not retried', async () => {
      srv.control.injectFault({ kind: 'truncated-body', times: 3 });
      const e = await expectError(client().chat(hello), ConnectionError);
      assert.equal(e.kind, 'connection');
      assert.ok(e.cause, 'keeps the cause');
      assert.match(e.message, /broke/);
      assert.equal(requests('/chat').length, 1);
    });

    it('a truncated JSON body on a GET is retried', async () => {
      srv.control.injectFault({ kind: 'truncated-body', path: '/user/balance' });
      assert.equal((await client().balance()).balance.totalBalance, 1000);
      assert.equal(requests('/user/balance').length, 2);
    });

    it('a malformed JSON body on a GET -> ProtocolError quoting it', async () => {
      srv.control.injectFault({ kind: 'malformed-frame', path: '/ai-model' });
      const e = await expectError(client().models(), ProtocolError);
      assert.equal(e.kind, 'protocol');
      assert.match(e.message, /not valid JSON: "\[\{/);
      assert.equal(requests('/ai-model').length, 1);
    });

    it('a response missing a required field -> ProtocolError naming it', async () => {
      const { server, url } = await tinyServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ balance: { regularBalance: 1, dailyBalance: 0 }, success: true }));
      });
      try {
        const e = await expectError(client({ baseUrl: url }).balance(), ProtocolError);
        assert.equal(e.field, 'balance.totalBalance');
        assert.match(e.message, /balance\.totalBalance is required/);
      } finally {
        await closeServer(server);
      }
    });
  });

  describe('retries', () => {
    it('a GET is retried on 500 and succeeds', async () => {
      srv.control.injectFault({ kind: 'status', status: 500, path: '/ai-model' });
      assert.equal((await client().models()).length, 6);
      assert.deepEqual(
        requests('/ai-model').map((r) => r.status),
        [500, 200],
      );
    });

    for (const status of [408, 409, 503, 504]) {
      it(`a GET is retried on ${status}`, async () => {
        srv.control.injectFault({ kind: 'status', status, path: '/subscription' });
        await client().subscriptions();
        assert.deepEqual(
          requests('/subscription').map((r) => r.status),
          [status, 200],
        );
      });
    }

    it('maxRetries bounds the attempts (0: one attempt)', async () => {
      srv.control.injectFault({ kind: 'status', status: 503, path: '/user/balance', times: 10 });
      await expectError(client({ maxRetries: 0 }).balance(), ServerError);
      assert.equal(requests('/user/balance').length, 1);
      srv.control.reset();
      srv.control.injectFault({ kind: 'status', status: 503, path: '/user/balance', times: 10 });
      await expectError(client({ maxRetries: 4 }).balance(), ServerError);
      assert.equal(requests('/user/balance').length, 5);
    });

    it('429 honours Retry-After (seconds) and then succeeds', async () => {
      srv.control.injectFault({ kind: 'status', status: 429, retryAfter: 1, path: '/user/balance' });
      const c = client({ retry: { baseDelayMs: 1, maxDelayMs: 1 } });
      await c.balance();
      const [first, second] = requests('/user/balance');
      assert.equal(first.status, 429);
      assert.equal(second.status, 200);
      const retryLog = log.calls.find((c) => c.msg.startsWith('Retrying'));
      assert.equal(retryLog?.data?.delayMs, 1000);
    });

    it('503 with Retry-After as an HTTP-date is honoured', async () => {
      let calls = 0;
      const { server, url } = await tinyServer((_req, res) => {
        calls++;
        if (calls === 1) {
          res.writeHead(503, { 'retry-after': new Date(Date.now() + 1000).toUTCString(), 'content-type': 'text/plain' });
          res.end('busy');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      });
      try {
        assert.deepEqual(await client({ baseUrl: url, retry: { baseDelayMs: 30_000, maxDelayMs: 30_000 } }).models(), []);
        assert.equal(calls, 2);
        const delay = Number(log.calls.find((l) => l.msg.startsWith('Retrying'))?.data?.delayMs);
        assert.ok(delay >= 0 && delay <= 1000, `delay ${delay}`);
      } finally {
        await closeServer(server);
      }
    });

    it('429 with a Retry-After above the cap is not waited for: RateLimitError with retryAfterMs', async () => {
      srv.control.injectFault({ kind: 'status', status: 429, retryAfter: 120, path: '/user/balance' });
      const e = await expectError(client().balance(), RateLimitError);
      assert.equal(e.kind, 'rate-limit');
      assert.equal(e.retryAfterMs, 120_000);
      assert.equal(e.code, 'RATE_LIMITED');
      assert.equal(requests('/user/balance').length, 1);
    });

    it('429 after the last retry -> RateLimitError', async () => {
      srv.control.injectFault({ kind: 'status', status: 429, retryAfter: 0, times: 5 });
      const e = await expectError(client({ maxRetries: 1 }).chat(hello), RateLimitError);
      assert.equal(e.retryAfterMs, 0);
      assert.equal(requests('/chat').length, 2);
    });

    it('POST /chat is retried on 429 and 503 (no reply started) and succeeds once', async () => {
      srv.control.injectFault({ kind: 'status', status: 429, retryAfter: 0 });
      srv.control.injectFault({ kind: 'status', status: 503 });
      const got = await collectStream(await client().chatStream(hello));
      assert.equal(got.finishReason, 'stop');
      assert.deepEqual(
        requests('/chat').map((r) => r.status),
        [429, 503, 200],
      );
      assert.equal((await client().balance()).balance.totalBalance, 999, 'charged once');
    });

    for (const status of [500, 502, 504, 408, 409]) {
      it(`POST /chat is not retried on ${status}`, async () => {
        srv.control.injectFault({ kind: 'status', status, times: 3 });
        await expectError(client().chat(hello), status >= 500 ? ServerError : APIError);
        assert.equal(requests('/chat').length, 1);
      });
    }

    it('a reset before headers: a GET is retried, POST /chat is not (the service may have started)', async () => {
      srv.control.injectFault({ kind: 'reset-before-headers', path: '/ai-model' });
      assert.equal((await client().models()).length, 6);
      assert.equal(requests('/ai-model').length, 2);
      srv.control.injectFault({ kind: 'reset-before-headers', times: 3 });
      const e = await expectError(client().chat(hello), ConnectionError);
      assert.ok(e.cause);
      assert.equal(requests('/chat').length, 1);
    });

    it('no retry of POST /chat after the streamed body began (drop mid-stream)', async () => {
      srv.control.injectFault({ kind: 'drop-mid-stream', afterChunks: 3, times: 3 });
      const stream = await client().chatStream(hello);
      const { events, error } = await drain(stream);
      assert.ok(error instanceof ConnectionError, String(error));
      assert.match(error.message, /before the reply was complete/);
      assert.deepEqual(
        events.map((e) => e.event),
        ['f', '0', '0', '0'],
      );
      assert.equal(requests('/chat').length, 1);
      assert.equal((await client().balance()).balance.totalBalance, 999);
    });

    it('connection refused: a GET and POST /chat are retried, then ConnectionError (ECONNREFUSED)', async () => {
      const { server, url } = await tinyServer(() => {});
      await closeServer(server);
      const c = client({ baseUrl: url });
      for (const call of [() => c.balance(), () => c.chat(hello)]) {
        log.calls.length = 0;
        const e = await expectError(call(), ConnectionError);
        assert.equal(e.code, 'ECONNREFUSED');
        assert.ok(e.cause);
        assert.equal(log.calls.filter((l) => l.msg.startsWith('Retrying')).length, 2);
      }
    });

    it('the backoff sleep is abortable and leaves no timer behind', async () => {
      srv.control.injectFault({ kind: 'status', status: 503, path: '/user/balance', times: 5 });
      const c = client({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
      const ac = new AbortController();
      const p = c.balance({ signal: ac.signal });
      await waitFor(() => log.calls.some((l) => l.msg.startsWith('Retrying')), 'the retry');
      const timersDuringSleep = resourceCounts().Timeout ?? 0;
      ac.abort();
      await expectError(p, UserAbortError);
      assert.equal(requests('/user/balance').length, 1);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
      assert.ok((resourceCounts().Timeout ?? 0) < timersDuringSleep, 'the 60 s backoff timer was cleared');
    });
  });

  describe('timeouts', () => {
    it('delay-headers beyond headersMs -> TimeoutError (headers) on POST /chat, not retried', async () => {
      srv.control.injectFault({ kind: 'delay-headers', ms: 3000, times: 3 });
      const e = await expectError(client({ timeouts: { headersMs: 150 } }).chatStream(hello), TimeoutError);
      assert.equal(e.kind, 'timeout');
      assert.equal(e.phase, 'headers');
      assert.equal(e.timeoutMs, 150);
      assert.ok(e.cause);
      assert.equal(requests('/chat').length, 1);
      await waitFor(() => requests('/chat')[0].clientClosed === true, 'the server to see the close');
    });

    it('delay-headers on a GET: retried after the timeout, then succeeds', async () => {
      srv.control.injectFault({ kind: 'delay-headers', ms: 3000, path: '/user/balance' });
      const b = await client({ timeouts: { headersMs: 150 } }).balance();
      assert.equal(b.balance.totalBalance, 1000);
      assert.equal(requests('/user/balance').length, 2);
    });

    it('slow chunks beyond bodyMs -> TimeoutError (body) after the events that came', async () => {
      srv.control.injectFault({ kind: 'slow-chunks', ms: 3000 });
      const stream = await client({ timeouts: { bodyMs: 150 } }).chatStream(hello);
      const { events, error } = await drain(stream);
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.phase, 'body');
      assert.deepEqual(
        events.map((e) => e.event),
        ['f'],
      );
      assert.equal(requests('/chat').length, 1);
    });

    it('a non-streaming chat reply has its own, longer wait than the time to a stream\'s first byte', async () => {
      // undici checks header timeouts on a coarse clock (about 0.5 s): the delays leave room for it.
      srv.control.injectFault({ kind: 'delay-headers', ms: 2000, times: 2 });
      const c = client({ timeouts: { headersMs: 150, chatReplyMs: 8000 }, maxRetries: 0 });
      const reply = await c.chat(hello);
      assert.ok(reply.content.length > 100, 'the non-streaming reply waited past headersMs');
      const e = await expectError(c.chatStream(hello), TimeoutError);
      assert.equal(e.phase, 'headers');
      assert.equal(e.timeoutMs, 150);
      srv.control.injectFault({ kind: 'delay-headers', ms: 3000, times: 1 });
      const slow = await expectError(client({ timeouts: { chatReplyMs: 150 }, maxRetries: 0 }).chat(hello), TimeoutError);
      assert.equal(slow.phase, 'headers');
      assert.equal(slow.timeoutMs, 150);
    });

    it('a body that trickles in a byte at a time (each within bodyMs) ends at the overall deadline: GETs and a non-streaming reply', async () => {
      const body = JSON.stringify([{ valueId: 'slow', name: 'Slow', type: 'text', costInCreditPerUse: 1, isActive: true }]);
      const { server, url } = await tinyServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const text = req.url?.endsWith('/chat') ? JSON.stringify({ content: 'x'.repeat(80) }) : body;
        let i = 0;
        const t = setInterval(() => {
          if (i >= text.length) {
            clearInterval(t);
            res.end();
          } else res.write(text[i++]);
        }, 40);
        res.on('close', () => clearInterval(t));
      });
      try {
        // bodyMs 300: each byte comes well within it; the whole body would take about 4 s.
        const c = client({ baseUrl: url, maxRetries: 0, timeouts: { headersMs: 300, bodyMs: 300, chatReplyMs: 300 } });
        const t0 = Date.now();
        const e = await expectError(c.models(), TimeoutError);
        const tookMs = Date.now() - t0;
        assert.equal(e.phase, 'request');
        assert.equal(e.timeoutMs, 600, 'by default headersMs + bodyMs');
        assert.ok(tookMs < 2500, `ended at the deadline, not when the body ended (${tookMs} ms)`);
        const chat = await expectError(c.chat(hello), TimeoutError);
        assert.equal(chat.phase, 'request');
        assert.equal(chat.timeoutMs, 600, 'by default chatReplyMs + bodyMs');
        assert.match(chat.message, /within 0.6 s \(request deadline\)/);
        assert.equal(
          (await expectError(client({ baseUrl: url, maxRetries: 0, timeouts: { bodyMs: 300, requestMs: 200 } }).balance(), TimeoutError)).timeoutMs,
          200,
        );
      } finally {
        await closeServer(server);
      }
    });

    it('requestMs bounds a whole non-streaming call', async () => {
      srv.control.injectFault({ kind: 'delay-headers', ms: 3000, path: '/ai-model', times: 3 });
      const e = await expectError(client({ timeouts: { requestMs: 100 }, maxRetries: 0 }).models(), TimeoutError);
      assert.equal(e.phase, 'request');
    });
  });

  describe('limits and out-of-range values', () => {
    it('a non-streaming body over 16 MB is a protocol error, not unbounded memory', async () => {
      const big = Buffer.alloc(17 * 1024 * 1024, 0x61);
      const { server, url } = await tinyServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"content":"');
        res.end(big);
      });
      try {
        const e = await expectError(client({ baseUrl: url, maxRetries: 0 }).chat(hello), ProtocolError);
        assert.match(e.message, /larger than 16 MB/);
      } finally {
        await closeServer(server);
      }
    });

    for (const framing of ['sse', 'ndjson', 'prefixed'] as const) {
      it(`${framing}: a streamed reply past maxReplyChars -> ReplyTooLargeError after exactly the text up to the limit; the connection is closed`, async () => {
        srv.control.configure({ chunkSize: 500 });
        srv.control.injectFault({ kind: 'slow-chunks', ms: 20, framing });
        const c = client({ maxReplyChars: 5000 });
        const stream = await c.chatStream({ messages: [{ role: 'user', content: 'a long one len:20000' }] });
        const { events, error } = await drain(stream);
        assert.ok(error instanceof ReplyTooLargeError, String(error));
        assert.equal(error.kind, 'too-large');
        assert.equal(error.limit, 5000);
        const text = events.map((e) => (e.event === '0' ? e.data : '')).join('');
        const whole = await collectStream(await client().chatStream({ messages: [{ role: 'user', content: 'a long one len:20000' }] }));
        assert.ok(whole.text.length > 19_000, 'without the cap the whole reply is read');
        assert.equal(text, whole.text.slice(0, 5000), 'the text up to the limit, nothing lost before it');
        await waitFor(() => requests('/chat')[0]?.clientClosed === true, 'the server to see the client leave before the reply ended');
      });
    }

    it('a non-streamed reply past maxReplyChars is kept cut at the limit, the cut named in problems', async () => {
      const r = await client({ maxReplyChars: 5000 }).chat({ messages: [{ role: 'user', content: 'a long one len:20000' }] });
      assert.equal(r.content.length <= 5000 && r.content.length >= 4999, true, String(r.content.length));
      assert.ok(r.problems?.includes('content is longer than 5000 characters: cut there'), String(r.problems));
      const whole = await client().chat({ messages: [{ role: 'user', content: 'a long one len:20000' }] });
      assert.ok(whole.content.startsWith(r.content) && whole.content.length > 19_000);
      assert.equal(whole.problems, undefined);
    });

    it('the default cap is MAX_REPLY_CHARS (4 million characters); a reply of exactly that is complete', async () => {
      assert.equal(MAX_REPLY_CHARS, 4_000_000);
      const piece = 'y'.repeat(500_000);
      let calls = 0;
      const { server, url } = await tinyServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write('{"event":"f","messageId":"m"}\n');
        for (let i = 0; i < 8; i++) res.write(JSON.stringify({ event: '0', data: piece }) + '\n');
        if (++calls > 1) res.write(JSON.stringify({ event: '0', data: '🙂🙂' }) + '\n');
        res.end('{"event":"e","finishReason":"stop"}\n{"event":"d","finishReason":"stop"}\n');
      });
      try {
        const exact = await collectStream(await client({ baseUrl: url }).chatStream(hello));
        assert.equal(exact.text.length, 4_000_000);
        // One more piece past the limit: an emoji pair that would be cut in half is left out whole.
        const over = client({ baseUrl: url, maxReplyChars: 4_000_001 });
        const { events, error } = await drain(await over.chatStream(hello));
        assert.ok(error instanceof ReplyTooLargeError, String(error));
        const text = events.map((e) => (e.event === '0' ? e.data : '')).join('');
        assert.equal(text.length, 4_000_000, 'the surrogate pair at the limit is not split');
      } finally {
        await closeServer(server);
      }
    });

    it('a stream line over 1 MB is a protocol error after the events before it', async () => {
      const { server, url } = await tinyServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' });
        res.write('f:{"messageId":"m"}\n0:"ok"\n');
        res.end('0:"' + 'x'.repeat(1100 * 1024) + '"\ne:{"finishReason":"stop"}\nd:{"finishReason":"stop"}\n');
      });
      try {
        const { events, error } = await drain(await client({ baseUrl: url }).chatStream(hello));
        assert.ok(error instanceof ProtocolError, String(error));
        assert.match(error.message, /longer than 1 MB/);
        assert.deepEqual(events.map((e) => e.event), ['f', '0']);
      } finally {
        await closeServer(server);
      }
    });

    it('negative or fractional credits and costs, and missing fields after a 200, are made sensible and logged once', async () => {
      const { server, url } = await tinyServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.url?.endsWith('/chat')) res.end(JSON.stringify({ content: 'Kept text', creditsUsed: -2, creditsRemaining: 10.456 }));
        else if (req.url?.endsWith('/user/balance')) res.end(JSON.stringify({ balance: { regularBalance: -5, dailyBalance: 1.5, totalBalance: -3.5 } }));
        else res.end(JSON.stringify([{ valueId: 'odd', name: 'Odd', type: 'text', costInCreditPerUse: -1, isActive: true }, { valueId: 'half', name: 'Half', type: 'text', costInCreditPerUse: 0.255, isActive: true }]));
      });
      try {
        const c = client({ baseUrl: url });
        const r = await c.chat(hello);
        assert.equal(r.content, 'Kept text');
        assert.equal(r.creditsUsed, undefined);
        assert.equal(r.creditsRemaining, 10.46);
        assert.ok(r.problems?.some((p) => p.includes('id is missing')));
        assert.ok(r.problems?.some((p) => p.includes('creditsUsed is out of range')));
        await c.chat(hello);
        const b = await c.balance();
        assert.deepEqual([b.balance.regularBalance, b.balance.dailyBalance, b.balance.totalBalance], [0, 1.5, 0]);
        const models = await c.models();
        assert.equal(models[0].priceUnusable, true, 'a model with a negative cost cannot be used');
        assert.equal(models[0].costInCreditPerUse, 0, 'and its cost is never handed out below 0');
        assert.equal(models[1].costInCreditPerUse, 0.26);
        const warnings = log.calls.filter((e) => e.msg === 'Out-of-range value from the service');
        assert.equal(warnings.filter((w) => w.data?.field === 'creditsUsed').length, 1, 'logged once per field');
      } finally {
        await closeServer(server);
      }
    });
    it('every number handed out is finite and >= 0: 1e400 (Infinity once parsed), 1e308, a 402 with a negative balance', async () => {
      const { server, url } = await tinyServer((req, res) => {
        if (req.url?.endsWith('/chat')) {
          res.writeHead(402, { 'content-type': 'application/json' });
          res.end('{"error":"Insufficient credits","code":"INSUFFICIENT_CREDITS","creditsRemaining":-1e400}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.url?.endsWith('/user/balance')) {
          res.end('{"balance":{"regularBalance":1e308,"dailyBalance":1e400,"totalBalance":-1e400,"credits":[{"amount":1e400,"usedAmount":-2}],"dailyCredit":{"amount":-1,"grantedAmount":1e308}}}');
        } else if (req.url?.endsWith('/subscription')) res.end('[{"name":"Odd","price":-1e400}]');
        else res.end('[{"valueId":"big","name":"Big","type":"text","costInCreditPerUse":1e12,"isActive":true,"max_tokens":1e400},{"valueId":"huge","name":"Huge","type":"text","costInCreditPerUse":1.1e12,"isActive":true}]');
      });
      try {
        const c = client({ baseUrl: url, maxRetries: 0 });
        const b = (await c.balance()).balance;
        assert.deepEqual([b.regularBalance, b.dailyBalance, b.totalBalance], [1e12, 1e12, 0]);
        assert.deepEqual([b.credits?.[0].amount, b.credits?.[0].usedAmount, b.dailyCredit?.amount, b.dailyCredit?.grantedAmount], [1e12, 0, 0, 1e12]);
        const [big, huge] = await c.models();
        assert.deepEqual([big.costInCreditPerUse, big.priceUnusable, big.max_tokens], [1e12, undefined, null]);
        assert.deepEqual([huge.costInCreditPerUse, huge.priceUnusable], [0, true]);
        assert.equal((await c.subscriptions())[0].price, 0);
        const e = await expectError(c.chat(hello), InsufficientCreditsError);
        assert.equal(e.creditsRemaining, 0);
      } finally {
        await closeServer(server);
      }
    });
  });

  describe('stream faults', () => {
    for (const framing of ['sse', 'ndjson', 'prefixed'] as const) {
      it(`a malformed frame (${framing}) -> ProtocolError quoting it after the events before it`, async () => {
        srv.control.injectFault({ kind: 'malformed-frame', afterChunks: 2, framing });
        const { events, error } = await drain(await client().chatStream(hello));
        assert.ok(error instanceof ProtocolError, String(error));
        assert.match(error.message, /Malformed stream frame .*: ".+"/);
        assert.ok((error.excerpt ?? '').length <= 120);
        assert.deepEqual(
          events.map((e) => e.event),
          ['f', '0', '0'],
        );
      });
    }

    for (const framing of ['sse', 'ndjson', 'prefixed'] as const) {
      it(`${framing}: a normal reply (f, 0..., e stop, d) is complete, with no error`, async () => {
        srv.control.injectFault({ kind: 'framing', framing });
        const got = await collectStream(await client().chatStream(hello));
        assert.equal(got.outcome.ending, 'complete');
        assert.equal(got.finishReason, 'stop');
        assert.ok(got.text.length > 500);
      });

      it(`${framing}: a 3 error part -> StreamEventError with its text, after the text kept`, async () => {
        srv.control.injectFault({ kind: 'error-part', afterChunks: 2, message: 'upstream model failed', framing });
        const stream = await client().chatStream(hello);
        const error = await collectStream(stream).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(error instanceof StreamEventError, String(error));
        assert.equal(error.message, 'upstream model failed');
        assert.ok(error.text.length > 0, 'the text before the error is kept');
      });

      it(`${framing}: a 3 error part and the body ends without d -> still the error part, not a cut stream`, async () => {
        srv.control.injectFault({ kind: 'error-part', afterChunks: 1, message: 'boom', framing, close: true });
        const error = await collectStream(await client().chatStream(hello)).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(error instanceof StreamEventError, String(error));
        assert.equal(error.message, 'boom');
      });

      it(`${framing}: a multi-step reply is one reply, usage summed`, async () => {
        srv.control.injectFault({ kind: 'multi-step', steps: 3, framing });
        const whole = await collectStream(await client().chatStream(hello));
        srv.control.injectFault({ kind: 'framing', framing });
        const single = await collectStream(await client().chatStream(hello));
        assert.equal(whole.text, single.text);
        assert.equal(whole.outcome.steps, 3);
        assert.equal(whole.outcome.ending, 'complete');
        assert.ok(whole.usage!.completionTokens! >= single.usage!.completionTokens! - 3);
      });
    }

    for (const reason of ['length', 'content-filter', 'other', 'unknown', 'tool-calls'] as const) {
      it(`finishReason ${reason} is not an error (ending ${reason === 'length' || reason === 'content-filter' ? reason : 'complete'})`, async () => {
        srv.control.injectFault({ kind: 'finish', finishReason: reason, afterChunks: 3 });
        const got = await collectStream(await client().chatStream(hello));
        assert.equal(got.finishReason, reason);
        assert.equal(got.outcome.ending, reason === 'length' || reason === 'content-filter' ? reason : 'complete');
      });
    }

    it('finishReason error -> StreamEventError after the text kept', async () => {
      srv.control.injectFault({ kind: 'finish', finishReason: 'error', afterChunks: 3 });
      const error = await collectStream(await client().chatStream(hello)).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof StreamEventError, String(error));
      assert.equal(error.finishReason, 'error');
      assert.ok(error.text.length > 0);
    });

    it('d with the connection kept open: the reply ends at d, and the connection is closed after the grace', async () => {
      srv.control.injectFault({ kind: 'hold-open', ms: 60_000 });
      const c = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, timeouts: { closeGraceMs: 100 } });
      try {
        const started = Date.now();
        const got = await collectStream(await c.chatStream(hello));
        assert.equal(got.outcome.ending, 'complete');
        assert.ok(Date.now() - started < 30_000, 'the reply did not wait for the held connection');
        // The client closes the connection the server kept open.
        for (let i = 0; i < 100 && srv.control.requests().at(-1)?.clientClosed !== true; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(srv.control.requests().at(-1)?.clientClosed, true);
      } finally {
        await c.close();
      }
    });

    it('keep-alive only: the stream ends at the reply deadline with a TimeoutError (phase reply)', async () => {
      srv.control.injectFault({ kind: 'keep-alive-only', ms: 20 });
      const c = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, maxRetries: 0, timeouts: { replyDeadlineMs: 300 } });
      try {
        const { events, error } = await drain(await c.chatStream(hello));
        assert.equal(events.length, 0);
        assert.ok(error instanceof TimeoutError, String(error));
        assert.equal(error.phase, 'reply');
        assert.match(error.message, /within 0.3 s \(reply deadline\)/, 'a short deadline is said in seconds, not as 0 minutes');
      } finally {
        await c.close();
      }
    });

    it('a stream that ends without d or [DONE] -> ProtocolError after what came', async () => {
      srv.control.injectFault({ kind: 'truncated-body' });
      const { events, error } = await drain(await client().chatStream(hello));
      assert.ok(error instanceof ProtocolError, String(error));
      assert.match(error.message, /ended before the reply was complete/);
      assert.ok(events.length > 2);
      assert.equal(events[events.length - 1].event, '0');
    });
  });

  describe('cancellation', () => {
    const long = { messages: [{ role: 'user' as const, content: 'tell me more len:200000' }] };

    async function startSlowStream(c: ChatServiceClient, signal?: AbortSignal): Promise<ChatStream> {
      srv.control.configure({ chunkDelayMs: 5, chunkSize: 16 });
      return c.chatStream(long, { signal });
    }

    it('breaking out of for await closes the connection; no sockets or timers are left behind', async () => {
      await new Promise((r) => setImmediate(r)); // mocha arms its own test timer after the first await
      const before = resourceCounts();
      const c = client();
      const stream = await startSlowStream(c);
      let n = 0;
      for await (const ev of stream) {
        if (ev.event === '0' && ++n === 3) break;
      }
      await waitFor(() => requests('/chat')[0]?.clientClosed === true, 'the server to see the close');
      // The reference server runs in this process: its sockets and timers count too, so wait for
      // everything to settle; a leaked 60 s body timer or an open socket would never settle.
      const settled = () => {
        const now = resourceCounts();
        return (now.TCPSocketWrap ?? 0) <= (before.TCPSocketWrap ?? 0) && (now.Timeout ?? 0) <= (before.Timeout ?? 0);
      };
      await waitFor(settled, () => `sockets and timers to be released (${JSON.stringify(before)} -> ${JSON.stringify(resourceCounts())})`);
      const stats = Object.values((c as unknown as { dispatcher: { stats: Record<string, { connected: number }> } }).dispatcher.stats);
      assert.equal(stats.reduce((n, s) => n + s.connected, 0), 0, 'no connection left in the pool');
      assert.ok(log.calls.some((l) => l.msg.includes('stream stopped')));
    });

    it('aborting the signal mid-stream throws UserAbortError, closes the socket and removes the listener', async () => {
      const ac = new AbortController();
      const stream = await startSlowStream(client(), ac.signal);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
      const events: StreamEvent[] = [];
      const e = await expectError(
        (async () => {
          for await (const ev of stream) {
            events.push(ev);
            if (events.length === 4) ac.abort();
          }
        })(),
        UserAbortError,
      );
      assert.equal(e.kind, 'aborted');
      assert.equal(events.length, 4);
      await waitFor(() => requests('/chat')[0]?.clientClosed === true, 'the server to see the close');
      assert.equal(requests('/chat').length, 1);
    });

    it('ChatStream.abort() mid-stream throws UserAbortError and closes the socket', async () => {
      const stream = await startSlowStream(client());
      const { events, error } = await drain(
        (async function* () {
          for await (const ev of stream) {
            yield ev;
            if (ev.event === '0') stream.abort();
          }
        })(),
      );
      assert.ok(error instanceof UserAbortError, String(error));
      assert.deepEqual(
        events.map((e) => e.event),
        ['f', '0'],
      );
      await waitFor(() => requests('/chat')[0]?.clientClosed === true, 'the server to see the close');
    });

    it('abort() before iterating closes the connection; iterating afterwards throws UserAbortError', async () => {
      const stream = await startSlowStream(client());
      stream.abort();
      await waitFor(() => requests('/chat')[0]?.clientClosed === true, 'the server to see the close');
      const { events, error } = await drain(stream);
      assert.ok(error instanceof UserAbortError, String(error));
      assert.deepEqual(events, []);
    });

    it('aborting the signal before iterating releases the stream; iterating then throws UserAbortError', async () => {
      const ac = new AbortController();
      const c = client();
      const stream = await startSlowStream(c, ac.signal);
      ac.abort();
      await waitFor(() => requests('/chat')[0]?.clientClosed === true, 'the server to see the close');
      assert.equal((c as unknown as { active: Set<unknown> }).active.size, 0, 'attempt released');
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
      const { events, error } = await drain(stream);
      assert.ok(error instanceof UserAbortError, String(error));
      assert.deepEqual(events, []);
    });

    it('aborting while waiting for headers -> UserAbortError, not retried, listener removed', async () => {
      srv.control.injectFault({ kind: 'delay-headers', ms: 5000, path: '/user/balance' });
      const ac = new AbortController();
      const p = client().balance({ signal: ac.signal });
      await waitFor(() => requests('/user/balance').length === 1, 'the request');
      ac.abort();
      await expectError(p, UserAbortError);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
      await waitFor(() => requests('/user/balance')[0].clientClosed === true, 'the server to see the close');
      assert.equal(requests('/user/balance').length, 1);
    });

    it('an already aborted signal -> UserAbortError and nothing sent', async () => {
      const c = client();
      await expectError(c.chat(hello, { signal: AbortSignal.abort() }), UserAbortError);
      await expectError(c.models({ signal: AbortSignal.abort() }), UserAbortError);
      assert.deepEqual(requests(), []);
    });

    it('completed calls leave no listener on the caller signal', async () => {
      const ac = new AbortController();
      const c = client();
      await c.balance({ signal: ac.signal });
      await c.chat(hello, { signal: ac.signal });
      await collectStream(await c.chatStream(hello, { signal: ac.signal }));
      srv.control.injectFault({ kind: 'status', status: 400, path: '/ai-model' });
      await expectError(c.models({ signal: ac.signal }), InvalidInputError);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
    });

    it('a ChatStream can be iterated only once', async () => {
      const stream = await client().chatStream(hello);
      await collectStream(stream);
      assert.throws(() => stream[Symbol.asyncIterator](), TypeError);
    });

    it('closeWhenIdle() lets a stream in flight and a GET waiting to retry finish, then closes; new calls are served meanwhile', async () => {
      const c = client();
      srv.control.configure({ chunkDelayMs: 5, chunkSize: 200 });
      const stream = await c.chatStream({ messages: [{ role: 'user', content: 'len:4000' }] });
      srv.control.injectFault({ kind: 'status', status: 503, path: '/user/balance' });
      const balance = c.balance(); // 503 first: it waits, then tries again
      let closed = false;
      const closing = c.closeWhenIdle(10_000).then(() => (closed = true));
      assert.equal(c.idle, false);
      const models = await c.models();
      assert.ok(models.length > 0, 'a new call is served while the client waits to close');
      assert.equal(closed, false, 'not closed while the stream is in flight');
      const { events, error } = await drain(stream);
      assert.equal(error, undefined);
      assert.ok(events.some((e) => e.event === 'd'), 'the reply was read to its end');
      assert.ok((await balance).balance.totalBalance > 0, 'the GET retried and succeeded');
      await closing;
      assert.ok(closed && c.idle);
      await expectError(c.balance(), ConnectionError);
    });

    it('closeWhenIdle(maxWaitMs) aborts what is still in flight when the wait is over', async () => {
      const c = client();
      const stream = await startSlowStream(c);
      const t0 = Date.now();
      await c.closeWhenIdle(150);
      assert.ok(Date.now() - t0 < 2000);
      const { error } = await drain(stream);
      assert.ok(error instanceof UserAbortError, String(error));
    });

    it('close() aborts a stream in flight and later calls fail', async () => {
      const c = client();
      const stream = await startSlowStream(c);
      const it = stream[Symbol.asyncIterator]();
      await it.next();
      await c.close();
      await expectError(
        (async () => {
          for (;;) if ((await it.next()).done) break;
        })(),
        UserAbortError,
      );
      await expectError(c.balance(), ConnectionError);
    });
  });

  describe('logging', () => {
    it('logs method, path, status, duration and attempt; never the API key or message contents', async () => {
      const secretContent = 'TOP-SECRET-PROMPT-4711';
      const msg = { messages: [{ role: 'user' as const, content: secretContent }] };
      const c = client();
      await c.balance();
      await c.chat(msg);
      await collectStream(await c.chatStream(msg));
      srv.control.injectFault({ kind: 'status', status: 503, path: '/ai-model' });
      await c.models();
      srv.control.injectFault({ kind: 'status', status: 400 });
      await expectError(c.chat(msg), InvalidInputError);
      srv.control.injectFault({ kind: 'drop-mid-stream', afterChunks: 1 });
      await drain(await c.chatStream(msg));
      await expectError(client({ apiKey: () => 'sk-bad-key-should-not-leak' }).chat(msg), AuthenticationError);

      const all = JSON.stringify(log.calls);
      assert.ok(!all.includes(DEMO_KEY), 'key in logs');
      assert.ok(!all.includes('sk-bad-key-should-not-leak'), 'rejected key in logs');
      assert.ok(!all.includes(secretContent), 'message content in logs');
      const info = log.calls.find((l) => l.level === 'info' && l.msg === 'GET /user/balance 200');
      assert.ok(info, 'an info line per request');
      assert.deepEqual(Object.keys(info.data ?? {}).sort(), ['attempt', 'durationMs', 'method', 'path', 'status']);
      assert.equal(typeof info.data?.durationMs, 'number');
      const failed = log.calls.find((l) => l.level === 'error' && l.data?.status === 400);
      assert.match(String(failed?.data?.traceId), /^[0-9a-f-]{36}$/);
      assert.ok(log.calls.some((l) => l.level === 'warn' && l.data?.attempt === 1 && l.data?.status === 503));
    });
  });
});
