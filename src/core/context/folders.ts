// A folder attached: its files as file chips, as many as the budget holds, and what was left out
// named (never silently dropped). Pure: the extension lists the files and their sizes.
import * as l10n from '@vscode/l10n';
import { secretLikeName } from './instructions';
import { CHARS_PER_TOKEN, type RequestBudget } from './contextBudget';

/** Most files of one folder listed (a larger tree is cut, and said). */
export const MAX_FOLDER_FILES = 2000;

export interface FolderEntry {
  /** Workspace-relative. */
  path: string;
  /** Size on disk. */
  bytes: number;
}

export interface FolderChoice {
  /** The files to attach, shallow first, then by path. */
  take: FolderEntry[];
  /** What was left out and why: over the budget or the chip limit, or a secret-looking name. */
  leftOut: Array<{ path: string; reason: 'budget' | 'count' | 'secret' }>;
}

/**
 * The files of a folder that fit: each counts as at most `maxFileBytes` (a larger file is cut to
 * that when attached); taken shallow first, then by path, while the total stays within
 * `budgetBytes` and the chips within `maxFiles`. A file that does not fit is left out and the
 * next ones are still tried (a small file deeper down may fit). Secret-looking names never go.
 */
export function chooseFolderFiles(entries: readonly FolderEntry[], budgetBytes: number, maxFiles: number, maxFileBytes: number): FolderChoice {
  const depth = (p: string) => p.split('/').length;
  const sorted = [...entries].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const take: FolderEntry[] = [];
  const leftOut: FolderChoice['leftOut'] = [];
  let used = 0;
  for (const e of sorted) {
    if (secretLikeName(e.path)) {
      leftOut.push({ path: e.path, reason: 'secret' });
      continue;
    }
    const cost = Math.min(e.bytes, maxFileBytes);
    if (take.length >= maxFiles) leftOut.push({ path: e.path, reason: 'count' });
    else if (used + cost > budgetBytes) leftOut.push({ path: e.path, reason: 'budget' });
    else {
      take.push(e);
      used += cost;
    }
  }
  return { take, leftOut };
}

/**
 * Characters a folder's files may take of the next request: three quarters of the model's input
 * budget (the rest is kept for the instructions, the text and earlier turns).
 */
export function folderBudgetChars(budget: RequestBudget): number {
  return Math.floor((budget.inputTokens * CHARS_PER_TOKEN * 3) / 4);
}

/** What the user is told of a folder: how many files went, and the ones left out by name. */
export function folderMessage(folder: string, choice: FolderChoice, listed: number, cutAt?: number): string | undefined {
  const parts: string[] = [];
  const names = (xs: ReadonlyArray<{ path: string }>) => xs.slice(0, 8).map((x) => x.path).join(', ') + (xs.length > 8 ? l10n.t(' and {0} more', xs.length - 8) : '');
  const over = choice.leftOut.filter((x) => x.reason === 'budget' || x.reason === 'count');
  const secret = choice.leftOut.filter((x) => x.reason === 'secret');
  if (over.length) parts.push(l10n.t('left out, over the model\'s budget or the chip limit: {0}', names(over)));
  if (secret.length) parts.push(l10n.t('never sent (secret-looking names): {0}', names(secret)));
  if (cutAt !== undefined) parts.push(l10n.t('only the first {0} files of the folder were looked at', cutAt));
  if (!parts.length) return undefined;
  return l10n.t('{0}: {1} of {2} files attached; {3}.', folder, choice.take.length, listed, parts.join('; '));
}
