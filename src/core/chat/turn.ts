// One turn: the request goes out, the reply streams into a sink, and what came back is told as a
// TurnResult. The only stream loop of the extension: the chat panel's session, @aichat, the
// language model provider and every other surface run their turns through `runTurn`, so text,
// reasoning (Thinking…), tool steps (Searching…), sources, files, data, usage, the silence notice,
// Stop and the error endings mean the same everywhere. VS Code-free.
import * as l10n from '@vscode/l10n';
import { ReplyAssembler, activityOf, type ReplyFile, type ReplySource, type StreamActivity } from '../../client/reply';
import { creditAmount, noRangeWarning, type RangeWarning } from '../../client/sanitize';
import type { StreamEvent } from '../../client/schemas';
import type { HistoryMessage } from './conversation';
import { errorKind, errorToView, retryNoticeText, type ChatError } from './errors';
import { MAX_KEPT_EXTRAS, type ReplyFacts } from './replyFacts';
import { filesMarkdown, sourcesMarkdown } from './sources';

/** The request of a turn (a subset of the client's ChatRequest). */
export interface SessionChatRequest {
  messages: HistoryMessage[];
  model: string;
  stream: boolean;
  temperature: number;
  search?: boolean;
}

/** Events of the stream, as the client decodes them (f, 0, e step finish, d, 3 error part). */
export type SessionStreamEvent = StreamEvent;

/** Told by the client before it tries a request again (ChatServiceClient's RetryNotice). */
export interface SessionRetryNotice {
  retry: number;
  maxRetries: number;
  delayMs: number;
  error: unknown;
}

export interface SessionCallOptions {
  signal: AbortSignal;
  onRetry?: (notice: SessionRetryNotice) => void;
}

/** What a turn needs from the service client (ChatServiceClient satisfies it). */
export interface ChatBackend {
  chat(
    req: SessionChatRequest,
    opts: SessionCallOptions,
  ): Promise<{ content: string; creditsUsed?: number; creditsRemaining?: number; model?: string; problems?: string[] }>;
  chatStream(req: SessionChatRequest, opts: SessionCallOptions): Promise<AsyncIterable<SessionStreamEvent> & { abort(): void }>;
}

/** Where a turn's reply goes as it arrives. */
export interface TurnSink {
  /** Text of the reply, in order: the concatenation is the reply (sources and files included). */
  text(chunk: string): void;
  /**
   * What the reply does while no text comes: "Thinking…", "Searching…", a wait before trying again,
   * "Waiting for the service… N s"; an empty string clears it.
   */
  status(text: string): void;
}

