// The project instructions file (AGENTS.md, or aiChat.instructionsFile) of the first workspace
// folder: read, watched, turned off per workspace. What it means is in src/core/instructions.ts.
import * as vscode from 'vscode';
import {
  DEFAULT_INSTRUCTIONS_FILE,
  instructionsStatusText,
  readInstructions,
  systemPromptWith,
  type ProjectInstructions,
} from '../core';
import type { InstructionsView } from '../protocol';
import type { Logger } from './log';

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

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly logger: Logger,
  ) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('aiChat.instructionsFile')) this.watch();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.watch()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh()),
    );
    this.watch();
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
    return { name: this.value.name, active: this.value.state === 'active', off: this.value.state === 'off', text };
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

  private watch(): void {
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
    void this.refresh();
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
    const uri = this.uri();
    let content: Uint8Array | Error | undefined;
    if (uri) {
      try {
        content = await vscode.workspace.fs.readFile(uri);
      } catch (err) {
        content = err instanceof vscode.FileSystemError && err.code === 'FileNotFound' ? undefined : (err as Error);
      }
    }
    const next = readInstructions({
      name: this.fileName(),
      content,
      trusted: vscode.workspace.isTrusted,
      enabled: !this.workspaceState.get<boolean>(OFF_KEY, false),
    });
    const before = this.value;
    this.value = next;
    if (before.state !== next.state || before.text !== next.text || before.name !== next.name || before.bytes !== next.bytes) {
      this.logger.info('Project instructions', { name: next.name, state: next.state, bytes: next.bytes, cut: next.cut });
      this.changed.fire();
    }
  }

  /** Opens the file in an editor. */
  async open(): Promise<void> {
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
