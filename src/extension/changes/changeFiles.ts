// The workspace's files as Apply All, Undo and Redo see them in VS Code: a named file checked by
// Apply to File's rules (inside a folder on this computer's disk, links resolved, never .git, a
// question for what VS Code runs from), read through VS Code's file system, "unsaved" when an
// editor holds changes to it, and every write one WorkspaceEdit (file operations with exact bytes:
// VS Code's own undo of file operations sees it as one step). And the texts the review's diffs show,
// served from memory: nothing of a proposal reaches the disk before Keep.
import * as vscode from 'vscode';
import { askBeforeShowing, refusedTargetText, resolveApplyTarget, type ChangeFiles, type Resolved } from '../../core';

export const CHANGES_SCHEME = 'aichat-changes';

export function vscodeChangeFiles(): ChangeFiles {
  const folderPaths = () => (vscode.workspace.workspaceFolders ?? []).map((f) => (f.uri.scheme === 'file' ? f.uri.fsPath : ''));
  return {
    async resolve(path: string): Promise<Resolved> {
      const folders = vscode.workspace.workspaceFolders ?? [];
      const result = await resolveApplyTarget(folderPaths(), path);
      if (!result.ok) return { ok: false, path, why: refusedTargetText(result.reason, path) };
      const uri = vscode.Uri.joinPath(folders[result.folder].uri, ...result.segments);
      const name = vscode.workspace.asRelativePath(uri);
      if (result.ask) {
        const show = vscode.l10n.t('Show the Change');
        const answer = await vscode.window.showWarningMessage(askBeforeShowing(result.ask, name), { modal: true }, show);
        if (answer !== show) return { ok: false, path: name, why: vscode.l10n.t('{0} was left as it is, as you chose.', name) };
      }
      return { ok: true, uri: uri.toString(), path: name };
    },
    async size(uri: string): Promise<number | undefined> {
      try {
        return (await vscode.workspace.fs.stat(vscode.Uri.parse(uri, true))).size;
      } catch (err) {
        if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
        throw err;
      }
    },
    async read(uri: string): Promise<Uint8Array | undefined> {
      try {
        return await vscode.workspace.fs.readFile(vscode.Uri.parse(uri, true));
      } catch (err) {
        if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
        throw err;
      }
    },
    unsaved(uri: string): boolean {
      return vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === uri);
    },
    async write(ops): Promise<boolean> {
      const edit = new vscode.WorkspaceEdit();
      for (const op of ops) {
        const uri = vscode.Uri.parse(op.uri, true);
        if (op.bytes === null) edit.deleteFile(uri, { ignoreIfNotExists: true });
        else edit.createFile(uri, { overwrite: true, contents: op.bytes });
      }
      return vscode.workspace.applyEdit(edit);
    },
  };
}

/** Read-only documents of texts held in memory (the two sides of a review's or a difference's diff). */
export class ChangeTexts implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private count = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, {
      provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '',
    });
  }

  /** A document showing `text`, named like `path` (so the editor picks its language). */
  add(path: string, side: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: CHANGES_SCHEME, path: `/${++this.count}/${side}/${path}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /** Lets go of every text (the review is over) and closes their diffs. */
  async clear(): Promise<void> {
    this.texts.clear();
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === CHANGES_SCHEME);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
