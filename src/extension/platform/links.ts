// Checks done on the host before anything from the webview is acted on. No `vscode` import.

/** Only absolute http/https URLs with a host may be opened externally. */
export function safeExternalUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.hostname) return undefined;
  if (url.username || url.password) return undefined;
  return url.toString();
}

/** Conversation ids are UUIDs we made; anything else is refused (they become file names). */
export function isSafeConversationId(id: string): boolean {
  return /^[A-Za-z0-9-]{1,100}$/.test(id);
}

/** A base URL the client can use: http(s), no trailing slash. */
export function normalizeBaseUrl(value: string, fallback: string): string {
  const v = value.trim().replace(/\/+$/, '');
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v;
  } catch {
    // fall through
  }
  return fallback;
}
