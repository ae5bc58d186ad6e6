// A reply's changes across files, in VS Code: Apply All (one review list of every file the reply's
// code blocks name, each with its added and removed lines and its diff, kept or skipped, then kept
// as one edit), Undo and Redo of the whole reply (after a reload too), and what each reply's changes
// are now, for the chat. The rules are core's (core/changes); this file asks and tells the user.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { keepChanges, repliesOf, reviewReply, turnChanges, type ChangesPorts, type FileChange, type ProposedFile, type Review } from '../../core';
import type { HostMessage, ReplyChangesState } from '../../protocol';
import type { Logger } from '../platform/log';
import { ChangeStorage } from './changeStorage';
import { ChangeTexts, vscodeChangeFiles } from './changeFiles';

export interface ReplyChangesDeps {
  globalStorage: vscode.Uri;
  logger: Logger;
  /** The conversation the chat shows. */
  conversationId(): string;
  /** A reply of that conversation: its Markdown, when it is a finished reply. */
  replyText(messageId: string): string | undefined;
  /** Posts to the chat (whatever surface shows it). */
  post(message: HostMessage): void;
}

/** The space the kept copies may take, in MB (a user setting; a workspace cannot set it). */
function storageLimit(): number {
  const mb = vscode.workspace.getConfiguration('aiChat').inspect<number>('changes.maxStorageMB')?.globalValue ?? 200;
  return Math.max(1, Math.min(100_000, Number.isFinite(mb) ? mb : 200)) * 1024 * 1024;
}

export class ReplyChanges implements vscode.Disposable {
  readonly storage: ChangeStorage;
  private readonly ports: ChangesPorts;
  private readonly texts = new ChangeTexts();
  /** The last `replyChanges` posted, for a surface that starts. */
  private last: HostMessage | undefined;
  private busy = false;

  constructor(private readonly deps: ReplyChangesDeps) {
    this.storage = new ChangeStorage(join(deps.globalStorage.fsPath, 'changes'));
    this.ports = { files: vscodeChangeFiles(), copies: this.storage, journal: this.storage, now: () => Date.now() };
  }

  /** What each reply's changes are now, for the conversation shown (the last one read). */
  message(): HostMessage | undefined {
    return this.last?.type === 'replyChanges' && this.last.conversationId === this.deps.conversationId() ? this.last : undefined;
  }

  /** Reads the journal again (another window may have written) and tells the chat. */
  async refresh(): Promise<void> {
    const conversationId = this.deps.conversationId();
    const entries = await this.storage.entries().catch((err: unknown) => {
      this.deps.logger.warn('Could not read the replies\' changes', { message: String(err) });
      return undefined;
    });
    if (!entries || conversationId !== this.deps.conversationId()) return;
    const replies = [...repliesOf(entries.values(), conversationId)]
      .filter(([id]) => /^msg_[0-9a-f]{3}/.test(id))
      .slice(-10_000)
      .map(([messageId, e]) => ({ messageId, state: e.state as ReplyChangesState, files: Math.min(1000, e.set.files.length) }));
    this.last = { type: 'replyChanges', conversationId, replies };
    this.deps.post(this.last);
  }

  /** Apply All, Undo or Redo of a reply; true when it did what was asked. */
  async act(action: 'apply' | 'undo' | 'redo', messageId: string): Promise<boolean> {
    if (this.busy) {
      void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat is still writing the files of a reply; try again when it is done.'));
      return false;
    }
    this.busy = true;
    try {
      if (action === 'apply') {
        await this.applyAll(messageId);
        return true;
      }
      return await this.turn(messageId, action === 'undo' ? 'undone' : 'applied');
    } catch (err) {
      this.deps.logger.error('A reply\'s changes failed', { action, message: String(err) });
      void vscode.window.showErrorMessage(vscode.l10n.t('The reply\'s changes could not be written: {0}. Nothing more was changed.', String(err)));
      return false;
    } finally {
      this.busy = false;
      await this.refresh();
    }
  }

