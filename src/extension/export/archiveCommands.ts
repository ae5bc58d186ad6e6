// Export All… and Import All…: every conversation of History into one archive file and back, in a
// notification with progress and Cancel. The archive, its checks and the work itself (paced so
// that the extension host is never held long) are src/core/export's; this is what only VS Code can
// do: the dialogs, the progress, reading and writing the file, and saying how it went.
import * as vscode from 'vscode';
import { ARCHIVE_FILE_SUFFIX, exportAll, importAll, MAX_ARCHIVE_BYTES, type ImportAllResult } from '../../core';
import { registerSafely } from '../platform/commands';
import type { Logger } from '../platform/log';
import type { ChatConversations } from './chatConversations';
import { pickImportFile, startFolder } from './fileDialogs';

export function registerArchiveCommands(chat: ChatConversations, logger: Logger): vscode.Disposable[] {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => registerSafely(id, fn, logger);
  return [reg('aiChat.exportAll', () => exportAllCommand(chat, logger)), reg('aiChat.importAll', () => importAllCommand(chat, logger))];
}


/** A progress reporter for `done` of `total`: the message, and the bar moved by what was done since. */
function reporter(progress: vscode.Progress<{ message?: string; increment?: number }>) {
  let shown = 0;
  return (done: number, total: number) => {
    const percent = total ? (100 * done) / total : 100;
    progress.report({ message: vscode.l10n.t('{0} of {1}', done, total), increment: percent - shown });
    shown = percent;
  };
}

async function exportAllCommand(chat: ChatConversations, logger: Logger): Promise<void> {
  const store = await chat.store();
  const total = (await store.list()).length;
  if (total === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: History has no conversation to export.'));
    return;
  }
  const day = new Date().toISOString().slice(0, 10);
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('AI Chat: Export All Conversations ({0})', total),
    defaultUri: vscode.Uri.joinPath(startFolder(), `AI Chat ${day}${ARCHIVE_FILE_SUFFIX}`), // l10n-ignore: a file name
    filters: { [vscode.l10n.t('AI Chat archive')]: ['jsonl'] },
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting every conversation…'), cancellable: true },
    async (progress, token) => {
      const r = await exportAll(store, { cancelled: () => token.isCancellationRequested, progress: reporter(progress) });
      if (r.kind === 'done' && !token.isCancellationRequested) {
        progress.report({ message: vscode.l10n.t('Writing {0}…', vscode.workspace.asRelativePath(target)) });
        await vscode.workspace.fs.writeFile(target, r.bytes);
      }
      return token.isCancellationRequested ? ({ kind: 'cancelled' } as const) : r;
    },
  ).then(
    (r) => r,
    (err: unknown) => ({ kind: 'failed' as const, message: err instanceof Error ? err.message : String(err) }),
  );
  if (result.kind === 'failed') {
    logger.warn('Export All could not write its file', { message: result.message });
    void vscode.window.showErrorMessage(vscode.l10n.t('The conversations could not be exported to {0}: {1}', target.fsPath, result.message));
    return;
  }
  if (result.kind === 'cancelled') {
    void vscode.window.showInformationMessage(vscode.l10n.t('Export All was cancelled; no file was written.'));
    return;
  }
  logger.info('Export All', { conversations: result.count, unreadable: result.unreadable });
  const where = vscode.workspace.asRelativePath(target);
  const done = result.count === 1 ? vscode.l10n.t('Exported 1 conversation to {0}.', where) : vscode.l10n.t('Exported {0} conversations to {1}.', result.count, where);
  const skipped = result.unreadable ? ' ' + vscode.l10n.t('{0} could not be read (their files are missing or damaged) and were left out.', result.unreadable) : '';
  void vscode.window.showInformationMessage(done + skipped);
}

async function importAllCommand(chat: ChatConversations, logger: Logger): Promise<void> {
  const picked = await pickImportFile(vscode.l10n.t('AI Chat: Import All Conversations'), vscode.l10n.t('AI Chat archive'), 'jsonl');
  if (!picked) return;
  const { uri, name, refuse } = picked;
  const size = (await vscode.workspace.fs.stat(uri)).size;
  if (size > MAX_ARCHIVE_BYTES) return refuse(vscode.l10n.t('the archive is {0} MB; the largest AI Chat imports is {1} MB.', Math.ceil(size / 1048576), MAX_ARCHIVE_BYTES / 1048576));
  let result: ImportAllResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Importing “{0}”…', name), cancellable: true },
      async (progress, token) => {
        progress.report({ message: vscode.l10n.t('Checking the archive…') });
        const bytes = await vscode.workspace.fs.readFile(uri);
        const report = reporter(progress);
        return importAll(await chat.store(), bytes, {
          cancelled: () => token.isCancellationRequested,
          // (Progress reports the conversations stored; the check before them says so above.)
          progress: (done, total) => (done ? report(done, total) : undefined),
          // Earlier turns go with the next request: a conversation holding the user's key is not taken in.
          refuse: (text) => chat.holdsKey(text),
        });
      },
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    logger.warn('Import All could not read its file', { message: reason });
    return refuse(reason);
  }
  if (result.kind === 'refused') {
    logger.info('An archive was refused', { kind: result.problem.kind });
    return refuse(result.problem.message);
  }
  logger.info('Import All', { kind: result.kind, total: result.total, imported: result.imported.length, duplicates: result.duplicates, withKey: result.withKey });
  void vscode.window.showInformationMessage(importAllMessage(result));
}

/** What Import All says when it is over: how many came in, were skipped, were left, and why. */
export function importAllMessage(r: Exclude<ImportAllResult, { kind: 'refused' }>): string {
  const n = r.imported.length;
  const parts = [
    r.kind === 'done'
      ? n === 1
        ? vscode.l10n.t('Imported 1 conversation of {0}.', r.total)
        : vscode.l10n.t('Imported {0} conversations of {1}.', n, r.total)
      : r.kind === 'cancelled'
        ? vscode.l10n.t('Import All was cancelled: {0} of {1} conversations came in, each whole; the others were not imported.', n, r.total)
        : vscode.l10n.t('Import All stopped: a conversation could not be saved ({0}). {1} of {2} conversations came in, each whole; the others were not imported. Check that the disk has space and can be written to, then import the archive again (those in History are skipped).', r.error.message, n, r.total),
  ];
  if (r.duplicates) parts.push(r.duplicates === 1 ? vscode.l10n.t('1 was already in History and was skipped.') : vscode.l10n.t('{0} were already in History and were skipped.', r.duplicates));
  if (r.withKey) parts.push(vscode.l10n.t('{0} held your AI Chat API key and were left out.', r.withKey));
  return parts.join(' ');
}
