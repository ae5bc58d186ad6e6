// Removes secrets from text before it reaches the log. No `vscode` import (unit-tested in Node).
import { holdsKey } from '../../core/account/keyMatch';

const KEY_LIKE = /\b(sk-[A-Za-z0-9_-]{6,})\b/g;
const HEADER_LIKE = /((?:x-api-key|authorization|api[_-]?key)["']?\s*[:=]\s*["']?)([^\s"',}]+)/gi;

/** Replaces every known secret and anything that looks like an API key. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  }
  return out.replace(HEADER_LIKE, '$1[redacted]').replace(KEY_LIKE, '[redacted]');
}

/**
 * Whether `text` holds one of the window's keys (the stored key, or one being checked): as typed,
 * wrapped, escaped, in base64, or cut short at a line's end (see core/account/keyMatch.ts). Only
 * the keys themselves count: a message that talks about keys, or quotes a key-shaped string, is sent.
 */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return holdsKey(text, secrets);
}

/** Redacts every string inside log data (objects and arrays, cycles cut). */
export function redactData(data: unknown, secrets: readonly string[] = [], seen = new WeakSet<object>()): unknown {
  if (typeof data === 'string') return redact(data, secrets);
  if (data === null || typeof data !== 'object') return data;
  if (seen.has(data)) return '[circular]';
  seen.add(data);
  if (data instanceof Error) return redact(`${data.name}: ${data.message}`, secrets);
  if (Array.isArray(data)) return data.map((d) => redactData(d, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    out[k] = /^(x-api-key|apikey|api_key|authorization|key|secret|password)$/i.test(k) ? '[redacted]' : redactData(v, secrets, seen);
  }
  return out;
}

/** One log line: message plus compact data. */
export function formatLogLine(msg: string, data: Record<string, unknown> | undefined, secrets: readonly string[] = []): string {
  const text = redact(msg, secrets);
  if (!data || Object.keys(data).length === 0) return text;
  let json: string;
  try {
    json = JSON.stringify(redactData(data, secrets));
  } catch {
    json = '[unserialisable data]';
  }
  return `${text} ${json}`;
}

/** Data fields that may quote message text or what the service sent: logged only at trace level. */
export const TEXT_FIELDS: ReadonlySet<string> = new Set(['message', 'excerpt', 'text', 'content', 'href', 'details', 'body', 'error', 'reason']);

/** Splits log data into what any level may show and the text fields kept for trace. */
export function splitTextFields(data: Record<string, unknown> | undefined): {
  plain: Record<string, unknown> | undefined;
  text: Record<string, unknown> | undefined;
} {
  if (!data) return { plain: undefined, text: undefined };
  const plain: Record<string, unknown> = {};
  const text: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) (TEXT_FIELDS.has(k) ? text : plain)[k] = v;
  return { plain, text: Object.keys(text).length ? text : undefined };
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/**
 * The lines one log call writes: at info, warning and error level the text fields go to a
 * separate trace line; every line is redacted (the key never appears at any level).
 */
export function logLines(
  level: LogLevel,
  msg: string,
  data: Record<string, unknown> | undefined,
  secrets: readonly string[],
): Array<{ level: LogLevel; line: string }> {
  if (level === 'trace' || level === 'debug') return [{ level, line: formatLogLine(msg, data, secrets) }];
  const { plain, text } = splitTextFields(data);
  const out: Array<{ level: LogLevel; line: string }> = [{ level, line: formatLogLine(msg, plain, secrets) }];
  if (text) out.push({ level: 'trace', line: formatLogLine(`${msg} (detail)`, text, secrets) });
  return out;
}
