/** Retry policy: which failures may be retried, how long to wait, and an abortable sleep. */
import { ConnectionError, TimeoutError, UserAbortError } from './errors';

export interface RetryOptions {
  /** First backoff delay; doubles per attempt. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of the exponential backoff. Default 8 s. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. Default 60 s. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * `idempotent`: GETs, retried on connection errors, timeouts and 408/409/429/5xx.
 * `chat`: POST /chat, retried only when the service provably did not start on it: the connection was
 * refused or could not be opened in time, or it answered 429/503 (an error status, so no reply body).
 */
export type RetryPolicy = 'idempotent' | 'chat';

export function isRetryableStatus(status: number, policy: RetryPolicy): boolean {
  if (policy === 'chat') return status === 429 || status === 503;
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

export function isRetryableError(err: unknown, policy: RetryPolicy): boolean {
  if (policy === 'chat') {
    return (
      (err instanceof ConnectionError && err.code === 'ECONNREFUSED') ||
      (err instanceof TimeoutError && err.phase === 'connect')
    );
  }
  return err instanceof ConnectionError || err instanceof TimeoutError;
}

/**
 * Delay before retry number `retry` (1-based): Retry-After when given (undefined when it exceeds
 * maxRetryAfterMs: do not retry), else exponential backoff with up to 25 % jitter below it.
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  opts: Required<RetryOptions>,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) {
    return retryAfterMs <= opts.maxRetryAfterMs ? retryAfterMs : undefined;
  }
  const exp = Math.min(opts.baseDelayMs * 2 ** (retry - 1), opts.maxDelayMs);
  return Math.round(exp * (1 - random() * 0.25));
}

/** Waits `ms`; rejects with UserAbortError as soon as `signal` aborts (the timer is cleared). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UserAbortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
