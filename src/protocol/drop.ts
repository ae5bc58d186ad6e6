// Files dragged onto the chat: which URIs a drop carries. VS Code's Explorer and editor tabs put
// the full list in `application/vnd.code.uri-list` (one URI per line) and `resourceurls` (a JSON
// array; absent for folders); `text/uri-list` may hold only the first; `codefiles` holds paths.
// The DOM reports the types in lower case.

/** Most files one drop attaches; the rest are left out (and the user told). */
export const MAX_DROPPED_URIS = 50;
/** Longest URI accepted. */
export const MAX_URI_LENGTH = 4096;

/** Types that mean "files are being dragged" (readable while dragging; the data is not). */
const DROP_TYPES = ['application/vnd.code.uri-list', 'resourceurls', 'text/uri-list', 'codefiles', 'files'];

export function carriesFiles(types: readonly string[]): boolean {
  return types.some((t) => DROP_TYPES.includes(t.toLowerCase()));
}

function uriLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function jsonStrings(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * An absolute path as a file URI (POSIX or Windows drive paths), encoded as node's
 * `url.pathToFileURL` does (the webview has no node): `%`, `#` and `?` are part of the name, not
 * an escape, a fragment or a query.
 */
export function pathToFileUri(p: string): string | undefined {
  const slashed = p.replace(/\\/g, '/');
  const encode = (path: string) => encodeURI(path).replace(/[?#~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  try {
    if (/^[a-zA-Z]:\//.test(slashed)) return `file:///${encode(slashed)}`;
    if (slashed.startsWith('/')) return `file://${encode(slashed)}`;
  } catch {
    // A lone surrogate: not a name a file system gives.
  }
  return undefined;
}

/**
 * The URIs of a drop, from the richest kind present, without duplicates, each with a scheme and
 * no longer than MAX_URI_LENGTH. `dropped` is how many were found before the limit.
 */
export function droppedUris(getData: (type: string) => string, types: readonly string[]): { uris: string[]; dropped: number } {
  const has = new Set(types.map((t) => t.toLowerCase()));
  const read = (t: string) => (has.has(t) ? getData(t) : '');
  let found: string[] = [];
  if (has.has('application/vnd.code.uri-list')) found = uriLines(read('application/vnd.code.uri-list'));
  if (!found.length && has.has('resourceurls')) found = jsonStrings(read('resourceurls'));
  if (!found.length && has.has('text/uri-list')) found = uriLines(read('text/uri-list'));
  if (!found.length && has.has('codefiles')) found = jsonStrings(read('codefiles')).map((p) => pathToFileUri(p) ?? '');
  const unique = [...new Set(found.filter((u) => u.length > 0 && u.length <= MAX_URI_LENGTH && /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(u)))];
  return { uris: unique.slice(0, MAX_DROPPED_URIS), dropped: unique.length };
}
