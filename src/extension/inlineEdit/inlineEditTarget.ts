// What an edit in the editor works on: the selected lines (or the block around the cursor) of a
// document it may change. Read-only documents, output panes and other non-file documents are refused.
import { access, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import * as vscode from 'vscode';
import { enclosingBlock } from '../../core/inlineEdit/prompt';
import type { EditRegion } from '../../core/inlineEdit/extract';

/** Schemes of documents an edit may change: files (local, remote, virtual), untitled files, notebook cells, settings. */
export const EDITABLE_SCHEMES: ReadonlySet<string> = new Set(['file', 'untitled', 'vscode-notebook-cell', 'vscode-remote', 'vscode-userdata', 'vscode-vfs']);

export interface EditTarget {
  document: vscode.TextDocument;
  /** Lines [start, end) of the document. */
  start: number;
  end: number;
  /** Offset of the first line in the document. */
  offset: number;
  region: EditRegion;
  /** Every line of the document, without line ends. */
  lines: string[];
}

/** Whether a file on this machine's disk may be written (a file nobody may write counts as read-only, also for root). */
async function writable(file: string): Promise<boolean> {
  try {
    const st = await stat(file);
    if ((st.mode & 0o222) === 0) return false;
    await access(file, constants.W_OK);
    return true;
  } catch (err) {
    // Not on disk (yet): the edit goes to the open document.
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Why `document` cannot be edited (a sentence for the user), or undefined when it can. */
export async function refusal(document: vscode.TextDocument): Promise<string | undefined> {
  const scheme = document.uri.scheme;
  if (scheme === 'output' || scheme.startsWith('output')) return vscode.l10n.t('AI Chat cannot edit an output pane. Copy the text into a file to edit it.');
  if (!EDITABLE_SCHEMES.has(scheme)) {
    return vscode.l10n.t('AI Chat edits only files and untitled files; "{0}" is not one. Copy the text into a file to edit it.', document.uri.toString(true));
  }
  if (vscode.workspace.fs.isWritableFileSystem(scheme) === false) return vscode.l10n.t('This document is read-only, so AI Chat cannot edit it.');
  if (scheme === 'file' && !(await writable(document.uri.fsPath))) {
    return vscode.l10n.t('This file is read-only, so AI Chat cannot edit it. Make it writable and try again.');
  }
  if (scheme !== 'untitled' && scheme !== 'vscode-notebook-cell') {
    try {
      const stat = await vscode.workspace.fs.stat(document.uri);
      // Read-only (1), or locked: a file without write permission (2).
      if (((stat.permissions ?? 0) & 3) !== 0) return vscode.l10n.t('This file is read-only, so AI Chat cannot edit it. Make it writable and try again.');
    } catch {
      // Not on disk (yet): the edit goes to the open document.
    }
  }
  return undefined;
}

/** The lines of the selection, or of the block around the cursor when nothing is selected. */
export async function targetOf(editor: vscode.TextEditor): Promise<EditTarget> {
  const document = editor.document;
  const lines = Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i).text);
  const sel = editor.selection;
  let start: number;
  let end: number;
  if (sel.isEmpty) {
    const ranges = await vscode.commands
      .executeCommand<vscode.FoldingRange[] | undefined>('vscode.executeFoldingRangeProvider', document.uri)
      .then((r) => r ?? [], () => []);
    ({ start, end } = enclosingBlock(lines, sel.active.line, ranges));
  } else {
    start = sel.start.line;
    end = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
  }
  // A document that ends with a line end has an empty last line: it belongs to no selection.
  if (end > start + 1 && end === document.lineCount && lines[end - 1] === '') end--;
  const from = new vscode.Position(start, 0);
  const to = end < document.lineCount ? new vscode.Position(end, 0) : document.lineAt(document.lineCount - 1).range.end;
  return {
    document,
    start,
    end,
    offset: document.offsetAt(from),
    lines,
    region: {
      before: lines.slice(0, start),
      text: document.getText(new vscode.Range(from, to)),
      after: lines.slice(end),
      eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
    },
  };
}
