// The words of code and of questions, as the codebase index compares them: identifiers split at
// camelCase, snake_case, kebab-case and digits (`parseHTTPResponse2` → parse, http, response,
// and the whole `parsehttpresponse2` too), paths split at `/` and `.`, lowercase, a light stemmer
// (`retries`, `retrying`, `retried` → `retry`; `parse`, `parsed` → `pars`) and no keywords of the common languages.

/** Words too common in code or questions to tell files apart. */
const STOP = new Set(
  (
    'a an and are as at be by do does for from how i if in is it its me my of on or the this that to was what when where which who why with ' + // l10n-ignore: words the index skips
    'we you your can could should would will there here get gets got find show tell about any all some into out up code file files ' + // l10n-ignore: words the index skips
    'const let var function return import export default new true false null undefined void typeof instanceof else elif then ' + // l10n-ignore: words the index skips
    'self def class public private protected static async await yield try catch finally throw throws string number boolean any ' + // l10n-ignore: words the index skips
    'int long float double char bool str none pass lambda fn pub mut impl use mod struct enum interface type extends implements ' + // l10n-ignore: words the index skips
    'while break continue switch case package func go end begin' // l10n-ignore: words the index skips
  ).split(' '),
);

/** Keywords stay searchable as parts of identifiers (`getType`) but not alone. */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/** `retries` → `retry`, `handled` → `handl`, `requests` → `request`: enough for recall, never a dictionary. */
export function stem(word: string): string {
  if (word.length <= 3 || /[0-9]/.test(word)) return word;
  const cut = suffixOff(word);
  // `parse`, `parsed`, `parsing` and `parses` all become `pars`.
  return cut.length > 4 && cut.endsWith('e') ? cut.slice(0, -1) : cut;
}

function suffixOff(word: string): string {
  const n = word.length;
  if (word.endsWith('ies') && n > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('ied') && n > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && n > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && n > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && n > 4 && /(x|ch|sh|ss|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** `stopp` → `stop` (stopping, stopped), but `call` stays. */
function undouble(word: string): string {
  const n = word.length;
  if (n > 3 && word[n - 1] === word[n - 2] && !/[lsz]/.test(word[n - 1])) return word.slice(0, -1);
  return word;
}

/** Parts of one identifier: `XMLHttpRequest2x` → xml, http, request, 2, x (lowercase, unstemmed). */
export function identifierParts(identifier: string): string[] {
  return identifier
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .split(/[\s_\-$]+/)
    .filter((p) => p !== '')
    .map((p) => p.toLowerCase());
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** The terms of each word seen lately (code repeats its words: most are looked up, not split). */
const seen = new Map<string, readonly string[]>();
const NONE: readonly string[] = [];

/** The terms of one word: its stemmed parts and, for a word of several parts, the whole of it. */
export function wordTerms(word: string): readonly string[] {
  let terms = seen.get(word);
  if (terms) return terms;
  if (word.length < 2 || word.length > 64) terms = NONE;
  else if (/^[a-z]+$/.test(word)) terms = STOP.has(word) ? NONE : [stem(word)];
  else {
    const parts = identifierParts(word);
    const out: string[] = [];
    for (const part of parts) if (part.length > 1 && !STOP.has(part) && !/^[0-9]+$/.test(part)) out.push(stem(part));
    if (parts.length > 1) {
      const whole = parts.join('');
      if (!STOP.has(whole)) out.push(whole);
    }
    terms = out;
  }
  if (seen.size > 100_000) seen.clear();
  seen.set(word, terms);
  return terms;
}

/**
 * Calls `emit` for each term of the text in order: the stemmed parts of each identifier and, for
 * an identifier of several parts, the whole of it lowercased (so `retryRequest` in a question
 * finds exactly it). Numbers alone and one-letter words are left out.
 */
export function forEachTerm(text: string, emit: (term: string) => void): void {
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    for (const term of wordTerms(m[0])) emit(term);
  }
}

/** Each term of a question with the word the user wrote for it (`handl` → `handled`), to show why a file was found. */
export function termsAsWritten(question: string): Map<string, string> {
  const out = new Map<string, string>();
  WORD.lastIndex = 0;
  for (let m = WORD.exec(question); m; m = WORD.exec(question)) {
    const word = m[0];
    const parts = identifierParts(word);
    for (const part of parts) if (part.length > 1 && !out.has(stem(part))) out.set(stem(part), part);
    const whole = parts.join('');
    if (parts.length > 1 && !out.has(whole)) out.set(whole, word);
  }
  return out;
}

/** The terms of a text, in order (duplicates kept). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out;
}

/** The terms of a path: its folders, its name and its extension (`src/net/retryPolicy.ts` → src, net, retry, policy, retrypolicy, ts). */
export function pathTerms(path: string): string[] {
  return tokenize(path.replace(/[\\/.]+/g, ' '));
}
