// The codebase index as the extension sees it: a worker thread (dist/codebaseWorker.js) that
// builds and keeps each workspace folder's index in this workspace's storage, told of every save,
// creation, deletion and rename; started only in a trusted workspace with aiChat.codebase.enabled
// on, stopped when either changes; and the status bar item "Indexing… N of M" that pauses it.
import * as nodePath from 'node:path';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { FromWorker, NameMatch, RootMatch, ToWorker, WorkerRoot } from '../../core';
import { enabledGlobs } from '../platform/editorFacts';
import type { Logger } from '../platform/log';

export type IndexState = 'off' | 'untrusted' | 'building' | 'paused' | 'ready';

/** While the user types in an editor, the build reads nothing until this long after the last key. */
const TYPING_REST_MS = 1000;
/** Most one rest message per this long (a key every few milliseconds sends a few a second). */
const REST_EVERY_MS = 250;
/** Documents the user types in (not output channels, logs or settings views). */
const TYPED_SCHEMES = new Set(['file', 'untitled', 'vscode-notebook-cell', 'vscode-remote']);

/** A name a file of the workspace defines. */
export interface CodebaseName {
  name: string;
  /** 1-based. */
  line: number;
  uri: vscode.Uri;
}

export interface CodebaseMatch extends RootMatch {
  uri: vscode.Uri;
  /** Relative to its workspace folder (with the folder's name in a workspace of several). */
  label: string;
}

export interface CodebaseServiceOptions {
  /** dist/codebaseWorker.js. */
  workerFile: string;
  /** This workspace's storage (context.storageUri); none: the index is kept in memory only. */
  storage: vscode.Uri | undefined;
  logger: Logger;
}


export class CodebaseService implements vscode.Disposable {
  private worker: Worker | undefined;
  private roots: readonly vscode.WorkspaceFolder[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, (matches: RootMatch[]) => void>();
  private readonly waitingNames = new Map<number, (hits: Array<NameMatch & { root: number }>) => void>();
  private progress = { done: 0, total: 0 };
  private stateValue: IndexState = 'off';
  private idleWaiters: (() => void)[] = [];
  private busy = false;
  private lastRest = 0;
  private readonly item = vscode.window.createStatusBarItem('aiChat.codebase', vscode.StatusBarAlignment.Left, -100);
  private readonly changedState = new vscode.EventEmitter<IndexState>();
  readonly onDidChangeState = this.changedState.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: CodebaseServiceOptions) {
    this.item.name = vscode.l10n.t('AI Chat: Codebase Index');
    this.item.command = 'aiChat.codebase.togglePause';
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.disposables.push(
      this.item,
      this.changedState,
      watcher,
      watcher.onDidCreate((uri) => this.tell(uri, 'changed')),
      watcher.onDidChange((uri) => this.tell(uri, 'changed')),
      watcher.onDidDelete((uri) => this.tell(uri, 'deleted')),
      vscode.workspace.onDidSaveTextDocument((doc) => this.tell(doc.uri, 'changed')),
      vscode.workspace.onDidChangeTextDocument((e) => this.typed(e)),
      vscode.workspace.onDidRenameFiles((e) => {
        for (const { oldUri, newUri } of e.files) {
          this.tell(oldUri, 'deleted');
          this.tell(newUri, 'changed');
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.restart()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('aiChat.codebase.enabled') || e.affectsConfiguration('files.exclude') || e.affectsConfiguration('search.exclude')) this.restart();
      }),
    );
    this.restart();
  }

  get state(): IndexState {
    return this.stateValue;
  }

  /** Files read so far of those to read (while building). */
  get counts(): { done: number; total: number } {
    return this.progress;
  }

  private setState(state: IndexState): void {
    this.stateValue = state;
    void vscode.commands.executeCommand('setContext', 'aiChat.codebaseIndexing', state === 'building' || state === 'paused');
    this.showItem();
    this.changedState.fire(state);
  }

  private showItem(): void {
    const { done, total } = this.progress;
    if (this.stateValue === 'building') {
      this.item.text = `$(database) ${vscode.l10n.t('Indexing… {0} of {1}', done.toLocaleString(), total.toLocaleString())}`;
      this.item.tooltip = vscode.l10n.t('AI Chat indexes this workspace on this machine, for Find Files for a Question. Nothing is sent. Click to pause.');
      this.item.show();
    } else if (this.stateValue === 'paused') {
      this.item.text = `$(debug-pause) ${vscode.l10n.t('Indexing paused, {0} of {1}', done.toLocaleString(), total.toLocaleString())}`;
      this.item.tooltip = vscode.l10n.t('Click to resume indexing this workspace.');
      this.item.show();
    } else this.item.hide();
  }

