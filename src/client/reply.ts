/**
 * What a stream of events means as one reply (pure). The data stream protocol the service sends:
 * - `f` starts a step, `0` adds text;
 * - `e` finishes a step: not an error by itself; with isContinued true another step follows, and all
 *   steps are one reply, their usage summed;
 * - `d` finishes the message: the reply is complete;
 * - `3` is an error part: the reply failed with its text, after the text that came before.
 * The finish reason of the reply (the `d`'s, else the last `e`'s) tells how it ended:
 * `error` a failure, `length` cut at the model's limit, `content-filter` filtered, anything else a
 * normal end.
 */
import { addTokenCounts, noRangeWarning, tokenCount, type RangeWarning } from './sanitize';
import type { StreamEvent, Usage } from './schemas';

/** A source the reply cites, as kept: an http(s) address and its title (plain text) when sent. */
export interface ReplySource {
  url: string;
  title?: string;
}

/** At most this much reasoning is kept for one reply. */
export const MAX_REASONING_CHARS = 200_000;

/** At most this many sources are kept for one reply. */
export const MAX_SOURCES = 50;

/** At most this many problems are named for one reply; the rest are counted (a broken stream may send thousands). */
export const MAX_PROBLEMS = 3;

/** A file the model produced (the stream's `k` part): its media type and decoded size; the data is not kept. */
export interface ReplyFile {
  mimeType: string;
  bytes: number;
}

/** At most this many files are listed for one reply. */
export const MAX_FILES = 20;

/** At most this many characters of data and annotations (as JSON) are kept for one reply. */
export const MAX_EXTRAS_CHARS = 64_000;

/** The stream's data (`2`) and message annotations (`8`): kept with the reply, never shown. */
export interface ReplyExtras {
  data: unknown[];
  annotations: unknown[];
}

