// The names a file defines, found by a cheap pattern per language family (no parser): the index
// ranks a file that defines `retryRequest` above one that only calls it.

export interface Definition {
  name: string;
  /** 1-based line. */
  line: number;
}

type Family = 'js' | 'python' | 'go' | 'rust' | 'c' | 'ruby' | 'other';

const FAMILIES: Record<string, Family> = {
  ts: 'js', tsx: 'js', mts: 'js', cts: 'js', js: 'js', jsx: 'js', mjs: 'js', cjs: 'js', vue: 'js', svelte: 'js',
  py: 'python', pyi: 'python',
  go: 'go',
  rs: 'rust',
  c: 'c', h: 'c', cc: 'c', cpp: 'c', hpp: 'c', cs: 'c', java: 'c', kt: 'c', kts: 'c', scala: 'c', swift: 'c', dart: 'c', php: 'c',
  rb: 'ruby',
};

/** The language family of a path, by its extension. */
export function familyOf(path: string): Family {
  const dot = path.lastIndexOf('.');
  return FAMILIES[dot < 0 ? '' : path.slice(dot + 1).toLowerCase()] ?? 'other';
}

const ID = '([A-Za-z_$][A-Za-z0-9_$]*)';
/** Each pattern's first group is the name defined. */
const PATTERNS: Record<Family, RegExp[]> = {
  js: [
    new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?function\\s*\\*?\\s*${ID}`),
    new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+${ID}`),
    new RegExp(`^\\s*(?:export\\s+)?(?:declare\\s+)?(?:interface|type|enum|namespace|module)\\s+${ID}`),
    // Top-level constants only (an indented `const` is a local).
    new RegExp(`^(?:export\\s+)?(?:declare\\s+)?(?:const|let|var)\\s+${ID}\\s*[:=]`),
    // Methods of a class or an object literal: `  async send(req) {`, `  get size(): number {`.
    new RegExp(`^\\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\\s+)*#?${ID}\\s*(?:<[^>]*>)?\\([^)]*\\)?\\s*(?::[^={]*)?\\{\\s*$`),
    // CommonJS and prototypes: `exports.X =`, `module.exports.X =`, `Foo.prototype.X = function`.
    new RegExp(`^\\s*(?:module\\.)?exports\\.${ID}\\s*=`),
    new RegExp(`^\\s*[A-Za-z_$][\\w$]*\\.prototype\\.${ID}\\s*=`),
    new RegExp(`^\\s*${ID}\\s*[:=]\\s*(?:async\\s+)?function\\b`),
    new RegExp(`^[ \\t]*(?:export\\s+)?(?:const|let|var)\\s+${ID}\\s*=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*=>)`),
  ],
  python: [new RegExp(`^\\s*(?:async\\s+)?def\\s+${ID}`), new RegExp(`^\\s*class\\s+${ID}`), new RegExp(`^${ID}\\s*=`)],
  go: [new RegExp(`^func\\s+(?:\\([^)]*\\)\\s*)?${ID}`), new RegExp(`^\\s*type\\s+${ID}`), new RegExp(`^(?:var|const)\\s+${ID}`)],
  rust: [new RegExp(`^\\s*(?:pub(?:\\([^)]*\\))?\\s+)?(?:async\\s+)?(?:unsafe\\s+)?(?:fn|struct|enum|trait|type|mod|const|static)\\s+${ID}`), new RegExp(`^\\s*impl(?:<[^>]*>)?\\s+(?:[\\w:]+\\s+for\\s+)?${ID}`)],
  c: [
    new RegExp(`^\\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|open|data)\\s+)*(?:class|struct|interface|enum|record|object|trait)\\s+${ID}`),
    new RegExp(`^\\s*(?:(?:public|private|protected|internal|static|final|abstract|virtual|override|async|inline|const|unsigned|extern)\\s+)*[A-Za-z_][\\w<>\\[\\],:*&\\s]*\\s+\\*?${ID}\\s*\\([^;]*$`),
    new RegExp(`^\\s*(?:fun|func|def|function)\\s+${ID}`),
    new RegExp(`^#define\\s+${ID}`),
  ],
  ruby: [new RegExp(`^\\s*def\\s+(?:self\\.)?${ID}`), new RegExp(`^\\s*(?:class|module)\\s+${ID}`)],
  other: [new RegExp(`^\\s*(?:export\\s+)?(?:function|def|class|fn|func|sub|proc)\\s+${ID}`)],
};

/** Control words that look like a call with a block (`if (x) {`), never names. */
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'else', 'do', 'try', 'with', 'constructor', 'super', 'new', 'typeof', 'await']);

/**
 * The patterns run over the whole text (multiline), once each: much quicker than each pattern on
 * each line. Blanks never cross a line (`\s` becomes "a blank but not a newline").
 */
const COMPILED: Record<Family, RegExp[]> = Object.fromEntries(
  Object.entries(PATTERNS).map(([family, list]) => [
    family,
    list.map((re) => new RegExp(re.source.replaceAll('\\s', '[^\\S\\n]').replaceAll('[^)]', '[^)\\n]').replaceAll('[^;]', '[^;\\n]').replaceAll('[^={]', '[^={\\n]').replaceAll('[^>]', '[^>\\n]'), 'gm')),
  ]),
) as Record<Family, RegExp[]>;

/** The definitions of a file's text, in order (one per line: the first pattern that matches it). */
export function definitionsOf(path: string, text: string): Definition[] {
  const newlines: number[] = [];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) newlines.push(at);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  const found = new Map<number, string>();
  for (const re of COMPILED[familyOf(path)]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      const name = m[1];
      if (!name || NOT_NAMES.has(name)) continue;
      const line = lineOf(m.index);
      if (!found.has(line)) found.set(line, name);
    }
  }
  return [...found].sort((a, b) => a[0] - b[0]).map(([line, name]) => ({ name, line }));
}
