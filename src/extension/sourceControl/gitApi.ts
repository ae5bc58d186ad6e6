// The parts of the built-in Git extension's API (vscode.git, getAPI(1)) that Write Commit Message
// and the `#` menu's changes use, typed here (the extension publishes no types): the repositories, their diffs, log and
// commit box, and whether Git is there and turned on.
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: {
    readonly indexChanges: readonly GitChange[];
    readonly workingTreeChanges: readonly GitChange[];
    /** Present when git.untrackedChanges is "separate". */
    readonly untrackedChanges?: readonly GitChange[];
    readonly HEAD?: { readonly name?: string; readonly commit?: string };
  };
  status(): Promise<void>;
  diff(cached?: boolean): Promise<string>;
  /** The files of the working tree that differ from a ref; with a path, that file's diff. */
  diffWith(ref: string): Promise<readonly GitChange[]>;
  diffWith(ref: string, path: string): Promise<string>;
  getMergeBase(ref1: string, ref2: string): Promise<string | undefined>;
  /** The files that differ between two refs; with a path, that file's diff. */
  diffBetween(ref1: string, ref2: string): Promise<readonly GitChange[]>;
  diffBetween(ref1: string, ref2: string, path: string): Promise<string>;
  log(options?: { maxEntries?: number }): Promise<ReadonlyArray<{ readonly message: string }>>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtensionExports {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The Git API, or why there is none. */
export type GitAccess = { kind: 'ready'; api: GitApi } | { kind: 'missing' } | { kind: 'disabled' };

/** The built-in Git extension's API (activating it if needed). */
export async function gitAccess(): Promise<GitAccess> {
  const ext = vscode.extensions.getExtension<GitExtensionExports>('vscode.git');
  if (!ext) return { kind: 'missing' };
  const exports = ext.isActive ? ext.exports : await ext.activate();
  if (!exports?.enabled) return { kind: 'disabled' };
  try {
    return { kind: 'ready', api: exports.getAPI(1) };
  } catch {
    return { kind: 'disabled' };
  }
}

/** Resolves once the Git extension has looked for the workspace's repositories. */
/** Resolves once the Git extension has opened the workspace's repositories. */
export function initialized(api: GitApi): Promise<void> {
  if (api.state === 'initialized') return Promise.resolve();
  return new Promise((resolve) => {
    const sub = api.onDidChangeState((s) => {
      if (s === 'initialized') {
        sub.dispose();
        resolve();
      }
    });
  });
}

// l10n-ignore: words of the file list sent to the model
const CHANGE_WORDS = ['modified', 'added', 'deleted', 'renamed', 'copied', 'modified', 'deleted', 'untracked (new file, not in the diff)', 'ignored', 'added', 'renamed', 'type changed'];

/** What a change's status is, in words (sent to the model). */
export function changeWord(status: number): string {
  return CHANGE_WORDS[status] ?? 'conflict'; // l10n-ignore: sent to the model
}

/** A file's path in its repository, with forward slashes. */
export function relative(root: vscode.Uri, uri: vscode.Uri): string {
  return path.relative(root.fsPath, uri.fsPath).split(path.sep).join('/');
}