/** Size in bytes of base64 data (padding and whitespace aside). */
function base64Bytes(data: string): number {
  const clean = data.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

/** What the service is doing before the reply's text: thinking (reasoning) or running a tool step (a search). */
export type StreamActivity = 'thinking' | 'searching';

/** The activity an event shows, if any. */
export function activityOf(ev: StreamEvent): StreamActivity | undefined {
  switch (ev.event) {
    case 'g':
    case 'i':
      return 'thinking';
    case '9':
    case 'b':
    case 'c':
      return 'searching';
    default:
      return undefined;
  }
}

function httpUrl(value: string): string | undefined {
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** How the reply ended, for the user. */
export type ReplyEnding = 'complete' | 'length' | 'content-filter' | 'error';

export interface ReplyUsage {
  promptTokens?: number;
  completionTokens?: number;
}

export interface ReplyOutcome {
  ending: ReplyEnding;
  /** finishReason as sent (normalised: lower case, `_` -> `-`), 'unknown' when none came. */
  finishReason: string;
  /** Why the reply failed (ending 'error'): the `3` part's text, or a sentence about finishReason error. */
  errorMessage?: string;
  usage?: ReplyUsage;
  steps: number;
  /** A `d` event came. */
  done: boolean;
  /**
   * What was wrong in a reply that was kept (e.g. a malformed `f`): the first MAX_PROBLEMS different
   * ones, then, when there were more, one entry saying how many more.
   */
  problems?: string[];
  /** How many problems there were in all (repeats included); 0 when none. */
  problemCount: number;
}

export const FINISH_ERROR_MESSAGE = 'The service reported an error while writing the reply (finishReason: error)';

/** finishReason as a ReplyEnding. */
export function endingOf(finishReason: string): ReplyEnding {
  switch (finishReason) {
    case 'error':
      return 'error';
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content-filter';
    default:
      return 'complete';
  }
}

function normaliseReason(reason: string | undefined): string | undefined {
  return reason === undefined ? undefined : reason.trim().toLowerCase().replace(/_/g, '-');
}

/** Collects a reply event by event; `push` returns the text the event adds ('' for none). */
export class ReplyAssembler {
  private parts: string[] = [];
  private steps = 0;
  private stepReason: string | undefined;
  private doneReason: string | undefined;
  private stepUsage: ReplyUsage | undefined;
  private doneUsage: ReplyUsage | undefined;
  private errorPart: string | undefined;
  private done = false;
  private problems: string[] = [];
  private problemCount = 0;
  /** Steps whose count was sent but unusable, or a sum past a safe integer: that count is unknown. */
  private unknownCounts = new Set<keyof ReplyUsage>();
  private readonly sourceList: ReplySource[] = [];
  private reasoning = 0;
  private readonly reasoningParts: string[] = [];
  private reasoningKept = 0;
  private readonly fileList: ReplyFile[] = [];
  private readonly extraParts: ReplyExtras = { data: [], annotations: [] };
  private extrasChars = 0;
  private extrasCut = false;
  messageId: string | undefined;

  constructor(private readonly warn: RangeWarning = noRangeWarning) {}

  push(ev: StreamEvent): string {
    switch (ev.event) {
      case 'f':
        this.steps++;
        this.messageId ??= ev.messageId;
        if (typeof ev.malformed === 'string') this.problem(ev.malformed);
        return '';
      case '0':
        this.parts.push(ev.data);
        return ev.data;
      case 'e':
        if (this.steps === 0) this.steps = 1;
        this.stepReason = normaliseReason(ev.finishReason) ?? this.stepReason;
        if (ev.usage) this.addStepUsage(ev.usage);
        return '';
      case 'd':
        this.done = true;
        this.doneReason = normaliseReason(ev.finishReason);
        if (ev.usage) this.doneUsage = this.usage(ev.usage, 'd.usage');
        return '';
      case '3':
        // The first error part says what went wrong; later ones repeat it in practice.
        this.errorPart ??= ev.error.trim() || 'The service reported an error while writing the reply';
        return '';
      case 'g':
      case 'i':
        // Reasoning is never part of the reply's text; readable reasoning (not a redacted one) is kept.
        this.reasoning += ev.data.length;
        if (ev.event === 'g' && this.reasoningKept < MAX_REASONING_CHARS) {
          const part = ev.data.slice(0, MAX_REASONING_CHARS - this.reasoningKept);
          this.reasoningParts.push(part);
          this.reasoningKept += part.length;
        }
        return '';
      case 'h': {
        const url = httpUrl(ev.url);
        if (url && this.sourceList.length < MAX_SOURCES && !this.sourceList.some((x) => x.url === url)) {
          const title = ev.title?.replace(/\s+/g, ' ').trim().slice(0, 300);
          this.sourceList.push({ url, ...(title ? { title } : {}) });
        }
        return '';
      }
      case 'k': {
        if (this.fileList.length < MAX_FILES) {
          const mimeType = ev.mimeType.replace(/[^\w.+\-/]/g, '').slice(0, 100) || 'application/octet-stream';
          this.fileList.push({ mimeType, bytes: base64Bytes(ev.data) });
        }
        return '';
      }
      case '2':
      case '8': {
        // Kept while they fit; what does not fit is dropped whole (never half a value).
        const target = ev.event === '2' ? this.extraParts.data : this.extraParts.annotations;
        for (const value of ev.data) {
          const size = JSON.stringify(value ?? null).length + 1; // with its comma
          if (this.extrasChars + size > MAX_EXTRAS_CHARS) {
            this.extrasCut = true;
            continue;
          }
          this.extrasChars += size;
          target.push(value ?? null);
        }
        return '';
      }
      // Reasoning signatures, tool calls and results add no text.
      case 'j':
      case '9':
      case 'a':
      case 'b':
      case 'c':
        return '';
    }
  }

  /** The http(s) sources the reply cited, in order, without repeats. */
  get sources(): readonly ReplySource[] {
    return this.sourceList;
  }

  /** The files the model produced, in order (media type and size). */
  get files(): readonly ReplyFile[] {
    return this.fileList;
  }

  /** The data and annotations received (as much as MAX_EXTRAS_CHARS holds), or undefined when none came. */
  get extras(): (ReplyExtras & { cut: boolean }) | undefined {
    const { data, annotations } = this.extraParts;
    if (data.length === 0 && annotations.length === 0 && !this.extrasCut) return undefined;
    return { data: [...data], annotations: [...annotations], cut: this.extrasCut };
  }

  /** Characters of reasoning received (never part of the text). */
  get reasoningChars(): number {
    return this.reasoning;
  }

  /** The reasoning received (its first MAX_REASONING_CHARS characters). */
  get reasoningText(): string {
    return this.reasoningParts.join('');
  }

  get text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  get outcome(): ReplyOutcome {
    const finishReason = this.doneReason ?? this.stepReason ?? 'unknown';
    const usage = this.stepUsage ?? this.doneUsage;
    const base = {
      finishReason,
      steps: Math.max(this.steps, this.parts.length > 0 ? 1 : 0),
      done: this.done,
      ...(usage ? { usage } : {}),
      problemCount: this.problemCount,
      ...(this.problems.length ? { problems: this.namedProblems() } : {}),
    };
    if (this.errorPart !== undefined) return { ...base, ending: 'error', errorMessage: this.errorPart };
    const ending = endingOf(finishReason);
    return ending === 'error' ? { ...base, ending, errorMessage: FINISH_ERROR_MESSAGE } : { ...base, ending };
  }

  /** Keeps the first few different problems and counts every one (constant work per part). */
  private problem(text: string): void {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS && !this.problems.includes(text)) this.problems.push(text);
  }

  private namedProblems(): string[] {
    const more = this.problemCount - this.problems.length;
    return more > 0 ? [...this.problems, `${more.toLocaleString('en')} more like ${more === 1 ? 'it' : 'these'}`] : [...this.problems];
  }

  private addStepUsage(u: Usage): void {
    const step = this.usage(u, 'e.usage');
    const sum: ReplyUsage = {};
    for (const key of ['promptTokens', 'completionTokens'] as const) {
      if (u[key] !== undefined && step[key] === undefined) this.unknownCounts.add(key);
      if (this.unknownCounts.has(key)) continue;
      const v = addTokenCounts(this.stepUsage?.[key], step[key], `e.usage.${key} (sum of the steps)`, this.warn);
      if (v === undefined && (this.stepUsage?.[key] !== undefined || step[key] !== undefined)) this.unknownCounts.add(key);
      else if (v !== undefined) sum[key] = v;
    }
    this.stepUsage = sum;
  }

  private usage(u: Usage, field: string): ReplyUsage {
    const out: ReplyUsage = {};
    const p = tokenCount(u.promptTokens, `${field}.promptTokens`, this.warn);
    const c = tokenCount(u.completionTokens, `${field}.completionTokens`, this.warn);
    if (p !== undefined) out.promptTokens = p;
    if (c !== undefined) out.completionTokens = c;
    return out;
  }
}
