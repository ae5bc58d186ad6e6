// Git changes as chips (the `#` menu's #changes, #staged and #branch): the diff of the working
// tree, of what is staged, or of the branch against its base, read through the built-in Git
// extension's API, as one chip named by which it is. Each failure says what to do instead.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { textAttachment, type Attachment } from '../../core';
import { maxKB } from '../platform/editorFacts';
import { gitAccess, initialized, type GitApi, type GitRepository } from '../sourceControl/gitApi';

export type ChangesKind = 'working' | 'staged' | 'branch';

/** Most files of a branch's diff read (each is read on its own, one after the other). */
const MAX_BRANCH_FILES = 200;

/** The branches a feature branch is usually cut from, most likely first. */
const BASES = ['origin/main', 'origin/master', 'main', 'master', 'origin/develop', 'develop'];

/** The repository holding the file in the editor, else the first one inside the workspace's folders (never one outside it). */
function repositoryFor(api: GitApi, uri: vscode.Uri | undefined): GitRepository | undefined {
  const holding = uri ? api.getRepository(uri) : null;
  const inside = (r: GitRepository) => !!vscode.workspace.getWorkspaceFolder(r.rootUri) || (vscode.workspace.workspaceFolders ?? []).some((f) => r.rootUri.fsPath === f.uri.fsPath);
  if (holding && inside(holding)) return holding;
  return api.repositories.find(inside);
}

/** The diff and its name ("app: staged"), or why there is none (a sentence that says what to do). */
export async function readChanges(kind: ChangesKind, editorUri: vscode.Uri | undefined): Promise<{ name: string; diff: string } | { why: string }> {
  const access = await gitAccess();
  if (access.kind !== 'ready') return { why: vscode.l10n.t('Git is not available in this window (the built-in Git extension is missing or turned off with git.enabled).') };
  await initialized(access.api);
  const repo = repositoryFor(access.api, editorUri);
  if (!repo) return { why: vscode.l10n.t('No Git repository is open in this workspace. Open a folder that holds one, then attach its changes.') };
  const named = (what: string) => `${nodePath.basename(repo.rootUri.fsPath)}: ${what}`;
  await repo.status();
  if (kind === 'working') {
    const diff = await repo.diff(false);
    return diff.trim() ? { name: named(vscode.l10n.t('working tree')), diff } : { why: vscode.l10n.t('The working tree has no changes to attach (staged changes: #staged).') };
  }
  if (kind === 'staged') {
    const diff = await repo.diff(true);
    return diff.trim() ? { name: named(vscode.l10n.t('staged')), diff } : { why: vscode.l10n.t('Nothing is staged. Stage the changes to attach, or attach the working tree\'s with #changes.') };
  }
  const head = repo.state.HEAD?.name;
  for (const base of BASES) {
    if (base === head || base.endsWith(`/${head}`)) continue;
    const mergeBase = await repo.getMergeBase(base, 'HEAD').catch(() => undefined);
    if (!mergeBase) continue;
    // What the branch committed since it left its base (the working tree's changes are #changes).
    const changed = await repo.diffBetween(mergeBase, 'HEAD');
    if (!changed.length) return { why: vscode.l10n.t('This branch has no commits of its own against {0} (uncommitted changes: #changes).', base) };
    const limit = maxKB() * 1024;
    let diff = '';
    let read = 0;
    for (const c of changed.slice(0, MAX_BRANCH_FILES)) {
      if (diff.length > limit) break;
      diff += await repo.diffBetween(mergeBase, 'HEAD', c.uri.fsPath).catch(() => '');
      read++;
    }
    if (read < changed.length) diff += `\n# ${changed.length - read} more files differ (not shown)\n`; // l10n-ignore: sent to the model
    return { name: named(`${base}...${head ?? 'HEAD'}`), diff };
  }
  return { why: vscode.l10n.t('No base branch was found for this branch (looked for {0}). Attach the working tree\'s changes with #changes.', BASES.join(', ')) };
}

/** The changes as one chip (cut at the chip size limit like any text; its id is given when it is added), or why there is none. */
export async function changesChip(kind: ChangesKind, editorUri: vscode.Uri | undefined): Promise<Attachment | string> {
  const read = await readChanges(kind, editorUri).catch((err: unknown) => ({ why: vscode.l10n.t('Git could not read the changes: {0}', err instanceof Error ? err.message : String(err)) }));
  if ('why' in read) return read.why;
  return textAttachment('', 'changes', read.name, 'diff', read.diff, maxKB());
}
