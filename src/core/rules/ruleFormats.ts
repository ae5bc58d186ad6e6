// The rule files other tools keep in a repository, read as rules: where each format lives, and
// what its front matter means. What each relies on (checked in the tools' own docs and code):
//
// - AGENTS.md (agents.md): plain Markdown at any depth; "the closest AGENTS.md to the edited file
//   wins". The root's is sent always; a folder's when a file of the request is inside it, the
//   nearest one for that file (the ones between are left out for it).
// - .github/copilot-instructions.md (docs.github.com, code.visualstudio.com custom instructions):
//   no front matter, applies to every request.
// - .github/instructions/**/*.instructions.md: `applyTo` (one glob or a comma list), `description`.
//   VS Code (computeAutomaticInstructions.ts) attaches a file only through applyTo, prepends `**/`
//   to a pattern not starting with `**/` or `/`, takes `**`, `**/*` and `*` as every file, and
//   ignores case; a file without applyTo is only listed by its description for a read tool.
// - CLAUDE.md (code.claude.com memory): the root's (or .claude/CLAUDE.md) always; a folder's is
//   loaded when files in that folder are read (all of them, not only the nearest).
// - .claude/rules/**/*.md: `paths` (a list or one string); no paths = always. Patterns are from the
//   root (`*.md` is "Markdown files in the project root").
// - .cursor/rules/**/*.mdc (cursor.com rules): `alwaysApply` (boolean), `globs` (comma string or
//   list), `description`. Always / auto attached by globs / agent requested by description / manual
//   (none: only when named with @). A string "true" is not true for Cursor: we refuse it, and say so.
// - .cursorrules, .windsurfrules: one file, always.
// - .continue/rules/*.md (docs.continue.dev rules): `name`, `globs` (string or list), `regex`,
//   `description`, `alwaysApply`: true always; false only when globs exist and match (or the agent
//   asks by description); unset: always without globs, else when they match. `regex` is on the
//   files' contents, which a send does not read: kept, not used.
// - .clinerules (a file) or .clinerules/ (its .md and .txt files) (docs.cline.bot conditional
//   rules): `paths` (a list of globs from the root); `paths: []` never applies. Cline sends a rule
//   whose front matter is broken as it is; here it is listed as unreadable, with why.
import * as l10n from '@vscode/l10n';
import { INSTRUCTIONS_MAX_BYTES, isBinary } from '../context/instructions';
import { parseFrontMatter, type FrontMatterValue } from './frontMatter';
import { compilePatterns, normalizePath, patternList, type PatternMode, type PatternSet } from './patterns';

export type RuleFormat =
  | 'agentsMd'
  | 'copilotInstructions'
  | 'copilotPathInstructions'
  | 'claudeMd'
  | 'claudeRules'
  | 'cursorRules'
  | 'cursorrules'
  | 'continueRules'
  | 'clinerules'
  | 'windsurfrules';

/** Globs (from the workspace root) of every rule file, for finding and watching them. */
export const RULE_FILE_GLOBS: readonly string[] = [
  '**/AGENTS.md',
  '**/CLAUDE.md',
  '.github/copilot-instructions.md',
  '.github/instructions/**/*.instructions.md',
  '.claude/rules/**/*.md',
  '.cursor/rules/**/*.mdc',
  '.cursorrules',
  '.continue/rules/**/*.md',
  '.clinerules',
  '.clinerules/**/*.{md,txt}',
  '.windsurfrules',
];

/** Folders never searched for rules (dependencies, build output, the repository's data). */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'out', 'build', '.venv', 'vendor']);

/** The format of a workspace-relative path, or undefined when it is not a rule file. */
export function ruleFormatOf(path: string): RuleFormat | undefined {
  const p = normalizePath(path);
  const parts = p.split('/');
  if (parts.some((s) => SKIPPED.has(s) || s === '..' || s === '')) return undefined;
  const base = parts.at(-1)!;
  const inside = (folder: string, ext: RegExp) => p.startsWith(folder) && ext.test(base) && p.length > folder.length;
  if (p === '.github/copilot-instructions.md') return 'copilotInstructions';
  if (inside('.github/instructions/', /\.instructions\.md$/)) return 'copilotPathInstructions';
  if (inside('.claude/rules/', /\.md$/)) return 'claudeRules';
  if (inside('.cursor/rules/', /\.mdc$/)) return 'cursorRules';
  if (inside('.continue/rules/', /\.md$/)) return 'continueRules';
  if (p === '.clinerules' || inside('.clinerules/', /\.(md|txt)$/)) return 'clinerules';
  if (p === '.cursorrules') return 'cursorrules';
  if (p === '.windsurfrules') return 'windsurfrules';
  if (base === 'AGENTS.md') return 'agentsMd';
  if (base === 'CLAUDE.md') return 'claudeMd';
  return undefined;
}

