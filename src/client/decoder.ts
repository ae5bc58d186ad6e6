/**
 * Stream decoding for POST /chat with stream: true. Pure: no I/O, no timers, no network.
 *
 *   bytes --LineDecoder--> lines --framing (SSE | NDJSON | line-prefixed)--> event objects
 *         --schema check--> StreamEvent --decodeEventStream (reply semantics)--> consumer
 *
 * The line decoder works on any chunk split: CR, LF and CRLF line ends (also a CR at the end of one
 * chunk followed by LF at the start of the next), UTF-8 sequences split across chunks (TextDecoder in
 * streaming mode), and a last line without a newline (flushed by end()).
 *
 * Event kinds and their meaning are those of the data stream protocol the service's stack sends
 * (Vercel AI SDK v4): `f` step start, `0` text, `e` step finish (NOT an error: finishReason says how
 * the step ended), `d` message finished, `3` error part. Where the interface text differs, the
 * service wins.
 */
import { ProtocolError, formatPath, ruleOf, shorten, valueAt } from './errors';
import { STREAM_EVENT_KINDS, STREAM_EVENT_SCHEMAS, type StreamEvent, type StreamEventKind } from './schemas';

export type Framing = 'sse' | 'ndjson' | 'prefixed';

export interface DecoderLogger {
  warn(msg: string, data?: Record<string, unknown>): void;
}

// ---------------------------------------------------------------------------------------------
// Lines

const LF = 0x0a;
const CR = 0x0d;

/** Longest line (and longest SSE event) accepted, in characters: 1 MiB of ASCII. */
export const MAX_LINE_CHARS = 1024 * 1024;

export const LINE_TOO_LONG_MESSAGE = 'A line of the stream is longer than 1 MB';

/**
 * Splits a byte stream into text lines; line ends are CR, LF or CRLF and are not part of the line.
 * A line longer than `maxLineChars` throws a ProtocolError (memory stays bounded).
 */
export class LineDecoder {
  private readonly text = new TextDecoder('utf-8');
  constructor(private readonly maxLineChars: number = MAX_LINE_CHARS) {}

  private partial = '';
  /** The previous chunk ended with CR: a LF at the start of the next chunk belongs to it. */
  private pendingCR = false;

  push(chunk: Uint8Array): string[] {
    return this.split(this.text.decode(chunk, { stream: true }));
  }

  /** Flushes the decoder: an incomplete UTF-8 sequence becomes U+FFFD, a last unterminated line is returned. */
  end(): string[] {
    const lines = this.split(this.text.decode());
    this.pendingCR = false;
    if (this.partial !== '') {
      lines.push(this.partial);
      this.partial = '';
    }
    return lines;
  }

  private split(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    if (this.pendingCR && text.length > 0) {
      if (text.charCodeAt(0) === LF) start = 1;
      this.pendingCR = false;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      if (this.partial.length + (i - start) > this.maxLineChars) this.tooLong();
      lines.push(this.partial + text.slice(start, i));
      this.partial = '';
      if (c === CR) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === LF) i++;
        } else {
          this.pendingCR = true;
        }
      }
      start = i + 1;
    }
    if (start < text.length) this.partial += text.slice(start);
    if (this.partial.length > this.maxLineChars) this.tooLong();
    return lines;
  }

  private tooLong(): never {
    const excerpt = shorten(this.partial.slice(0, 200));
    this.partial = '';
    throw new ProtocolError(`${LINE_TOO_LONG_MESSAGE} (limit ${this.maxLineChars} characters): "${excerpt}"`, { excerpt });
  }
}

// ---------------------------------------------------------------------------------------------
// Framing choice

/** Framing declared by a Content-Type, or undefined when the body must be sniffed. */
export function framingFromContentType(contentType: string | undefined): Framing | undefined {
  if (!contentType) return undefined;
  const mime = contentType.split(';')[0].trim().toLowerCase();
  if (mime === 'text/event-stream') return 'sse';
  if (
    mime === 'application/x-ndjson' ||
    mime === 'application/ndjson' ||
    mime === 'application/jsonl' ||
    mime === 'application/x-jsonlines' ||
    mime === 'application/jsonlines'
  ) {
    return 'ndjson';
  }
  // text/plain carries the line-prefixed form in practice, but sniffing is safer (some servers send
  // SSE as text/plain); the sniffer recognises the prefixed form.
  return undefined;
}

