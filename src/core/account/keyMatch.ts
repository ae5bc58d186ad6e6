// Whether a text holds an API key, in the forms a copy of it takes on its way into a message: as
// typed; wrapped over lines or with invisible characters inside (a terminal or chat copy); with
// \uXXXX, \xXX or %XX escapes (JSON, a URL); in base64 (a Kubernetes Secret, .dockerconfigjson),
// at any of its three alignments; and cut short at the end of a line or of the text (a file
// attached up to maxFileKB, a key being typed). Pure: no `vscode`, no Node APIs.
//
// A key-shaped string that is not one of the given keys never counts: the check is for these keys.
// Cost: a few linear passes over the text (measured by bench/security/keyMatch.ts).

/** Keys shorter than this are never looked for (they would match ordinary text). */
export const MIN_KEY_CHARS = 4;

/** The shortest start of a key that counts when a line or the text ends with it. */
export const MIN_KEY_PREFIX_CHARS = 12;

/** Base64 of a key is looked for only when its stable part is at least this long. */
const MIN_BASE64_CHARS = 12;

/** Whitespace, and characters that show nothing: zero-width space/joiners, marks, word joiner, BOM, soft hyphen. */
const INVISIBLE_CLASS = '[\\s\\u00AD\\u180E\\u200B-\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2060-\\u2064\\uFEFF]';
const INVISIBLE = new RegExp(`${INVISIBLE_CLASS}+`, 'g');

/** How much of a text's end is looked at, without its invisible characters, for a start of the key. */
const TAIL_CHARS = 4096;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
  }
  return out;
}

/**
 * The base64 forms of `key` wherever it sits in the encoded data: for each of the three alignments
 * (0, 1 or 2 bytes before it), the characters that depend on the key's bytes only; each in the
 * standard and the URL-safe alphabet.
 */
export function base64Forms(key: string): string[] {
  const utf8 = new TextEncoder().encode(key);
  const out = new Set<string>();
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + utf8.length);
    padded.set(utf8, shift);
    const b64 = base64(padded);
    // Character i holds bits [6i, 6i + 6); the key's bits are [8 * shift, 8 * (shift + length)).
    const middle = b64.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + utf8.length)) / 6));
    if (middle.length < MIN_BASE64_CHARS) continue;
    out.add(middle);
    out.add(middle.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out];
}

function regexEscape(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A hex digit in either case, as a regex class. */
function hexClass(d: string): string {
  return /[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d;
}

/**
 * One character of a key as a regex: itself, or (for ASCII) an escape of it: \u00XX, \u{XX},
 * \xXX or %XX.
 */
function charPattern(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (code > 0x7f) return regexEscape(c);
  const [h, l] = code.toString(16).padStart(2, '0').split('').map(hexClass);
  return `(?:${regexEscape(c)}|\\\\u00${h}${l}|\\\\u\\{0*${h}${l}\\}|\\\\x${h}${l}|%${h}${l})`;
}

interface KeyForms {
  key: string;
  base64: string[];
  /** The key's first MIN_KEY_PREFIX_CHARS characters, when the key is longer than that. */
  head: string | undefined;
  /** The key with each character maybe escaped and invisible characters allowed between them. */
  loose: RegExp;
  /** Its base64 forms with whitespace allowed between their characters (wrapped base64). */
  looseBase64: RegExp | undefined;
}

const formsCache = new Map<string, KeyForms>();

function formsOf(key: string): KeyForms {
  let f = formsCache.get(key);
  if (!f) {
    const b64 = base64Forms(key);
    f = {
      key,
      base64: b64,
      head: key.length > MIN_KEY_PREFIX_CHARS ? key.slice(0, MIN_KEY_PREFIX_CHARS) : undefined,
      loose: new RegExp([...key].map(charPattern).join(`${INVISIBLE_CLASS}*`)),
      looseBase64: b64.length ? new RegExp(b64.map((b) => [...b].map(regexEscape).join(`${INVISIBLE_CLASS}*`)).join('|')) : undefined,
    };
    // A window knows one or two keys; the cache never grows past a handful.
    if (formsCache.size >= 8) formsCache.clear();
    formsCache.set(key, f);
  }
  return f;
}

/**
 * Whether a line of `text` (or the text) ends with a start of the key at least
 * MIN_KEY_PREFIX_CHARS long: what a cut made inside the key leaves. Spaces and tabs before the
 * line end are allowed.
 */
function endsLineWithKeyStart(text: string, f: KeyForms): boolean {
  if (!f.head) return false;
  for (let i = text.indexOf(f.head); i !== -1; i = text.indexOf(f.head, i + 1)) {
    let j = i + f.head.length;
    let k = f.head.length;
    while (k < f.key.length && j < text.length && text.charCodeAt(j) === f.key.charCodeAt(k)) {
      j++;
      k++;
    }
    while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
    if (j === text.length || text[j] === '\n' || text[j] === '\r') return true;
  }
  return false;
}

/** Whether the end of `text`, invisible characters removed, is a start of the key (a key wrapped, then cut or still being typed). */
function endsWithKeyStart(text: string, f: KeyForms): boolean {
  if (!f.head) return false;
  const tail = text.slice(-TAIL_CHARS).replace(INVISIBLE, '');
  for (let n = f.key.length - 1; n >= MIN_KEY_PREFIX_CHARS; n--) if (tail.endsWith(f.key.slice(0, n))) return true;
  return false;
}

/**
 * Whether `text` holds one of `keys` in any of the forms above. Keys shorter than MIN_KEY_CHARS
 * are ignored; a key is looked for without whitespace at its ends.
 */
export function holdsKey(text: string, keys: readonly string[]): boolean {
  if (text.length === 0) return false;
  for (const key of keys) {
    const k = key.trim();
    if (k.length < MIN_KEY_CHARS) continue;
    const f = formsOf(k);
    // The cheap exact searches first; the loose ones scan once more each.
    if (text.includes(f.key) || f.base64.some((b) => text.includes(b))) return true;
    if (f.loose.test(text) || f.looseBase64?.test(text)) return true;
    if (endsLineWithKeyStart(text, f) || endsWithKeyStart(text, f)) return true;
  }
  return false;
}
