// The attachments of the next message (the chips above the message box) and the gatherers
// that make them from the editor, the Problems and the terminal.
import * as vscode from 'vscode';
import {
  chipLabel,
  fileAttachment,
  problemsAttachment,
  textAttachment,
  type Attachment,
  type Diagnostic,
} from '../../core';
import type { ContextChip } from '../../protocol';

const DEFAULT_MAX_KB = 100;

function maxKB(): number {
  const v = vscode.workspace.getConfiguration('aiChat').get<number>('context.maxFileKB', DEFAULT_MAX_KB);
  return Number.isFinite(v) && v > 0 ? Math.min(v, 4096) : DEFAULT_MAX_KB;
}

function relPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

const SEVERITY: Record<vscode.DiagnosticSeverity, Diagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

export class ContextAttachments implements vscode.Disposable {
  private items: Attachment[] = [];
  private next = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** `editor`: the text editor the user last worked in (the chat itself may have the focus). */
  constructor(private readonly editor: () => vscode.TextEditor | undefined = () => vscode.window.activeTextEditor) {}

  get attachments(): readonly Attachment[] {
    return this.items;
  }

  chips(): ContextChip[] {
    return this.items.map((a) => ({ id: a.id, ...chipLabel(a), path: a.path }));
  }

  remove(id: string): void {
    const before = this.items.length;
    this.items = this.items.filter((a) => a.id !== id);
    if (this.items.length !== before) this.changed.fire();
  }

  clear(): void {
    if (!this.items.length) return;
    this.items = [];
    this.changed.fire();
  }

  /** Exactly these attachments were sent: take them off (new ones added meanwhile stay). */
  sent(attachments: readonly Attachment[]): void {
    const ids = new Set(attachments.map((a) => a.id));
    this.items = this.items.filter((a) => !ids.has(a.id));
    this.changed.fire();
  }

  private id(): string {
    return `ctx_${this.next++}`;
  }

  private push(a: Attachment): void {
    // The same file (or the same Problems) attached again replaces the older chip.
    this.items = this.items.filter((o) => !(o.kind === a.kind && o.path === a.path && o.kind !== 'selection' && o.kind !== 'terminal'));
    this.items.push(a);
    this.changed.fire();
  }