/** Framing recognised from the first non-blank line, or undefined. */
export function sniffFraming(firstLine: string): Framing | undefined {
  const line = firstLine.trimStart();
  if (line.startsWith(':') || /^(data|event|id|retry)(:|$)/.test(line)) return 'sse';
  if (line.startsWith('{')) return 'ndjson';
  if (/^[0-9a-z]:/i.test(line)) return 'prefixed';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Frames -> events

export type DecodedItem =
  | { type: 'event'; event: StreamEvent }
  /** `data: [DONE]`: the stream is complete. */
  | { type: 'done' }
  /** A malformed frame; nothing after it is decoded. */
  | { type: 'error'; error: ProtocolError };

/** Unknown kinds named one by one in the warnings; the others are counted together. */
const MAX_NAMED_UNKNOWN_KINDS = 5;

const KNOWN_KINDS: ReadonlySet<string> = new Set(STREAM_EVENT_KINDS);
/** The parts that make the reply (start, text, step end, finish, error): malformed, they end it. */
const REPLY_KINDS: ReadonlySet<string> = new Set(['f', '0', 'e', 'd', '3']);

export interface EventDecoderOptions {
  /** Content-Type of the response; decides the framing when it names one. */
  contentType?: string;
  /** Forces the framing (overrides contentType and sniffing). */
  framing?: Framing;
  /**
   * Receives the warnings (skipped parts of an unknown kind, malformed parts beside the reply, a
   * start part without a usable messageId): each kind of trouble once, with `count`, when decoding
   * ends (flushWarnings), however many parts had it.
   */
  logger?: DecoderLogger;
  /** Longest line / SSE event in characters; default MAX_LINE_CHARS. */
  maxLineChars?: number;
}

/**
 * Incremental decoder: bytes in, items out. Items come in wire order; a malformed frame yields an
 * `error` item after every event that preceded it, and the decoder then ignores further input.
 */
export class EventDecoder {
  private readonly lines: LineDecoder;
  private readonly maxLineChars: number;
  private readonly logger: DecoderLogger | undefined;
  private chosen: Framing | undefined;
  /** Lines seen before the framing could be sniffed (blank lines only). */
  private held: string[] = [];
  private failed = false;
  private finished = false;
  // SSE state
  private sseData: string[] = [];
  private sseChars = 0;
  private readonly unknownKinds = new Set<string>();
  /** Warnings held until flushWarnings(): the first one's data and how many times it came. */
  private readonly warnings = new Map<string, { msg: string; data: Record<string, unknown>; count: number }>();

  constructor(opts: EventDecoderOptions = {}) {
    this.logger = opts.logger;
    this.maxLineChars = opts.maxLineChars ?? MAX_LINE_CHARS;
    this.lines = new LineDecoder(this.maxLineChars);
    this.chosen = opts.framing ?? framingFromContentType(opts.contentType);
  }

  /**
   * Logs each held warning once, with how many parts had it, and forgets them. decodeEventStream
   * calls it when decoding ends, whatever the reason.
   */
  flushWarnings(): void {
    const held = [...this.warnings.values()];
    this.warnings.clear();
    for (const w of held) this.logger?.warn(w.msg, { ...w.data, count: w.count });
  }

  /** Counts a warning; a repeat (same message, same key) costs a Map lookup, nothing is logged yet. */
  private warn(msg: string, key: string, data: () => Record<string, unknown>): void {
    if (!this.logger) return;
    const id = `${msg}\u0000${key}`;
    const seen = this.warnings.get(id);
    if (seen) seen.count++;
    else this.warnings.set(id, { msg, data: data(), count: 1 });
  }

  /** The framing in use, once known. */
  get framing(): Framing | undefined {
    return this.chosen;
  }

  push(chunk: Uint8Array): DecodedItem[] {
    if (this.failed || this.finished) return [];
    return this.guarded(() => this.lines.push(chunk), false);
  }

  /** End of input: flushes the last line (and a pending SSE event). */
  end(): DecodedItem[] {
    if (this.failed || this.finished) return [];
    return this.guarded(() => this.lines.end(), true);
  }

  private guarded(read: () => string[], atEnd: boolean): DecodedItem[] {
    let lines: string[];
    try {
      lines = read();
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      const out: DecodedItem[] = [];
      this.fail(out, err);
      return out;
    }
    return this.feed(lines, atEnd);
  }

  private feed(lines: string[], atEnd: boolean): DecodedItem[] {
    const out: DecodedItem[] = [];
    for (const line of lines) {
      if (!this.onLine(line, out)) return out;
    }
    if (atEnd && !this.failed && !this.finished && this.chosen === 'sse' && this.sseData.length > 0) {
      // The last event was not followed by a blank line: dispatch it anyway.
      this.dispatchSse(out);
    }
    return out;
  }

  /** Handles one line; false when decoding must stop (error or [DONE]). */
  private onLine(line: string, out: DecodedItem[]): boolean {
    if (this.chosen === undefined) {
      if (line.trim() === '') {
        this.held.push(line);
        return true;
      }
      const sniffed = sniffFraming(line);
      if (sniffed === undefined) {
        return this.fail(out, new ProtocolError(`Unrecognised stream framing: "${shorten(line)}"`, { excerpt: shorten(line) }));
      }
      this.chosen = sniffed;
      const held = this.held;
      this.held = [];
      for (const h of held) if (!this.onLine(h, out)) return false;
    }
    switch (this.chosen) {
      case 'sse':
        return this.sseLine(line, out);
      case 'ndjson':
        return this.ndjsonLine(line, out);
      case 'prefixed':
        return this.prefixedLine(line, out);
    }
  }

  private sseLine(line: string, out: DecodedItem[]): boolean {
    if (line === '') return this.dispatchSse(out);
    if (line.startsWith(':')) return true; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.sseChars += value.length;
      if (this.sseChars > this.maxLineChars) {
        this.sseData = [];
        return this.fail(out, new ProtocolError(`${LINE_TOO_LONG_MESSAGE} (one event over ${this.maxLineChars} characters)`));
      }
      this.sseData.push(value);
    }
    // `event`, `id`, `retry` and unknown fields carry nothing this interface uses: the event kind is
    // the `event` property of the JSON object.
    return true;
  }

  private dispatchSse(out: DecodedItem[]): boolean {
    if (this.sseData.length === 0) return true;
    const data = this.sseData.join('\n');
    this.sseData = [];
    this.sseChars = 0;
    if (data.trim() === '[DONE]') {
      out.push({ type: 'done' });
      this.finished = true;
      return false;
    }
    return this.jsonEvent(data, out);
  }

  private ndjsonLine(line: string, out: DecodedItem[]): boolean {
    if (line.trim() === '') return true;
    if (line.trim() === '[DONE]') {
      out.push({ type: 'done' });
      this.finished = true;
      return false;
    }
    return this.jsonEvent(line, out);
  }

  private prefixedLine(line: string, out: DecodedItem[]): boolean {
    if (line.trim() === '') return true;
    const m = /^([0-9a-z]+):/i.exec(line);
    if (!m) return this.malformed(line, 'expected a line like 0:"text" or d:{...}', out);
    const kind = m[1];
    const payload = line.slice(m[0].length);
    if (!KNOWN_KINDS.has(kind)) return this.unknownKind(kind);
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      // A malformed start of a reply the service already charged for: the reply goes on.
      if (kind === 'f') return this.checked({ event: 'f' }, line, out);
      return this.malformed(line, 'the payload is not valid JSON', out);
    }
    // Text-like parts carry a JSON string; data and annotations a JSON array.
    if (kind === '0' || kind === 'g') return this.checked({ event: kind, data: value }, line, out);
    if (kind === '2' || kind === '8') return this.checked({ event: kind, data: value }, line, out);
    if (kind === 'f' && (value === null || typeof value !== 'object' || Array.isArray(value))) return this.checked({ event: 'f' }, line, out);
    if (kind === '3') return this.checked({ event: '3', error: value }, line, out);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return this.malformed(line, 'the payload must be a JSON object', out);
    }
    return this.checked({ ...(value as Record<string, unknown>), event: kind }, line, out);
  }

  /** A frame holding a JSON event object with an `event` property. */
  private jsonEvent(text: string, out: DecodedItem[]): boolean {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.malformed(text, 'not valid JSON', out);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return this.malformed(text, 'an event must be a JSON object', out);
    }
    const kind = (value as Record<string, unknown>).event;
    if (typeof kind !== 'string') return this.malformed(text, 'the event object has no string `event` field', out);
    if (!KNOWN_KINDS.has(kind)) return this.unknownKind(kind);
    const obj = value as Record<string, unknown>;
    if (kind === '3') return this.checked({ ...obj, error: errorPartText(obj) }, text, out);
    return this.checked(obj, text, out);
  }

  private checked(obj: Record<string, unknown>, raw: string, out: DecodedItem[]): boolean {
    const kind = obj.event as StreamEventKind;
    const r = STREAM_EVENT_SCHEMAS[kind].safeParse(obj);
    if (!r.success && !REPLY_KINDS.has(kind)) {
      // A part beside the reply (reasoning, a tool step, a source, data...) that is not as the
      // protocol says: skipped and reported; the reply it came with goes on.
      this.warn('Skipping a malformed stream part', kind, () => ({ kind, excerpt: shorten(raw) }));
      return true;
    }
    if (!r.success) {
      const issue = r.error.issues[0];
      const field = formatPath(issue.path);
      const rule = ruleOf(issue, valueAt(obj, issue.path));
      return this.malformed(raw, `event '${kind}': ${field} ${rule}`, out, field);
    }
    if (kind === 'f' && typeof obj.messageId !== 'string') {
      // The reply goes on; the event says what was wrong (the consumer may show it).
      this.warn('Stream start event without a usable messageId; the reply goes on', 'f', () => ({ kind: 'f', excerpt: shorten(raw) }));
      out.push({ type: 'event', event: { ...(r.data), malformed: `the start of the reply was malformed: "${shorten(raw, 60)}"` } as StreamEvent });
      return true;
    }
    out.push({ type: 'event', event: r.data });
    return true;
  }

  private unknownKind(kind: string): boolean {
    // Each unknown kind is named once; past a few, a stream inventing a new kind per part adds to one count.
    const msg = 'Skipping stream event of unknown kind';
    if (this.unknownKinds.size < MAX_NAMED_UNKNOWN_KINDS || this.unknownKinds.has(kind)) {
      this.unknownKinds.add(kind);
      this.warn(msg, kind, () => ({ kind: shorten(kind, 40), framing: this.chosen }));
    } else {
      this.warn(msg, '', () => ({ kind: '(other kinds)', framing: this.chosen }));
    }
    return true;
  }

  private malformed(raw: string, why: string, out: DecodedItem[], field?: string): boolean {
    const excerpt = shorten(raw);
    return this.fail(out, new ProtocolError(`Malformed stream frame (${why}): "${excerpt}"`, { excerpt, field }));
  }

  private fail(out: DecodedItem[], error: ProtocolError): boolean {
    this.failed = true;
    out.push({ type: 'error', error });
    return false;
  }
}