/** When a rule goes with a request. */
export type Activation =
  | { kind: 'always'; why: 'root' | 'alwaysApply' | 'noPattern' }
  | { kind: 'patterns'; key: string; set: PatternSet }
  /** A folder's AGENTS.md or CLAUDE.md: for files inside `folder` (`pkg/`). */
  | { kind: 'folder'; folder: string; nearestWins: boolean }
  /** Only its description: a tool that can fetch it would ask for it. */
  | { kind: 'description' }
  /** Nothing says when: only when named (Cursor's manual rules). */
  | { kind: 'manual' }
  /** `paths: []`. */
  | { kind: 'never' };

export type RuleState = 'ok' | 'unreadable' | 'binary' | 'empty';

export interface Rule {
  /** Its workspace-relative path (what the user turns off). */
  id: string;
  path: string;
  format: RuleFormat;
  state: RuleState;
  /** Why it is unreadable (state unreadable). */
  problem?: string;
  when: Activation;
  description?: string;
  /** The text sent (without its front matter), cut to the cap. */
  text: string;
  /** Its size on disk. */
  bytes: number;
  /** UTF-8 bytes of `text`. */
  textBytes: number;
  cut: boolean;
  /** Its front matter as written, keys this reader does not use included. */
  frontMatter: Record<string, FrontMatterValue>;
  /** What of its front matter is not used, and why. */
  notes: string[];
  /** Sort key: root files, then the rule folders, then folders' files by depth. */
  order: [number, number, string];
}

export interface RuleSource {
  path: string;
  /** Its bytes (at least the cap's + 4), its text, or the error reading it. */
  content: Uint8Array | string | Error;
  /** Its size on disk (default: the content's). */
  size?: number;
  maxBytes?: number;
}

const ROOT_ORDER: RuleFormat[] = ['agentsMd', 'claudeMd', 'copilotInstructions', 'cursorrules', 'windsurfrules', 'clinerules'];
const encoder = new TextEncoder();

function cutUtf8(bytes: Uint8Array, max: number): string {
  if (bytes.length <= max) return new TextDecoder('utf-8').decode(bytes);
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return new TextDecoder('utf-8').decode(bytes.subarray(0, end));
}

function folderOf(path: string, format: RuleFormat): string {
  const parts = path.split('/').slice(0, -1);
  if (format === 'claudeMd' && parts.at(-1) === '.claude') parts.pop();
  return parts.length ? `${parts.join('/')}/` : '';
}

/** Reads one rule file; never throws (a problem makes it unreadable, with why). */
export function readRule(source: RuleSource): Rule | undefined {
  const path = normalizePath(source.path);
  const format = ruleFormatOf(path);
  if (!format) return undefined;
  const max = source.maxBytes ?? INSTRUCTIONS_MAX_BYTES;
  const folder = folderOf(path, format);
  const depth = folder ? folder.split('/').length - 1 : 0;
  const rootFile = format === 'agentsMd' || format === 'claudeMd' ? !folder : ROOT_ORDER.includes(format) && !path.startsWith('.clinerules/');
  const order: [number, number, string] = rootFile ? [0, ROOT_ORDER.indexOf(format), path] : format === 'agentsMd' || format === 'claudeMd' ? [2, depth, path] : [1, 0, path];
  const base: Rule = { id: path, path, format, state: 'ok', when: { kind: 'manual' }, text: '', bytes: 0, textBytes: 0, cut: false, frontMatter: {}, notes: [], order };
  const { content } = source;
  if (content instanceof Error) return { ...base, state: 'unreadable', problem: l10n.t('it could not be read ({0})', content.message) };
  const bytes = typeof content === 'string' ? encoder.encode(content) : content;
  const size = source.size ?? bytes.length;
  base.bytes = size;
  const head = bytes.subarray(0, Math.min(bytes.length, max + 4));
  if (isBinary(head, size > head.length)) return { ...base, state: 'binary', problem: l10n.t('it is not a text file') };
  const fm = parseFrontMatter(cutUtf8(head, max));
  if (!fm.ok) return { ...base, state: 'unreadable', problem: l10n.t('its front matter is broken: {0}', fm.error) };
  const text = fm.body.trim();
  const rule: Rule = { ...base, frontMatter: fm.data, text, textBytes: encoder.encode(text).length, cut: size > max };
  const activation = activationOf(rule, folder);
  if (typeof activation === 'string') return { ...rule, state: 'unreadable', problem: activation };
  rule.when = activation;
  if (!text) return { ...rule, state: 'empty' };
  return rule;
}