  /** Starts (or stops) the worker as the trust, the setting and the folders now say. */
  restart(): void {
    this.stop();
    if (!vscode.workspace.getConfiguration('aiChat').get<boolean>('codebase.enabled', true)) return this.setState('off');
    if (!vscode.workspace.isTrusted) return this.setState('untrusted');
    this.roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    if (!this.roots.length) return this.setState('off');
    const roots: WorkerRoot[] = this.roots.map((folder) => ({
      path: folder.uri.fsPath,
      ...(this.options.storage ? { storageFile: nodePath.join(this.options.storage.fsPath, 'codebase', `${hash(folder.uri.fsPath)}.idx`) } : {}),
      excludes: [...enabledGlobs(vscode.workspace.getConfiguration('files', folder).get('exclude')), ...enabledGlobs(vscode.workspace.getConfiguration('search', folder).get('exclude'))],
    }));
    const worker = new Worker(this.options.workerFile);
    this.worker = worker;
    worker.on('message', (message: FromWorker) => this.received(message));
    worker.on('error', (err) => {
      this.options.logger.error('Codebase index stopped', { error: String(err) });
      if (this.worker === worker) this.stop();
    });
    this.progress = { done: 0, total: 0 };
    this.busy = true;
    this.setState('building');
    this.send({ type: 'start', roots });
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      worker.postMessage({ type: 'save' } satisfies ToWorker);
      // The worker writes its index, then ends (a torn write cannot happen: it renames a whole file).
      setTimeout(() => void worker.terminate(), 3000).unref?.();
    }
    for (const resolve of this.waiting.values()) resolve([]);
    this.waiting.clear();
    for (const resolve of this.waitingNames.values()) resolve([]);
    this.waitingNames.clear();
    this.busy = false;
    this.releaseIdle();
  }

  private send(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private received(message: FromWorker): void {
    switch (message.type) {
      case 'progress':
        this.progress = { done: message.done, total: message.total };
        if (this.stateValue === 'building' || this.stateValue === 'paused') this.showItem();
        return;
      case 'ready':
        this.options.logger.info('Codebase index ready', { files: message.files, ms: Math.round(message.ms), fromDisk: message.fromDisk });
        this.setState('ready');
        return;
      case 'idle':
        this.busy = false;
        this.releaseIdle();
        return;
      case 'results':
        this.waiting.get(message.id)?.(message.matches);
        this.waiting.delete(message.id);
        return;
      case 'names':
        this.waitingNames.get(message.id)?.(message.hits);
        this.waitingNames.delete(message.id);
        return;
      case 'saved':
        return;
      case 'error':
        this.options.logger.warn('Codebase index', { error: message.message });
        return;
    }
  }

  private releaseIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves once every change told so far is in the index (or the index is off). */
  whenIdle(): Promise<void> {
    if (!this.worker || !this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private tell(uri: vscode.Uri, kind: 'changed' | 'deleted'): void {
    if (!this.worker || uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const root = folder ? this.roots.findIndex((r) => r.uri.toString() === folder.uri.toString()) : -1;
    if (!folder || root < 0) return;
    const path = nodePath.relative(folder.uri.fsPath, uri.fsPath).split(nodePath.sep).join('/');
    if (!path || path.startsWith('..')) return;
    this.busy = true;
    this.send({ type: kind, root, path });
  }

  /** A key typed in an editor while the index builds: the build rests so the editor has the CPU. */
  private typed(e: vscode.TextDocumentChangeEvent): void {
    if (this.stateValue !== 'building' || !e.contentChanges.length || !TYPED_SCHEMES.has(e.document.uri.scheme)) return;
    const now = Date.now();
    if (now - this.lastRest < REST_EVERY_MS) return;
    this.lastRest = now;
    this.send({ type: 'rest', ms: TYPING_REST_MS });
  }

  togglePause(): void {
    if (this.stateValue === 'building') {
      this.send({ type: 'pause' });
      this.setState('paused');
    } else if (this.stateValue === 'paused') {
      this.send({ type: 'resume' });
      this.setState('building');
    }
  }

  /** The files that best answer the question, best first (from what is indexed so far). */
  async search(question: string, limit = 20): Promise<CodebaseMatch[]> {
    if (!this.worker) return [];
    const id = this.nextId++;
    const matches = await new Promise<RootMatch[]>((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ type: 'search', id, question, limit });
    });
    const several = this.roots.length > 1;
    return matches.flatMap((m) => {
      const folder = this.roots[m.root];
      if (!folder) return [];
      return [{ ...m, uri: vscode.Uri.joinPath(folder.uri, ...m.path.split('/')), label: several ? `${folder.name}/${m.path}` : m.path }];
    });
  }

  /**
   * The names the workspace's files define that match `query` (starting with it first), each with
   * its file and line, from what is indexed so far: at once, where a language server takes its time.
   */
  async names(query: string, limit = 15): Promise<CodebaseName[]> {
    if (!this.worker || !query) return [];
    const id = this.nextId++;
    const hits = await new Promise<Array<NameMatch & { root: number }>>((resolve) => {
      this.waitingNames.set(id, resolve);
      this.send({ type: 'names', id, query, limit });
    });
    return hits.flatMap((h) => {
      const folder = this.roots[h.root];
      return folder ? [{ name: h.name, line: h.line, uri: vscode.Uri.joinPath(folder.uri, ...h.path.split('/')) }] : [];
    });
  }

  dispose(): void {
    this.stop();
    for (const d of this.disposables) d.dispose();
  }
}

/** A short name for a folder's index file. */
function hash(text: string): string {
  let h = 2166136261;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
  return (h >>> 0).toString(36);
}
