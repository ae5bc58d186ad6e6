// Conversations saved by 0.1.0 are brought into History in the background, with a progress
// notification; the chat is usable meanwhile (the conversation it opens is brought in first, on
// its own).
import * as vscode from 'vscode';
import type { ConversationStore } from '../../core';
import type { Logger } from '../platform/log';

/** How often the notification's count changes (each change is a message to the window). */
const REPORT_MS = 250;

export async function upgradeHistoryInBackground(store: ConversationStore, logger: Logger): Promise<void> {
  const waiting = await store.pendingUpgrade();
  if (waiting === 0) return;
  logger.info('Bringing conversations saved by 0.1.0 into History', { count: waiting });
  const started = Date.now();
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('AI Chat: bringing your saved conversations into History') },
    async (progress) => {
      progress.report({ message: vscode.l10n.t('{0} conversations; the chat can be used meanwhile.', waiting) });
      let shown = 0;
      let last = 0;
      const off = store.onSearchProgress((p) => {
        const now = Date.now();
        if (!p.building || !p.total || now - last < REPORT_MS) return;
        last = now;
        const percent = (p.done / p.total) * 100;
        progress.report({ message: vscode.l10n.t('{0} of {1}', p.done, p.total), increment: percent - shown });
        shown = percent;
      });
      try {
        // The history index, then the full-text index, from the same reading of each conversation;
        // then each file is written in the new form (History is whole and searchable meanwhile).
        await store.catchUpSearch();
        await store.finishUpgrade((done, total) => {
          const now = Date.now();
          if (now - last < REPORT_MS && done < total) return;
          last = now;
          progress.report({ message: vscode.l10n.t('Saving in the new form: {0} of {1}', done, total) });
        });
        logger.info('Conversations saved by 0.1.0 are in History', { ms: Date.now() - started });
      } catch (err) {
        logger.warn('Conversations saved by 0.1.0 could not all be brought in', { message: String(err) });
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Some conversations saved by an earlier version could not be brought into History: {0}. Their files are kept; reload the window to try again.', String(err)),
        );
      } finally {
        off();
      }
    },
  );
}
