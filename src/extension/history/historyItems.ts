// History's item buttons: Rename, Export (the export room's Export Chat, for this conversation), and Delete with Undo. A rename and a delete
// go through the chat session, which owns the conversation (the one on screen shows it at once).
import * as vscode from 'vscode';
import type { ConversationStore, ConversationSummary } from '../../core';
import type { Logger } from '../platform/log';

/** What History needs: the store, and the session's operations on a conversation. */
export interface HistoryDeps {
  store: ConversationStore;
  currentId(): string;
  /** Opens a conversation; `query`: History's search that found it (a variant that holds it is shown). */
  open(id: string, query?: string): Promise<boolean>;
  newChat(): Promise<void>;
  show(): Promise<void>;
  /**
   * Deletes a conversation through the session, which owns it (the current one is replaced by a
   * new one; its queued messages go with it, current or not); rejects when nothing was deleted.
   */
  remove(id: string): Promise<void>;
  /** Renames a conversation through the session (the one on screen shows its new title). */
  rename(id: string, title: string): Promise<void>;
  /**
   * Reopens the last window's conversation (a window's first History): called once the first page
   * is out, as its log can be long; a delete waits for it first (and the session makes a pick or
   * New Chat wait for it).
   */
  restoreCurrent?(): Promise<void>;
  logger: Logger;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: vscode.l10n.t('Rename') };
const EXPORT: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('export'), tooltip: vscode.l10n.t('Export…') };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Delete') };

/** The buttons of every conversation's item. */
export const ITEM_BUTTONS: readonly vscode.QuickInputButton[] = [RENAME, EXPORT, DELETE];

/** What a button's action needs of the History quick pick it was clicked in. */
export interface ItemContext {
  deps: HistoryDeps;
  /** The conversation as History lists it, when it does. */
  summary: ConversationSummary | undefined;
  /** What the user had typed in History. */
  query: string;
  hide(): void;
  /** Lists the conversations again. */
  reload(): Promise<void>;
  /** The last window's conversation is back (a delete waits for it: is this the current one?). */
  restored(): Promise<void>;
  /** Opens History again with `query` (after a rename, or Escape in it). */
  again(query: string): void;
}

/** Runs the action of `button` on the conversation `id`. */
export async function itemButton(button: vscode.QuickInputButton, id: string, ctx: ItemContext): Promise<void> {
  if (button === RENAME) {
    // Each step replaces the one before it without closing the quick input: a closed one gives
    // the focus back to the editor or the chat, which can take it again from the next step.
    const query = ctx.query;
    const box = vscode.window.createInputBox();
    box.title = vscode.l10n.t('Rename conversation');
    box.value = ctx.summary?.title ?? '';
    let accepted = false;
    box.onDidChangeValue((v) => (box.validationMessage = v.trim() ? undefined : vscode.l10n.t('A title cannot be empty.')));
    box.onDidAccept(async () => {
      if (accepted || !box.value.trim()) return;
      accepted = true;
      box.busy = true;
      box.enabled = false;
      try {
        await ctx.deps.rename(id, box.value);
      } catch (err) {
        ctx.deps.logger.warn('A conversation could not be renamed', { message: String(err) });
        void vscode.window.showErrorMessage(vscode.l10n.t('The conversation could not be renamed: {0}. Check that the disk has space and can be written to, then rename it again.', String(err)));
      }
      ctx.again(query);
    });
    box.onDidHide(() => {
      box.dispose();
      // Escape: back to History as it was.
      if (!accepted) ctx.again(query);
    });
    box.show();
    return;
  }
  if (button === EXPORT) {
    // Markdown or the conversation file, asked by the export room's command.
    ctx.hide();
    await vscode.commands.executeCommand('aiChat.exportChat', id);
    return;
  }
  if (button === DELETE) {
    const conv = await ctx.deps.store.load(id).catch(() => undefined);
    await ctx.restored();
    const wasCurrent = id === ctx.deps.currentId();
    const title = ctx.summary?.title ?? conv?.title ?? vscode.l10n.t('the conversation');
    try {
      await ctx.deps.remove(id);
    } catch (err) {
      // The file could not be removed (held open by another program): nothing was deleted, and
      // the conversation goes on being saved.
      const reason = err instanceof Error ? err.message : String(err);
      ctx.deps.logger.warn('A conversation could not be deleted', { message: reason });
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          '“{0}” could not be deleted ({1}); nothing was deleted. Close the program that holds its file open (a virus scan, a sync client or an editor), then delete it again.',
          title,
          reason,
        ),
      );
      await ctx.reload().catch(() => undefined);
      return;
    }
    await ctx.reload();
    const undo = vscode.l10n.t('Undo');
    void vscode.window.showInformationMessage(vscode.l10n.t('Deleted “{0}”.', title), undo).then(async (choice) => {
      if (choice !== undo || !conv) return;
      await ctx.deps.store.restore(conv);
      if (wasCurrent) await ctx.deps.open(id);
      await ctx.reload().catch(() => undefined);
      vscode.window.setStatusBarMessage(vscode.l10n.t('$(history) Restored “{0}”', title), 3000);
    });
  }
}
