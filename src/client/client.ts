/**
 * Typed HTTP client of the chat service (interface 1.0.0): undici with the client's own Agent,
 * zod-checked requests and responses, typed errors, retries, timeouts and cancellation.
 * No `vscode` import: usable as a standalone SDK.
 */
import { Agent, ProxyAgent, request, type Dispatcher } from './undici';
import {
  APIError,
  AuthenticationError,
  ChatServiceError,
  ConnectionError,
  InsufficientCreditsError,
  ProtocolError,
  RateLimitError,
  TimeoutError,
  UserAbortError,
  headerValue,
  parseRetryAfter,
  shorten,
  type APIErrorInit,
  type ResponseHeaders,
} from './errors';
import { silentLogger, type Logger } from './logger';
import { DEFAULT_RETRY, isRetryableError, isRetryableStatus, retryDelayMs, sleep, type RetryOptions, type RetryPolicy } from './retry';
import {
  BalanceResponseSchema,
  ChatReplySchema,
  ErrorBodySchema,
  ModelListSchema,
  SubscriptionListSchema,
  type BalanceResponse,
  type ChatRequest,
  type ChatReply,
  type CheckedChatResponse,
  type Model,
  type Subscription,
} from './schemas';
import { ChatStream, MAX_REPLY_CHARS } from './stream';
import { balanceAmount, creditAmount, tokenCount, warnOncePerField, type RangeWarning } from './sanitize';
import { parseResponse, validateChatRequest } from './validate';
import type * as z from 'zod/mini';

export interface ClientTimeouts {
  /** Opening the TCP/TLS connection. Default 10 s. */
  connectMs?: number;
  /** From sending the request to the response headers (the service thinks before answering). Default 60 s. */
  headersMs?: number;
  /** Longest silence between two body chunks; a long streamed reply may last much longer. Default 60 s. */
  bodyMs?: number;
  /**
   * Whole GET (headers and body), per attempt: a body fed a byte at a time ends here. Default
   * headersMs + bodyMs.
   */
  requestMs?: number;
  /**
   * Waiting for a non-streaming chat reply: the service writes the whole reply before the headers,
   * so it gets longer than the time to the first byte of a stream (headersMs). Default 5 min.
   */
  chatReplyMs?: number;
  /** Whole non-streaming chat call (headers and body), per attempt. Default chatReplyMs + bodyMs. */
  chatRequestMs?: number;
  /** Overall deadline of a streamed reply (a stream of keep-alive comments ends here). Default 10 min. */
  replyDeadlineMs?: number;
  /** After `d` / [DONE], how long the rest of the body may take before the connection is closed. Default 1 s. */
  closeGraceMs?: number;
}

export const DEFAULT_TIMEOUTS = {
  connectMs: 10_000,
  headersMs: 60_000,
  bodyMs: 60_000,
  chatReplyMs: 300_000,
  replyDeadlineMs: 600_000,
  closeGraceMs: 1000,
} as const;

/** Largest non-streaming body read (a chat reply, the model list...): 16 MiB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Longest stream line / SSE event, in characters: 1 MiB. */
export { MAX_LINE_CHARS } from './decoder';
/** Most characters of text of one streamed reply (ReplyTooLargeError past it): 4 million. */
export { MAX_REPLY_CHARS } from './stream';

export interface ChatServiceClientOptions {
  /** e.g. https://chat.muffinscorp.com/api/public; a path prefix is kept, trailing slashes dropped. */
  baseUrl: string;
  /** Asked once per call; undefined/empty -> AuthenticationError without any network call. */
  apiKey: () => Promise<string | undefined> | string | undefined;
  logger?: Logger;
  timeouts?: ClientTimeouts;
  /** Retries after the first attempt (see RetryPolicy for what is retried). Default 2. */
  maxRetries?: number;
  retry?: RetryOptions;
  /** Proxy URL (http://host:port); requests then go through an undici ProxyAgent. */
  proxy?: string;
  /** Check TLS certificates of the service and of an https proxy. Default true. */
  strictSSL?: boolean;
  userAgent?: string;
  /**
   * Most characters of text of one reply: a streamed one ends there with ReplyTooLargeError, a
   * non-streamed one is cut there (named in `problems`). Default MAX_REPLY_CHARS.
   */
  maxReplyChars?: number;
}

