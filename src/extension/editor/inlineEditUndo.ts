// Taking an edit in the editor back with the editor's own Undo: the only way to leave a document
// that was clean before the edit clean again (an edit that puts the same text back leaves it dirty).
import * as vscode from 'vscode';

/** Resolves true at `document`'s next change, false when none comes within `ms`. */
export function nextChange(document: vscode.TextDocument, ms = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(false);
    }, ms);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== document || e.contentChanges.length === 0) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(true);
    });
  });
}

/**
 * Runs Undo in `document`'s editor up to `steps` times, until its text is `snapshot` again; true
 * when it is. The editor is brought to the front (Undo works on the active editor). Edits made one
 * after the other are usually one undo step, but not always (the workbench may close a step in
 * between, e.g. when the focus moves), so `steps` is how many edits there were.
 */
export async function undoBack(document: vscode.TextDocument, snapshot: string, steps: number): Promise<boolean> {
  const column = vscode.window.visibleTextEditors.find((v) => v.document === document)?.viewColumn;
  const editor = await vscode.window.showTextDocument(document, { preserveFocus: false, preview: false, ...(column ? { viewColumn: column } : {}) });
  for (let n = 0; n < steps && document.getText() !== snapshot && editor === vscode.window.activeTextEditor; n++) {
    // The document hears of the undo after the command returns: wait for that change (or not long).
    const heard = nextChange(document);
    await vscode.commands.executeCommand('undo');
    if (!(await heard)) break;
  }
  return document.getText() === snapshot;
}
