// What a code block's buttons do in VS Code: Apply to File (a diff the user accepts), Copy,
// Insert at the cursor of the last editor, and Open in a new editor.
import * as vscode from 'vscode';
import type { CodeActionKind } from '../../protocol';
import type { ApplyToFile } from '../applyToFile/applyToFile';
import type { EditorTracker } from '../platform/editorTracker';

export interface CodeActionDeps {
  apply: ApplyToFile;
  editors: EditorTracker;
}

export async function runCodeAction(deps: CodeActionDeps, action: CodeActionKind, code: string, language: string, path?: string): Promise<void> {
  if (action === 'apply') return deps.apply.propose(code, path);
  if (action === 'copy') {
    await vscode.env.clipboard.writeText(code);
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied to the clipboard'), 2000);
    return;
  }
  if (action === 'insert') {
    const editor = deps.editors.lastEditor();
    if (!editor) {
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t('There is no editor to insert the code into.'), vscode.l10n.t('Open in New Editor'));
      if (choice) await runCodeAction(deps, 'newEditor', code, language);
      return;
    }
    const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
    const ok = await shown.edit((eb) => {
      for (const sel of shown.selections) eb.replace(sel, code);
    });
    if (!ok) void vscode.window.showWarningMessage(vscode.l10n.t('The code could not be inserted (is the editor read-only?).'));
    return;
  }
  const known = await vscode.languages.getLanguages();
  const lang = known.includes(language) ? language : 'plaintext';
  const doc = await vscode.workspace.openTextDocument({ content: code, language: lang });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
}
