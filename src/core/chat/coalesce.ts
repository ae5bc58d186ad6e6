// Text coalescing for the native chat surfaces (VS Code's Chat view, the language model provider).
// The service streams a reply in thousands of small text parts; the Chat view lays out its whole
// response again for every `stream.markdown` call, so forwarding each part keeps the workbench busy
// for minutes on a long reply. The coalescer gathers the parts and hands them on at most once per
// interval, keeps a fenced code block whole while it is open (the Chat view shows a half fence as a
// different block), flushes the rest at once at the end, and stops after a size the Chat view
// renders badly, saying so through `cut`.
//
// Pure: no vscode, no clock of its own (timers are injectable for tests).

import { closesFence, openingFence, type Fence } from '../text/fences';

/** A timer handle as the injected `setTimer` returns it. */
export type TimerHandle = unknown;

export interface TextCoalescerOptions {
  /** Receives the coalesced text, in order; the concatenation of every call is the text pushed (up to the cut). */
  emit(text: string): void;
  /**
   * At most one emit per this many milliseconds while text streams (the final flush excepted).
   * Default 100. A function gets the characters emitted so far and returns the wait after the emit
   * that brought them there: the Chat view's cost of an update grows with the text it already shows,
   * so a long reply is better sent in fewer, larger updates (see `growingInterval`).
   */
  intervalMs?: number | ((emittedChars: number) => number);
  /**
   * After this many characters no more text is forwarded: the text up to the end of the last whole
   * line within the limit is emitted at once, `cut` turns true and `onCut` is called. Default: no limit.
   */
  maxChars?: number;
  /**
   * An open fenced code block is held back (from its opening fence line) until it closes, unless the
   * held text grows past this many characters; then it is emitted anyway. Default 2000.
   */
  maxHeldChars?: number;
  /** Called once when the size cut is reached (after the last emit). */
  onCut?(): void;
  /** Defaults to the global setTimeout. */
  setTimer?(fn: () => void, ms: number): TimerHandle;
  /** Defaults to the global clearTimeout. */
  clearTimer?(handle: TimerHandle): void;
}

export const DEFAULT_COALESCE_INTERVAL_MS = 100;
export const DEFAULT_MAX_HELD_CHARS = 2000;

/**
 * An interval for VS Code's Chat view, from `npm run bench:native`: 100 ms (about ten updates a
 * second) while the reply is short, 250 ms past 10,000 characters, 1 s past 25,000 (each update
 * there costs the Chat view a layout of everything it shows).
 */
export function growingInterval(emittedChars: number): number {
  if (emittedChars < 10_000) return 100;
  if (emittedChars < 25_000) return 250;
  return 1000;
}

/** Whether the start of a line seen so far may still turn out to be an opening fence line. */
function mayOpenFence(partial: string): boolean {
  const rest = partial.replace(/^[ \t]*/, '');
  if (rest === '') return true;
  const ch = rest[0];
  if (ch !== '`' && ch !== '~') return false;
  let run = 0;
  while (run < rest.length && rest[run] === ch) run++;
  if (run === rest.length) return true; // "``" may become "```"
  if (run < 3) return false;
  return ch === '~' || !rest.slice(run).includes('`');
}

/**
 * `end` (at most text.length) moved back so that the text before it ends neither inside a surrogate
 * pair nor on a carriage return whose line feed follows or may still come.
 */
function safeEnd(text: string, end: number): number {
  end = Math.min(end, text.length);
  if (end <= 0) return 0;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) return end - 1;
  if (last === 0x0d && (end === text.length || text.charCodeAt(end) === 0x0a)) return end - 1;
  return end;
}

/**
 * Gathers streamed text and emits it at most once per interval, never inside an open fenced code
 * block when it can avoid it, all of it at once on `end()`, and nothing past `maxChars`.
 * Offsets below count characters (UTF-16 code units) from the start of the reply.
 */
export class TextCoalescer {
  private readonly emitText: (text: string) => void;
  private readonly intervalMs: (emittedChars: number) => number;
  private readonly maxChars: number;
  private readonly maxHeldChars: number;
  private readonly onCut?: () => void;
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle;
  private readonly clearTimer: (handle: TimerHandle) => void;

  /** Received, not yet emitted (kept as parts: joining on every push would copy the text each time). */
  private parts: string[] = [];
  /** Characters received (at most maxChars). */
  private received = 0;
  /** Characters emitted. */
  private emitted = 0;
  /** The line being received (from its start, emitted or not) and where it starts. */
  private line = '';
  private lineStart = 0;
  /** The fence open at `lineStart`, and where its opening line starts. */
  private fence: Fence | undefined;
  private holdFrom = 0;
  /** The fence open at the end of the emitted text, and the emitted start of the line there. */
  private emittedFence: Fence | undefined;
  private emittedHead = '';
  private timer: TimerHandle | undefined;
  private armed = false;
  private ended = false;
  private wasCut = false;
  private emits = 0;

