// AI Chat: Find Files for a Question: the question in the chat's message box (or asked for) is
// searched in the codebase index on this machine; the files found are offered in a pick list, the
// best ones ticked, each with its lines and why; those kept become attachments of the next
// message. Nothing is sent: the user then sends one message at the usual price.
// findForQuestion is what the chat's `#` menu will call.
import * as vscode from 'vscode';
import { describeMatch, matchPlace } from '../../core';
import type { ChatBox } from '../pipeline/chatBox';
import type { CodebaseMatch, CodebaseService } from './codebaseService';

/** How many files the list offers, and how many of them are ticked. */
const OFFERED = 20;
const TICKED = 5;

export interface FindFilesDeps {
  /** The index (started now if it was not yet). */
  service: () => CodebaseService;
  chatBox: ChatBox;
  /** Adds files as attachments of the next message; returns how many were added. */
  attach: (uris: readonly vscode.Uri[]) => Promise<number>;
}

/** Why the index cannot answer now, in words, or undefined when it can. */
function unavailable(service: CodebaseService): string | undefined {
  switch (service.state) {
    case 'off':
      return vscode.workspace.workspaceFolders?.length
        ? vscode.l10n.t('The codebase index is turned off (aiChat.codebase.enabled). Turn it on to find files for a question.')
        : vscode.l10n.t('Open a folder to find its files for a question.');
    case 'untrusted':
      return vscode.l10n.t('The codebase index reads this workspace only once you trust it. Trust the workspace, then try again.');
    case 'building':
    case 'paused':
    case 'ready':
      return undefined;
  }
}

/** The files the index proposes for a question (for the pick list, and later the `#` menu). */
export async function findForQuestion(service: CodebaseService, question: string): Promise<CodebaseMatch[]> {
  return service.search(question, OFFERED);
}

export function registerFindFiles(deps: FindFilesDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('aiChat.findCodebaseFiles', async (given?: unknown) => {
      const service = deps.service();
      const why = unavailable(service);
      if (why) {
        void vscode.window.showInformationMessage(why);
        return 0;
      }
      let question = typeof given === 'string' ? given.trim() : (deps.chatBox.draft() ?? '').trim();
      if (!question) {
        question =
          (
            await vscode.window.showInputBox({
              title: vscode.l10n.t('Find Files for a Question'),
              prompt: vscode.l10n.t('Searched in this workspace on this machine; nothing is sent.'),
              placeHolder: vscode.l10n.t('Where is the retry of a failed request handled?'),
            })
          )?.trim() ?? '';
      }
      if (!question) return 0;
      const matches = await findForQuestion(service, question);
      if (!matches.length) {
        const { done, total } = service.counts;
        void vscode.window.showInformationMessage(
          service.state === 'ready'
            ? vscode.l10n.t('No file of this workspace matches "{0}". Try the names the code uses.', question.slice(0, 200))
            : vscode.l10n.t('Nothing found yet: the workspace is still being indexed ({0} of {1} files). Try again in a moment.', String(done), String(total)),
        );
        return 0;
      }
      return pick(service, question, matches, deps);
    }),
    vscode.commands.registerCommand('aiChat.codebase.togglePause', () => deps.service().togglePause()),
  ];
}

async function pick(service: CodebaseService, question: string, matches: CodebaseMatch[], deps: FindFilesDeps): Promise<number> {
  type Item = vscode.QuickPickItem & { match: CodebaseMatch };
  const items: Item[] = matches.map((m, k) => ({
    label: `$(file) ${m.label.slice(m.label.lastIndexOf('/') + 1)}`,
    description: matchPlace(m.label, m),
    detail: describeMatch(m),
    picked: k < TICKED,
    match: m,
  }));
  const building = service.state === 'building' || service.state === 'paused';
  const chosen = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    matchOnDescription: true,
    title: building
      ? vscode.l10n.t('Files for "{0}" (still indexing: {1} of {2})', question.slice(0, 80), String(service.counts.done), String(service.counts.total))
      : vscode.l10n.t('Files for "{0}"', question.slice(0, 80)),
    placeHolder: vscode.l10n.t('Keep the files to attach to the next message (found on this machine, nothing sent, no credits)'),
  });
  if (!chosen?.length) return 0;
  const added = await deps.attach(chosen.map((c) => c.match.uri));
  if (added) await deps.chatBox.show(true);
  return added;
}