/** Text of a JSON-object `3` event: its `error`, else `message`, else `data` (a string, or an object's message). */
function errorPartText(obj: Record<string, unknown>): unknown {
  for (const key of ['error', 'message', 'data'] as const) {
    const v = obj[key];
    if (typeof v === 'string') return v;
    if (v !== null && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') {
      return (v as { message: string }).message;
    }
  }
  return obj.error;
}

// ---------------------------------------------------------------------------------------------
// Reply semantics

export const INCOMPLETE_STREAM_MESSAGE = 'The stream ended before the reply was complete';

/**
 * Decodes a whole event stream:
 * - events are yielded as soon as their frame is complete, `e` (step finish) and `3` (error part)
 *   included: what they mean for the reply is up to the consumer (see ReplyAssembler);
 * - a malformed frame -> ProtocolError quoting it (shortened), after everything before it;
 * - the reply is complete at a `d` event or `[DONE]`: the generator returns at once, without waiting
 *   for the end of the input and without closing `source` (its owner drains or closes it; a server
 *   may keep the connection open after `d`);
 * - input ending before that -> ProtocolError (INCOMPLETE_STREAM_MESSAGE), unless a `3` error part
 *   came (the reply already failed with its text).
 * Returning early (consumer `break`, error) calls return() on `source`.
 */
