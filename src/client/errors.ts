/**
 * Error hierarchy of the client. Every error thrown by the client is a ChatServiceError with a stable
 * `kind` a UI can switch on. Errors never carry the API key.
 */
import type * as z from 'zod/mini';
import type { ErrorBody } from './schemas';
import { balanceAmount, noRangeWarning } from './sanitize';

export type ErrorKind =
  | 'auth'
  | 'invalid'
  | 'credits'
  | 'rate-limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'protocol'
  | 'stream'
  | 'too-large'
  | 'validation';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export abstract class ChatServiceError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface APIErrorInit {
  status: number | undefined;
  /** Parsed error body when it was JSON (ErrorBody when it matched the schema), else the raw text. */
  body?: ErrorBody | Record<string, unknown> | string;
  headers?: ResponseHeaders;
  code?: string;
  message?: string;
  traceId?: string;
  details?: string;
  cause?: unknown;
}

/**
 * The service answered with an error status. Subclasses per status; other statuses are plain APIError,
 * whose kind is 'invalid' for other 4xx (404, 405, 413...: the request was refused) and 'server' otherwise.
 */
export class APIError extends ChatServiceError {
  readonly kind: ErrorKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly traceId: string | undefined;
  readonly details: string | undefined;
  readonly body: ErrorBody | Record<string, unknown> | string | undefined;
  readonly headers: ResponseHeaders;

  constructor(init: APIErrorInit) {
    super(init.message ?? defaultMessage(init.status), { cause: init.cause });
    this.kind = init.status !== undefined && init.status >= 400 && init.status < 500 ? 'invalid' : 'server';
    this.status = init.status;
    this.code = init.code;
    this.traceId = init.traceId;
    this.details = init.details;
    this.body = init.body;
    this.headers = init.headers ?? {};
  }

  /** Builds the subclass matching the HTTP status. */
  static fromResponse(init: APIErrorInit & { status: number; retryAfterMs?: number; creditsRemaining?: number }): APIError {
    const s = init.status;
    if (s === 401 || s === 403) return new AuthenticationError(init);
    if (s === 400) return new InvalidInputError(init);
    if (s === 402) return new InsufficientCreditsError(init);
    if (s === 429) return new RateLimitError(init);
    if (s >= 500 && s <= 599) return new ServerError(init);
    return new APIError(init);
  }
}

function defaultMessage(status: number | undefined): string {
  if (status === undefined) return 'The service reported an error';
  if (status === 401 || status === 403) return `The API key was rejected (HTTP ${status})`;
  if (status === 400) return 'The service rejected the request as invalid (HTTP 400)';
  if (status === 402) return 'Not enough credits (HTTP 402)';
  if (status === 429) return 'Too many requests (HTTP 429)';
  if (status >= 500) return `The service failed (HTTP ${status})`;
  return `The service answered with HTTP ${status}`;
}

/** 401/403, or no API key available (status undefined, code MISSING_API_KEY, nothing sent). */
export class AuthenticationError extends APIError {
  override readonly kind = 'auth' as const;
}

/** 400: the service rejected the request (message names the field and rule). */
export class InvalidInputError extends APIError {
  override readonly kind = 'invalid' as const;
}

/** 402 / INSUFFICIENT_CREDITS. */
export class InsufficientCreditsError extends APIError {
  override readonly kind = 'credits' as const;
  readonly creditsRemaining: number | undefined;
  constructor(init: APIErrorInit & { creditsRemaining?: number }) {
    super(init);
    const fromBody =
      typeof init.body === 'object' && init.body !== null && typeof init.body.creditsRemaining === 'number'
        ? init.body.creditsRemaining
        : undefined;
    const left = init.creditsRemaining ?? fromBody;
    // A value from the service: negative or not finite shows as 0 (see sanitize.ts).
    this.creditsRemaining = left === undefined ? undefined : balanceAmount(left, 'creditsRemaining', noRangeWarning);
  }
}

/** 429; retryAfterMs from the Retry-After header (seconds or HTTP-date) when sent. */
export class RateLimitError extends APIError {
  override readonly kind = 'rate-limit' as const;
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit & { retryAfterMs?: number }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs ?? parseRetryAfter(headerValue(this.headers, 'retry-after'));
  }
}

/** 5xx. */
export class ServerError extends APIError {
  override readonly kind = 'server' as const;
}

/** The service could not be reached, or the connection broke (cause: the underlying error). */
export class ConnectionError extends ChatServiceError {
  readonly kind = 'connection' as const;
  /** Low-level code such as ECONNREFUSED or UND_ERR_SOCKET when known. */
  readonly code: string | undefined;
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options);
    this.code = options?.code;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'request' | 'reply';