  /** A file from disk or an open document (the editor's unsaved text when it is open). */
  async addFile(uri: vscode.Uri): Promise<boolean> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    let bytes: Uint8Array;
    try {
      if (open) bytes = new TextEncoder().encode(open.getText());
      else {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type & vscode.FileType.Directory) {
          void vscode.window.showWarningMessage(vscode.l10n.t('{0} is a folder. Attach the files you need one by one.', relPath(uri)));
          return false;
        }
        bytes = await vscode.workspace.fs.readFile(uri);
      }
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not read {0}: {1}. Check that the file exists and can be read, then attach it again.', relPath(uri), String(err)));
      return false;
    }
    const result = fileAttachment(this.id(), relPath(uri), bytes, maxKB(), open?.languageId);
    if (!result.ok) {
      void vscode.window.showWarningMessage(result.message);
      return false;
    }
    this.push(result.attachment);
    return true;
  }

  async addCurrentFile(): Promise<boolean> {
    const editor = this.editor();
    if (!editor) return this.nothing(vscode.l10n.t('No file is open in the editor. Open the file you want to attach, then try again.'));
    return this.addFile(editor.document.uri);
  }

  async addOpenEditors(): Promise<boolean> {
    const uris = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined))
      .filter((u): u is vscode.Uri => !!u);
    const unique = [...new Map(uris.map((u) => [u.toString(), u])).values()];
    if (!unique.length) return this.nothing(vscode.l10n.t('No files are open in the editor. Open the files you want to attach, then try again.'));
    let any = false;
    for (const uri of unique) any = (await this.addFile(uri)) || any;
    return any;
  }

  addSelection(): boolean {
    const editor = this.editor();
    if (!editor || editor.selection.isEmpty) return this.nothing(vscode.l10n.t('Nothing is selected in the editor. Select the code you want to attach, then try again.'));
    const sel = editor.selection;
    const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
    this.push(textAttachment(this.id(), 'selection', relPath(editor.document.uri), editor.document.languageId, editor.document.getText(sel), maxKB(), { start: sel.start.line + 1, end: endLine }));
    return true;
  }

  addProblems(uri?: vscode.Uri): boolean {
    const target = uri ?? this.editor()?.document.uri;
    if (!target) return this.nothing(vscode.l10n.t('No file is open in the editor. Open the file whose problems you want to attach, then try again.'));
    const diagnostics = vscode.languages.getDiagnostics(target).map<Diagnostic>((d) => ({
      line: d.range.start.line + 1,
      severity: SEVERITY[d.severity],
      message: d.message,
      ...(d.source ? { source: d.source } : {}),
    }));
    if (!diagnostics.length) return this.nothing(vscode.l10n.t('{0} has no problems to attach.', relPath(target)));
    this.push(problemsAttachment(this.id(), relPath(target), diagnostics, maxKB()));
    return true;
  }

  /** The terminal's selection, read through the clipboard (which is put back afterwards). */
  async addTerminalSelection(): Promise<boolean> {
    if (!vscode.window.activeTerminal) return this.nothing(vscode.l10n.t('No terminal is open. Open a terminal and select its text, then try again.'));
    const saved = await vscode.env.clipboard.readText();
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const text = await vscode.env.clipboard.readText();
    await vscode.env.clipboard.writeText(saved);
    if (!text.trim()) return this.nothing(vscode.l10n.t('Nothing is selected in the terminal. Select the text you want to attach, then try again.'));
    this.push(textAttachment(this.id(), 'terminal', vscode.window.activeTerminal.name, '', text, maxKB()));
    return true;
  }

  /** The "+" button: a quick pick of what can be attached. */
  async pick(): Promise<boolean> {
    type Item = vscode.QuickPickItem & { run: () => boolean | Promise<boolean> };
    const items: Item[] = [
      { label: `$(file) ${vscode.l10n.t('Current File')}`, run: () => this.addCurrentFile() },
      { label: `$(files) ${vscode.l10n.t('Open Editors')}`, run: () => this.addOpenEditors() },
      { label: `$(selection) ${vscode.l10n.t('Selection')}`, run: () => this.addSelection() },
      { label: `$(warning) ${vscode.l10n.t('Problems of the Current File')}`, run: () => this.addProblems() },
      { label: `$(terminal) ${vscode.l10n.t('Terminal Selection')}`, run: () => this.addTerminalSelection() },
      { label: `$(folder-opened) ${vscode.l10n.t('Files…')}`, run: () => this.pickFiles() },
    ];
    const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Attach to the Next Message'), placeHolder: vscode.l10n.t('What should the next message include?') });
    return choice ? choice.run() : false;
  }

  private async pickFiles(): Promise<boolean> {
    const uris = await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: vscode.l10n.t('Attach') });
    let any = false;
    for (const uri of uris ?? []) any = (await this.addFile(uri)) || any;
    return any;
  }

  /**
   * Files dropped on the chat: each URI that a file system of this window reads is attached like a
   * file from the Explorer (folders refused with a message); anything else is named and left out.
   */
  async addDropped(uris: readonly string[], total: number, outsideFiles: number): Promise<number> {
    if (!uris.length) {
      this.nothing(
        outsideFiles > 0
          ? vscode.l10n.t('Files dragged from outside VS Code cannot be attached here. Drag them from the Explorer or an editor tab (hold Shift while dropping), or use "+" > Files….')
          : vscode.l10n.t('Nothing in what was dropped can be attached. Drag files from the Explorer or an editor tab, holding Shift while dropping.'),
      );
      return 0;
    }
    const refused: string[] = [];
    let added = 0;
    for (const raw of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(raw, true);
      } catch {
        refused.push(raw);
        continue;
      }
      if (vscode.workspace.fs.isWritableFileSystem(uri.scheme) === undefined) {
        refused.push(raw);
        continue;
      }
      if (await this.addFile(uri)) added++;
    }
    if (refused.length) {
      const shown = refused.slice(0, 3).map((r) => (r.length > 80 ? `${r.slice(0, 77)}…` : r));
      void vscode.window.showWarningMessage(vscode.l10n.t('Only files can be attached; left out: {0}', shown.join(', ') + (refused.length > 3 ? ', …' : '')));
    }
    if (total > uris.length) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} files were dropped; the first {1} were taken. Attach the others in a second drop.', String(total), String(uris.length)));
    }
    return added;
  }

  private nothing(message: string): false {
    void vscode.window.showInformationMessage(message);
    return false;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Commands of the editor and Explorer context menus. */
export function registerContextCommands(attachments: ContextAttachments, reveal: () => Promise<void>): vscode.Disposable[] {
  const then = async (added: boolean | Promise<boolean>): Promise<void> => {
    if (await added) await reveal();
  };
  return [
    vscode.commands.registerCommand('aiChat.addContext', () => then(attachments.pick())),
    vscode.commands.registerCommand('aiChat.addFileToChat', (uri?: vscode.Uri, all?: vscode.Uri[]) => {
      const uris = all?.length ? all : uri instanceof vscode.Uri ? [uri] : [];
      if (!uris.length) return then(attachments.addCurrentFile());
      return then(uris.reduce<Promise<boolean>>(async (acc, u) => (await attachments.addFile(u)) || (await acc), Promise.resolve(false)));
    }),
    vscode.commands.registerCommand('aiChat.addSelectionToChat', () => then(attachments.addSelection())),
    vscode.commands.registerCommand('aiChat.addProblemsToChat', (uri?: vscode.Uri) => then(attachments.addProblems(uri instanceof vscode.Uri ? uri : undefined))),
  ];
}