/** Told before the client waits to try a request again, so a caller can show why and for how long. */
export interface RetryNotice {
  /** The retry about to be made (1 = the first retry). */
  retry: number;
  maxRetries: number;
  delayMs: number;
  /** The failure being retried. */
  error: ChatServiceError;
}

export interface RequestOptions {
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
}

const DEFAULT_USER_AGENT = 'ai-chat-assistant-client/0.1.0';
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const STREAM_ACCEPT = 'text/event-stream, application/x-ndjson;q=0.9, text/plain;q=0.8';

type AbortReason = 'caller' | 'user' | 'timeout' | 'closed' | 'consumer';

/** One attempt's AbortController, linked to the caller's signal and the optional overall timeout. */
class AttemptControl {
  readonly controller = new AbortController();
  reason: AbortReason | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly caller: AbortSignal | undefined;
  private readonly onCallerAbort = () => this.abort('caller');

  constructor(caller: AbortSignal | undefined, timeoutMs: number | undefined) {
    this.caller = caller;
    if (caller?.aborted) this.abort('caller');
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (timeoutMs !== undefined && !this.signal.aborted) {
      this.timer = setTimeout(() => this.abort('timeout'), timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: AbortReason): void {
    if (this.signal.aborted) return;
    this.reason = reason;
    const err = new Error(`request aborted (${reason})`);
    err.name = 'AbortError';
    this.controller.abort(err);
  }

  /** Removes the caller listener and the timer. Idempotent. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

interface CallSpec<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  accept: string;
  policy: RetryPolicy;
  signal: AbortSignal | undefined;
  onRetry?: (notice: RetryNotice) => void;
  /** Overall per-attempt timeout; `timeoutPhase` names it in the TimeoutError. */
  timeoutMs: number | undefined;
  timeoutPhase?: 'request' | 'reply';
  /** Set for a non-streaming chat reply: its longer wait for the headers (its own connections). */
  headersTimeoutMs?: number;
  /**
   * Handles a 2xx response inside the attempt. Returns the result and whether the attempt's control
   * was handed over (a stream keeps it until it ends).
   */
  onSuccess(res: Dispatcher.ResponseData, ctl: AttemptControl, meta: AttemptMeta): Promise<{ value: T; keep?: boolean }>;
}

interface AttemptMeta {
  method: string;
  path: string;
  attempt: number;
  startedAt: number;
}

export class ChatServiceClient {
  private readonly origin: string;
  private readonly prefix: string;
  private readonly apiKey: ChatServiceClientOptions['apiKey'];
  private readonly logger: Logger;
  private readonly timeouts: Required<ClientTimeouts>;
  /** Reports out-of-range values once per field (see sanitize.ts). */
  get warnRange(): RangeWarning {
    return this.rangeWarning;
  }
  private readonly maxRetries: number;
  private readonly retry: Required<RetryOptions>;
  private readonly userAgent: string;
  private readonly dispatcher: Dispatcher;
  private readonly replyDispatcher: Dispatcher;
  private readonly active = new Set<AttemptControl>();
  /** Calls not settled yet (reading the key, an attempt, a wait before a retry). */
  private calls = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private readonly rangeWarning: RangeWarning;
  private readonly maxReplyChars: number;

  constructor(opts: ChatServiceClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new TypeError(`baseUrl is not a valid URL: ${JSON.stringify(opts.baseUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be an http(s) URL, got ${url.protocol}`);
    }
    if (url.username || url.password) throw new TypeError('baseUrl must not contain credentials');
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.apiKey = opts.apiKey;
    this.logger = opts.logger ?? silentLogger;
    this.rangeWarning = warnOncePerField(this.logger);
    const t = { ...DEFAULT_TIMEOUTS, ...stripUndefined(opts.timeouts ?? {}) };
    this.timeouts = { ...t, requestMs: t.requestMs ?? t.headersMs + t.bodyMs, chatRequestMs: t.chatRequestMs ?? t.chatReplyMs + t.bodyMs };
    this.maxRetries = Math.max(0, Math.floor(opts.maxRetries ?? 2));
    this.retry = { ...DEFAULT_RETRY, ...stripUndefined(opts.retry ?? {}) };
    this.userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
    this.maxReplyChars = Math.max(1, Math.floor(opts.maxReplyChars ?? MAX_REPLY_CHARS));
    const rejectUnauthorized = opts.strictSSL !== false;
    const agentOptions = {
      connect: { timeout: this.timeouts.connectMs, rejectUnauthorized },
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.bodyMs,
      keepAliveTimeout: 10_000,
    };
    const viaProxy = (o: typeof agentOptions): Dispatcher =>
      opts.proxy
        ? new ProxyAgent({ uri: opts.proxy, ...o, requestTls: { rejectUnauthorized }, proxyTls: { rejectUnauthorized } })
        : new Agent(o);
    this.dispatcher = viaProxy(agentOptions);
    // Non-streaming chat replies are written whole before their headers: their own connections,
    // with a longer wait for the headers.
    const replyOptions = { ...agentOptions, headersTimeout: this.timeouts.chatReplyMs };
    this.replyDispatcher = viaProxy(replyOptions);
  }

  /** Base URL in use (origin + path prefix, no trailing slash). */
  get baseUrl(): string {
    return this.origin + this.prefix;
  }

  /**
   * Non-streaming reply (the request's `stream` is sent as false). The reply was paid for once the
   * service answered 200: a missing or out-of-range field other than `content` is filled sensibly
   * and named in `problems` (and logged), never a reason to throw the reply away.
   */
  async chat(req: ChatRequest, opts: RequestOptions = {}): Promise<CheckedChatResponse> {
    validateChatRequest(req);
    const body = JSON.stringify({ ...req, stream: false });
    return this.call<CheckedChatResponse>({
      method: 'POST',
      path: '/chat',
      body,
      accept: 'application/json',
      policy: 'chat',
      signal: opts.signal,
      onRetry: opts.onRetry,
      timeoutMs: this.timeouts.chatRequestMs,
      headersTimeoutMs: this.timeouts.chatReplyMs,
      onSuccess: async (res) => ({ value: this.checkChatResponse(await this.readJson(res, ChatReplySchema, 'chat reply')) }),
    });
  }

  /**
   * Streamed reply (the request's `stream` is sent as true). Resolves once the response headers are
   * OK; error statuses reject with the typed error before any event. The whole reply must be complete
   * within replyDeadlineMs (TimeoutError, phase 'reply').
   */
  async chatStream(req: ChatRequest, opts: RequestOptions = {}): Promise<ChatStream> {
    validateChatRequest(req);
    const body = JSON.stringify({ ...req, stream: true });
    return this.call<ChatStream>({
      method: 'POST',
      path: '/chat',
      body,
      accept: STREAM_ACCEPT,
      policy: 'chat',
      signal: opts.signal,
      onRetry: opts.onRetry,
      timeoutMs: this.timeouts.replyDeadlineMs,
      timeoutPhase: 'reply',
      onSuccess: async (res, ctl, meta) => ({ value: this.makeStream(res, ctl, meta), keep: true }),
    });
  }

  private checkChatResponse(raw: ChatReply): CheckedChatResponse {
    const problems: string[] = [];
    for (const field of ['id', 'role', 'createdAt', 'creditsUsed', 'creditsRemaining'] as const) {
      if (raw[field] === undefined) problems.push(`${field} is missing`);
    }
    const warn: RangeWarning = (field, value, shown) => {
      problems.push(`${field} is out of range (${String(value).slice(0, 20)})`);
      this.rangeWarning(field, value, shown);
    };
    const creditsUsed = creditAmount(raw.creditsUsed, 'creditsUsed', warn);
    const creditsRemaining = raw.creditsRemaining === undefined ? undefined : balanceAmount(raw.creditsRemaining, 'creditsRemaining', warn);
    let content = raw.content;
    if (content.length > this.maxReplyChars) {
      // Like a streamed reply: the text up to the limit (a surrogate pair is not split), the rest left out.
      const keep = /[\uD800-\uDBFF]/.test(content.charAt(this.maxReplyChars - 1)) ? this.maxReplyChars - 1 : this.maxReplyChars;
      content = content.slice(0, keep);
      problems.push(`content is longer than ${this.maxReplyChars} characters: cut there`);
    }
    if (problems.length) this.logger.warn('Chat reply kept despite problems', { problems });
    const out: CheckedChatResponse = { ...raw, content, creditsUsed, creditsRemaining };
    if (problems.length) out.problems = problems;
    return out;
  }

  /** The balance; negative, fractional or huge amounts are made sensible (see sanitize.ts) and logged once. */
  async balance(opts: RequestOptions = {}): Promise<BalanceResponse> {
    const res = await this.getJson('/user/balance', BalanceResponseSchema, 'balance', opts);
    const b = res.balance;
    for (const field of ['regularBalance', 'dailyBalance', 'totalBalance'] as const) {
      b[field] = balanceAmount(b[field], `balance.${field}`, this.rangeWarning);
    }
    for (const c of b.credits ?? []) {
      c.amount = balanceAmount(c.amount, 'balance.credits.amount', this.rangeWarning);
      if (typeof c.usedAmount === 'number') c.usedAmount = balanceAmount(c.usedAmount, 'balance.credits.usedAmount', this.rangeWarning);
    }
    const daily = b.dailyCredit;
    if (daily) {
      for (const field of ['amount', 'grantedAmount'] as const) {
        const v = daily[field];
        if (typeof v === 'number') daily[field] = balanceAmount(v, `balance.dailyCredit.${field}`, this.rangeWarning);
      }
    }
    return res;
  }

  /**
   * The models. A cost that is not a usable number of credits (negative, not finite, over
   * MAX_CREDITS) is logged once and the model is marked `priceUnusable` (its cost set to 0): it
   * cannot be used for chat (core/account/models.ts).
   */
  async models(opts: RequestOptions = {}): Promise<Model[]> {
    const list: Model[] = await this.getJson('/ai-model', ModelListSchema, 'model list', opts);
    for (const m of list) {
      const cost = creditAmount(m.costInCreditPerUse, `model ${m.valueId.slice(0, 40)} costInCreditPerUse`, this.rangeWarning);
      if (cost === undefined) {
        m.priceUnusable = true;
        m.costInCreditPerUse = 0;
      } else {
        delete m.priceUnusable;
        m.costInCreditPerUse = cost;
      }
      if (typeof m.max_tokens === 'number') m.max_tokens = tokenCount(m.max_tokens, `model ${m.valueId.slice(0, 40)} max_tokens`, this.rangeWarning) ?? null;
    }
    return list;
  }

  /** The plans; a negative or non-finite price is shown as 0, logged once. */
  async subscriptions(opts: RequestOptions = {}): Promise<Subscription[]> {
    const list = await this.getJson('/subscription', SubscriptionListSchema, 'subscription list', opts);
    for (const s of list) s.price = balanceAmount(s.price, `subscription ${s.name.slice(0, 40)} price`, this.rangeWarning);
    return list;
  }

  /** Aborts requests in flight (they fail with UserAbortError) and closes the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ctl of this.active) ctl.abort('closed');
    await Promise.all([this.dispatcher.close(), this.replyDispatcher.close()]);
  }

  /** No request in flight: no call unsettled, no stream still being read. */
  get idle(): boolean {
    return this.calls === 0 && this.active.size === 0;
  }

  /** Resolves once no request is in flight (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Closes the client once every request in flight has ended (a streamed reply is read to its end),
   * or after `maxWaitMs` at the latest, which aborts what is left. New calls are served meanwhile.
   */
  async closeWhenIdle(maxWaitMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxWaitMs);
      timer.unref?.();
    });
    await Promise.race([this.whenIdle(), limit]);
    clearTimeout(timer);
    await this.close();
  }

  private checkIdle(): void {
    if (!this.idle || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  // -------------------------------------------------------------------------------------------

  private getJson<S extends z.ZodMiniType>(path: string, schema: S, what: string, opts: RequestOptions): Promise<z.infer<S>> {
    return this.call<z.infer<S>>({
      method: 'GET',
      path,
      accept: 'application/json',
      policy: 'idempotent',
      signal: opts.signal,
      onRetry: opts.onRetry,
      timeoutMs: this.timeouts.requestMs,
      onSuccess: async (res) => ({ value: await this.readJson(res, schema, what) }),
    });
  }

  private async readJson<S extends z.ZodMiniType>(res: Dispatcher.ResponseData, schema: S, what: string): Promise<z.infer<S>> {
    const text = await readBounded(res.body, MAX_BODY_BYTES, what);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ProtocolError(`The ${what} from the service is not valid JSON: "${shorten(text)}"`, {
        excerpt: shorten(text),
        cause: err,
      });
    }
    return parseResponse(schema, value, what);
  }

  private async resolveKey(): Promise<string> {
    let key: string | undefined;
    try {
      key = await this.apiKey();
    } catch (err) {
      // The key provider's own refusal (e.g. the user did not allow this address) is passed on as is.
      if (err instanceof ChatServiceError) throw err;
      throw new AuthenticationError({ status: undefined, code: 'MISSING_API_KEY', message: 'The API key could not be read', cause: err });
    }
    key = key?.trim();
    if (!key) {
      throw new AuthenticationError({
        status: undefined,
        code: 'MISSING_API_KEY',
        message: 'No API key is set. Set your API key for the chat service and try again.',
      });
    }
    if (/[^\x21-\x7e]/.test(key)) {
      throw new AuthenticationError({
        status: undefined,
        code: 'INVALID_API_KEY',
        message: 'The API key contains characters that cannot be sent in a header (spaces, line breaks or non-ASCII). Set it again.',
      });
    }
    return key;
  }

  private async call<T>(spec: CallSpec<T>): Promise<T> {
    this.calls++;
    try {
      return await this.callOnce(spec);
    } finally {
      this.calls--;
      this.checkIdle();
    }
  }

  private async callOnce<T>(spec: CallSpec<T>): Promise<T> {
    if (this.closed) throw new ConnectionError('The client was closed');
    if (spec.signal?.aborted) throw new UserAbortError();
    const key = await this.resolveKey();
    const fullPath = this.prefix + spec.path;
    const headers: Record<string, string> = {
      'x-api-key': key,
      accept: spec.accept,
      'user-agent': this.userAgent,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';

    for (let attempt = 1; ; attempt++) {
      if (spec.signal?.aborted) throw new UserAbortError();
      if (this.closed) throw new UserAbortError('The client was closed');
      const meta: AttemptMeta = { method: spec.method, path: fullPath, attempt, startedAt: performance.now() };
      const outcome = await this.attempt(spec, headers, meta);
      if (outcome.ok) return outcome.value;
      const failure = outcome.failure;
      if (failure instanceof TimeoutError && failure.phase === 'headers' && spec.headersTimeoutMs !== undefined) {
        (failure as { timeoutMs: number | undefined }).timeoutMs = spec.headersTimeoutMs;
      }
      const retryable =
        (failure instanceof APIError && failure.status !== undefined && isRetryableStatus(failure.status, spec.policy)) ||
        isRetryableError(failure, spec.policy);
      const delay = retryable && attempt <= this.maxRetries ? retryDelayMs(attempt, retryAfterOf(failure), this.retry) : undefined;
      if (delay === undefined) {
        if (failure.kind === 'aborted') this.logger.info(`${spec.method} ${fullPath} aborted`, this.logData(meta, errorData(failure)));
        else {
          this.logger.error(`${spec.method} ${fullPath} failed (${failure.kind})`, this.logData(meta, errorData(failure)));
          this.logger.trace?.(`${spec.method} ${fullPath} failure detail: ${failure.message}`);
        }
        throw failure;
      }
      this.logger.warn(`Retrying ${spec.method} ${fullPath} in ${delay} ms`, this.logData(meta, { delayMs: delay, ...errorData(failure) }));
      try {
        spec.onRetry?.({ retry: attempt, maxRetries: this.maxRetries, delayMs: delay, error: failure });
      } catch (err) {
        this.logger.warn('onRetry callback threw', { error: String(err) });
      }
      await sleep(delay, spec.signal);
    }
  }

  /** One attempt: its own AbortController, released unless a stream took it over. */
  private async attempt<T>(
    spec: CallSpec<T>,
    headers: Record<string, string>,
    meta: AttemptMeta,
  ): Promise<{ ok: true; value: T } | { ok: false; failure: ChatServiceError }> {
    const ctl = new AttemptControl(spec.signal, spec.timeoutMs);
    this.active.add(ctl);
    let keep = false;
    let gotHeaders = false;
    try {
      const res = await request(this.origin + meta.path, {
        method: spec.method,
        headers,
        body: spec.body,
        dispatcher: spec.headersTimeoutMs !== undefined ? this.replyDispatcher : this.dispatcher,
        signal: ctl.signal,
      });
      gotHeaders = true;
      const status = res.statusCode;
      if (status >= 200 && status < 300) {
        this.logger.info(`${spec.method} ${meta.path} ${status}`, this.logData(meta, { status }));
        const out = await spec.onSuccess(res, ctl, meta);
        keep = out.keep === true;
        return { ok: true, value: out.value };
      }
      const failure = await this.errorFromResponse(res, ctl);
      this.logger.warn(`${spec.method} ${meta.path} ${status}`, this.logData(meta, errorData(failure)));
      return { ok: false, failure };
    } catch (err) {
      return { ok: false, failure: this.mapFailure(err, ctl, meta, gotHeaders, spec) };
    } finally {
      if (!keep) {
        ctl.dispose();
        this.active.delete(ctl);
        this.checkIdle();
      }
    }
  }

  private logData(meta: AttemptMeta, extra: Record<string, unknown>): Record<string, unknown> {
    return {
      method: meta.method,
      path: meta.path,
      attempt: meta.attempt,
      durationMs: Math.round(performance.now() - meta.startedAt),
      ...extra,
    };
  }

  /** Reads a bounded error body and builds the typed error for the status. */
  private async errorFromResponse(res: Dispatcher.ResponseData, ctl: AttemptControl): Promise<APIError> {
    const headers = res.headers;
    let text = '';
    try {
      text = await readLimited(res.body, MAX_ERROR_BODY_BYTES);
    } catch (err) {
      if (ctl.reason !== undefined) throw err;
      // The status is known; a broken error body only loses the details.
    }
    return buildApiError(res.statusCode, headers, text);
  }

  /** Maps anything thrown during an attempt to a ChatServiceError. */
  private mapFailure(
    err: unknown,
    ctl: AttemptControl,
    meta: { path: string },
    duringBody = false,
    spec?: Pick<CallSpec<unknown>, 'timeoutMs' | 'timeoutPhase' | 'headersTimeoutMs'>,
  ): ChatServiceError {
    if (err instanceof APIError) return err;
    switch (ctl.reason) {
      case 'caller':
      case 'user':
      case 'consumer':
        return new UserAbortError('The request was aborted', { cause: err });
      case 'closed':
        return new UserAbortError('The client was closed', { cause: err });
      case 'timeout':
        if (spec?.timeoutPhase === 'reply') {
          return new TimeoutError(`The reply was not complete within ${durationText(spec.timeoutMs ?? 0)} (reply deadline)`, {
            phase: 'reply',
            timeoutMs: spec.timeoutMs,
            cause: err,
          });
        }
        return new TimeoutError(`No complete answer from the service within ${durationText(spec?.timeoutMs ?? this.timeouts.requestMs)} (request deadline)`, {
          phase: 'request',
          timeoutMs: spec?.timeoutMs ?? this.timeouts.requestMs,
          cause: err,
        });
      default:
        break;
    }
    if (err instanceof ChatServiceError) return err;
    const code = errorCode(err);
    const where = `${this.origin}${meta.path}`;
    if (code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new TimeoutError(`Could not connect to ${this.origin} within ${this.timeouts.connectMs} ms`, {
        phase: 'connect',
        timeoutMs: this.timeouts.connectMs,
        cause: err,
      });
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT') {
      const ms = spec?.headersTimeoutMs ?? this.timeouts.headersMs;
      return new TimeoutError(`The service did not answer within ${ms} ms`, {
        phase: 'headers',
        timeoutMs: ms,
        cause: err,
      });
    }
    if (code === 'UND_ERR_BODY_TIMEOUT') {
      return new TimeoutError(`The service sent nothing for ${this.timeouts.bodyMs} ms`, {
        phase: 'body',
        timeoutMs: this.timeouts.bodyMs,
        cause: err,
      });
    }
    let message: string;
    if (code === 'ECONNREFUSED') message = `Could not connect to ${this.origin} (connection refused)`;
    else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') message = `Could not resolve the host of ${this.origin}`;
    else if (duringBody) message = 'The connection broke before the reply was complete';
    else message = `Could not reach ${where}: ${err instanceof Error ? err.message : String(err)}`;
    return new ConnectionError(message, { cause: err, code });
  }

  private makeStream(res: Dispatcher.ResponseData, ctl: AttemptControl, meta: AttemptMeta): ChatStream {
    const headers = res.headers;
    const stream = new ChatStream({
      status: res.statusCode,
      headers,
      body: res.body,
      logger: this.logger,
      abortRequest: (byUser) => {
        if (!ctl.signal.aborted) {
          ctl.abort(byUser ? 'user' : 'consumer');
          res.body.destroy();
        }
      },
      mapError: (err) => this.mapFailure(err, ctl, meta, true, { timeoutMs: this.timeouts.replyDeadlineMs, timeoutPhase: 'reply' }),
      closeGraceMs: this.timeouts.closeGraceMs,
      maxReplyChars: this.maxReplyChars,
      onEnd: (outcome) => {
        ctl.dispose();
        this.active.delete(ctl);
        this.checkIdle();
        const data = this.logData(meta, {
          status: res.statusCode,
          events: outcome.events,
          framing: outcome.framing,
          complete: outcome.complete,
          ...(outcome.error ? errorData(outcome.error) : {}),
        });
        if (outcome.error && outcome.error.kind !== 'aborted') {
          this.logger.error(`${meta.method} ${meta.path} stream failed (${outcome.error.kind})`, data);
          this.logger.trace?.(`${meta.method} ${meta.path} stream failure detail: ${outcome.error.message}`);
        } else if (!outcome.complete) {
          this.logger.info(`${meta.method} ${meta.path} stream stopped`, data);
        } else {
          this.logger.debug(`${meta.method} ${meta.path} stream complete`, data);
        }
      },
    });
    // Caller signal or close() before the stream is iterated: release the attempt now.
    ctl.signal.addEventListener('abort', () => stream.abort(), { once: true });
    return stream;
  }
}

// ---------------------------------------------------------------------------------------------

/** "45 s", "1.5 s", "10 minutes", "1 minute". */
function durationText(ms: number): string {
  if (ms < 60_000) return `${ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000)} s`;
  const min = Math.round(ms / 6_000) / 10;
  return `${min} minute${min === 1 ? '' : 's'}`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e.cause) return errorCode(e.cause);
  return undefined;
}

