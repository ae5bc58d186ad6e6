// The reply of an edit in the editor, run through the one turn pipeline (surface "edit") with its
// progress in sight: a notification whose Cancel stops the reply, and the note after the preview's
// last line, both with the count of code lines so far.
import * as vscode from 'vscode';
import { EDIT_SYSTEM_PROMPT } from '../../core/inlineEdit/prompt';
import type { SurfaceTurnResult, TurnService } from '../pipeline/turnService';
import type { InlineEditLive } from './inlineEditLive';

/** The streamed line count in the progress is brought up to date at most this often, ms. */
const PROGRESS_MS = 250;

/** The edit's own instructions, then the user's own rules for edits (aiChat.editSelection.instructions; not a Restricted Mode workspace's). */
function editSystem(): string {
  const own = vscode.workspace.isTrusted ? (vscode.workspace.getConfiguration('aiChat').get<string>('editSelection.instructions', '') ?? '').trim() : '';
  // l10n-ignore: sent to the model
  return own ? `${EDIT_SYSTEM_PROMPT}\n\nThe user's own rules for edits:\n${own}` : EDIT_SYSTEM_PROMPT;
}

/** Streams the reply to `prompt` into `live`; `controller` stops it (the notification's Cancel aborts it too). */
export async function streamReply(turns: Pick<TurnService, 'run'>, live: InlineEditLive, prompt: string, controller: AbortController): Promise<SurfaceTurnResult> {
  return await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('AI Chat: editing'), cancellable: true },
    async (progress, token) => {
      const cancel = token.onCancellationRequested(() => controller.abort());
      // The count of lines so far, in the notification and after the last line: at most every
      // PROGRESS_MS (each new text is work for the window: the notification is measured again, the
      // editor gets a new style for the note), so the streamed lines themselves go in sooner.
      let lines = 0;
      let reported = 0;
      let later: ReturnType<typeof setTimeout> | undefined;
      const report = () => {
        later = undefined;
        reported = Date.now();
        lines = live.stream.code.length;
        const message = vscode.l10n.t('{0} lines so far · Stop (Escape) leaves the file as it was', String(lines));
        progress.report({ message });
        live.status(message);
      };
      live.status(vscode.l10n.t('Waiting for the reply…'));
      try {
        return await turns.run(
          { surface: 'edit', prompt, system: editSystem() },
          {
            text: (chunk) => {
              live.push(chunk);
              if (live.stream.code.length === lines || later) return;
              const wait = reported + PROGRESS_MS - Date.now();
              if (wait <= 0) report();
              else later = setTimeout(report, wait);
            },
            status: (s) => {
              if (s) progress.report({ message: s });
              live.status(s || vscode.l10n.t('Waiting for the reply…'));
            },
          },
          controller.signal,
        );
      } finally {
        clearTimeout(later);
        cancel.dispose();
      }
    },
  );
}
