// Find in chat, the part without a DOM: where a query occurs in a text, the matches of a whole
// conversation (counted on each message's text, so turns that are not rendered yet count too),
// and moving a current match through them. The find bar (find.ts) counts the rendered turns on
// what is on screen and the others on their text.

export interface FindOptions {
  caseSensitive: boolean;
}

/** Start offsets of the non-overlapping occurrences of `query` in `text`, at most `limit`. */
export function occurrences(text: string, query: string, options: FindOptions, limit = Infinity): number[] {
  const out: number[] = [];
  if (!query) return out;
  const hay = options.caseSensitive ? text : lower(text);
  const needle = options.caseSensitive ? query : fold(query);
  for (let at = hay.indexOf(needle); at >= 0 && out.length < limit; at = hay.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** Prepares the texts for a search without case (done when the find bar opens, before the first key). */
export function prepare(texts: Iterable<string>): void {
  for (const t of texts) lower(t);
}

/** How many non-overlapping occurrences of `query` in `text` (counted, not listed). */
export function countOccurrences(text: string, query: string, options: FindOptions): number {
  if (!query) return 0;
  const hay = options.caseSensitive ? text : lower(text);
  const needle = options.caseSensitive ? query : fold(query);
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) n++;
  return n;
}

/**
 * A text in lower case, character for character: the same length, so that an offset in it is
 * the offset in the text. Lower-casing keeps the length for all but a few characters (e.g. "İ",
 * whose lower case is "i" and a combining dot): those become the first character of their lower
 * case ("i") when that keeps the length, else stay as they are.
 */
export function fold(text: string): string {
  const l = text.toLowerCase();
  if (l.length === text.length) return l;
  let out = '';
  for (const c of text) {
    const lc = c.toLowerCase();
    if (lc.length === c.length) out += lc;
    else {
      const first = String.fromCodePoint(lc.codePointAt(0) ?? 0);
      out += first.length === c.length ? first : c;
    }
  }
  return out;
}

// Lower-cased texts, kept while the same string is asked for again (each keystroke searches anew).
let lowered = new Map<string, string>();
let loweredSize = 0;
function lower(text: string): string {
  let l = lowered.get(text);
  if (l === undefined) {
    l = fold(text);
    if (loweredSize > 64 * 1024 * 1024) {
      lowered = new Map();
      loweredSize = 0;
    }
    lowered.set(text, l);
    loweredSize += text.length;
  }
  return l;
}

/**
 * The matches highlighted (ordinals from, up to to): at most `max`, around the current one (the
 * first ones when there is none). Highlighting every match of a one-letter query in a long
 * conversation would build hundreds of thousands of ranges; the count still covers them all.
 */
export function highlightWindow(total: number, current: number, max: number): [number, number] {
  if (total <= max) return [0, Math.max(0, total)];
  const centre = current < 0 ? 0 : Math.min(current, total - 1);
  const from = Math.min(Math.max(0, centre - Math.floor(max / 2)), total - max);
  return [from, from + max];
}

/** A message as find sees it: its id and the count of matches in it. */
export interface MessageMatches {
  id: string;
  /** Index of the message in the conversation. */
  index: number;
  count: number;
}

/** The messages of a conversation holding `query`, oldest first, with their counts. */
export function matchesIn(
  messages: ReadonlyArray<{ id: string; content: string }>,
  query: string,
  options: FindOptions,
  /** The count of a rendered message (what is on screen), when it differs from its text's. */
  countOf?: (id: string, index: number) => number | undefined,
): MessageMatches[] {
  const out: MessageMatches[] = [];
  if (!query) return out;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const count = countOf?.(m.id, i) ?? countOccurrences(m.content, query, options);
    if (count > 0) out.push({ id: m.id, index: i, count });
  }
  return out;
}

/** A match by its message and its place in that message (0-based). */
export interface MatchPosition {
  id: string;
  index: number;
  nth: number;
}

/** Total number of matches. */
export function totalOf(matches: readonly MessageMatches[]): number {
  let n = 0;
  for (const m of matches) n += m.count;
  return n;
}

/** The match at `ordinal` (0-based over the whole conversation), if any. */
export function positionAt(matches: readonly MessageMatches[], ordinal: number): MatchPosition | undefined {
  let left = ordinal;
  for (const m of matches) {
    if (left < m.count) return { id: m.id, index: m.index, nth: left };
    left -= m.count;
  }
  return undefined;
}

/** The ordinal of a match (its number over the whole conversation, 0-based), -1 if it is not one. */
export function ordinalOf(matches: readonly MessageMatches[], position: { id: string; nth: number }): number {
  let before = 0;
  for (const m of matches) {
    if (m.id === position.id) return position.nth < m.count ? before + position.nth : before + m.count - 1;
    before += m.count;
  }
  return -1;
}

/** The next (`step` 1) or previous (`step` -1) ordinal, wrapping around; -1 when there is no match. */
export function step(total: number, ordinal: number, direction: 1 | -1): number {
  if (total <= 0) return -1;
  if (ordinal < 0) return direction === 1 ? 0 : total - 1;
  return (ordinal + direction + total) % total;
}

/**
 * Where a new search starts: the last match of the newest message at or before `upTo` (the last
 * message on screen; the chat is read from the bottom), else the first match after it.
 */
export function startOrdinal(matches: readonly MessageMatches[], upTo: number): number {
  if (matches.length === 0) return -1;
  let before = 0;
  let best = -1;
  for (const m of matches) {
    if (m.index <= upTo) best = before + m.count - 1;
    else if (best < 0) return before;
    before += m.count;
  }
  return best;
}
