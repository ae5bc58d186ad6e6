// Files the workspace names that are really elsewhere: a symbolic link in a workspace folder (a
// cloned repository's, say) can lead to a file of the machine, whose content is not the workspace's.
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { isPathInside, resolveInsideFolder } from '../../core/context/workspacePath';
/**
 * Where a file of a workspace folder really is when that is outside every folder of the workspace
 * (a symbolic link on its path leads out); undefined for any other file.
 */
export async function linkLeadingOut(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme !== 'file') return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || folder.uri.scheme !== 'file') return undefined;
  const segments = nodePath.relative(folder.uri.fsPath, uri.fsPath).split(nodePath.sep).filter(Boolean);
  const landed = await resolveInsideFolder(folder.uri.fsPath, segments);
  if (landed.ok || landed.reason !== 'outside' || !landed.real) return undefined;
  for (const other of vscode.workspace.workspaceFolders ?? []) {
    if (other.uri.scheme !== 'file') continue;
    const real = await fsp.realpath(other.uri.fsPath).catch(() => undefined);
    if (real && isPathInside(real, landed.real)) return undefined;
  }
  return landed.real;
}
