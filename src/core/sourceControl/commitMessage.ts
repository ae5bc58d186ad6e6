// Write Commit Message: the diff bounded to the model's input budget (the list of changed files is
// always kept whole; the diffs share what is left, a small one kept whole before a large one is
// cut), the request that asks for a message in the repository's own style, and the message taken
// from the reply. Pure, but for readCommitRules (the repository's own rules file, read from disk).
import * as l10n from '@vscode/l10n';
import { CHARS_PER_TOKEN } from '../context/contextBudget';
import { instructionsStatusText, readRulesFile, type ProjectInstructions } from '../context/instructions';

/** One changed file: its path in the repository and what happened to it ("modified", "added", ...). */
export interface ChangedFile {
  path: string;
  change: string;
}

/** One file's part of a unified diff ("diff --git a/x b/x" up to the next file's). */
export interface FileDiff {
  path: string;
  text: string;
}

/** A `git diff` output split at each file's header (text before the first header is kept as its own part). */
export function splitDiff(diff: string): FileDiff[] {
  const parts: FileDiff[] = [];
  const text = diff.replace(/\r\n/g, '\n');
  const starts: number[] = [];
  const header = /^diff --git /gm;
  for (let m = header.exec(text); m; m = header.exec(text)) starts.push(m.index);
  if (starts.length === 0) return text.trim() ? [{ path: '', text }] : [];
  if (starts[0] > 0 && text.slice(0, starts[0]).trim()) parts.push({ path: '', text: text.slice(0, starts[0]) });
  for (let i = 0; i < starts.length; i++) {
    const part = text.slice(starts[i], starts[i + 1] ?? text.length);
    const m = /^diff --git a\/(.*?) b\/(.*)$/m.exec(part);
    parts.push({ path: m ? m[2] : '', text: part });
  }
  return parts;
}

export interface BoundedDiff {
  /** The file list and the diffs as sent. */
  text: string;
  /** Files whose diff was cut or left out. */
  cut: string[];
  /** Characters of diff left out. */
  omittedChars: number;
}

/** Characters a cut file's diff keeps at least (its header and the start of its first hunk). */
const MIN_KEPT = 200;

/** One file's diff cut at a line end within `max` characters, saying how much is left out. */
function cutDiff(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = text.lastIndexOf('\n', max);
  if (end <= 0) end = max;
  const rest = text.slice(end).split('\n').filter((l) => l !== '').length;
  return `${text.slice(0, end)}\n${l10n.t('[… {0} more lines of this file\'s diff left out]', rest)}\n`;
}

/**
 * The file list, then the diffs within `maxChars` in all. A diff that fits its share is kept whole;
 * what it leaves is shared by the larger ones (each cut at a line end, at least its header kept).
 * The file list is never cut.
 */
export function boundDiff(files: readonly ChangedFile[], diff: string, maxChars: number): BoundedDiff {
  const list = files.map((f) => `- ${f.path} (${f.change})`).join('\n');
  const head = `${l10n.t('Changed files ({0}):', files.length)}\n${list}\n\n`;
  const parts = splitDiff(diff);
  let room = Math.max(0, maxChars - head.length);
  const total = parts.reduce((n, p) => n + p.text.length, 0);
  if (total <= room) return { text: `${head}${parts.map((p) => p.text).join('')}`.trimEnd(), cut: [], omittedChars: 0 };
  // Water-filling: the smallest diffs first, each taking at most an equal share of what is left.
  const order = parts.map((p, i) => i).sort((a, b) => parts[a].text.length - parts[b].text.length);
  const share = new Array<number>(parts.length).fill(0);
  let left = parts.length;
  for (const i of order) {
    const fair = Math.floor(room / left);
    share[i] = Math.min(parts[i].text.length, fair);
    room -= share[i];
    left--;
  }
  const cut: string[] = [];
  let omitted = 0;
  const kept = parts.map((p, i) => {
    if (share[i] >= p.text.length) return p.text;
    cut.push(p.path || l10n.t('(diff header)'));
    omitted += p.text.length - share[i];
    if (share[i] < MIN_KEPT) {
      const firstLine = p.text.split('\n', 1)[0];
      return `${firstLine}\n${l10n.t('[… this file\'s diff left out: the whole diff is too long for the model]')}\n`;
    }
    return cutDiff(p.text, share[i]);
  });
  return { text: `${head}${kept.join('')}`.trimEnd(), cut, omittedChars: omitted };
}

export interface CommitPromptInput {
  /** The bounded diff (boundDiff's text). */
  diff: string;
  /** True: the staged changes; false: nothing was staged, the working tree's changes. */
  staged: boolean;
  /** The repository's recent commit subjects, newest first (the style to follow). */
  recentSubjects: readonly string[];
  /** The user's own rules (aiChat.commitMessage.instructions). */
  instructions?: string;
}

