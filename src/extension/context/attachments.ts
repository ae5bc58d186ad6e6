// The attachments of the next message (the chips above the message box) and the gatherers
// that make them from the editor, the Problems and the terminal.
import * as vscode from 'vscode';
import {
  addPin,
  attachmentLimitMessage,
  chooseFolderFiles,
  folderMessage,
  MAX_ATTACHED_CHARS,
  MAX_ATTACHMENTS,
  MAX_FOLDER_FILES,
  type FolderEntry,
  attachmentRoom,
  chipLabel,
  fileAttachment,
  pinOf,
  problemsAttachment,
  rangeAttachments,
  rangeName,
  removePin,
  readFileAttachment,
  readThroughClipboard,
  replaces,
  textAttachment,
  workspaceFilesOf,
  type Attachment,
  type FileResult,
} from '../../core';
import type { ContextChip } from '../../protocol';
import { MAX_VIRTUAL_FILE_BYTES, chipDiagnostics, fit, maxKB, relPath } from '../platform/editorFacts';
import { linkLeadingOut } from './linkLeadingOut';
import { PinnedContext, type PinPort } from './pinnedContext';
import { pickSymbol, symbolChip, type SymbolHit } from './symbols';

type AddOutcome = 'added' | 'failed' | 'count' | 'size';

export class ContextAttachments implements vscode.Disposable {
  private items: Attachment[] = [];
  private next = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** The files and ranges pinned to the conversation shown (none without a pin port). */
  private readonly pins: PinnedContext | undefined;

