// Apply to File: a code block of a reply shown as a diff against its target file, with Accept
// and Reject. Accepting is one WorkspaceEdit (one Ctrl+Z undoes it). The target is the path the
// block names (inside the first workspace folder only) or else the last active editor.
import * as vscode from 'vscode';
import { applyBlock, workspacePathSegments, type AppliedChange } from '../../core';
import type { EditorTracker } from '../editorTracker';
import type { Logger } from '../log';

export const PROPOSED_SCHEME = 'aichat-proposed';

interface Proposal {
  target: vscode.Uri;
  /** The code block as the reply has it. */
  block: string;
  /** The target's text when the diff was opened (undefined: the file did not exist). */
  before: string | undefined;
  change: AppliedChange;
  proposed: vscode.Uri;
}

export class ApplyToFile implements vscode.Disposable {
  private readonly proposals = new Map<string, Proposal>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private count = 0;

  constructor(
    private readonly editors: EditorTracker,
    private readonly logger: Logger,
  ) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.proposals.get(uri.toString())?.change.text ?? '',
      }),
      vscode.commands.registerCommand('aiChat.acceptChange', (uri?: vscode.Uri) => this.accept(this.proposalFor(uri))),
      vscode.commands.registerCommand('aiChat.rejectChange', (uri?: vscode.Uri) => this.reject(this.proposalFor(uri))),
    );
  }

  /** The file a block goes to: the path it names, else the last active editor. */
  private target(path: string | undefined): vscode.Uri | undefined {
    if (path) {
      const folder = vscode.workspace.workspaceFolders?.[0];
      const parts = workspacePathSegments(path);
      if (!folder || !parts) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('"{0}" is not a path inside this workspace; the change was not applied. Open the file and use Apply to File without a path, or Insert at Cursor.', path),
        );
        return undefined;
      }
      return vscode.Uri.joinPath(folder.uri, ...parts);
    }
    const editor = this.editors.lastEditor();
    if (!editor) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open the file the code is for, then use Apply to File again (or name the file in the code block).'));
      return undefined;
    }
    return editor.document.uri;
  }

  /** The target's current text (an open document's, saved or not), or undefined when it does not exist. */
  private async currentText(uri: vscode.Uri): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    try {
      return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
  }

  /** Shows the change as a diff, with Accept and Reject. */
  async propose(code: string, path: string | undefined): Promise<void> {
    const target = this.target(path);
    if (target) await this.show(code, target);
  }

  private async show(code: string, target: vscode.Uri): Promise<void> {
    let before: string | undefined;
    try {
      before = await this.currentText(target);
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} could not be read: {1}', vscode.workspace.asRelativePath(target), String(err)));
      return;
    }
    const change = applyBlock(before, code);
    const name = vscode.workspace.asRelativePath(target);
    const proposed = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${++this.count}/${target.path.split('/').pop() ?? 'file'}` });
    const proposal: Proposal = { target, block: code, before, change, proposed };
    this.proposals.set(proposed.toString(), proposal);
    const left = before === undefined ? vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${this.count}/empty` }) : target;
    const how =
      change.mode === 'new-file'
        ? vscode.l10n.t('new file')
        : change.mode === 'region' && change.lines
          ? vscode.l10n.t('lines {0}–{1}', change.lines[0], change.lines[1])
          : vscode.l10n.t('whole file');
    await vscode.commands.executeCommand('vscode.diff', left, proposed, vscode.l10n.t('{0} ↔ proposed change ({1})', name, how), { preview: false });
    this.logger.info('Apply to File: diff shown', { mode: change.mode });
    const accept = vscode.l10n.t('Accept');
    const reject = vscode.l10n.t('Reject');
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('Review the change to {0} ({1}).', name, how), accept, reject);
    if (!this.proposals.has(proposed.toString())) return; // answered from the editor title
    if (answer === accept) await this.accept(proposal);
    else if (answer === reject) await this.reject(proposal);
  }

  private proposalFor(uri: vscode.Uri | undefined): Proposal | undefined {
    const key = (uri ?? vscode.window.activeTextEditor?.document.uri)?.toString();
    if (key && this.proposals.has(key)) return this.proposals.get(key);
    // The diff's left side (the file) may be the one focused.
    return [...this.proposals.values()].find((p) => p.target.toString() === key) ?? [...this.proposals.values()].pop();
  }

  private async closeDiff(p: Proposal): Promise<void> {
    this.proposals.delete(p.proposed.toString());
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === p.proposed.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  /** Writes the change as one edit (one undo step), unless the file changed since the diff opened. */
  async accept(p: Proposal | undefined): Promise<void> {
    if (!p) return;
    const now = await this.currentText(p.target).catch(() => undefined);
    if (now !== p.before) {
      const again = vscode.l10n.t('Show New Diff');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} changed since the diff was opened; the change was not applied.', vscode.workspace.asRelativePath(p.target)),
        again,
      );
      await this.closeDiff(p);
      if (answer === again) await this.reopen(p);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    if (p.before === undefined) {
      edit.createFile(p.target, { ignoreIfExists: false });
      edit.insert(p.target, new vscode.Position(0, 0), p.change.text);
    } else {
      const doc = await vscode.workspace.openTextDocument(p.target);
      edit.replace(p.target, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.change.text);
    }
    const ok = await vscode.workspace.applyEdit(edit);
    await this.closeDiff(p);
    if (!ok) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The change could not be applied to {0} (is it read-only?).', vscode.workspace.asRelativePath(p.target)));
      return;
    }
    await vscode.window.showTextDocument(p.target, { preview: false });
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Applied to {0}; Undo (Ctrl+Z) takes it back', vscode.workspace.asRelativePath(p.target)), 5000);
  }

  async reject(p: Proposal | undefined): Promise<void> {
    if (p) await this.closeDiff(p);
  }

  /** A new diff of the same block against the file as it is now. */
  private async reopen(p: Proposal): Promise<void> {
    await this.show(p.block, p.target);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
