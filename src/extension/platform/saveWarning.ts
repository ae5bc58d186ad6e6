// Tells the user, once, that conversations cannot be saved (disk full, file locked, a folder
// that cannot be written), with Retry; says nothing more until saving works again. Until then
// every conversation with unwritten turns stays in memory (also one the user left for another),
// and the next save, or Retry, writes everything still missing. A Retry that fails again says so.
import * as vscode from 'vscode';
import type { Logger } from './log';

export interface SaveState {
  onDidChangeSaveState(listener: (failure: Error | undefined) => void): () => void;
}

/** `retry` writes every conversation not yet saved (ConversationStore.saveAll), and rejects while one still fails. */
export function watchSaving(store: SaveState, retry: () => Promise<void>, logger: Logger): vscode.Disposable {
  const warn = (failure: Error): void => {
    const again = vscode.l10n.t('Retry');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'AI Chat could not save a conversation ({0}). It is kept in this window; free some disk space or close what locks the file, then choose Retry.',
          failure.message,
        ),
        again,
      )
      .then((choice) => {
        if (choice !== again) return;
        retry().then(
          () => vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) AI Chat saved every conversation'), 4000),
          (err: unknown) => {
            const error = err instanceof Error ? err : new Error(String(err));
            logger.warn('Retry could not save the conversation', { message: error.message });
            warn(error);
          },
        );
      });
  };
  const stop = store.onDidChangeSaveState((failure) => {
    if (!failure) {
      logger.info('Saving conversations works again');
      return;
    }
    logger.warn('Could not save the conversation', { message: failure.message });
    warn(failure);
  });
  return { dispose: stop };
}
