// Commands registered so that a failure is logged and told to the user, never lost: every room
// registers its own commands through here.
import * as vscode from 'vscode';
import type { Logger } from './log';

/** Registers `id`; a failure is logged and shown as "AI Chat: <why>". */
export function registerSafely(id: string, fn: (...args: unknown[]) => unknown, logger: Logger): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      await fn(...args);
    } catch (err) {
      logger.error(`Command ${id} failed`, { message: err instanceof Error ? err.message : String(err) });
      void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat: {0}', err instanceof Error ? err.message : String(err)));
    }
  });
}