  /**
   * `editor`: the text editor the user last worked in (the chat itself may have the focus);
   * `pins`: where the conversation shown keeps its pins.
   */
  constructor(
    private readonly editor: () => vscode.TextEditor | undefined = () => vscode.window.activeTextEditor,
    pins?: PinPort,
    /** Characters the next request can still hold for a folder's files (the model's budget). */
    private readonly folderBudget: () => number = () => MAX_ATTACHED_CHARS,
    /** Where what was not attached, and why, is said: a notification, unless the caller says it elsewhere (@aichat: in its reply). */
    private readonly tell: (message: string, severity: 'info' | 'warning' | 'error') => void = (message, severity) =>
      void (severity === 'error' ? vscode.window.showErrorMessage(message) : severity === 'warning' ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message)),
  ) {
    this.pins = pins && new PinnedContext(pins, () => this.id());
  }

  /** The chips of the next message (pins not included: they are the conversation's). */
  get attachments(): readonly Attachment[] {
    return this.items;
  }

  /** What the next message would carry as last read: the pins, then the chips (the context meter). */
  forMeter(): readonly Attachment[] {
    return [...(this.pins?.last() ?? []), ...this.items];
  }

  /** The pins read again now (a send: never a stale copy); their chips show the new sizes. */
  async pinned(): Promise<readonly Attachment[]> {
    if (!this.pins?.port.get().length) return [];
    const read = await this.pins.refresh();
    this.changed.fire();
    return read;
  }

  /** The conversation shown changed (another one, or its pins): the pins are read again. */
  pinsChanged(): void {
    void this.pinned().catch(() => undefined);
  }

  /** A document changed: a pin of it is read again (the meter counts the new text). */
  documentChanged(uri: vscode.Uri): void {
    if (this.pins?.touches(uri)) this.pinsChanged();
  }

  chips(): ContextChip[] {
    const pins = this.pins;
    const pinned: ContextChip[] = (pins?.port.get() ?? []).map((p) => {
      const a = pins?.last().find((x) => x.id === pins.idOf(p));
      const name = p.kind === 'range' ? (p.symbol ?? rangeName(p.path, p.startLine ?? 1, p.endLine ?? 1)) : p.path.split(/[\\/]/).pop() || p.path;
      const kept = vscode.l10n.t('kept for this conversation, no extra credits');
      const leadsTo = pins?.leadsOut(p);
      const detail = a
        ? `${chipLabel(a).detail} · ${kept}`
        : leadsTo
          ? vscode.l10n.t('a link to {0}, outside the workspace: nothing of it is sent', leadsTo)
          : pins?.missing(p)
            ? vscode.l10n.t('not found: nothing of it is sent')
            : kept;
      return { id: pins?.idOf(p) ?? '', icon: 'pinned', name: fit(name, 300), detail: fit(detail, 300), path: fit(p.path, 2000), pinned: true };
    });
    return [
      ...pinned,
      ...this.items.map((a) => {
        const label = chipLabel(a);
        return { id: a.id, icon: label.icon, name: fit(label.name, 300), detail: fit(label.detail, 300), path: fit(a.path, 2000), ...(pinOf(a) && this.pins ? { pinnable: true } : {}) };
      }),
    ];
  }

  /** A chip pinned to the conversation: it leaves the chips of the next message and goes with every message. */
  pin(id: string): void {
    const a = this.items.find((x) => x.id === id);
    const pin = a && pinOf(a);
    if (!this.pins || !a || !pin) return;
    this.pins.port.set(addPin(this.pins.port.get(), pin));
    this.items = this.items.filter((x) => x !== a);
    this.changed.fire();
    this.pinsChanged();
  }

  remove(id: string): void {
    const pin = this.pins?.pinById(id);
    if (pin && this.pins) {
      this.pins.port.set(removePin(this.pins.port.get(), pin));
      this.changed.fire();
      return;
    }
    const before = this.items.length;
    this.items = this.items.filter((a) => a.id !== id);
    if (this.items.length !== before) this.changed.fire();
  }

  clear(): void {
    if (!this.items.length) return;
    this.items = [];
    this.changed.fire();
  }

  /**
   * Exactly these attachments went with a message, sent or queued: take them off (new ones added
   * meanwhile stay). The panel calls it as soon as the message is queued too, or the files would
   * go out again with the next message.
   */
  sent(attachments: readonly Attachment[]): void {
    const ids = new Set(attachments.map((a) => a.id));
    this.items = this.items.filter((a) => !ids.has(a.id));
    this.changed.fire();
  }

  private id(): string {
    return `ctx_${this.next++}`;
  }

  /** Adds a chip unless the message would hold too many or too much (then says nothing: the caller does). */
  private push(a: Attachment): AddOutcome {
    const room = attachmentRoom(this.items, a);
    if (room !== 'ok') return room;
    this.items = this.items.filter((o) => !replaces(a, o));
    this.items.push(a);
    this.changed.fire();
    return 'added';
  }

  /** Adds one chip, telling the user when a limit left it out. */
  private pushOne(a: Attachment): boolean {
    const outcome = this.push(a);
    if (outcome === 'count' || outcome === 'size') this.tell(attachmentLimitMessage(outcome, [a.path]), 'warning');
    return outcome === 'added';
  }

  /** A file from disk or an open document (the editor's unsaved text when it is open). */
  async addFile(uri: vscode.Uri): Promise<boolean> {
    return this.addFiles([uri]).then((n) => n > 0);
  }

  /** Several files; one message for those a limit left out. Returns how many were attached. */
  async addFiles(uris: readonly vscode.Uri[]): Promise<number> {
    let added = 0;
    const leftOut: string[] = [];
    let reason: 'count' | 'size' = 'count';
    for (const uri of uris) {
      const outcome = await this.addFileOutcome(uri);
      if (outcome === 'added') added++;
      else if (outcome === 'count' || outcome === 'size') {
        reason = leftOut.length ? reason : outcome;
        leftOut.push(relPath(uri));
      }
    }
    if (leftOut.length) this.tell(attachmentLimitMessage(reason, leftOut), 'warning');
    return added;
  }

  private async addFileOutcome(uri: vscode.Uri): Promise<AddOutcome> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    let result: FileResult;
    const leadsTo = await linkLeadingOut(uri);
    if (leadsTo) {
      // A workspace (a cloned repository, say) can hold a link to a file of the machine: its name
      // looks like the workspace's, its content would not be.
      this.tell(
        vscode.l10n.t('{0} is a link to {1}, outside the workspace, and was not attached. If you mean to send that file, attach it itself with "+" > Files….', relPath(uri), leadsTo),
        'warning',
      );
      return 'failed';
    }
    try {
      if (open) {
        // Already in memory: only the part that is kept is encoded.
        const text = open.getText();
        const max = maxKB() * 1024 + 4;
        const bytes = new TextEncoder().encode(text.length > max ? text.slice(0, max) : text);
        const size = text.length > max ? new TextEncoder().encode(text).length : bytes.length;
        result = fileAttachment(this.id(), relPath(uri), bytes, maxKB(), open.languageId, size);
      } else {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type & vscode.FileType.Directory) return (await this.addFolder(uri)) > 0 ? 'added' : 'failed';
        if (uri.scheme === 'file') {
          // Only what is kept is read (F1): a stat, then maxFileKB and a few bytes.
          result = await readFileAttachment(this.id(), relPath(uri), uri.fsPath, maxKB());
        } else if (stat.size > MAX_VIRTUAL_FILE_BYTES) {
          this.tell(
            vscode.l10n.t('{0} is {1} MB, too large to read from this file system. Select the part you need and attach the selection.', relPath(uri), (stat.size / 1e6).toFixed(0)),
            'warning',
          );
          return 'failed';
        } else {
          result = fileAttachment(this.id(), relPath(uri), await vscode.workspace.fs.readFile(uri), maxKB());
        }
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOTFILE') {
        this.tell(vscode.l10n.t('{0} is not a regular file and was not attached.', relPath(uri)), 'warning');
        return 'failed';
      }
      this.tell(vscode.l10n.t('Could not read {0}: {1}. Check that the file exists and can be read, then attach it again.', relPath(uri), String(err)), 'error');
      return 'failed';
    }
    if (!result.ok) {
      this.tell(result.message, 'warning');
      return 'failed';
    }
    return this.push(result.attachment);
  }

  /**
   * A folder: its files (files.exclude applies) as file chips, shallow first, as many as the
   * budget left for the next message holds; what was left out is named. Returns how many went.
   */
  async addFolder(uri: vscode.Uri): Promise<number> {
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*'), undefined, MAX_FOLDER_FILES + 1);
    const listed = files.slice(0, MAX_FOLDER_FILES);
    const entries: Array<FolderEntry & { uri: vscode.Uri }> = [];
    for (const f of listed) {
      const stat = await Promise.resolve(vscode.workspace.fs.stat(f)).catch(() => undefined);
      if (stat && stat.type & vscode.FileType.File) entries.push({ path: relPath(f), bytes: stat.size, uri: f });
    }
    const used = this.forMeter().reduce((n, a) => n + a.content.length, 0);
    const budget = Math.max(0, Math.min(this.folderBudget() - used, MAX_ATTACHED_CHARS - used));
    const choice = chooseFolderFiles(entries, budget, MAX_ATTACHMENTS - this.items.length, maxKB() * 1024);
    const byPath = new Map(entries.map((e) => [e.path, e.uri]));
    const added = await this.addFiles(choice.take.map((e) => byPath.get(e.path) as vscode.Uri));
    const note = folderMessage(relPath(uri), choice, entries.length, files.length > MAX_FOLDER_FILES ? MAX_FOLDER_FILES : undefined);
    if (note) this.tell(note, 'info');
    else if (!entries.length) this.tell(vscode.l10n.t('{0} has no files to attach.', relPath(uri)), 'info');
    return added;
  }

  async addCurrentFile(): Promise<boolean> {
    const editor = this.editor();
    if (!editor) return this.nothing(vscode.l10n.t('No file is open in the editor. Open the file you want to attach, then try again.'));
    return this.addFile(editor.document.uri);
  }

  /** The files of the workspace open in editor tabs; the other tabs are named and left out. */
  async addOpenEditors(): Promise<boolean> {
    const uris = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined))
      .filter((u): u is vscode.Uri => !!u);
    const unique = [...new Map(uris.map((u) => [u.toString(), u])).values()];
    if (!unique.length) return this.nothing(vscode.l10n.t('No files are open in the editor. Open the files you want to attach, then try again.'));
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const { files, others } = workspaceFilesOf(unique, folders);
    if (others.length) {
      const names = others.slice(0, 3).map((u) => (u.scheme === 'file' ? u.fsPath : u.path.split('/').pop() || u.toString()));
      this.tell(
        vscode.l10n.t('Open Editors attaches only files of this workspace; left out: {0}. Attach one of them with "+" > Files… if you mean it.', names.join(', ') + (others.length > 3 ? ', …' : '')),
        'info',
      );
    }
    if (!files.length) return false;
    return (await this.addFiles(files)) > 0;
  }

  /**
   * Each non-empty selection of the editor as its own chip ("src/a.ts:12-40"), with its exact
   * text; chips of other files and earlier selections stay (the same lines again replace theirs).
   */
  addSelection(): boolean {
    const editor = this.editor();
    const doc = editor?.document;
    const selections = (editor?.selections ?? []).filter((s) => !s.isEmpty);
    if (!doc || !selections.length) return this.nothing(vscode.l10n.t('Nothing is selected in the editor. Select the code you want to attach, then try again.'));
    const ranges = rangeAttachments(() => this.id(), relPath(doc.uri), doc.languageId, selections.map((s) => ({ start: s.start, end: s.end, text: doc.getText(s) })), maxKB());
    return this.pushAll(ranges) > 0;
  }

  /** Chips made elsewhere (Git changes, the workspace's Problems), each given its id here, added in order; returns how many went. */
  addMade(items: readonly Attachment[]): number {
    return this.pushAll(items.map((a) => ({ ...a, id: this.id() })));
  }

  /** Adds chips in order; one message names those a limit left out. Returns how many were added. */
  private pushAll(items: readonly Attachment[]): number {
    let added = 0;
    const leftOut: string[] = [];
    let reason: 'count' | 'size' = 'count';
    for (const a of items) {
      const outcome = this.push(a);
      if (outcome === 'added') added++;
      else if (outcome === 'count' || outcome === 'size') {
        reason = leftOut.length ? reason : outcome;
        leftOut.push(chipLabel(a).name);
      }
    }
    if (leftOut.length) this.tell(attachmentLimitMessage(reason, leftOut), 'warning');
    return added;
  }

  addProblems(uri?: vscode.Uri): boolean {
    const target = uri ?? this.editor()?.document.uri;
    if (!target) return this.nothing(vscode.l10n.t('No file is open in the editor. Open the file whose problems you want to attach, then try again.'));
    const diagnostics = chipDiagnostics(vscode.languages.getDiagnostics(target));
    if (!diagnostics.length) return this.nothing(vscode.l10n.t('{0} has no problems to attach.', relPath(target)));
    return this.pushOne(problemsAttachment(this.id(), relPath(target), diagnostics, maxKB()));
  }

  /** The terminal's selection, read through the clipboard (its text is put back whatever happens). */
  async addTerminalSelection(): Promise<boolean> {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return this.nothing(vscode.l10n.t('No terminal is open. Open a terminal and select its text, then try again.'));
    let text: string;
    try {
      text = await readThroughClipboard(vscode.env.clipboard, () => vscode.commands.executeCommand('workbench.action.terminal.copySelection'));
    } catch (err) {
      this.tell(vscode.l10n.t('The terminal selection could not be copied: {0}', String(err)), 'error');
      return false;
    }
    if (!text.trim()) return this.nothing(vscode.l10n.t('Nothing is selected in the terminal. Select the text you want to attach, then try again.'));
    return this.pushOne(textAttachment(this.id(), 'terminal', terminal.name, '', text, maxKB()));
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
      { label: `$(symbol-method) ${vscode.l10n.t('Symbol…')}`, description: vscode.l10n.t('a function or class, by name'), run: () => this.addSymbol() },
      { label: `$(folder) ${vscode.l10n.t('Folder…')}`, description: vscode.l10n.t('its files, as many as the model\'s budget holds'), run: () => this.pickFolder() },
      {
        label: `$(search-fuzzy) ${vscode.l10n.t('Files for the Question…')}`,
        description: vscode.l10n.t('found on this machine, nothing sent'),
        run: async () => ((await vscode.commands.executeCommand<number>('aiChat.findCodebaseFiles')) ?? 0) > 0,
      },
    ];
    const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Attach to the Next Message'), placeHolder: vscode.l10n.t('What should the next message include?') });
    return choice ? choice.run() : false;
  }

  /** A symbol picked by name (the current file's, or the workspace's as you type) as a range chip named by it. */
  async addSymbol(hit?: SymbolHit): Promise<boolean> {
    const chosen = hit ?? (await pickSymbol(this.editor()?.document));
    if (!chosen) return false;
    return this.pushOne(await symbolChip(chosen, this.id()));
  }

  async pickFolder(): Promise<boolean> {
    const uris = await vscode.window.showOpenDialog({ canSelectFiles: false, canSelectFolders: true, openLabel: vscode.l10n.t('Attach') });
    return uris?.[0] ? (await this.addFolder(uris[0])) > 0 : false;
  }

  async pickFiles(): Promise<boolean> {
    const uris = await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: vscode.l10n.t('Attach') });
    return (await this.addFiles(uris ?? [])) > 0;
  }

  /**
   * Files dropped on the chat: each URI that a file system of this window reads is attached like a
   * file from the Explorer (a folder: its files within the budget); anything else is named and left out.
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
    const files: vscode.Uri[] = [];
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
      files.push(uri);
    }
    const added = await this.addFiles(files);
    if (refused.length) {
      const shown = refused.slice(0, 3).map((r) => (r.length > 80 ? `${r.slice(0, 77)}…` : r));
      this.tell(vscode.l10n.t('Only files can be attached; left out: {0}', shown.join(', ') + (refused.length > 3 ? ', …' : '')), 'warning');
    }
    if (total > uris.length) {
      this.tell(vscode.l10n.t('{0} files were dropped; the first {1} were taken. Attach the others in a second drop.', String(total), String(uris.length)), 'warning');
    }
    return added;
  }

  private nothing(message: string): false {
    this.tell(message, 'info');
    return false;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
