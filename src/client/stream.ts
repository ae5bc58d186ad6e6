/** The streamed reply of POST /chat as an AsyncIterable, and a helper that collects it. */
import { decodeEventStream, type Framing } from './decoder';
import type { ChatServiceError, ResponseHeaders } from './errors';
import type { Logger } from './logger';
import type { ErrorEvent, StreamEvent, Usage } from './schemas';

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
}

/**
 * A streamed reply. Iterate it once with `for await`; events come as soon as each frame is complete.
 * Breaking out of the loop, abort(), or the request's AbortSignal abort the request and close the
 * connection. Errors: StreamEventError (an `e` event ending the reply), ProtocolError (malformed frame,
 * or the stream ended before the reply was complete), ConnectionError, TimeoutError, UserAbortError;
 * each is thrown after every event that came before it was yielded.
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
      const decoded = decodeEventStream(this.init.body, {
        contentType,
        logger: this.init.logger,
        onFraming: (f) => (this.detected = f),
      });
      for await (const ev of decoded) {
        events++;
        yield ev;
      }
      complete = true;
    } catch (err) {
      error = this.init.mapError(err);
      throw error;
    } finally {
      if (!complete) this.init.abortRequest(false);
      this.finish({ complete, stoppedEarly: !complete && !error, error, events, framing: this.detected });
    }
  }
}

function headerString(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export interface CollectedReply {
  text: string;
  messageId: string | undefined;
  finishReason: string | undefined;
  usage: Usage | undefined;
  /** `e` events the reply continued after (isContinued true). */
  errorEvents: ErrorEvent[];
}

/**
 * Reads a whole stream: text of the `0` events joined, messageId of `f`, finishReason and usage of `d`.
 * `onEvent` sees every event as it arrives. Errors of the stream are rethrown.
 */
export async function collectStream(
  stream: AsyncIterable<StreamEvent>,
  onEvent?: (event: StreamEvent) => void,
): Promise<CollectedReply> {
  const parts: string[] = [];
  const out: CollectedReply = { text: '', messageId: undefined, finishReason: undefined, usage: undefined, errorEvents: [] };
  for await (const ev of stream) {
    onEvent?.(ev);
    switch (ev.event) {
      case 'f':
        out.messageId = ev.messageId;
        break;
      case '0':
        parts.push(ev.data);
        break;
      case 'e':
        out.errorEvents.push(ev);
        break;
      case 'd':
        out.finishReason = ev.finishReason;
        out.usage = ev.usage;
        break;
    }
  }
  out.text = parts.join('');
  return out;
}