/** The most recent subjects sent as the style to follow. */
export const MAX_SUBJECTS = 10;
/** The most characters of one subject. */
const MAX_SUBJECT_CHARS = 200;
/** The most characters of the user's own rules. */
export const MAX_INSTRUCTIONS_CHARS = 4_000;

/** The system instructions of the commit surface. */
export const COMMIT_SYSTEM =
  // l10n-ignore: sent to the model
  'You write git commit messages. Reply with the commit message only, inside one fenced code block: a subject line, then (only when it helps) a blank line and a short body. Describe what the change does and why, from the diff. Follow the style of the repository\'s recent commit subjects (language, tense, prefixes, length) when they are given. Never invent changes that are not in the diff.';

/** The user message: the rules, the style to follow and the diff. */
export function buildCommitPrompt(input: CommitPromptInput): string {
  const parts: string[] = [];
  parts.push(
    input.staged
      ? l10n.t('Write a commit message for these staged changes.')
      : l10n.t('Write a commit message for these changes (nothing is staged: these are all the changes in the working tree).'),
  );
  const rules = input.instructions?.trim();
  if (rules) parts.push(`${l10n.t('Follow these rules:')}\n${rules.slice(0, MAX_INSTRUCTIONS_CHARS)}`);
  const subjects = input.recentSubjects
    .map((s) => s.split('\n', 1)[0].trim().slice(0, MAX_SUBJECT_CHARS))
    .filter((s) => s !== '')
    .slice(0, MAX_SUBJECTS);
  if (subjects.length) parts.push(`${l10n.t('Recent commit subjects of this repository (follow their style):')}\n${subjects.map((s) => `- ${s}`).join('\n')}`);
  parts.push(input.diff);
  return parts.join('\n\n');
}

/** How many characters of diff fit a request: the budget (estimated tokens) less the rest of the request and a margin. */
export function diffRoom(budgetTokens: number, otherChars: number): number {
  const margin = 64 * CHARS_PER_TOKEN;
  return Math.max(0, budgetTokens * CHARS_PER_TOKEN - otherChars - margin);
}

/** The message in a reply: its first fenced block, else the whole text; trimmed, without surrounding quotes. */
export function commitMessageFromReply(reply: string): string {
  const text = reply.replace(/\r\n/g, '\n');
  const fence = /^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n {0,3}\1[`~]*[ \t]*$/m.exec(text);
  let message = (fence ? fence[2] : text).trim();
  if (!fence) {
    const quoted = /^(["'`])([\s\S]+)\1$/.exec(message);
    if (quoted) message = quoted[2].trim();
  }
  return message;
}

/** What goes in the commit box when it already holds the user's text and they chose to keep it: theirs, a blank line, the new one. */
export function appendMessage(existing: string, message: string): string {
  const mine = existing.replace(/\s+$/, '');
  return mine ? `${mine}\n\n${message}` : message;
}

// ---- The repository's own commit rules (.github/commit-instructions.md). ----

/** Where a repository keeps its commit rules, relative to its root. */
export const COMMIT_RULES_FILE = '.github/commit-instructions.md';
/** The repository's commit rules are read at most this far. */
export const COMMIT_RULES_MAX_BYTES = 8 * 1024;

/** The repository's commit rules: the text sent ('' when none), and why a file that is there is not used. */
export interface CommitRules {
  text: string;
  notice?: string;
}

/**
 * The repository's commit rules, read as AGENTS.md is (readRulesFile: a text file inside the
 * repository, never through a link out of it nor to a file whose name looks like a secret, such as
 * `.git/config` or `.env`), only when `trusted`, its first 8 KB. A file that is there but is not
 * used (refused, not text, unreadable) gives a notice saying why and what to do.
 */
export async function readCommitRules(root: string, trusted: boolean): Promise<CommitRules> {
  return commitRulesOf(await readRulesFile(root, COMMIT_RULES_FILE, trusted, COMMIT_RULES_MAX_BYTES));
}

/** What the commit message takes of the rules file as read: its text, or why it is not used. */
export function commitRulesOf(rules: ProjectInstructions): CommitRules {
  switch (rules.state) {
    case 'active':
      return { text: rules.text ?? '' };
    // Restricted Mode (`untrusted`): a cloned repository's file is not read, as AGENTS.md is not.
    case 'missing':
    case 'empty':
    case 'off':
    case 'untrusted':
      return { text: '' };
    case 'refused':
    case 'binary':
    case 'unreadable':
      return {
        text: '',
        notice: l10n.t(
          'AI Chat: {0}. The commit message is written without these rules: make {1} a text file of its own (not a link), or put the rules in the aiChat.commitMessage.instructions setting.',
          instructionsStatusText(rules) ?? rules.name,
          rules.name,
        ),
      };
  }
}