function stringField(rule: Rule, key: string): string | undefined | { error: string } {
  const v = rule.frontMatter[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() || undefined;
  return { error: l10n.t('"{0}" should be text', key) };
}

function patternsField(rule: Rule, key: string, mode: PatternMode): PatternSet | undefined | 'empty' | { error: string } {
  const v = rule.frontMatter[key];
  if (v === undefined || v === null || v === '') return undefined;
  const list = patternList(v);
  if (!list) return { error: l10n.t('"{0}" should be a pattern or a list of patterns', key) };
  if (!list.length) return 'empty';
  const set = compilePatterns(list, mode);
  if (set.problems.length) return { error: set.problems.join('; ') };
  return set;
}

/** When the rule applies, from its format and front matter; a string is why it cannot be read. */
function activationOf(rule: Rule, folder: string): Activation | string {
  const description = stringField(rule, 'description');
  if (typeof description === 'object') return description.error;
  rule.description = description;
  const always = rule.frontMatter.alwaysApply;
  const usesAlwaysApply = rule.format === 'cursorRules' || rule.format === 'continueRules';
  if (usesAlwaysApply && always !== undefined && always !== null && typeof always !== 'boolean') {
    return l10n.t('"alwaysApply" is {0}, not true or false', JSON.stringify(always));
  }
  switch (rule.format) {
    case 'agentsMd':
    case 'claudeMd':
      return folder ? { kind: 'folder', folder, nearestWins: rule.format === 'agentsMd' } : { kind: 'always', why: 'root' };
    case 'copilotInstructions':
    case 'cursorrules':
    case 'windsurfrules':
      return { kind: 'always', why: 'root' };
    case 'copilotPathInstructions': {
      const set = patternsField(rule, 'applyTo', 'anywhere');
      if (typeof set === 'object' && 'error' in set) return set.error;
      if (set && set !== 'empty') return { kind: 'patterns', key: 'applyTo', set };
      return description ? { kind: 'description' } : { kind: 'manual' };
    }
    case 'claudeRules':
    case 'clinerules': {
      const set = patternsField(rule, 'paths', 'root');
      if (typeof set === 'object' && 'error' in set) return set.error;
      if (set === 'empty') return { kind: 'never' };
      if (set) return { kind: 'patterns', key: 'paths', set };
      return { kind: 'always', why: rule.format === 'clinerules' && rule.path === '.clinerules' ? 'root' : 'noPattern' };
    }
    case 'cursorRules': {
      const set = patternsField(rule, 'globs', 'basename');
      if (typeof set === 'object' && 'error' in set) return set.error;
      if (always === true) return { kind: 'always', why: 'alwaysApply' };
      if (set && set !== 'empty') return { kind: 'patterns', key: 'globs', set };
      return description ? { kind: 'description' } : { kind: 'manual' };
    }
    case 'continueRules': {
      const set = patternsField(rule, 'globs', 'basename');
      if (typeof set === 'object' && 'error' in set) return set.error;
      if (rule.frontMatter.regex !== undefined) rule.notes.push(l10n.t('"regex" is not used: it looks at the files\' contents, which are not read for this'));
      if (always === true) return { kind: 'always', why: 'alwaysApply' };
      if (set && set !== 'empty') return { kind: 'patterns', key: 'globs', set };
      if (always === false) return description ? { kind: 'description' } : { kind: 'manual' };
      return { kind: 'always', why: 'noPattern' };
    }
  }
}

/** Reads the rule files given (others are skipped), in the order rules are sent. */
export function readRules(sources: readonly RuleSource[]): Rule[] {
  const rules: Rule[] = [];
  for (const s of sources) {
    const r = readRule(s);
    if (r) rules.push(r);
  }
  return sortRules(rules);
}

export function sortRules(rules: Rule[]): Rule[] {
  return rules.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || (a.order[2] < b.order[2] ? -1 : a.order[2] > b.order[2] ? 1 : 0));
}
