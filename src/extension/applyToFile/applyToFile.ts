// Apply to File: a code block of a reply shown as a diff against its target file, with Accept
// and Reject. Accepting is one WorkspaceEdit (one Ctrl+Z undoes it). The target is the path the
// block names (inside a workspace folder, checked on disk: see core/applyToFile/applyChange.ts), else the
// last active editor when it is a workspace file, else the file the user picks.
import * as vscode from 'vscode';
import * as nodePath from 'node:path';
import { APPLY_MAX_BYTES, applyBlock, askBeforeShowing, checkApplyTarget, refusedTargetText, resolveApplyTarget, tooLargeToApply, type AppliedChange, type ApplyTarget } from '../../core';
import type { EditorTracker } from '../platform/editorTracker';
import type { Logger } from '../platform/log';

export const PROPOSED_SCHEME = 'aichat-proposed';

/** The target is larger than APPLY_MAX_BYTES: it was not read. */
class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super('too large'); // l10n-ignore: never shown, the caller words it
  }
}

/** Where a change goes; folder and segments when it is a file of the workspace (checked again on Accept). */
interface Target {
  uri: vscode.Uri;
  folder?: number;
  segments?: string[];
}

interface Proposal {
  target: vscode.Uri;
  /** Set for a workspace file: checked on disk again before writing. */
  where?: Target;
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

  /**
   * The file a block goes to: the path it names (inside a workspace folder, symbolic links
   * followed, never `.git`, `.vscode` only when the user agrees), else the last active editor when
   * it is a file of the workspace, else the file the user picks.
   */
  private async target(path: string | undefined): Promise<Target | undefined> {
    if (path) return this.namedTarget(path);
    const uri = this.editors.lastEditor()?.document.uri;
    const folder = uri && uri.scheme === 'file' ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    if (uri && folder) {
      const segments = nodePath.relative(folder.uri.fsPath, uri.fsPath).split(nodePath.sep);
      return this.checked(vscode.workspace.asRelativePath(uri), await checkApplyTarget(this.folderPaths(), folder.index, segments), uri);
    }
    return this.askTarget(uri);
  }

  private folderPaths(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => (f.uri.scheme === 'file' ? f.uri.fsPath : ''));
  }

  private async namedTarget(path: string): Promise<Target | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.some((f) => f.uri.scheme !== 'file')) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Apply to File writes only to files on this computer\'s disk; "{0}" was not applied. Open the file and use Insert at Cursor.', path));
      return undefined;
    }
    const result = await resolveApplyTarget(this.folderPaths(), path);
    // No folder open: the name cannot be placed; the user says which file.
    if (!result.ok && result.reason === 'no-folder') return this.askTarget(this.editors.lastEditor()?.document.uri);
    const uri = result.ok ? vscode.Uri.joinPath(folders[result.folder].uri, ...result.segments) : undefined;
    return this.checked(path, result, uri);
  }

  /** A checked target, or the reason it is refused told to the user (and `.vscode` asked). */
  private async checked(name: string, result: ApplyTarget, uri: vscode.Uri | undefined): Promise<Target | undefined> {
    if (!result.ok || !uri) {
      const reason = result.ok ? 'invalid' : result.reason;
      const message = refusedTargetText(reason, name);
      this.logger.info('Apply to File: target refused', { reason });
      void vscode.window.showWarningMessage(message);
      return undefined;
    }
    if (result.ask) {
      const show = vscode.l10n.t('Show the Change');
      const answer = await vscode.window.showWarningMessage(askBeforeShowing(result.ask, vscode.workspace.asRelativePath(uri)), { modal: true }, show);
      if (answer !== show) return undefined;
    }
    return { uri, folder: result.folder, segments: result.segments };
  }

  /** No file named and no workspace file in the editor: the user picks the file. */
  private async askTarget(last: vscode.Uri | undefined): Promise<Target | undefined> {
    type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
    const seen = new Set<string>();
    const items: Item[] = [];
    const add = (uri: vscode.Uri) => {
      const key = uri.toString();
      if (seen.has(key)) return;
      seen.add(key);
      items.push({ label: nodePath.basename(uri.path) || uri.path, description: vscode.workspace.asRelativePath(uri), uri });
    };
    if (last && last.scheme !== 'output') add(last);
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(tab.input.uri)) add(tab.input.uri);
    }
    const browse: Item = { label: `$(folder-opened) ${vscode.l10n.t('Choose a File…')}` };
    const choice = await vscode.window.showQuickPick([...items, browse], {
      title: vscode.l10n.t('Apply to File'),
      placeHolder: vscode.l10n.t('The code block names no file. Which file is it for?'),
    });
    if (!choice) return undefined;
    let uri = choice.uri;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: vscode.l10n.t('Apply Here'),
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      });
      uri = picked?.[0];
    }
    if (!uri) return undefined;
    const folder = uri.scheme === 'file' ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    if (folder) {
      const segments = nodePath.relative(folder.uri.fsPath, uri.fsPath).split(nodePath.sep);
      return this.checked(vscode.workspace.asRelativePath(uri), await checkApplyTarget(this.folderPaths(), folder.index, segments), uri);
    }
    // Chosen by the user outside any workspace folder (or an untitled editor): theirs to change.
    return { uri };
  }

  /**
   * The target's current text (an open document's, saved or not), or undefined when it does not
   * exist. Its size is looked at first: a file larger than APPLY_MAX_BYTES is not read (TooLarge).
   */
  private async currentText(uri: vscode.Uri): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      const text = open.getText();
      // Two bytes a character at most for the text held by the editor (the file may be larger).
      if (tooLargeToApply(text.length)) throw new TooLarge(text.length);
      return text;
    }
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (tooLargeToApply(stat.size)) throw new TooLarge(stat.size);
      return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
  }

  /** Shows the change as a diff, with Accept and Reject. */
  async propose(code: string, path: string | undefined): Promise<void> {
    const where = await this.target(path);
    if (where) await this.show(code, where);
  }

  private async show(code: string, where: Target): Promise<void> {
    const target = where.uri;
    let before: string | undefined;
    try {
      before = await this.currentText(target);
    } catch (err) {
      const name = vscode.workspace.asRelativePath(target);
      if (err instanceof TooLarge) {
        this.logger.info('Apply to File: target too large', { bytes: err.bytes });
        void vscode.window.showErrorMessage(
          vscode.l10n.t(
            '{0} is too large for Apply to File ({1} MB; at most {2} MB): the change was not applied. Open the file and use Insert at Cursor, or copy the code block.',
            name,
            (err.bytes / (1024 * 1024)).toFixed(1),
            String(APPLY_MAX_BYTES / (1024 * 1024)),
          ),
        );
        return;
      }
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} could not be read: {1}', name, String(err)));
      return;
    }
    const change = applyBlock(before, code);
    const name = vscode.workspace.asRelativePath(target);
    const proposed = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${++this.count}/${target.path.split('/').pop() ?? 'file'}` });
    const proposal: Proposal = { target, where, block: code, before, change, proposed };
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
    if (p.where?.segments && p.where.folder !== undefined) {
      // A link may have been put in its way since the diff was opened.
      const again = await checkApplyTarget(this.folderPaths(), p.where.folder, p.where.segments);
      if (!again.ok) {
        await this.closeDiff(p);
        await this.checked(vscode.workspace.asRelativePath(p.target), again, p.target);
        return;
      }
    }
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
    await this.show(p.block, p.where ?? { uri: p.target });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