export async function* decodeEventStream(
  source: AsyncIterable<Uint8Array>,
  opts: EventDecoderOptions & { onFraming?: (framing: Framing) => void } = {},
): AsyncGenerator<StreamEvent, void, undefined> {
  const decoder = new EventDecoder(opts);
  let complete = false;
  let errorPart = false;
  let announced = false;
  function* handle(items: DecodedItem[]): Generator<StreamEvent, void, undefined> {
    if (!announced && decoder.framing !== undefined) {
      announced = true;
      opts.onFraming?.(decoder.framing);
    }
    for (const item of items) {
      if (complete) return;
      if (item.type === 'error') throw item.error;
      if (item.type === 'done') {
        complete = true;
        return;
      }
      const ev = item.event;
      if (ev.event === '3') errorPart = true;
      yield ev;
      if (ev.event === 'd') complete = true;
    }
  }
  const chunks = source[Symbol.asyncIterator]();
  let drained = false;
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (err) {
        drained = true; // a failed iterator is finished
        if (errorPart) return;
        throw err;
      }
      if (next.done) {
        drained = true;
        break;
      }
      yield* handle(decoder.push(next.value));
      if (complete) return;
    }
    yield* handle(decoder.end());
    if (!complete && !errorPart) throw new ProtocolError(INCOMPLETE_STREAM_MESSAGE);
  } finally {
    // Stopped early (consumer break, or an error frame): let the source release its resources.
    // A complete reply leaves the source to its owner.
    decoder.flushWarnings();
    if (!drained && !complete) await chunks.return?.();
  }
}
