// The reference server: a faithful implementation of the service interface
// (POST /chat, GET /user/balance, GET /ai-model, GET /subscription) with fault
// injection, controlled in-process (`server.control`) or over HTTP (/__control/*,
// loopback only, no key).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleChat, MAX_BODY_BYTES } from './chat';
import { SUBSCRIPTIONS, type BalanceInput, type Fault, type RequestLogEntry, type ServerConfig } from './fixtures';
import { balanceSchema, configSchema, describeZodError, FaultQueue } from './faults';
import { RequestContext, sendError, sendJson, sendStatusFault } from './respond';
import { BalanceStore } from './state';

export interface ReferenceServerOptions {
  /** 0 picks a free port; default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Characters per streamed chunk; default 24. */
  chunkSize?: number;
  /** Delay between streamed chunks; default 15 ms. */
  chunkDelayMs?: number;
  /** No per-request log lines on stdout. */
  quiet?: boolean;
}

export interface ServerControl {
  /** Users, balances, model counters, faults, log and config back to the start. */
  reset(): void;
  /** Queues a fault (validated; throws on an invalid one). */
  injectFault(fault: Fault): void;
  /** Copy of the request log (service requests only, oldest first, the latest MAX_LOG_ENTRIES). */
  requests(): RequestLogEntry[];
  /** Sets a user's balance; an unknown key becomes a new valid user. */
  setBalance(input: BalanceInput): void;
  /** Changes streaming parameters for the following requests. */
  configure(config: Partial<ServerConfig>): void;
  /** Faults still queued, with their remaining `times`. */
  pendingFaults(): Fault[];
  /** Current streaming parameters. */
  config(): ServerConfig;
}

export interface ReferenceServer {
  /** e.g. http://127.0.0.1:8787 (no trailing slash). */
  url: string;
  port: number;
  close(): Promise<void>;
  control: ServerControl;
}

const ROUTES: Record<string, 'GET' | 'POST'> = {
  '/chat': 'POST',
  '/user/balance': 'GET',
  '/ai-model': 'GET',
  '/subscription': 'GET',
};

/** The request log keeps the latest entries only (long demo or benchmark sessions). */
export const MAX_LOG_ENTRIES = 1000;

/** Bodies above this are not even drained: the connection is destroyed. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

interface BodyResult {
  raw: Buffer;
  tooLarge: boolean;
}

function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_LIMIT_BYTES) {
        req.socket.destroy();
        return;
      }
      if (size > limit) tooLarge = true;
      if (!tooLarge) parts.push(chunk);
    });
    req.on('end', () => resolve({ raw: tooLarge ? Buffer.alloc(0) : Buffer.concat(parts), tooLarge }));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

/** Whether a remote address is the loopback interface (control endpoints are served only then). */
export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1' || (address?.startsWith('127.') ?? false);
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}

function apiKeyOf(req: IncomingMessage): string | undefined {
  const v = req.headers['x-api-key'];
  const key = Array.isArray(v) ? v[0] : v;
  return key && key.length > 0 ? key : undefined;
}

