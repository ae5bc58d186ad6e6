// Shared helpers of the reference-server tests: one server per test file, plain fetch.
import { startReferenceServer, type ReferenceServer } from '../../server/server';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_KEY, type RequestLogEntry } from '../../server/fixtures';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Starts a quiet server with no chunk delay before the suite and resets it before each test. */
export function useServer(): { readonly s: ReferenceServer } {
  const holder: { s?: ReferenceServer } = {};
  before(async () => {
    holder.s = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
  });
  beforeEach(() => holder.s?.control.reset());
  after(async () => {
    await holder.s?.close();
  });
  return {
    get s(): ReferenceServer {
      if (!holder.s) throw new Error('server not started');
      return holder.s;
    },
  };
}

export interface ChatOptions {
  key?: string | null;
  contentType?: string | null;
}

export function postChat(server: ReferenceServer, body: unknown, opts: ChatOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? DEMO_KEY : opts.key;
  if (key !== null) headers['x-api-key'] = key;
  const ct = opts.contentType === undefined ? 'application/json' : opts.contentType;
  if (ct !== null) headers['content-type'] = ct;
  return fetch(server.url + '/chat', {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function get(server: ReferenceServer, path: string, key: string | null = DEMO_KEY): Promise<Response> {
  return fetch(server.url + path, { headers: key === null ? {} : { 'x-api-key': key } });
}

export function userMessage(content: string): { messages: Array<{ role: string; content: string }> } {
  return { messages: [{ role: 'user', content }] };
}

export interface StreamEventLike {
  event: string;
  [k: string]: unknown;
}

/** Parses a complete SSE body into events; `done` tells whether [DONE] ended it. */
export function parseSse(text: string): { events: StreamEventLike[]; done: boolean } {
  const events: StreamEventLike[] = [];
  let done = false;
  for (const block of text.split('\n\n')) {
    if (!block) continue;
    if (!block.startsWith('data: ')) throw new Error('not an SSE data block: ' + JSON.stringify(block));
    const data = block.slice(6);
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    events.push(JSON.parse(data) as StreamEventLike);
  }
  return { events, done };
}

export function parseNdjson(text: string): StreamEventLike[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as StreamEventLike);
}

export function parsePrefixed(text: string): StreamEventLike[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const i = l.indexOf(':');
      const type = l.slice(0, i);
      const payload: unknown = JSON.parse(l.slice(i + 1));
      return type === '0' ? { event: '0', data: payload } : { event: type, ...(payload as object) };
    });
}

export function textOf(events: StreamEventLike[]): string {
  return events
    .filter((e) => e.event === '0')
    .map((e) => e.data as string)
    .join('');
}

/** Reads a response body until it ends or fails; returns the text so far and the failure. */
export async function readAll(res: Response): Promise<{ text: string; error?: unknown }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return { text: text + decoder.decode() };
  } catch (error) {
    return { text, error };
  }
}

/** Polls the request log (at most ~2 s) until an entry satisfies `pred`. */
export async function waitForEntry(s: ReferenceServer, pred: (e: RequestLogEntry) => boolean): Promise<RequestLogEntry> {
  for (let i = 0; i < 200; i++) {
    const e = s.control.requests().find(pred);
    if (e) return e;
    await sleep(10);
  }
  throw new Error('no matching log entry: ' + JSON.stringify(s.control.requests()));
}
