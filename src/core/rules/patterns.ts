// The file patterns of rules (applyTo, globs, paths), matched with picomatch against paths
// relative to the workspace folder, `/`-separated. Each format's patterns mean what its tool
// does with them (see ruleFormats.ts for the sources):
//
// - `anywhere` (Copilot's applyTo): VS Code matches a pattern that does not start with `**/` or
//   `/` as if it did (computeAutomaticInstructions.ts prepends `**/`), so `*.py` and `src/**/*.ts`
//   match at any depth; `**`, `**/*` and `*` match every file.
// - `basename` (Cursor's and Continue's globs): a pattern without a `/` (`*.py`) matches the file's
//   name at any depth, as the public collections use it; a pattern with one is from the root.
// - `root` (Claude Code's and Cline's paths): every pattern is from the root; their docs say
//   `*.md` is "Markdown files in the project root".
//
// Lists: a YAML list, or a string of patterns separated by commas outside braces
// (`src/**/*.ts, test/**/*.ts`, `**/*.{ts,tsx}` is one pattern); each item may be quoted.
// A leading `./` is dropped; a leading `!` excludes (Continue documents it).
import * as l10n from '@vscode/l10n';
import picomatch from 'picomatch';

export type PatternMode = 'anywhere' | 'basename' | 'root';

export interface CompiledPattern {
  /** As the file writes it (after unquoting), for the reason shown. */
  written: string;
  negated: boolean;
  test: (path: string) => boolean;
}

export interface PatternSet {
  patterns: CompiledPattern[];
  positive: CompiledPattern[];
  negative: CompiledPattern[];
  /** A pattern that means every file, even with none in the request (Copilot's `**`, `**\/*`, `*`). */
  everyFile?: string;
  /** Patterns that could not be compiled, with why. */
  problems: string[];
}

/** The patterns of a front matter value: a string (comma list) or a list of strings. */
export function patternList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return undefined;
    for (const part of splitOutsideBraces(item)) {
      const p = unquote(part.trim()).trim();
      if (p) out.push(p);
    }
  }
  return out;
}

/** `a, b` → [a, b]; commas inside `{}` or `[]` or quotes belong to the pattern. */
export function splitOutsideBraces(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      if (s.slice(start, k).trim() === '') quote = c;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, k));
      start = k + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function unquote(s: string): string {
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'") && s.at(-1) === s[0]) return s.slice(1, -1);
  return s;
}

/** Normalizes a path given by the editor: `/`-separated, no `./`, no leading `/`. */
export function normalizePath(path: string): string {
  return path.replaceAll('\\', '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

const ALL = new Set(['**', '**/*', '*']);

export function compilePatterns(written: string[], mode: PatternMode): PatternSet {
  const patterns: CompiledPattern[] = [];
  const problems: string[] = [];
  let everyFile: string | undefined;
  for (const w of written) {
    const negated = w.startsWith('!');
    let p = (negated ? w.slice(1) : w).replaceAll('\\', '/').replace(/^(\.\/)+/, '');
    const anchored = p.startsWith('/');
    p = p.replace(/^\/+/, '');
    if (!p) continue;
    if (mode === 'anywhere' && ALL.has(p)) {
      if (!negated) everyFile ??= w;
      patterns.push({ written: w, negated, test: () => true });
      continue;
    }
    if (mode === 'anywhere' && !anchored && !p.startsWith('**/')) p = `**/${p}`;
    try {
      // The regular expression alone (picomatch's matcher function does more work a call).
      // VS Code matches applyTo without case (glob.match with ignoreCase).
      const re = picomatch.makeRe(p, { dot: true, windows: false, nocase: mode === 'anywhere' });
      const onName = mode === 'basename' && !p.includes('/');
      const test = onName ? (path: string) => re.test(path.slice(path.lastIndexOf('/') + 1)) : (path: string) => re.test(path);
      patterns.push({ written: w, negated, test });
    } catch (err) {
      problems.push(l10n.t('the pattern "{0}" cannot be read: {1}', w, err instanceof Error ? err.message : String(err)));
    }
  }
  const negative = patterns.filter((p) => p.negated);
  let positive = patterns.filter((p) => !p.negated);
  // Only exclusions (`!**/*.test.ts`): every other file.
  if (!positive.length && negative.length) positive = [{ written: '**', negated: false, test: () => true }];
  return { patterns, positive, negative, problems, ...(everyFile && !negative.length ? { everyFile } : {}) };
}

/** The first of `files` that the set matches, with the pattern that matched it (exclusions apply to all). */
export function firstMatch(set: PatternSet, files: readonly string[]): { file: string; pattern: string } | undefined {
  const { positive, negative } = set;
  for (const file of files) {
    if (negative.some((n) => n.test(file))) continue;
    for (const p of positive) if (p.test(file)) return { file, pattern: p.written };
  }
  return undefined;
}
