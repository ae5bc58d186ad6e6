// Which files of a workspace the codebase index reads: not those .gitignore leaves out (its
// rules as git reads them, nested files included), not those the user excludes (globs such as
// files.exclude and search.exclude), never a file whose name looks like a secret (the rule of the
// project instructions and prompt files: secretLikeName), no binary files and nothing over 1 MB.
import picomatch from 'picomatch';
import { secretLikeName } from '../context/instructions';

/** Files larger than this are not indexed. */
export const MAX_INDEXED_BYTES = 1024 * 1024;

/** Extensions of files that are never text worth searching (checked before any read). */
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico icns webp avif tif tiff psd pdf zip gz tgz bz2 xz zst 7z rar jar war ear class exe dll so dylib o a lib obj ' + // l10n-ignore: file extensions
    'bin dat wasm woff woff2 ttf otf eot mp3 mp4 m4a wav ogg flac mov avi mkv webm sqlite sqlite3 db pyc pyo node lockb map ' + // l10n-ignore: file extensions
    'vsix pack idx rlib pdb ilk nupkg snap svgz heic' // l10n-ignore: file extensions
  ).split(' '),
);
/** Generated files that match every question and answer none. */
const GENERATED = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|composer\.lock|Gemfile\.lock|go\.sum)$|\.min\.(js|css)$/;

/** A name the index never reads, whatever the ignore files say: secrets, binaries by extension, lock files. */
export function neverIndexed(path: string): boolean {
  if (secretLikeName(path)) return true;
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot > 0 && BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase())) return true;
  return GENERATED.test(path);
}

/** Text with a NUL byte in its first 8 KB is binary (as git decides). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let k = 0; k < n; k++) if (bytes[k] === 0) return true;
  return false;
}

interface IgnoreRule {
  negated: boolean;
  dirOnly: boolean;
  test: (path: string) => boolean;
}

/** The rules of one .gitignore text (gitignore(5)): comments, `!`, a trailing `/`, anchoring by a `/` before the end, `**`. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // Trailing spaces go unless escaped with a backslash.
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    line = line.replace(/\\ /g, ' ');
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.replace(/\/+$/, '');
    if (line === '') continue;
    // A slash at the start or in the middle anchors the pattern to the file's folder.
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const pattern = anchored ? line : `**/${line}`;
    const test = picomatch(pattern, { dot: true, noextglob: true, nobrace: true, nonegate: true });
    rules.push({ negated, dirOnly, test });
  }
  return rules;
}

/** Every .gitignore met while walking, each ruling the paths under its folder; later (deeper) files win. */
export class IgnoreRules {
  private readonly sets: { base: string; rules: IgnoreRule[] }[] = [];

  /** The text of the .gitignore in `base` (a folder relative to the root, '' for the root). */
  add(base: string, text: string): void {
    const rules = parseGitignore(text);
    if (!rules.length) return;
    this.sets.push({ base, rules });
    // Shallower folders first: a deeper file's rules come later and win.
    this.sets.sort((a, b) => depth(a.base) - depth(b.base));
  }

  /** Whether the path itself matches (its folders are not looked at: a walk never enters an ignored folder). */
  ignores(path: string, isDir: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.sets) {
      if (base !== '' && !path.startsWith(base + '/')) continue;
      const rel = base === '' ? path : path.slice(base.length + 1);
      for (const rule of rules) {
        if (rule.dirOnly && !isDir) continue;
        if (rule.negated === ignored && rule.test(rel)) ignored = !rule.negated;
      }
    }
    return ignored;
  }

  /** Whether a file is ignored, itself or through any folder above it (a file once a watcher reports it). */
  ignoresFile(path: string): boolean {
    const parts = path.split('/');
    for (let k = 1; k < parts.length; k++) if (this.ignores(parts.slice(0, k).join('/'), true)) return true;
    return this.ignores(path, false);
  }
}

const depth = (base: string) => (base === '' ? 0 : base.split('/').length);

/** Globs of settings (files.exclude, search.exclude): a path or any folder above it that matches is left out. */
export class ExcludeGlobs {
  private readonly matchers: ((path: string) => boolean)[];

  constructor(globs: readonly string[]) {
    this.matchers = globs.map((g) => picomatch(g.replace(/^\.?\//, ''), { dot: true }));
  }

  excludes(path: string): boolean {
    if (!this.matchers.length) return false;
    const parts = path.split('/');
    for (let k = 1; k <= parts.length; k++) {
      const prefix = parts.slice(0, k).join('/');
      if (this.matchers.some((m) => m(prefix))) return true;
    }
    return false;
  }
}

/** What decides whether a path of the workspace (relative, `/`-separated) is indexed. */
export interface FileRules {
  gitignore: IgnoreRules;
  excludes: ExcludeGlobs;
}

/** Whether a file reported by a watcher (or found by a walk) may be read for the index. */
export function indexablePath(rules: FileRules, path: string): boolean {
  return !neverIndexed(path) && !rules.excludes.excludes(path) && !rules.gitignore.ignoresFile(path);
}
