// Removes secrets from text before it reaches the log. No `vscode` import (unit-tested in Node).

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
