// Remembers the last active text editor: the chat panel takes focus, so "insert at cursor"
// needs the editor that was active before.
import * as vscode from 'vscode';

export class EditorTracker implements vscode.Disposable {
  private last: vscode.TextEditor | undefined;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.last = vscode.window.activeTextEditor;
    this.subscription = vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e && e.document.uri.scheme !== 'output') this.last = e;
    });
  }

  lastEditor(): vscode.TextEditor | undefined {
    const e = this.last;
    if (!e) return undefined;
    // Still open?
    const open = vscode.window.visibleTextEditors.find((v) => v.document === e.document);
    if (open) return open;
    return e.document.isClosed ? undefined : e;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
