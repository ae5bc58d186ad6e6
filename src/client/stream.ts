/** The streamed reply of POST /chat as an AsyncIterable, and a helper that collects it. */
import { decodeEventStream, type Framing } from './decoder';
import type { ChatServiceError, ResponseHeaders } from './errors';
import type { Logger } from './logger';
import { ReplyAssembler, type ReplyOutcome, type ReplyUsage } from './reply';
import type { RangeWarning } from './sanitize';
import { ProtocolError, ReplyTooLargeError, StreamEventError } from './errors';
import type { StreamEvent } from './schemas';

/** After `d` / [DONE], how long the rest of the body may take before the connection is closed. */
export const DEFAULT_CLOSE_GRACE_MS = 1000;

/** How a stream ended, for the client's bookkeeping (logging, releasing the attempt). */
export interface StreamOutcome {
  /** A `d` event or `[DONE]` was seen and the body ended. */
  complete: boolean;
  /** The consumer stopped early (break / return) or called abort(). */
  stoppedEarly: boolean;
  error?: ChatServiceError;
  events: number;
  framing: Framing | undefined;
}

export interface ChatStreamInit {
  status: number;
  headers: ResponseHeaders;
  body: AsyncIterable<Uint8Array>;
  logger: Logger;
  /** Aborts the HTTP request (closes the socket); `byUser` when the caller asked for it. */
  abortRequest(byUser: boolean): void;
  /** Maps a failure while reading the body to a typed error. */
  mapError(err: unknown): ChatServiceError;
  /** Called exactly once when the stream is over, whatever the reason. */
  onEnd(outcome: StreamOutcome): void;
  /** After the reply is complete, the rest of the body is read for at most this long, then closed. */
  closeGraceMs?: number;
  /** Longest line / SSE event in characters (default 1 MiB). */
  maxLineChars?: number;
  /** Most characters of text (`0` events) read of one reply; default MAX_REPLY_CHARS. */
  maxReplyChars?: number;
  /** Most parts (events of any kind) read of one reply; default MAX_REPLY_PARTS. */
  maxReplyParts?: number;
}

/** Most characters of text one streamed reply may have: 4 million (about 4 to 12 MB). */
export const MAX_REPLY_CHARS = 4_000_000;

/**
 * Most parts (events of any kind) one streamed reply may have: 1 million. A model sends about one
 * part a token, and no model writes a million tokens in one reply; a stream of empty or malformed
 * parts, which the text cap does not count, ends here.
 */
export const MAX_REPLY_PARTS = 1_000_000;

export const TOO_MANY_PARTS_MESSAGE = 'The reply has more than {0} parts; the rest was not read';

/**
 * A streamed reply. Iterate it once with `for await`; events come as soon as each frame is complete.
 * Breaking out of the loop, abort(), or the request's AbortSignal abort the request and close the
 * connection. Every event is yielded, `e` (step finish) and `3` (error part) included: ReplyAssembler
 * says what they mean. Iteration ends at `d` / [DONE] even when the server keeps the connection open
 * (the rest is read for a short grace, then the connection is closed). Errors: ProtocolError
 * (malformed frame, line over 1 MB, or the stream ended before the reply was complete),
 * ReplyTooLargeError (the text passed maxReplyChars: the text up to it is given first), ProtocolError
 * (more than maxReplyParts parts: the parts up to it are given first),
 * ConnectionError, TimeoutError, UserAbortError; each is thrown after every event that came before it.
 * A stream that is neither iterated nor aborted keeps its connection until the body timeout.
 */
export class ChatStream implements AsyncIterable<StreamEvent> {
  readonly status: number;
  readonly headers: ResponseHeaders;
  private readonly init: ChatStreamInit;
  private started = false;
  private ended = false;
  private detected: Framing | undefined;

  constructor(init: ChatStreamInit) {
    this.init = init;
    this.status = init.status;
    this.headers = init.headers;
  }

  /** The wire framing, once the first frame was seen. */
  get framing(): Framing | undefined {
    return this.detected;
  }

