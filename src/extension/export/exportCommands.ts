// Export and import of conversations: Export Chat (Markdown, a web page, or the lossless
// `.aichat.json` file; the whole conversation or a range of its turns), Copy Conversation
// (Markdown on the clipboard) and Import Conversation… (a file checked, stored as
// a new conversation and opened; the same file again offers the first). The file format, its
// checks and the import itself are src/core/export's; this is what only VS Code can do.
import * as vscode from 'vscode';
import type * as HtmlPage from '../../core/export/htmlPage';
import { ModuleLoader } from '../platform/clientModule';
import {
  conversationToMarkdown,
  EXPORT_FILE_SUFFIX,
  exportFileName,
  exportFileText,
  importConversation,
  importSizeProblem,
  type Conversation,
  type ImportResult,
} from '../../core';
import { registerSafely } from '../platform/commands';
import type { Logger } from '../platform/log';
import type { ChatConversations } from './chatConversations';
import { pickTurns } from './pickTurns';
import { registerArchiveCommands } from './archiveCommands';
import { pickImportFile, startFolder } from './fileDialogs';

/**
 * The web page's renderer (markdown-it, highlight.js: some 200 KB) is loaded on the first export
 * as a web page, not when the extension activates: the build makes it a file of its own
 * (dist/exportPage.js, see esbuild.js), which this require loads; run from source, the module.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const exportPage = new ModuleLoader<typeof HtmlPage>(() => require('../../core/export/htmlPage') as typeof HtmlPage);

export function registerExportCommands(chat: ChatConversations, logger: Logger): vscode.Disposable[] {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => registerSafely(id, fn, logger);
  return [
    // (History's Export button passes the conversation's id.)
    reg('aiChat.exportChat', (id) => exportChat(chat, typeof id === 'string' ? id : undefined)),
    reg('aiChat.copyConversation', () => copyConversation(chat)),
    reg('aiChat.importConversation', () => importFile(chat, logger)),
    // Export All… and Import All… (archiveCommands.ts).
    ...registerArchiveCommands(chat, logger),
  ];
}

/** The chat's conversation, or undefined (and `empty` said) when it has no message. */
async function currentWithMessages(chat: ChatConversations, empty: string): Promise<Conversation | undefined> {
  const conv = await chat.current();
  if (conv.messages.length > 0) return conv;
  void vscode.window.showInformationMessage(empty);
  return undefined;
}


type Format = 'markdown' | 'file' | 'html';
type FormatItem = vscode.QuickPickItem & { format: Format };

/** Exports the conversation `id` (from History), else the one the chat shows. */
async function exportChat(chat: ChatConversations, id?: string): Promise<void> {
  const conv = id === undefined ? await currentWithMessages(chat, vscode.l10n.t('AI Chat: the current conversation is empty; nothing to export.')) : await (await chat.store()).load(id);
  if (!conv) {
    if (id !== undefined) void vscode.window.showWarningMessage(vscode.l10n.t('That conversation could not be read: its file is missing or damaged.'));
    return;
  }
  const items: FormatItem[] = [
    {
      format: 'markdown',
      label: vscode.l10n.t('$(markdown) Markdown'),
      detail: vscode.l10n.t('Readable anywhere: opens in an editor, to save or copy.'),
    },
    {
      format: 'html',
      label: vscode.l10n.t('$(browser) Web page (.html)'),
      detail: vscode.l10n.t('One file that opens in any browser, offline, laid out like the chat: no script in it and nothing loaded from elsewhere.'),
    },
    {
      format: 'file',
      label: vscode.l10n.t('$(json) Conversation file ({0})', EXPORT_FILE_SUFFIX),
      detail: vscode.l10n.t('Everything the chat keeps (models, credits, reasoning, errors, the summary), for AI Chat: Import Conversation… on this or another machine.'),
    },
  ];
  const title = vscode.l10n.t('AI Chat: Export “{0}”', conv.title);
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Export as') });
  if (!picked) return;
  // The turns are taken now: the conversation may go on while the picks and the dialog are open.
  const part = await pickTurns(conv, title);
  if (!part) return;
  if (picked.format === 'markdown') {
    const doc = await vscode.workspace.openTextDocument({ content: conversationToMarkdown(part), language: 'markdown' });
    await vscode.window.showTextDocument(doc, { preview: false });
    return;
  }
  const html = picked.format === 'html';
  const text = html ? exportPage.get().conversationToHtml(part) : exportFileText(part);
  const count = part.messages.length;
  const target = await vscode.window.showSaveDialog({
    title,
    defaultUri: vscode.Uri.joinPath(startFolder(), exportFileName(part.title, html ? '.html' : EXPORT_FILE_SUFFIX)),
    filters: html ? { [vscode.l10n.t('Web page')]: ['html'] } : { [vscode.l10n.t('AI Chat conversation')]: ['json'] },
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (err) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('“{0}” could not be exported to {1}: {2}', part.title, target.fsPath, err instanceof Error ? err.message : String(err)),
    );
    return;
  }
  void vscode.window.showInformationMessage(
    count === 1
      ? vscode.l10n.t('Exported “{0}” (1 message) to {1}.', part.title, vscode.workspace.asRelativePath(target))
      : vscode.l10n.t('Exported “{0}” ({1} messages) to {2}.', part.title, count, vscode.workspace.asRelativePath(target)),
  );
}