/** A timeout elapsed: connecting, waiting for headers, between body chunks, the whole request, or the reply deadline of a stream. */
export class TimeoutError extends ChatServiceError {
  readonly kind = 'timeout' as const;
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number | undefined;
  constructor(message: string, options: { phase: TimeoutPhase; timeoutMs?: number; cause?: unknown }) {
    super(message, options);
    this.phase = options.phase;
    this.timeoutMs = options.timeoutMs;
  }
}

/** The caller aborted (AbortSignal, ChatStream.abort()). */
export class UserAbortError extends ChatServiceError {
  readonly kind = 'aborted' as const;
  constructor(message = 'The request was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The service's answer does not follow the interface (missing field, malformed frame, cut stream). */
export class ProtocolError extends ChatServiceError {
  readonly kind = 'protocol' as const;
  /** Path of the offending field (e.g. `balance.totalBalance`) when the problem is one field. */
  readonly field: string | undefined;
  /** The offending line or body, shortened. */
  readonly excerpt: string | undefined;
  constructor(message: string, options?: { field?: string; excerpt?: string; cause?: unknown }) {
    super(message, options);
    this.field = options?.field;
    this.excerpt = options?.excerpt;
  }
}

/**
 * The reply failed while it was written: a `3` error part (message: its text) or a step finished with
 * finishReason `error`. `text` is what arrived before (kept: the reply was paid for).
 */
export class StreamEventError extends ChatServiceError {
  readonly kind = 'stream' as const;
  readonly finishReason: string;
  readonly text: string;
  constructor(message: string, finishReason: string, text = '') {
    super(message);
    this.finishReason = finishReason;
    this.text = text;
  }
}

/**
 * A streamed reply grew past the most the client reads (`limit` characters of text): the text up to
 * the limit came as events before this error, the rest was not read and the connection was closed.
 */
export class ReplyTooLargeError extends ChatServiceError {
  readonly kind = 'too-large' as const;
  readonly limit: number;
  constructor(limit: number) {
    super(`The reply is longer than ${limit} characters; the rest was not read`);
    this.limit = limit;
  }
}

/** The request breaks a rule of the interface; nothing was sent. */
export class RequestValidationError extends ChatServiceError {
  readonly kind = 'validation' as const;
  /** Path of the first offending field, e.g. `messages[2].id`; `(request)` for the whole body. */
  readonly field: string;
  /** The rule broken, e.g. `must match ^msg_[0-9a-f]{3}$`. */
  readonly rule: string;
  /** Every problem found, first one = field/rule. */
  readonly issues: ReadonlyArray<{ field: string; rule: string }>;
  constructor(issues: ReadonlyArray<{ field: string; rule: string }>) {
    const first = issues[0] ?? { field: '(request)', rule: 'is invalid' };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`Invalid request: ${first.field} ${first.rule}${more}`);
    this.field = first.field;
    this.rule = first.rule;
    this.issues = issues.length ? issues : [first];
  }
}

// ---------------------------------------------------------------------------------------------
// helpers shared by the client and the errors

/** `['messages', 2, 'id']` -> `messages[2].id`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out || '(root)';
}

/** Human rule of a zod issue, e.g. `must be a string`, `must be <= 2`. */
export function ruleOf(issue: z.core.$ZodIssue, input?: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const missing = input === undefined || /received undefined/.test(issue.message);
      const what = `must be ${article(issue.expected)}`;
      if (missing) return `is required (${what})`;
      return issue.message.startsWith('Invalid input') ? what : issue.message;
    }
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'invalid_value':
    case 'custom':
      if (!/^(Too small|Too big|Invalid)/.test(issue.message)) return issue.message;
      if (issue.code === 'too_small') return `must be >= ${String(issue.minimum)}`;
      if (issue.code === 'too_big') return `must be <= ${String(issue.maximum)}`;
      if (issue.code === 'invalid_value') return `must be one of ${issue.values.map(String).join(', ')}`;
      if (issue.code === 'invalid_format' && 'pattern' in issue) return `must match ${String(issue.pattern)}`;
      return issue.message;
    case 'invalid_union':
      if ('note' in issue && issue.note === 'No matching discriminator') return 'must be one of the known values';
      return issue.message;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  if (expected === 'string' || expected === 'number' || expected === 'boolean') return `a ${expected}`;
  return expected;
}

/** Value lookup at a zod path inside `root` (to tell "missing" from "mistyped"). */
export function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After in ms: delta-seconds or an HTTP-date; undefined when absent or unparseable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!/^[A-Za-z]{3},? /.test(v)) return undefined; // an HTTP-date starts with the day name
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Shortens `text` to about `max` characters, on one line. */
export function shorten(text: string, max = 120): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