  constructor(options: TextCoalescerOptions) {
    this.emitText = (text) => options.emit(text);
    const interval = options.intervalMs ?? DEFAULT_COALESCE_INTERVAL_MS;
    this.intervalMs = typeof interval === 'number' ? () => Math.max(0, interval) : (chars) => Math.max(0, interval(chars));
    this.maxChars = options.maxChars ?? Number.POSITIVE_INFINITY;
    this.maxHeldChars = Math.max(0, options.maxHeldChars ?? DEFAULT_MAX_HELD_CHARS);
    this.onCut = options.onCut ? () => options.onCut?.() : undefined;
    this.setTimer = options.setTimer ? (fn, ms) => options.setTimer?.(fn, ms) : (fn, ms) => setTimeout(fn, ms);
    this.clearTimer = options.clearTimer ? (h) => options.clearTimer?.(h) : (h) => clearTimeout(h as ReturnType<typeof setTimeout>);
  }

  /** True once the size cut was reached: text after it was not forwarded. */
  get cut(): boolean {
    return this.wasCut;
  }

  /** Characters forwarded through `emit` so far. */
  get forwardedChars(): number {
    return this.emitted;
  }

  /** How many times `emit` was called. */
  get emitCount(): number {
    return this.emits;
  }

  /**
   * The fence run (e.g. "```") that the text emitted so far leaves open, if any: after a cut (or
   * an end inside a block) the caller can close it before adding its own words.
   */
  get openFence(): string | undefined {
    return this.emittedFence ? this.emittedFence.char.repeat(this.emittedFence.length) : undefined;
  }

  /** One streamed text part. Ignored after `end()` or the cut. */
  push(chunk: string): void {
    if (this.ended || this.wasCut || chunk === '') return;
    const room = this.maxChars - this.received;
    if (chunk.length > room) {
      this.append(chunk.slice(0, safeEnd(chunk, room)));
      this.cutHere();
      return;
    }
    this.append(chunk);
    if (!this.armed) this.flush();
  }

  /** The stream ended: everything held is emitted now. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.disarm();
    if (this.received > this.emitted) this.emitUpTo(this.received);
  }

  /** Adds a chunk and follows the fences of the lines it completes. */
  private append(chunk: string): void {
    if (chunk === '') return;
    this.parts.push(chunk);
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      let whole = this.line + chunk.slice(from, nl);
      if (whole.endsWith('\r')) whole = whole.slice(0, -1);
      if (this.fence) {
        if (closesFence(whole, this.fence)) this.fence = undefined;
      } else {
        const opened = openingFence(whole);
        if (opened) {
          this.fence = opened;
          this.holdFrom = this.lineStart;
        }
      }
      this.line = '';
      this.lineStart = this.received + nl + 1;
      from = nl + 1;
    }
    this.line += from === 0 ? chunk : chunk.slice(from);
    this.received += chunk.length;
  }

  /** The last character received (the end of the last part). */
  private lastChar(): number {
    const last = this.parts[this.parts.length - 1];
    return last ? last.charCodeAt(last.length - 1) : -1;
  }

  /** Where what may go out now ends. */
  private flushable(): number {
    const last = this.lastChar();
    // A \r may be followed by its \n, a high surrogate by its low one.
    const tail = this.received - (last === 0x0d || (last >= 0xd800 && last <= 0xdbff) ? 1 : 0);
    if (this.fence) {
      // Held from the opening fence line (or from the last forced emit), unless it grew past the bound.
      const from = Math.max(this.holdFrom, this.emitted);
      return this.received - from > this.maxHeldChars ? tail : from;
    }
    const partial = this.received - this.lineStart;
    if (partial > 0 && partial <= this.maxHeldChars && mayOpenFence(this.line)) return this.lineStart;
    return tail;
  }

  /** Emits what may go out now and keeps the interval. */
  private flush(): void {
    const end = this.flushable();
    if (end <= this.emitted) {
      this.disarm();
      return;
    }
    this.emitUpTo(end);
    this.arm();
  }

  private arm(): void {
    this.disarm();
    this.armed = true;
    this.timer = this.setTimer(() => {
      this.armed = false;
      this.timer = undefined;
      if (!this.ended && !this.wasCut) this.flush();
    }, this.intervalMs(this.emitted));
  }

  private disarm(): void {
    if (this.armed) this.clearTimer(this.timer);
    this.armed = false;
    this.timer = undefined;
  }

  /** Emits the received text up to `end` (an offset from the start of the reply). */
  private emitUpTo(end: number): void {
    const all = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    const text = all.slice(0, end - this.emitted);
    const rest = all.slice(end - this.emitted);
    this.parts = rest ? [rest] : [];
    this.emittedFence = fenceAfter(this.emittedFence, this.emittedHead, text);
    const lastNl = text.lastIndexOf('\n');
    this.emittedHead = lastNl >= 0 ? text.slice(lastNl + 1) : this.emittedHead + text;
    this.emitted = end;
    this.emits++;
    this.emitText(text);
  }

  private cutHere(): void {
    this.disarm();
    this.wasCut = true;
    // End on a whole line when a line end falls within the text not yet emitted.
    const all = this.parts.join('');
    const lastNl = all.lastIndexOf('\n');
    const end = lastNl >= 0 ? this.emitted + lastNl + 1 : this.received;
    if (end > this.emitted) this.emitUpTo(end);
    this.parts = [];
    this.received = this.emitted;
    this.onCut?.();
  }
}

/** The fence open after `text`, given the fence open before it and the already-emitted start of its first line. */
function fenceAfter(open: Fence | undefined, head: string, text: string): Fence | undefined {
  let fence = open;
  let start = 0;
  let first = true;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return fence;
    let line = text.slice(start, nl);
    if (first) line = head + line;
    first = false;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
    } else fence = openingFence(line);
    start = nl + 1;
  }
}