export async function startReferenceServer(opts: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = opts.host ?? '127.0.0.1';
  const initialConfig: ServerConfig = {
    chunkSize: opts.chunkSize ?? 24,
    chunkDelayMs: opts.chunkDelayMs ?? 15,
    framing: 'sse',
  };
  let config: ServerConfig = { ...initialConfig };
  const store = new BalanceStore();
  const faults = new FaultQueue();
  let log: RequestLogEntry[] = [];
  const active = new Set<RequestContext>();
  const quiet = opts.quiet ?? false;

  const control: ServerControl = {
    reset() {
      store.reset();
      faults.clear();
      log = [];
      config = { ...initialConfig };
    },
    injectFault(fault) {
      faults.add(fault);
    },
    requests() {
      return log.map((e) => ({ ...e }));
    },
    setBalance(input) {
      const parsed = balanceSchema.safeParse(input);
      if (!parsed.success) throw new Error('invalid balance: ' + describeZodError(parsed.error));
      store.setBalance(parsed.data);
    },
    configure(patch) {
      const parsed = configSchema.safeParse(patch);
      if (!parsed.success) throw new Error('invalid config: ' + describeZodError(parsed.error));
      config = { ...config, ...parsed.data };
    },
    pendingFaults() {
      return faults.pending();
    },
    config() {
      return { ...config };
    },
  };

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const send = (status: number, body: unknown) => {
      const buf = Buffer.from(JSON.stringify(body), 'utf8');
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': buf.length });
      res.end(buf);
    };
    if (!isLoopback(req.socket.remoteAddress)) return send(404, { ok: false, error: 'not found' });
    const { raw } = await readBody(req, 1024 * 1024);
    const body = parseJson(raw);
    const op = `${req.method} ${path}`;
    try {
      switch (op) {
        case 'POST /__control/reset':
          control.reset();
          return send(200, { ok: true });
        case 'POST /__control/fault': {
          const fault = faults.add(body);
          return send(200, { ok: true, fault, pending: faults.pending().length });
        }
        case 'GET /__control/faults':
          return send(200, faults.pending());
        case 'GET /__control/requests':
          return send(200, control.requests());
        case 'POST /__control/balance': {
          control.setBalance(body as BalanceInput);
          const user = store.user((body as BalanceInput).key);
          return send(200, { ok: true, ...(user ? store.balanceBody(user) : {}) });
        }
        case 'POST /__control/config':
          control.configure((body ?? {}));
          return send(200, { ok: true, config: control.config() });
        case 'GET /__control/config':
          return send(200, control.config());
        default:
          return send(404, { ok: false, error: `no control operation ${op}` });
      }
    } catch (err) {
      return send(400, { ok: false, error: (err as Error).message });
    }
  }

  async function handleService(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const key = apiKeyOf(req);
    const entry: RequestLogEntry = {
      method: req.method ?? 'GET',
      path,
      body: null,
      hasKey: key !== undefined,
      status: 0,
      at: new Date().toISOString(),
    };
    log.push(entry);
    if (log.length > MAX_LOG_ENTRIES) log.splice(0, log.length - MAX_LOG_ENTRIES);
    const ctx = new RequestContext(req, res, entry);
    active.add(ctx);
    res.on('close', () => {
      active.delete(ctx);
      if (!quiet) {
        const extra = [entry.fault ? `fault=${entry.fault}` : '', entry.clientClosed ? 'client closed' : ''].filter(Boolean).join(' ');
        console.log(`${entry.method} ${path} ${entry.status} ${Date.now() - ctx.startedAt}ms${extra ? ' ' + extra : ''}`);
      }
    });

    const { raw, tooLarge } = await readBody(req, MAX_BODY_BYTES);
    entry.body = tooLarge ? null : parseJson(raw);

    const method = ROUTES[path];
    if (!method) return sendError(ctx, 404, 'INVALID_INPUT', `no such endpoint: ${req.method} ${path}`);
    if (req.method !== method) {
      return sendError(ctx, 405, 'INVALID_INPUT', `method ${req.method} is not allowed on ${path}; use ${method}`, { headers: { allow: method } });
    }

    const fault = faults.take(path);
    if (fault) entry.fault = fault.kind;
    if (fault?.kind === 'reset-before-headers') {
      ctx.destroySocket();
      return;
    }
    if (fault?.kind === 'delay-headers' && !(await ctx.sleep(fault.ms))) return;
    if (fault?.kind === 'status') return sendStatusFault(ctx, fault);

    const user = store.user(key);
    if (!user) {
      const error = key ? 'invalid API key' : 'missing API key';
      return sendError(ctx, 401, 'AUTH_FAILED', error, {
        message: key ? 'The API key sent in x-api-key is not valid.' : 'Send your API key in the x-api-key header.',
      });
    }

    switch (path) {
      case '/chat':
        return handleChat({ ctx, user, store, config, raw, tooLarge, fault });
      case '/user/balance':
        return sendJson(ctx, 200, store.balanceBody(user), fault);
      case '/ai-model':
        return sendJson(ctx, 200, store.modelsBody(), fault);
      case '/subscription':
        return sendJson(ctx, 200, SUBSCRIPTIONS, fault);
    }
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const work = path.startsWith('/__control/') ? handleControl(req, res, path) : handleService(req, res, path);
    work.catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        const message = err instanceof Error ? err.message : String(err);
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'internal error', code: 'SERVER_ERROR', success: false, message }));
      } else if (!res.destroyed) {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    control,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const ctx of active) ctx.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
