// A click on an item of "Sent with this message": the workspace file it names, opened at its lines.
// Only a file inside a folder of this workspace is opened (the path comes from the webview).
import * as vscode from 'vscode';
import { isPathInside } from '../../core/context/workspacePath';

export async function openSentItem(path: string, startLine?: number, endLine?: number): Promise<void> {
  const uri = await findInWorkspace(path);
  if (!uri) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is not a file of this workspace (any more).', path));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const last = doc.lineCount - 1;
  const start = Math.min(Math.max(0, (startLine ?? 1) - 1), last);
  const end = Math.min(Math.max(start, (endLine ?? startLine ?? 1) - 1), last);
  const selection = startLine === undefined ? undefined : new vscode.Range(start, 0, end, doc.lineAt(end).range.end.character);
  await vscode.window.showTextDocument(doc, { preview: true, ...(selection ? { selection } : {}) });
}

/** The file `path` (workspace-relative, as the chips name them) in the first folder that has it. */
export async function findInWorkspace(path: string): Promise<vscode.Uri | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, path);
    if (folder.uri.scheme === 'file' && !isPathInside(folder.uri.fsPath, uri.fsPath)) continue;
    if (!uri.path.startsWith(folder.uri.path.replace(/\/?$/, '/'))) continue;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (stat && stat.type & vscode.FileType.File) return uri;
  }
  return undefined;
}