  /**
   * A reply is about to be taken out of the conversation (Edit, Retry). When its changes to files
   * stand, the user says whether to undo them too, keep the files, or not go on (false).
   */
  async leaving(messageId: string): Promise<boolean> {
    const entries = await this.storage.entries().catch(() => undefined);
    const entry = entries && repliesOf(entries.values(), this.deps.conversationId()).get(messageId);
    if (!entry || entry.state !== 'applied') return true;
    const undo = vscode.l10n.t('Undo Its Changes');
    const keep = vscode.l10n.t('Keep the Files');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('This reply changed {0} files (Apply All). Undo its changes too?', entry.set.files.length),
      { modal: true, detail: vscode.l10n.t('Once the reply is taken out, its Undo is no longer under it.') },
      undo,
      keep,
    );
    if (answer === keep) return true;
    if (answer !== undo) return false;
    return this.act('undo', messageId);
  }

  /** Apply All: the review list, then the kept files as one edit. */
  private async applyAll(messageId: string): Promise<void> {
    const text = this.deps.replyText(messageId);
    if (text === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('That reply is not in the conversation any more.'));
      return;
    }
    const conversationId = this.deps.conversationId();
    const review = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('AI Chat: reading the files of the reply…') },
      () => reviewReply(text, this.ports.files),
    );
    if (!review.files.length) {
      void vscode.window.showWarningMessage(nothingToApply(review));
      return;
    }
    const kept = await this.pick(review);
    await this.texts.clear();
    if (!kept?.length) return;
    const result = await keepChanges(kept, { conversationId, messageId }, this.ports);
    if (!result.ok) {
      if (result.reason === 'stale') {
        const again = vscode.l10n.t('Review Again');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t('Nothing was written: {0} changed since the review.', result.paths.join(', ')),
          again,
        );
        if (answer === again) await this.applyAll(messageId);
      } else if (result.reason === 'failed') {
        void vscode.window.showErrorMessage(vscode.l10n.t('VS Code refused to write the files (is one read-only?); nothing was written.'));
      }
      return;
    }
    this.deps.logger.info('Apply All kept', { files: kept.length, skipped: review.files.length - kept.length });
    await this.storage.bound(storageLimit()).catch((err: unknown) => this.deps.logger.warn('Could not let old copies go', { message: String(err) }));
    const skipped = review.refused.map((r) => r.why);
    await this.refresh();
    // Not waited for: the chat's row says it too, and its Undo works while this shows.
    const undo = vscode.l10n.t('Undo');
    void vscode.window
      .showInformationMessage(
        skipped.length
          ? vscode.l10n.t('Applied to {0} files. Not applied: {1}', kept.length, skipped.join(' '))
          : vscode.l10n.t('Applied to {0} files. Undo under the reply takes them all back.', kept.length),
        undo,
      )
      .then((answer) => (answer === undo ? this.act('undo', messageId) : undefined));
  }

  /** The review list: every file checked (kept) at first; its button opens its diff. */
  private async pick(review: Review): Promise<ProposedFile[] | undefined> {
    type Item = vscode.QuickPickItem & { file: ProposedFile };
    const diffButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Show the change') };
    const items: Item[] = review.files.map((file) => ({
      file,
      label: `$(${file.before ? 'diff' : 'new-file'}) ${file.path}`,
      description: file.before ? `+${file.added} −${file.removed}` : vscode.l10n.t('new file, {0} lines', file.added),
      detail: reviewDetail(file, review),
      buttons: [diffButton],
    }));
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = vscode.l10n.t('Apply All: {0} files from this reply', items.length);
    qp.placeholder = vscode.l10n.t('Checked files are kept: Enter keeps them (Keep All), uncheck a file to skip it; its button shows its change');
    qp.canSelectMany = true;
    qp.ignoreFocusOut = true;
    qp.items = items;
    qp.selectedItems = items;
    return new Promise((resolve) => {
      let done = false;
      const finish = (value: ProposedFile[] | undefined) => {
        if (done) return;
        done = true;
        qp.dispose();
        resolve(value);
      };
      qp.onDidTriggerItemButton(async ({ item }) => {
        const left = this.texts.add(item.file.path, 'before', item.file.beforeText);
        const right = this.texts.add(item.file.path, 'reply', item.file.afterText);
        await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0} ↔ this reply\'s change', item.file.path), { preview: true, preserveFocus: true });
      });
      qp.onDidAccept(() => finish(qp.selectedItems.map((i) => i.file)));
      qp.onDidHide(() => finish(undefined));
      qp.show();
    });
  }

  /** Undo (to 'undone') or Redo (to 'applied') of a reply's newest change set. */
  private async turn(messageId: string, to: 'undone' | 'applied', restoreOthers = false): Promise<boolean> {
    const entries = await this.storage.entries();
    const entry = repliesOf(entries.values(), this.deps.conversationId()).get(messageId);
    if (!entry) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This reply\'s changes were not applied in this window\'s storage.'));
      return false;
    }
    const result = await turnChanges(entry.set.id, to, this.ports, restoreOthers);
    const verb = to === 'undone' ? vscode.l10n.t('Undo') : vscode.l10n.t('Redo');
    if (result.ok) {
      const created = entry.set.files.filter((f) => f.before === null).length;
      vscode.window.setStatusBarMessage(
        to === 'undone'
          ? vscode.l10n.t('$(check) Undone: {0} files as they were before the reply ({1} it created removed)', result.restored.length, created)
          : vscode.l10n.t('$(check) Redone: the reply\'s version of {0} files', result.restored.length),
        8000,
      );
      this.deps.logger.info('Reply changes turned', { to, files: result.restored.length });
      return true;
    }
    if (result.reason === 'differs') return this.differs(messageId, to, result.files, entry.set.files.length, verb);
    if (result.reason === 'gone') {
      void vscode.window.showWarningMessage(vscode.l10n.t('The copies this {0} needs were let go to keep within the space set by aiChat.changes.maxStorageMB; nothing was changed.', verb));
    } else if (result.reason === 'failed') {
      void vscode.window.showErrorMessage(vscode.l10n.t('VS Code refused to write the files (is one read-only?); nothing was changed.'));
    }
    return false;
  }

  /** Files changed since: nothing was written; the user sees which, with a diff of each, and may restore the others. */
  private async differs(messageId: string, to: 'undone' | 'applied', files: Array<FileChange & { expected: string | null }>, total: number, verb: string): Promise<boolean> {
    const show = vscode.l10n.t('Show Differences');
    const others = vscode.l10n.t('Restore the Others');
    const buttons = total > files.length ? [show, others] : [show];
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} did nothing: {1} changed since (on disk or unsaved in an editor). Unsaved work is never overwritten.', verb, files.map((f) => f.path).join(', ')),
      { modal: true },
      ...buttons,
    );
    if (answer === others) return this.turn(messageId, to, true);
    if (answer !== show) return false;
    for (const f of files) {
      const expected = f.expected ? await this.storage.get(f.expected) : new Uint8Array();
      const left = this.texts.add(f.path, 'expected', new TextDecoder().decode(expected ?? new Uint8Array()));
      const exists = await this.ports.files.size(f.uri).catch(() => undefined);
      const right = exists === undefined ? this.texts.add(f.path, 'now', '') : vscode.Uri.parse(f.uri, true);
      await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0}: as {1} expects it ↔ now', f.path, verb), { preview: false });
    }
    return false;
  }

  dispose(): void {
    this.texts.dispose();
  }
}

function reviewDetail(file: ProposedFile, review: Review): string | undefined {
  const parts: string[] = [];
  if (file.blocks > 1) parts.push(vscode.l10n.t('{0} code blocks', file.blocks));
  if (file === review.files[0] && review.unnamed) parts.push(vscode.l10n.t('{0} code blocks of the reply name no file and are not applied', review.unnamed));
  return parts.length ? parts.join(' · ') : undefined;
}

function nothingToApply(review: Review): string {
  const parts: string[] = [];
  if (review.refused.length) parts.push(review.refused.map((r) => r.why).join(' '));
  if (review.unchanged.length) parts.push(vscode.l10n.t('already as the reply has them: {0}', review.unchanged.join(', ')));
  if (review.unnamed) parts.push(vscode.l10n.t('{0} code blocks name no file', review.unnamed));
  return vscode.l10n.t('Apply All has nothing to write. {0}', parts.join('. '));
}
