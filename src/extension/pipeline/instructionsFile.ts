// The project instructions file (AGENTS.md, or aiChat.instructionsFile) of the first workspace
// folder: read, watched, turned off per workspace. What it means is in src/core/context/instructions.ts.
import * as vscode from 'vscode';
import {
  DEFAULT_INSTRUCTIONS_FILE,
  instructionsStatusText,
  locateInstructions,
  readInstructions,
  secretLikeName,
  systemPromptWith,
  INSTRUCTIONS_MAX_BYTES,
  type InstructionsInput,
  type ProjectInstructions,
} from '../../core';
import type { InstructionsView } from '../../protocol';
import type { Logger } from '../platform/log';

const OFF_KEY = 'aiChat.instructionsOff';
const NONE: ProjectInstructions = { state: 'missing', name: DEFAULT_INSTRUCTIONS_FILE, bytes: 0, cut: false };

export class InstructionsService implements vscode.Disposable {
  private value: ProjectInstructions = NONE;
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** The latest read (a change while reading reads again). */
  private reading: Promise<void> | undefined;
  private again = false;
  /** Settles once the first read is done: before it, the service says "missing" whatever the file. */
  readonly ready: Promise<void>;

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly logger: Logger,
  ) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('aiChat.instructionsFile')) void this.watch();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.watch()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh()),
    );
    this.ready = this.watch().catch(() => undefined);
  }

  get current(): ProjectInstructions {
    return this.value;
  }

  /** The system prompt to send: the user's own, then the instructions when they are active. */
  systemPrompt(own: string): string {
    return systemPromptWith(own, this.value);
  }

  /** What the panel shows; undefined when the workspace has no instructions file. */
  view(): InstructionsView | undefined {
    const text = instructionsStatusText(this.value);
    if (text === undefined) return undefined;
    // The protocol's maxima (a long name from a setting must not drop the whole settings message).
    const cut = (t: string, max: number) => (t.length > max ? `${t.slice(0, max - 1)}…` : t);
    return { name: cut(this.value.name, 300), active: this.value.state === 'active', off: this.value.state === 'off', text: cut(text, 1000) };
  }

  private fileName(): string {
    const v = vscode.workspace.getConfiguration('aiChat').get<string>('instructionsFile');
    return typeof v === 'string' && v.trim() ? v.trim() : DEFAULT_INSTRUCTIONS_FILE;
  }

  /** The file's URI: relative names from the first workspace folder, never above it. */
  uri(): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const name = this.fileName();
    if (!folder) return undefined;
    const parts = name.split(/[\\/]+/).filter((p) => p && p !== '.');
    if (parts.includes('..') || /^([a-z]:|[\\/])/i.test(name)) return undefined;
    return vscode.Uri.joinPath(folder.uri, ...parts);
  }

  private watch(): Promise<void> {
    this.watcher?.dispose();
    this.watcher = undefined;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) {
      this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, this.fileName()));
      const reread = () => void this.refresh();
      this.watcher.onDidCreate(reread);
      this.watcher.onDidChange(reread);
      this.watcher.onDidDelete(reread);
    }
    return this.refresh();
  }

  /** Reads the file again (also on save, create and delete). */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const name = this.fileName();
    const trusted = vscode.workspace.isTrusted;
    const enabled = !this.workspaceState.get<boolean>(OFF_KEY, false);
    // Read only when it will be sent; otherwise only whether it is there.
    const read = trusted && enabled;
    let found: Omit<InstructionsInput, 'name' | 'trusted' | 'enabled'> = { content: undefined };
    if (folder?.uri.scheme === 'file') found = await locateInstructions(folder.uri.fsPath, name, read);
    else if (folder) found = await this.locateVirtual(name, read);
    const next = readInstructions({ name, trusted, enabled, ...found });
    const before = this.value;
    this.value = next;
    if (before.state !== next.state || before.text !== next.text || before.name !== next.name || before.bytes !== next.bytes || before.resolved !== next.resolved) {
      this.logger.info('Project instructions', { name: next.name, state: next.state, bytes: next.bytes, cut: next.cut, ...(next.refused ? { refused: next.refused } : {}) });
      this.changed.fire();
    }
  }

  /**
   * A folder that is not on this computer's disk (a virtual file system): links are refused
   * outright (their target cannot be checked), the rest as on disk; read only when sent.
   */
  private async locateVirtual(name: string, read: boolean): Promise<Omit<InstructionsInput, 'name' | 'trusted' | 'enabled'>> {
    const uri = this.uri();
    if (!uri) return { content: undefined };
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch (err) {
      return { content: err instanceof vscode.FileSystemError && err.code === 'FileNotFound' ? undefined : (err as Error) };
    }
    if (secretLikeName(name)) return { content: undefined, refused: 'secret' };
    if (stat.type & vscode.FileType.SymbolicLink) return { content: undefined, refused: 'outside' };
    if (!(stat.type & vscode.FileType.File)) return { content: undefined, refused: 'special' };
    if (!read) return { content: new Uint8Array(0), size: stat.size };
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      return { content: bytes.subarray(0, INSTRUCTIONS_MAX_BYTES + 4), size: bytes.length };
    } catch (err) {
      return { content: err as Error };
    }
  }

  /** Opens the file in an editor. */
  async open(): Promise<void> {
    await this.ready;
    const uri = this.uri();
    if (!uri || this.value.state === 'missing') {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no {0} at the root of this workspace.', this.fileName()));
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: false });
  }

  /** Turns the instructions off for this workspace, or on again. */
  async toggle(): Promise<void> {
    const off = !this.workspaceState.get<boolean>(OFF_KEY, false);
    await this.workspaceState.update(OFF_KEY, off);
    await this.refresh();
    void vscode.window.setStatusBarMessage(
      off
        ? vscode.l10n.t('AI Chat: {0} is no longer sent in this workspace', this.fileName())
        : vscode.l10n.t('AI Chat: {0} is sent as instructions again', this.fileName()),
      4000,
    );
  }

  dispose(): void {
    this.watcher?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