export interface TurnLogger {
  debug(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
}

export interface TurnOptions {
  /** The service address, for the wording of connection errors and retry notices. */
  baseUrl: string;
  /** After this long without any part of a streaming reply, the sink is told it waits (default 10 s). */
  silenceNoticeMs?: number;
  logger?: TurnLogger;
  /** Out-of-range values in replies (logged once per field by the caller). */
  warn?: RangeWarning;
}

/**
 * How a turn ended:
 * - `complete`: the reply arrived whole (it may have been cut at the model's length limit: meta.ending);
 * - `stopped`: Stop (or the surface's cancellation) ended it;
 * - `error`: the service answered, then the reply failed (its text so far is kept, and paid for);
 * - `failed`: nothing of a reply arrived (refused, 402, no connection): nothing is charged.
 */
export type TurnEnding = 'complete' | 'stopped' | 'error' | 'failed';

export interface TurnResult {
  ending: TurnEnding;
  /** The whole text the sink was given. */
  text: string;
  /** The service answered (200): the reply is paid for, whatever happened after. */
  answered: boolean;
  /** A part of the reply (start or text) arrived. */
  started: boolean;
  /** The reply's facts: model, token counts, cut, reasoning, extras, a note on a malformed reply. */
  meta: ReplyFacts;
  /** Why it failed (`error`, `failed`), in the chat's wording with its actions. */
  error?: ChatError;
  /** The kind of the failure (errors.ts), also for `stopped` ('aborted'). */
  errorKind?: string;
  /** The failure itself (e.g. to tell an input-too-long refusal). */
  cause?: unknown;
  /** creditsUsed and creditsRemaining of a non-streaming reply. */
  reported?: number;
  remaining?: number;
  sources: readonly ReplySource[];
  files: readonly ReplyFile[];
}

/** The status line for an activity of the stream before the text. */
export function activityText(activity: StreamActivity): string {
  return activity === 'thinking' ? l10n.t('Thinking…') : l10n.t('Searching…');
}

const aborted = () => Object.assign(new Error('The request was aborted'), { kind: 'aborted' }); // l10n-ignore: an aborted request shows as Stopped

/**
 * Runs one turn: sends `req` through `backend`, streams the reply into `sink`, and says how it
 * ended. Never throws: a failure is returned, described.
 */
export async function runTurn(backend: ChatBackend, req: SessionChatRequest, sink: TurnSink, signal: AbortSignal, opts: TurnOptions): Promise<TurnResult> {
  const warn = opts.warn ?? noRangeWarning;
  const meta: ReplyFacts = { model: req.model };
  const reply = new ReplyAssembler(warn);
  const result: TurnResult = { ending: 'complete', text: '', answered: false, started: false, meta, sources: [], files: [] };
  const give = (chunk: string) => {
    if (!chunk) return;
    result.text += chunk;
    sink.text(chunk);
  };
  // Before the reply starts, the client may wait and try again (429, 503, refused connection):
  // the sink says why and for how long instead of a silent wait.
  const onRetry = (notice: SessionRetryNotice) => sink.status(retryNoticeText(notice, opts.baseUrl));
  try {
    if (signal.aborted) throw aborted();
    if (req.stream) {
      const stream = await backend.chatStream(req, { signal, onRetry });
      // The service answered 200: the reply is paid for from here on, and is never thrown away.
      result.answered = true;
      if (signal.aborted) stream.abort();
      const onAbort = () => stream.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      let shownActivity: StreamActivity | undefined;
      // Silence is shown too: no part for a while, and the sink says it waits (seconds counting);
      // the next part clears it. The between-parts timeout still ends the reply.
      const silenceMs = opts.silenceNoticeMs ?? 10_000;
      let lastPart = Date.now();
      let silent = false;
      const silence = setInterval(() => {
        const quiet = Date.now() - lastPart;
        if (quiet < silenceMs || signal.aborted) return;
        silent = true;
        sink.status(l10n.t('Waiting for the service… {0} s', Math.floor(quiet / 1000)));
      }, Math.min(1000, silenceMs));
      try {
        for await (const ev of stream) {
          lastPart = Date.now();
          if (silent) {
            silent = false;
            // A part came: the waiting is over (text clears it by itself).
            if (ev.event !== '0') sink.status('');
          }
          if (ev.event === 'f' || ev.event === '0') result.started = true;
          // Before the text: the reply says that the model thinks, or that a search runs.
          const activity = activityOf(ev);
          if (activity && activity !== shownActivity && result.text === '') {
            shownActivity = activity;
            sink.status(activityText(activity));
          }
          let text = reply.push(ev);
          // The sources a search found end the reply, as a numbered list of links; then the files the model produced.
          if (ev.event === 'd' && reply.outcome.ending !== 'error') text += sourcesMarkdown(reply.sources) + filesMarkdown(reply.files);
          if (text) give(text);
          else if (ev.event === 'e' || ev.event === 'd' || ev.event === '3') {
            opts.logger?.debug('Stream event', { event: ev.event, finishReason: ev.event === '3' ? undefined : ev.finishReason });
          }
          if (signal.aborted) break;
        }
      } finally {
        clearInterval(silence);
        signal.removeEventListener('abort', onAbort);
      }
      result.sources = reply.sources;
      result.files = reply.files;
      if (signal.aborted) throw aborted();
      const outcome = reply.outcome;
      if (outcome.usage?.promptTokens !== undefined) meta.promptTokens = outcome.usage.promptTokens;
      if (outcome.usage?.completionTokens !== undefined) meta.completionTokens = outcome.usage.completionTokens;
      if (outcome.steps > 1) opts.logger?.debug('Multi-step reply', { steps: outcome.steps });
      if (reply.reasoningText.trim()) meta.reasoning = reply.reasoningText;
      if (outcome.ending === 'error') {
        throw Object.assign(new Error(outcome.errorMessage ?? l10n.t('The reply failed')), { kind: 'stream' });
      }
      if (outcome.ending === 'length' || outcome.ending === 'content-filter') meta.ending = outcome.ending;
      // The stream's data and annotations are kept with the reply (never shown).
      const extras = reply.extras;
      const extrasJson = extras ? JSON.stringify(extras) : '';
      if (extrasJson && extrasJson.length <= MAX_KEPT_EXTRAS) meta.extras = extrasJson;
      if (outcome.problems) meta.note = `The service's reply was not quite right (${outcome.problems.join('; ')}); the text is kept.`.slice(0, 500);
    } else {
      const res = await backend.chat(req, { signal, onRetry });
      result.started = true;
      result.answered = true;
      if (res.model) meta.model = displayModelId(res.model, req.model, warn);
      const reported = creditAmount(res.creditsUsed, 'creditsUsed', warn);
      if (reported !== undefined) result.reported = reported;
      if (res.creditsRemaining !== undefined) {
        const remaining = creditAmount(res.creditsRemaining, 'creditsRemaining', warn);
        if (remaining !== undefined) result.remaining = remaining;
      }
      if (res.problems?.length) meta.note = `The service's reply was incomplete (${res.problems.join('; ')}); the text is kept.`.slice(0, 500);
      give(res.content);
    }
    result.ending = 'complete';
  } catch (err) {
    const kind = signal.aborted ? 'aborted' : errorKind(err);
    result.errorKind = kind;
    result.cause = err;
    if (kind === 'aborted') result.ending = 'stopped';
    else {
      result.error = errorToView(err, opts.baseUrl);
      opts.logger?.warn('Chat request failed', { kind, message: result.error.message });
      result.ending = result.answered || result.started || result.text !== '' ? 'error' : 'failed';
    }
  }
  return result;
}

/** The model id a reply names, fit to show: an id that is not a plausible model id is replaced by the one asked for. */
export function displayModelId(replyModel: string, asked: string, warn: RangeWarning): string {
  if (/^[\w.:/-]{1,100}$/.test(replyModel)) return replyModel;
  warn('model', replyModel, asked);
  return asked;
}