function retryAfterOf(err: ChatServiceError): number | undefined {
  if (err instanceof RateLimitError) return err.retryAfterMs;
  if (err instanceof APIError) return parseRetryAfter(headerValue(err.headers, 'retry-after'));
  return undefined;
}

function errorData(err: ChatServiceError): Record<string, unknown> {
  const data: Record<string, unknown> = { kind: err.kind };
  if (err instanceof APIError) {
    if (err.status !== undefined) data.status = err.status;
    if (err.code !== undefined) data.code = err.code;
    if (err.traceId !== undefined) data.traceId = err.traceId;
  }
  if (err instanceof ConnectionError && err.code) data.code = err.code;
  if (err instanceof TimeoutError) data.phase = err.phase;
  return data;
}

/** The whole body as text; over `limit` bytes -> ProtocolError (memory stays bounded). */
async function readBounded(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number, what: string): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new ProtocolError(`The ${what} from the service is larger than ${Math.round(limit / (1024 * 1024))} MB; it was not read`);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

async function readLimited(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(parts).subarray(0, limit).toString('utf8');
}

/** Text of an HTML or plain error page, shortened, for `details`. */
function excerptOf(text: string): string {
  const plain = text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
  return shorten(plain, 160);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The typed error of an error response; the body's code refines the status where it is explicit. */
export function buildApiError(status: number, headers: ResponseHeaders, text: string): APIError {
  const init: APIErrorInit & { status: number; creditsRemaining?: number } = { status, headers, body: text };
  let parsed: unknown;
  try {
    parsed = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const r = ErrorBodySchema.safeParse(parsed);
    const o = (r.success ? r.data : parsed) as Record<string, unknown>;
    init.body = o;
    init.code = str(o.code);
    init.message = str(o.message) ?? str(o.error);
    init.traceId = str(o.traceId);
    init.details = str(o.details);
    if (typeof o.creditsRemaining === 'number') init.creditsRemaining = o.creditsRemaining;
  } else if (text.trim()) {
    init.details = excerptOf(text);
  }
  init.traceId ??= str(headerValue(headers, 'x-trace-id')) ?? str(headerValue(headers, 'x-request-id'));
  if (init.message) init.message = shorten(init.message, 300);
  // Codes the service names explicitly win over an unusual status (e.g. AUTH_FAILED on a GET).
  if (init.code === 'AUTH_FAILED') return new AuthenticationError(init);
  if (init.code === 'INSUFFICIENT_CREDITS') return new InsufficientCreditsError(init);
  if (init.code === 'RATE_LIMITED') return new RateLimitError(init);
  return APIError.fromResponse(init);
}