  /** Stops the reply: closes the connection; a pending or later next() throws UserAbortError. */
  abort(): void {
    if (this.ended) return;
    this.init.abortRequest(true);
    if (!this.started) this.finish({ complete: false, stoppedEarly: true, events: 0, framing: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    if (this.started) throw new TypeError('A ChatStream can be iterated only once');
    this.started = true;
    return this.run();
  }

  private finish(outcome: StreamOutcome): void {
    if (this.ended) return;
    this.ended = true;
    this.init.onEnd(outcome);
  }

  private async *run(): AsyncGenerator<StreamEvent, void, undefined> {
    const contentType = headerString(this.init.headers['content-type']);
    let events = 0;
    let complete = false;
    let error: ChatServiceError | undefined;
    try {
      if (this.ended) throw this.init.mapError(new Error('aborted before reading'));
      const source = this.init.body[Symbol.asyncIterator]();
      const tracked = trackEnd(source);
      const decoded = decodeEventStream(tracked, {
        contentType,
        logger: this.init.logger,
        ...(this.init.maxLineChars !== undefined ? { maxLineChars: this.init.maxLineChars } : {}),
        onFraming: (f) => (this.detected = f),
      });
      const maxChars = this.init.maxReplyChars ?? MAX_REPLY_CHARS;
      const maxParts = this.init.maxReplyParts ?? MAX_REPLY_PARTS;
      let chars = 0;
      for await (const ev of decoded) {
        if (events >= maxParts) {
          // Every part up to the cap was given; the reply stops here (the connection is closed below).
          throw new ProtocolError(TOO_MANY_PARTS_MESSAGE.replace('{0}', maxParts.toLocaleString('en')));
        }
        events++;
        if (ev.event === '0' && chars + ev.data.length > maxChars) {
          // The text up to the limit is given (not cutting a surrogate pair), then the reply stops here.
          let keep = maxChars - chars;
          if (keep > 0 && /[\uD800-\uDBFF]/.test(ev.data.charAt(keep - 1))) keep--;
          if (keep > 0) yield { ...ev, data: ev.data.slice(0, keep) };
          throw new ReplyTooLargeError(maxChars);
        }
        if (ev.event === '0') chars += ev.data.length;
        yield ev;
      }
      complete = true;
      if (!tracked.ended) void this.drainThenClose(source);
    } catch (err) {
      error = this.init.mapError(err);
      throw error;
    } finally {
      if (!complete) this.init.abortRequest(false);
      this.finish({ complete, stoppedEarly: !complete && !error, error, events, framing: this.detected });
    }
  }

  /** The reply is complete: reads what is left (e.g. [DONE]) for a short grace, then closes the connection. */
  private async drainThenClose(source: AsyncIterator<Uint8Array>): Promise<void> {
    const graceMs = this.init.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), graceMs)));
    let read = 0;
    try {
      for (;;) {
        const next = await Promise.race([source.next(), expired]);
        if (next === 'expired' || read > 64 * 1024) {
          this.init.logger.debug('Reply complete; closing the connection the server kept open', { graceMs });
          this.init.abortRequest(false);
          return;
        }
        if (next.done) return;
        read += next.value.length;
      }
    } catch {
      // The reply was complete: a failure while reading the rest loses nothing.
    } finally {
      clearTimeout(timer);
    }
  }
}

/** An iterable over `source` that remembers whether it was read to its end (or failed). */
function trackEnd(source: AsyncIterator<Uint8Array>): AsyncIterable<Uint8Array> & { ended: boolean } {
  const out = {
    ended: false,
    [Symbol.asyncIterator]: (): AsyncIterator<Uint8Array> => ({
      next: async () => {
        try {
          const r = await source.next();
          if (r.done) out.ended = true;
          return r;
        } catch (err) {
          out.ended = true;
          throw err;
        }
      },
      return: async () => {
        out.ended = true;
        return (await source.return?.()) ?? { done: true, value: undefined };
      },
    }),
  };
  return out;
}

function headerString(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export interface CollectedReply {
  text: string;
  messageId: string | undefined;
  finishReason: string;
  usage: ReplyUsage | undefined;
  outcome: ReplyOutcome;
}

/**
 * Reads a whole stream into one reply (all steps of a multi-step reply, usage summed). `onEvent`
 * sees every event as it arrives. A failed reply (`3` error part, finishReason error) throws
 * StreamEventError carrying the text that came before; other stream errors are rethrown.
 */
export async function collectStream(
  stream: AsyncIterable<StreamEvent>,
  onEvent?: (event: StreamEvent) => void,
  warn?: RangeWarning,
): Promise<CollectedReply> {
  const reply = new ReplyAssembler(warn);
  for await (const ev of stream) {
    onEvent?.(ev);
    reply.push(ev);
  }
  const outcome = reply.outcome;
  if (outcome.ending === 'error') {
    throw new StreamEventError(outcome.errorMessage ?? 'The reply failed', outcome.finishReason, reply.text);
  }
  return { text: reply.text, messageId: reply.messageId, finishReason: outcome.finishReason, usage: outcome.usage, outcome };
}
