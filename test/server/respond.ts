// Per-request context and response helpers: JSON/error bodies, fault-aware JSON
// sending, cancellable sleeps and backpressure-aware writes.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleepTimer } from 'node:timers/promises';
import type { FaultSpec, RequestLogEntry } from './fixtures';

export type ErrorCode = 'AUTH_FAILED' | 'INVALID_INPUT' | 'RATE_LIMITED' | 'SERVER_ERROR' | 'INSUFFICIENT_CREDITS';

export function errorBody(code: ErrorCode, error: string, extra: { message?: string; details?: string } = {}): Record<string, unknown> {
  return {
    error,
    code,
    success: false,
    message: extra.message ?? error,
    traceId: randomUUID(),
    ...(extra.details !== undefined ? { details: extra.details } : {}),
  };
}

/** State of one service request: its log entry, its response, and cancellation. */
export class RequestContext {
  private readonly controller = new AbortController();
  /** Set when the server itself destroyed the socket (a fault), so it is not a client close. */
  private destroyedByServer = false;
  readonly startedAt = Date.now();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly entry: RequestLogEntry,
  ) {
    res.on('close', () => {
      if (!res.writableFinished && !this.destroyedByServer) entry.clientClosed = true;
      this.controller.abort();
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the response can no longer be written (client gone, server closing, or done). */
  get closed(): boolean {
    return this.controller.signal.aborted || this.res.destroyed;
  }

  /** Stops all work on this request (server shutdown). */
  abort(): void {
    this.destroyedByServer = true;
    this.controller.abort();
  }

  writeHead(status: number, headers: Record<string, string | number>): void {
    this.entry.status = status;
    this.res.writeHead(status, headers);
  }

  /** Destroys the socket on purpose (fault injection). */
  destroySocket(): void {
    this.destroyedByServer = true;
    this.req.socket.destroy();
    this.controller.abort();
  }

  /** Waits `ms`; resolves false when the request was cancelled meanwhile. */
  async sleep(ms: number): Promise<boolean> {
    if (this.closed) return false;
    try {
      await sleepTimer(ms, undefined, { signal: this.signal });
      return !this.closed;
    } catch {
      return false;
    }
  }

  /** Settles when the last write was handed to the socket. */
  private lastWrite: Promise<void> = Promise.resolve();

  /** res.write that remembers when its data left for the socket (see flushed()). */
  rawWrite(data: string | Buffer): boolean {
    let ok = true;
    this.lastWrite = new Promise<void>((resolve) => {
      ok = this.res.write(data, () => resolve());
    });
    return ok;
  }

  /** Writes and honours backpressure; resolves false when the request was cancelled. */
  async write(text: string): Promise<boolean> {
    if (this.closed) return false;
    if (this.rawWrite(text)) return true;
    try {
      await once(this.res, 'drain', { signal: this.signal });
      return !this.closed;
    } catch {
      return false;
    }
  }

  /** Resolves once everything written so far has been handed to the socket. */
  flushed(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const gone = new Promise<void>((resolve) => this.res.once('close', () => resolve()));
    return Promise.race([this.lastWrite, gone]);
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a JSON body. A fault may spoil it: truncated-body / drop-mid-stream (half the
 * bytes with the full content-length, then the socket is destroyed) or malformed-frame
 * (a well-delimited but unparsable body).
 */
export async function sendJson(
  ctx: RequestContext,
  status: number,
  body: unknown,
  fault?: FaultSpec,
  headers: Record<string, string | number> = {},
): Promise<void> {
  if (ctx.closed) return;
  const buf = Buffer.from(JSON.stringify(body), 'utf8');
  if (fault && (fault.kind === 'truncated-body' || fault.kind === 'drop-mid-stream')) {
    ctx.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': buf.length, ...headers });
    ctx.rawWrite(buf.subarray(0, Math.floor(buf.length / 2)));
    await ctx.flushed();
    ctx.destroySocket();
    return;
  }
  const out = fault?.kind === 'malformed-frame' ? buf.subarray(0, Math.max(1, Math.floor(buf.length / 2))) : buf;
  ctx.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': out.length, ...headers });
  ctx.res.end(out);
}

export function sendError(
  ctx: RequestContext,
  status: number,
  code: ErrorCode,
  error: string,
  extra: { message?: string; details?: string; headers?: Record<string, string | number>; fields?: Record<string, unknown> } = {},
): Promise<void> {
  const body = { ...errorBody(code, error, extra), ...(extra.fields ?? {}) };
  return sendJson(ctx, status, body, undefined, extra.headers);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The `status` fault: an error response as a gateway or the service would send it. */
export async function sendStatusFault(ctx: RequestContext, fault: Extract<FaultSpec, { kind: 'status' }>): Promise<void> {
  const reason = REASONS[fault.status] ?? 'Error';
  const headers: Record<string, string | number> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.html) {
    const html = `<!DOCTYPE html>\n<html><head><title>${fault.status} ${reason}</title></head>\n<body><center><h1>${fault.status} ${reason}</h1></center><hr><center>nginx</center></body></html>\n`;
    const buf = Buffer.from(html, 'utf8');
    ctx.writeHead(fault.status, { 'content-type': 'text/html; charset=utf-8', 'content-length': buf.length, ...headers });
    ctx.res.end(buf);
    return;
  }
  const s = fault.status;
  const code: ErrorCode =
    s === 401 || s === 403 ? 'AUTH_FAILED' : s === 402 ? 'INSUFFICIENT_CREDITS' : s === 429 ? 'RATE_LIMITED' : s >= 500 ? 'SERVER_ERROR' : 'INVALID_INPUT';
  const fields: Record<string, unknown> = code === 'INSUFFICIENT_CREDITS' ? { creditsRemaining: 0 } : {};
  const message = fault.message ?? (s === 429 && fault.retryAfter !== undefined ? `${reason}: retry after ${fault.retryAfter} s` : `${reason} (injected fault)`);
  await sendError(ctx, s, code, fault.message ?? reason, { message, headers, fields });
}