async function copyConversation(chat: ChatConversations): Promise<void> {
  const conv = await currentWithMessages(chat, vscode.l10n.t('AI Chat: the current conversation is empty; nothing to copy.'));
  if (!conv) return;
  const part = await pickTurns(conv, vscode.l10n.t('AI Chat: Copy “{0}”', conv.title));
  if (!part) return;
  await vscode.env.clipboard.writeText(conversationToMarkdown(part));
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied “{0}” to the clipboard as Markdown', part.title), 3000);
}

async function importFile(chat: ChatConversations, logger: Logger): Promise<void> {
  const picked = await pickImportFile(vscode.l10n.t('AI Chat: Import Conversation'), vscode.l10n.t('AI Chat conversation'), 'json');
  if (!picked) return;
  const { uri, name, refuse } = picked;
  const tooLarge = importSizeProblem((await vscode.workspace.fs.stat(uri)).size);
  if (tooLarge) return refuse(tooLarge.message);
  const bytes = await vscode.workspace.fs.readFile(uri);
  // Earlier turns go with the next request: a file that holds the user's key is not taken in.
  if (await chat.holdsKey(new TextDecoder().decode(bytes))) {
    logger.warn('A conversation file holding the API key was refused');
    return refuse(vscode.l10n.t('it holds your AI Chat API key, which would be sent with the conversation\'s next request. Take the key out of the file, then import it again.'));
  }
  let result: ImportResult;
  try {
    result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Importing “{0}”…', name) }, async () =>
      importConversation(await chat.store(), bytes),
    );
  } catch (err) {
    // The store could not write it: the import took it out again, nothing is half there.
    const reason = err instanceof Error ? err.message : String(err);
    logger.warn('A conversation could not be imported', { message: reason });
    return refuse(vscode.l10n.t('it could not be saved ({0}). Nothing was imported; check that the disk has space and can be written to, then import it again.', reason));
  }
  switch (result.kind) {
    case 'refused':
      logger.info('A conversation file was refused', { kind: result.problem.kind });
      return refuse(result.problem.message);
    case 'duplicate': {
      const open = vscode.l10n.t('Open It');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('“{0}” is already in History', result.title),
        { modal: true, detail: vscode.l10n.t('This file was imported before (or exported from this History, and the conversation is unchanged since). Nothing was imported again.') },
        open,
      );
      if (choice === open) await openImported(chat, result.id, result.title);
      return;
    }
    case 'imported': {
      const conv = result.conversation;
      logger.info('A conversation was imported', { messages: conv.messages.length });
      if (await openImported(chat, conv.id, conv.title)) {
        const n = conv.messages.length;
        const done = n === 1 ? vscode.l10n.t('$(check) Imported “{0}” (1 message)', conv.title) : vscode.l10n.t('$(check) Imported “{0}” ({1} messages)', conv.title, n);
        vscode.window.setStatusBarMessage(done, 4000);
      }
    }
  }
}

async function openImported(chat: ChatConversations, id: string, title: string): Promise<boolean> {
  if (await chat.open(id)) return true;
  void vscode.window.showWarningMessage(vscode.l10n.t('“{0}” could not be opened: its file is missing or damaged. It may be in History.', title));
  return false;
}
