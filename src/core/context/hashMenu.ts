// The `#` menu of the message box, VS Code-free: what it offers for the `#word` typed (what can be
// attached, the workspace's files and folders whose paths match) and the ranking that puts the
// likeliest file first. Where a `#word` is being typed is the protocol's (hashQuery).
import * as l10n from '@vscode/l10n';

/** What `#` offers besides files, folders and symbols (each runs what "+" runs). */
export type HashActionId =
  | 'codebase'
  | 'currentFile'
  | 'openEditors'
  | 'selection'
  | 'problems'
  | 'workspaceProblems'
  | 'terminal'
  | 'changes'
  | 'stagedChanges'
  | 'branchChanges'
  | 'files'
  | 'symbol'
  | 'folder';

export interface HashAction {
  id: HashActionId;
  /** A codicon name. */
  icon: string;
  /** What the option shows (`#name`, typed to find it) and says. */
  name: string;
  detail: string;
}

/** Most options the menu shows at once (actions, files, folders, symbols together). */
export const MAX_HASH_OPTIONS = 50;
/** Most files and folders matched by path. */
const MAX_PATHS = 20;

/** What `#` offers, in the order shown for a bare `#`. */
export function hashActions(): HashAction[] {
  return [
    { id: 'codebase', icon: 'search-fuzzy', name: 'codebase', detail: l10n.t('files for the question, found on this machine, nothing sent') },
    { id: 'currentFile', icon: 'file', name: 'file', detail: l10n.t('the current file') },
    { id: 'selection', icon: 'selection', name: 'selection', detail: l10n.t('the editor\'s selection') },
    { id: 'openEditors', icon: 'files', name: 'editors', detail: l10n.t('the open editors') },
    { id: 'problems', icon: 'warning', name: 'problems', detail: l10n.t('the Problems of the current file') },
    { id: 'workspaceProblems', icon: 'warning', name: 'problems-all', detail: l10n.t('the Problems of the workspace') },
    { id: 'changes', icon: 'git-compare', name: 'changes', detail: l10n.t('the working tree\'s changes (git diff)') },
    { id: 'stagedChanges', icon: 'git-compare', name: 'staged', detail: l10n.t('the staged changes (git diff --cached)') },
    { id: 'branchChanges', icon: 'git-branch', name: 'branch', detail: l10n.t('the branch against its base') },
    { id: 'terminal', icon: 'terminal', name: 'terminal', detail: l10n.t('the terminal\'s selection') },
    { id: 'symbol', icon: 'symbol-method', name: 'symbol', detail: l10n.t('a function or class, by name') },
    { id: 'files', icon: 'folder-opened', name: 'files', detail: l10n.t('files, picked in a dialog') },
    { id: 'folder', icon: 'folder', name: 'folder', detail: l10n.t('a folder\'s files, as many as the model\'s budget holds') },
  ];
}

/** The actions whose name starts with `query` (all of them for a bare `#`), then those whose name holds it. */
export function matchActions(actions: readonly HashAction[], query: string): HashAction[] {
  const q = query.toLowerCase();
  if (!q) return [...actions];
  return [...actions.filter((a) => a.name.startsWith(q)), ...actions.filter((a) => !a.name.startsWith(q) && a.name.includes(q))];
}

function subsequenceGap(hay: string, q: string): number {
  let at = -1;
  let gaps = 0;
  for (const ch of q) {
    const next = hay.indexOf(ch, at + 1);
    if (next < 0) return -1;
    if (at >= 0) gaps += next - at - 1;
    at = next;
  }
  return gaps;
}

type Scored = { path: string; rank: number; tie: number };

function better(a: Scored, b: Scored): boolean {
  return a.rank - b.rank < 0 || (a.rank === b.rank && (a.tie < b.tie || (a.tie === b.tie && a.path < b.path)));
}

/**
 * The paths matching `query`, best first: the file's name equal to it, starting with it, holding
 * it; the path holding it; then (for a word of 3 or more that is not a number) its letters in order
 * in the path (fewer gaps first). Within a rank, the shorter path first. A query with `/` is matched
 * against the whole path. Only the best `limit` are kept while the paths are read (a workspace's
 * 10,000 paths are never sorted whole), and the letters in order are not looked for once `limit`
 * better paths are found.
 */
export function rankPaths(paths: readonly string[], query: string, limit = MAX_PATHS): string[] {
  const q = query.toLowerCase();
  if (!q || limit <= 0) return [];
  const byName = !q.includes('/');
  // Letters in order only for a word of 3 or more that is not a number ("#12" is an issue, not a path).
  const loose = q.length >= 3 && !/^\d+$/.test(q);
  const best: Scored[] = [];
  for (const path of paths) {
    const p = path.toLowerCase();
    const base = p.slice(p.lastIndexOf('/') + 1);
    let rank: number;
    let tie = p.length;
    if (byName && (base === q || (base.includes('.') && base.slice(0, base.lastIndexOf('.')) === q))) rank = 0;
    else if (byName && base.startsWith(q)) rank = 1;
    else if (byName && base.includes(q)) rank = 2;
    else if (p.includes(q)) rank = 3;
    else if (!loose) continue;
    else {
      if (best.length === limit && best[limit - 1].rank < 4) continue;
      const gaps = subsequenceGap(p, q);
      if (gaps < 0) continue;
      rank = 4;
      tie = gaps * 1000 + p.length;
    }
    const scored = { path, rank, tie };
    if (best.length === limit && !better(scored, best[limit - 1])) continue;
    let at = best.length;
    while (at > 0 && better(scored, best[at - 1])) at--;
    best.splice(at, 0, scored);
    if (best.length > limit) best.pop();
  }
  return best.map((s) => s.path);
}

/** The folders of `paths` (each once, without the workspace's root). */
export function foldersOf(paths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    let at = path.lastIndexOf('/');
    while (at > 0) {
      const folder = path.slice(0, at);
      if (folders.has(folder)) break;
      folders.add(folder);
      at = folder.lastIndexOf('/');
    }
  }
  return [...folders];
}
