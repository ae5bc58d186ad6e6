// Tells the user, once, that conversations cannot be saved (disk full, file locked, a folder
// that cannot be written), with Retry; says nothing more until saving works again. Until then
// the conversation stays in memory, and the next save writes everything still missing.
import * as vscode from 'vscode';
import type { Logger } from './log';

export interface SaveState {
  onDidChangeSaveState(listener: (failure: Error | undefined) => void): () => void;
}

export function watchSaving(store: SaveState, retry: () => Promise<void>, logger: Logger): vscode.Disposable {
  const stop = store.onDidChangeSaveState((failure) => {
    if (!failure) {
      logger.info('Saving conversations works again');
      return;
    }
    logger.warn('Could not save the conversation', { message: failure.message });
    const again = vscode.l10n.t('Retry');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'AI Chat could not save this conversation ({0}). It is kept in this window; free some disk space or close what locks the file, then choose Retry.',
          failure.message,
        ),
        again,
      )
      .then((choice) => {
        if (choice === again) void retry().catch(() => undefined);
      });
  });
  return { dispose: stop };
}
