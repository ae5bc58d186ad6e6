// The extension's settings, read and clamped. No `vscode` import: the reader is injected.

export const CONFIG_SECTION = 'aiChat';
export const DEFAULT_BASE_URL = 'https://chat.muffinscorp.com/api/public';

export interface AiChatSettings {
  baseUrl: string;
  model: string;
  temperature: number;
  search: boolean;
  stream: boolean;
  systemPrompt: string;
  requestTimeoutSeconds: number;
  balanceRefreshMinutes: number;
  /** Overall deadline of a streamed reply (a stream of keep-alives only ends here). */
  replyDeadlineMinutes: number;
  fontSize: number;
  /** `aiChat.context.maxTokens`: the context assumed for a model that states no max_tokens. */
  contextMaxTokens: number;
}

export type SettingKey = keyof AiChatSettings;

import { normalizeBaseUrl } from './links';
import { DEFAULT_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS } from '../../core/context/contextBudget';

function num(v: unknown, def: number, min: number, max: number): number {
  const n = typeof v === 'number' && Number.isFinite(v) ? v : def;
  return Math.min(max, Math.max(min, n));
}

/** Reads every setting through `get` (e.g. a WorkspaceConfiguration's get), with defaults and ranges. */
export function readSettings(get: (key: string) => unknown): AiChatSettings {
  const str = (key: string, def: string) => {
    const v = get(key);
    return typeof v === 'string' ? v : def;
  };
  const bool = (key: string, def: boolean) => {
    const v = get(key);
    return typeof v === 'boolean' ? v : def;
  };
  return {
    baseUrl: normalizeBaseUrl(str('baseUrl', DEFAULT_BASE_URL), DEFAULT_BASE_URL),
    model: str('model', '').trim(),
    temperature: num(get('temperature'), 1, 0, 2),
    search: bool('search', false),
    stream: bool('stream', true),
    systemPrompt: str('systemPrompt', ''),
    requestTimeoutSeconds: num(get('requestTimeoutSeconds'), 120, 5, 3600),
    balanceRefreshMinutes: num(get('balanceRefreshMinutes'), 5, 0, 1440),
    replyDeadlineMinutes: num(get('replyDeadlineMinutes'), 10, 1, 120),
    fontSize: num(get('fontSize'), 0, 0, 48),
    contextMaxTokens: Math.floor(num(get('context.maxTokens'), DEFAULT_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS, 10_000_000)),
  };
}

/**
 * Client timeouts from the request timeout and reply deadline settings (requestTimeoutSeconds,
 * default 120 s; replyDeadlineMinutes, default 10 min):
 * - connect: the request timeout, at most 30 s;
 * - the first byte of an answer, and the longest silence in a body: the request timeout;
 * - a GET (balance, models, plans) as a whole: the request timeout (default 120 s), so a body that
 *   trickles in a byte at a time cannot hold it longer;
 * - a non-streaming reply is written whole before its headers, so it waits longer for them: at least
 *   5 minutes and at least twice the request timeout; its whole call, that wait plus one request
 *   timeout for the body (default 7 min);
 * - a streamed reply as a whole: the reply deadline.
 */
export function clientTimeouts(
  requestTimeoutSeconds: number,
  replyDeadlineMinutes = 10,
): { connectMs: number; headersMs: number; bodyMs: number; requestMs: number; chatReplyMs: number; chatRequestMs: number; replyDeadlineMs: number } {
  const ms = Math.round(requestTimeoutSeconds * 1000);
  const chatReplyMs = Math.max(300_000, 2 * ms);
  return {
    connectMs: Math.min(ms, 30_000),
    headersMs: ms,
    bodyMs: ms,
    requestMs: ms,
    chatReplyMs,
    chatRequestMs: chatReplyMs + ms,
    replyDeadlineMs: Math.round(replyDeadlineMinutes * 60_000),
  };
}
