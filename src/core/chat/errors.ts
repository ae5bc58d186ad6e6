// The chat's errors (ChatError: what went wrong, worded for the user, and the actions that fix it,
// kept with a failed reply in the conversation's log), and the errors of the service client turned
// into them.
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../account/cost';
import type { ChatError } from './conversationFormat';

/** What fixes an error; the chat shows one button per action. */
export const CHAT_ERROR_ACTIONS = [
  'setApiKey',
  'showSubscriptions',
  'retry',
  'openSettings',
  'fewerMessages',
  'selectModel',
  'openInstructions',
  'toggleInstructions',
  'openSystemPrompt',
  'showRules',
] as const;
export type ChatErrorAction = (typeof CHAT_ERROR_ACTIONS)[number];

export const CHAT_ERROR_KINDS = [
  'auth',
  'invalid',
  'credits',
  'rate-limit',
  'server',
  'connection',
  'timeout',
  'aborted',
  'protocol',
  'stream',
  'too-large',
  'validation',
  'unknown',
] as const;
export type ChatErrorKind = (typeof CHAT_ERROR_KINDS)[number];

/** An error as the chat shows and keeps it (its schema: ./conversationFormat). */
export type { ChatError };

const KINDS: readonly ChatErrorKind[] = CHAT_ERROR_KINDS.filter((k) => k !== 'unknown');

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
  limit?: unknown;
}

export function errorKind(err: unknown): ChatErrorKind {
  const e = (err ?? {}) as ErrorLike;
  if (typeof e.kind === 'string' && (KINDS as readonly string[]).includes(e.kind)) return e.kind as ChatErrorKind;
  if (e.name === 'AbortError') return 'aborted';
  return 'unknown';
}

function messageOf(err: unknown): string {
  const e = (err ?? {}) as ErrorLike;
  const m = typeof e.message === 'string' ? e.message.trim() : typeof err === 'string' ? err : '';
  return m || l10n.t('Unknown error');
}

/** Keeps a message readable in the panel (the service may send long details). */
function clip(text: string, max = 500): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** `code` of the error thrown when a part of the extension (its service client) cannot be loaded. */
export const EXTENSION_DAMAGED = 'EXTENSION_DAMAGED';

/** What the user is told when a part of the extension cannot be loaded: no module error, no stack. */
export function extensionDamagedText(): string {
  return l10n.t('AI Chat is damaged: a part of it could not be loaded. Reload the window (Developer: Reload Window); if that does not help, reinstall the AI Chat extension.');
}

export function errorToView(err: unknown, baseUrl: string): ChatError {
  const e = (err ?? {}) as ErrorLike;
  const kind = errorKind(err);
  const detail = clip(messageOf(err));
  const traceId = typeof e.traceId === 'string' ? e.traceId : undefined;
  const withTrace = (s: string) => (traceId ? l10n.t('{0} (trace {1})', s, traceId) : s);
  let message: string;
  let actions: ChatErrorAction[];
  let retryAfterSeconds: number | undefined;
  let tried: string | undefined;
  switch (kind) {
    case 'auth':
      message =
        e.code === 'MISSING_API_KEY'
          ? l10n.t('No API key is set. Set your API key to chat.')
          : withTrace(l10n.t('The service rejected the API key: {0}', detail));
      actions = ['setApiKey'];
      break;
    case 'credits': {
      const left = typeof e.creditsRemaining === 'number' ? l10n.t(' You have {0} left.', e.creditsRemaining) : '';
      message = withTrace(l10n.t('Not enough credits for this message.{0}', left));
      actions = ['showSubscriptions'];
      break;
    }
    case 'rate-limit': {
      const ms = typeof e.retryAfterMs === 'number' && Number.isFinite(e.retryAfterMs) ? e.retryAfterMs : undefined;
      retryAfterSeconds = ms !== undefined ? Math.max(0, Math.ceil(ms / 1000)) : DEFAULT_RETRY_AFTER_SECONDS;
      message = withTrace(l10n.t('The service is rate limiting requests. Try again in {0} s.', retryAfterSeconds));
      actions = ['retry'];
      break;
    }
    case 'connection':
      tried = baseUrl;
      message = l10n.t('Connection to the service at {0} failed: {1}', baseUrl, detail);
      actions = ['openSettings', 'retry'];
      break;
    case 'timeout':
      tried = baseUrl;
      message = l10n.t('The service at {0} did not answer in time: {1}', baseUrl, detail);
      actions = ['openSettings', 'retry'];
      break;
    case 'invalid':
      message = withTrace(l10n.t('The service refused the request: {0}', detail));
      actions = ['retry'];
      break;
    case 'validation':
      message = l10n.t('The request is not valid: {0}', detail);
      actions = ['openSettings'];
      break;
    case 'aborted':
      message = l10n.t('Stopped');
      actions = ['retry'];
      break;
    case 'server':
      message = withTrace(l10n.t('Server error: {0}', detail));
      actions = ['retry'];
      break;
    case 'protocol':
      message = withTrace(l10n.t('The service sent a reply that could not be read: {0}', detail));
      actions = ['retry'];
      break;
    case 'stream':
      message = withTrace(l10n.t('The reply ended with an error: {0}', detail));
      actions = ['retry'];
      break;
    case 'too-large':
      message =
        typeof e.limit === 'number'
          ? l10n.t('The reply is longer than {0} characters, the most the chat reads: it was cut there. The text so far is kept.', formatNumber(e.limit))
          : l10n.t('The reply is too long: it was cut. The text so far is kept.');
      actions = ['retry'];
      break;
    default:
      // Retry would fail the same way: only a reload or a reinstall helps.
      if (e.code === EXTENSION_DAMAGED) {
        message = extensionDamagedText();
        actions = [];
        break;
      }
      message = l10n.t('Something went wrong: {0}', detail);
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
      ? l10n.t('The service is rate limiting requests')
      : e.status === 503
        ? l10n.t('The service is busy')
        : kind === 'connection' || kind === 'timeout'
          ? l10n.t('Could not reach {0}', baseUrl)
          : l10n.t('The request failed');
  return l10n.t('{0}; trying again in {1} s (retry {2} of {3})…', why, seconds, notice.retry, notice.maxRetries);
}
