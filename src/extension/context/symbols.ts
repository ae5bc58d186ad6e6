// Symbols as chips: a function or class found by the language's symbol providers (the active
// file's outline, or the workspace's symbols as you type) becomes a range chip named by it.
import * as vscode from 'vscode';
import { symbolAttachment, type Attachment } from '../../core';
import { maxKB, relPath } from '../platform/editorFacts';

export interface SymbolHit {
  name: string;
  kind: vscode.SymbolKind;
  uri: vscode.Uri;
  range: vscode.Range;
  container?: string;
}

/** Most symbols offered at once. */
const MAX_SYMBOLS = 200;

function flatten(symbols: readonly vscode.DocumentSymbol[], uri: vscode.Uri, container?: string): SymbolHit[] {
  return symbols.flatMap((s) => [{ name: s.name, kind: s.kind, uri, range: s.range, ...(container ? { container } : {}) }, ...flatten(s.children, uri, s.name)]);
}

/** The symbols for `query`: empty, the outline of `document`; else the workspace's, in its folders only. */
export async function findSymbols(query: string, document?: vscode.TextDocument): Promise<SymbolHit[]> {
  if (!query.trim()) {
    if (!document) return [];
    const outline = await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>('vscode.executeDocumentSymbolProvider', document.uri);
    // VS Code gives each symbol as both a DocumentSymbol (with children) and a SymbolInformation: the tree when there is one.
    const all = outline ?? [];
    const tree = all.filter((s): s is vscode.DocumentSymbol => 'children' in s);
    if (tree.length) return flatten(tree, document.uri).slice(0, MAX_SYMBOLS);
    return all.filter((s): s is vscode.SymbolInformation => 'location' in s).slice(0, MAX_SYMBOLS).map((s) => ({ name: s.name, kind: s.kind, uri: s.location.uri, range: s.location.range }));
  }
  const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
  return found
    .filter((s) => vscode.workspace.getWorkspaceFolder(s.location.uri))
    .slice(0, MAX_SYMBOLS)
    .map((s) => ({ name: s.name, kind: s.kind, uri: s.location.uri, range: s.location.range, ...(s.containerName ? { container: s.containerName } : {}) }));
}

/** A symbol as a range chip: its whole lines, with its name. */
export async function symbolChip(hit: SymbolHit, id: string): Promise<Attachment> {
  const doc = await vscode.workspace.openTextDocument(hit.uri);
  const start = hit.range.start.line;
  const end = Math.min(hit.range.end.line, doc.lineCount - 1);
  const text = doc.getText(new vscode.Range(start, 0, end, doc.lineAt(end).range.end.character));
  return symbolAttachment(id, hit.name, relPath(hit.uri), doc.languageId, text, { start: start + 1, end: end + 1 }, maxKB());
}

/** "+" > Symbol…: the active file's outline, then the workspace's symbols as you type. */
export function pickSymbol(document: vscode.TextDocument | undefined): Promise<SymbolHit | undefined> {
  type Item = vscode.QuickPickItem & { hit: SymbolHit };
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Attach a Symbol');
  pick.placeholder = vscode.l10n.t('Type to search the workspace; the current file\'s symbols are listed first');
  let asked = 0;
  const show = async (query: string) => {
    const mine = ++asked;
    pick.busy = true;
    const hits = await findSymbols(query, document).catch(() => []);
    if (mine !== asked) return;
    pick.items = hits.map((hit) => ({ label: hit.name, description: `${relPath(hit.uri)}:${hit.range.start.line + 1}`, ...(hit.container ? { detail: hit.container } : {}), hit }));
    pick.busy = false;
  };
  return new Promise((resolve) => {
    pick.onDidChangeValue((v) => void show(v));
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.hit);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
    void show('');
  });
}
