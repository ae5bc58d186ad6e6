// Where prompt files are and how one is read: a workspace folder's or the user's prompts folder's
// file, under the rules of AGENTS.md (regular files, size-capped, never through a link out of its
// folder nor to a file whose name looks like a secret). PromptFiles (promptFiles.ts) keeps the list.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { secretLikeName } from '../../core';
import { isUserPromptFile, PROMPT_FILE_MAX_BYTES, PROMPT_FILES_MAX_PER_KIND } from '../../core/promptFiles/promptFiles';
import { readHead, resolveInsideFolder } from '../../core/context/workspacePath';

/** The setting naming the user's prompts folder (empty: VS Code's own user prompts folder). */
export const USER_FOLDER_SETTING = 'userPromptsFolder';

/**
 * The user's prompts folder: the aiChat.userPromptsFolder setting (an absolute path, `~` for the
 * home folder), else VS Code's user prompts folder (`User/prompts`, beside the extensions'
 * global storage). `explicit`: the setting names it (a folder that cannot be read is then said).
 */
export function userPromptsFolder(globalStorage: vscode.Uri | undefined): { uri: vscode.Uri; explicit: boolean } | { error: string } | undefined {
  const setting = vscode.workspace.getConfiguration('aiChat').inspect<string>(USER_FOLDER_SETTING)?.globalValue?.trim();
  if (setting) {
    const expanded = setting === '~' || setting.startsWith('~/') || setting.startsWith('~\\') ? path.join(os.homedir(), setting.slice(1)) : setting;
    if (!path.isAbsolute(expanded)) {
      return { error: vscode.l10n.t('aiChat.userPromptsFolder must be an absolute path (or start with ~): "{0}" is not read.', setting) };
    }
    return { uri: vscode.Uri.file(expanded), explicit: true };
  }
  // globalStorage is <user data>/User/globalStorage/<extension>.
  if (globalStorage && globalStorage.scheme === 'file') return { uri: vscode.Uri.joinPath(globalStorage, '..', '..', 'prompts'), explicit: false };
  return undefined;
}

/** The `*.prompt.md` files of the user's prompts folder, by name (at most PROMPT_FILES_MAX_PER_KIND), or why it could not be listed. */
export async function listUserFolder(folder: vscode.Uri): Promise<vscode.Uri[] | Error> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(folder);
    return entries
      .filter(([name, type]) => isUserPromptFile(name) && !(type & vscode.FileType.Directory))
      .map(([name]) => name)
      .sort((a, b) => a.localeCompare(b))
      .slice(0, PROMPT_FILES_MAX_PER_KIND)
      .map((name) => vscode.Uri.joinPath(folder, name));
  } catch (err) {
    return err as Error;
  }
}

/** Whether a folder is there (a missing default folder is no error). */
export async function folderExists(folder: vscode.Uri): Promise<boolean> {
  try {
    return !!((await vscode.workspace.fs.stat(folder)).type & vscode.FileType.Directory);
  } catch {
    return false;
  }
}

export type PromptFileRead = { content: Uint8Array | Error; size?: number; refused?: 'outside' | 'secret' | 'special' };

/**
 * A prompt file's first bytes, or why it cannot be read; undefined when it is not listed at all
 * (gone since it was found). Links are followed only inside the folder, and never to a file whose
 * name looks like a secret; a folder not on this computer's disk has its links refused outright.
 */
export async function readPromptFile(folder: vscode.Uri, relative: string, uri: vscode.Uri): Promise<PromptFileRead | undefined> {
  const refused = (why: 'outside' | 'secret' | 'special') => ({ content: new Uint8Array(0), refused: why });
  if (folder.scheme === 'file') {
    const segments = relative.split('/').filter((s) => s && s !== '.');
    if (segments.includes('..')) return refused('outside');
    const inside = await resolveInsideFolder(folder.fsPath, segments);
    if (!inside.ok) return inside.reason === 'outside' ? refused('outside') : undefined;
    if (!inside.exists) return undefined;
    const real = inside.relative.join('/');
    if (real !== segments.join('/') && secretLikeName(real)) return refused('secret');
    try {
      const head = await readHead(inside.real, PROMPT_FILE_MAX_BYTES + 4, { noFollow: true });
      return { content: head.bytes, size: head.size };
    } catch (err) {
      return { content: err as Error };
    }
  }
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.SymbolicLink) return refused('outside');
    if (!(stat.type & vscode.FileType.File)) return refused('special');
    if (stat.size > PROMPT_FILE_MAX_BYTES) return { content: new Uint8Array(0), size: stat.size };
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { content: bytes.subarray(0, PROMPT_FILE_MAX_BYTES + 4), size: bytes.length };
  } catch (err) {
    return err instanceof vscode.FileSystemError && err.code === 'FileNotFound' ? undefined : { content: err as Error };
  }
}
