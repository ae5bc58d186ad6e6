// Errors of the service client turned into what the chat panel shows and the action that fixes it.
import { ErrorKindSchema, type ErrorAction, type ErrorKind, type ErrorView } from '../protocol';

const KINDS: readonly ErrorKind[] = ErrorKindSchema.options.filter((k) => k !== 'unknown');

/** Default wait when a 429 carries no Retry-After. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

interface ErrorLike {
  kind?: unknown;
  name?: unknown;
  message?: unknown;
  status?: unknown;
  traceId?: unknown;
  retryAfterMs?: unknown;
  creditsRemaining?: unknown;
  field?: unknown;
  code?: unknown;
}

export function errorKind(err: unknown): ErrorKind {
  const e = (err ?? {}) as ErrorLike;
  if (typeof e.kind === 'string' && (KINDS as readonly string[]).includes(e.kind)) return e.kind as ErrorKind;
  if (e.name === 'AbortError') return 'aborted';
  return 'unknown';
}

function messageOf(err: unknown): string {
  const e = (err ?? {}) as ErrorLike;
  const m = typeof e.message === 'string' ? e.message.trim() : typeof err === 'string' ? err : '';
  return m || 'Unknown error';
}

/** Keeps a message readable in the panel (the service may send long details). */
function clip(text: string, max = 500): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

export function errorToView(err: unknown, baseUrl: string): ErrorView {
  const e = (err ?? {}) as ErrorLike;
  const kind = errorKind(err);
  const detail = clip(messageOf(err));
  const traceId = typeof e.traceId === 'string' ? e.traceId : undefined;
  const withTrace = (s: string) => (traceId ? `${s} (trace ${traceId})` : s);
  let message: string;
  let actions: ErrorAction[];
  let retryAfterSeconds: number | undefined;
  let tried: string | undefined;
  switch (kind) {
    case 'auth':
      message =
        e.code === 'MISSING_API_KEY'
          ? 'No API key is set. Set your API key to chat.'
          : withTrace(`The service rejected the API key: ${detail}`);
      actions = ['setApiKey'];
      break;
    case 'credits': {
      const left = typeof e.creditsRemaining === 'number' ? ` You have ${e.creditsRemaining} left.` : '';
      message = withTrace(`Not enough credits for this message.${left}`);
      actions = ['showSubscriptions'];
      break;
    }
    case 'rate-limit': {
      const ms = typeof e.retryAfterMs === 'number' && Number.isFinite(e.retryAfterMs) ? e.retryAfterMs : undefined;
      retryAfterSeconds = ms !== undefined ? Math.max(0, Math.ceil(ms / 1000)) : DEFAULT_RETRY_AFTER_SECONDS;
      message = withTrace(`The service is rate limiting requests. Try again in ${retryAfterSeconds} s.`);
      actions = ['retry'];
      break;
    }
    case 'connection':
      tried = baseUrl;
      message = `Connection to the service at ${baseUrl} failed: ${detail}`;
      actions = ['openSettings', 'retry'];
      break;
    case 'timeout':
      tried = baseUrl;
      message = `The service at ${baseUrl} did not answer in time: ${detail}`;
      actions = ['openSettings', 'retry'];
      break;
    case 'invalid':
      message = withTrace(`The service refused the request: ${detail}`);
      actions = ['retry'];
      break;
    case 'validation':
      message = `The request is not valid: ${detail}`;
      actions = ['openSettings'];
      break;
    case 'aborted':
      message = 'Stopped';
      actions = ['retry'];
      break;
    case 'server':
      message = withTrace(`Server error: ${detail}`);
      actions = ['retry'];
      break;
    case 'protocol':
      message = withTrace(`The service sent a reply that could not be read: ${detail}`);
      actions = ['retry'];
      break;
    case 'stream':
      message = withTrace(`The reply ended with an error: ${detail}`);
      actions = ['retry'];
      break;
    default:
      message = `Something went wrong: ${detail}`;
      actions = ['retry'];
  }
  return {
    kind,
    message,
    actions,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(tried !== undefined ? { baseUrl: tried } : {}),
    ...(traceId !== undefined ? { traceId } : {}),
  };
}

/** What the panel shows while the client waits to try a chat request again. */
export function retryNoticeText(
  notice: { retry: number; maxRetries: number; delayMs: number; error: unknown },
  baseUrl: string,
): string {
  const kind = errorKind(notice.error);
  const e = (notice.error ?? {}) as ErrorLike;
  const seconds = Math.max(1, Math.ceil(notice.delayMs / 1000));
  const why =
    kind === 'rate-limit'
      ? 'The service is rate limiting requests'
      : e.status === 503
        ? 'The service is busy'
        : kind === 'connection' || kind === 'timeout'
          ? `Could not reach ${baseUrl}`
          : 'The request failed';
  return `${why}; trying again in ${seconds} s (retry ${notice.retry} of ${notice.maxRetries})…`;
}
