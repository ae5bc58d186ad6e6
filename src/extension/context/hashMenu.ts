// The `#` menu's host: for each `#word` the box asks about, what can be attached (the actions of
// "+", and #codebase, #changes, #staged, #branch, #problems-all), then the workspace's files and
// folders whose paths match, then its symbols (a second answer: the language servers take longer;
// one symbol search at a time, for the newest word: see symbolsFor).
// A choice runs what "+" runs, or attaches the file, folder or symbol. The workspace's file list is
// read once (files.exclude applies) and read again after a file is created or deleted.
import * as vscode from 'vscode';
import { MAX_HASH_OPTIONS, foldersOf, hashActions, matchActions, problemsAttachment, rankPaths, type HashActionId } from '../../core';
import type { ContextOption, HostMessage } from '../../protocol';
import { chipDiagnostics, fit, maxKB, relPath } from '../platform/editorFacts';
import type { ContextAttachments } from './attachments';
import { changesChip, type ChangesKind } from './gitChanges';
import { findSymbols, type SymbolHit } from './symbols';

/** Most files the menu searches (a bigger workspace: the first this many, as findFiles gives them). */
const MAX_FILES = 50_000;
/** Most folders and symbols among the options. */
const MAX_FOLDERS = 8;
const MAX_SYMBOLS = 15;
/** Most files whose Problems #problems-all attaches (those with the most errors first). */
const MAX_PROBLEM_FILES = 20;
/** Answers kept for a choice. */
const KEPT_ANSWERS = 8;

/** The workspace's files by relative path, the paths, and the folders holding them. */
type FileList = { uris: ReadonlyMap<string, vscode.Uri>; all: readonly string[]; folders: readonly string[] };

type Choice = { option: ContextOption; run(question: string | undefined): Promise<unknown> };

export interface HashMenuDeps {
  attachments: ContextAttachments;
  /** The text editor the user last worked in. */
  editor(): vscode.TextEditor | undefined;
  post(message: Extract<HostMessage, { type: 'contextOptions' }>): void;
}

export class HashMenuHost implements vscode.Disposable {
  private files: Promise<FileList> | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;
  /** The options of the last few `#word`s asked about, by their number (the page drops a late answer;
   *  a page made again, as when the chat moves, counts from 0 again). */
  private readonly answers = new Map<number, Choice[]>();
  /** How many words were asked about (the newest is the one a symbol search is for). */
  private asked = 0;
  /** The symbol search under way (one at a time). */
  private symbolSearch: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: HashMenuDeps) {}

  /** The options for `query` (`seq`: the box's number for it): the actions and paths, then with the symbols. */
  async search(seq: number, query: string): Promise<void> {
    const asked = ++this.asked;
    const actions: Choice[] = matchActions(hashActions(), query).map((a) => ({
      option: { kind: 'action', icon: a.icon, label: a.name, detail: a.detail },
      run: (question) => this.runAction(a.id, question),
    }));
    const answer = (choices: Choice[], pending: boolean) => {
      const kept = choices.slice(0, MAX_HASH_OPTIONS);
      this.answers.delete(seq);
      this.answers.set(seq, kept);
      for (const old of this.answers.keys()) if (this.answers.size > KEPT_ANSWERS) this.answers.delete(old);
      this.deps.post({ type: 'contextOptions', seq, options: kept.map((c) => c.option), ...(pending ? { pending: true } : {}) });
    };
    if (!query) {
      answer(actions, false);
      // The file list is read while the word is typed (a large workspace takes a second).
      void this.fileList();
      return;
    }
    const wantsSymbols = query.length >= 2;
    // What is known at once goes first, so the menu opens while the file list is read.
    if (!this.files) answer(actions, true);
    const { uris: paths, all, folders: allFolders } = await this.fileList();
    const files: Choice[] = rankPaths(all, query).map((path) => ({
      option: { kind: 'file', icon: 'file', label: fit(path.slice(path.lastIndexOf('/') + 1), 300), detail: fit(path, 500) },
      run: () => this.deps.attachments.addFile(paths.get(path) as vscode.Uri),
    }));
    const folders: Choice[] = rankPaths(allFolders, query, MAX_FOLDERS).map((folder) => ({
      option: { kind: 'folder', icon: 'folder', label: fit(folder, 300) },
      run: () => {
        const uri = folderUri(paths, folder);
        return uri ? this.deps.attachments.addFolder(uri) : Promise.resolve(0);
      },
    }));
    const known = [...actions, ...files, ...folders];
    answer(known, wantsSymbols);
    if (!wantsSymbols) return;
    const hits = await this.symbolsFor(asked, query);
    if (!hits) return;
    const symbols: Choice[] = hits.slice(0, MAX_SYMBOLS).map((hit) => ({
      option: { kind: 'symbol', icon: 'symbol-method', label: fit(hit.name, 300), detail: fit(`${relPath(hit.uri)}:${hit.range.start.line + 1}${hit.container ? ` · ${hit.container}` : ''}`, 500) },
      run: () => this.deps.attachments.addSymbol(hit),
    }));
    // Symbols after the actions, before the files: a name typed is most often a function's.
    answer([...actions, ...symbols, ...files, ...folders], false);
  }

  /**
   * The workspace's symbols for `query`, one search at a time: a word typed while a search runs
   * waits for it, and is dropped (undefined) when a newer word came meanwhile. The language servers
   * answer in turn, so each letter typed would otherwise queue a search the menu no longer shows.
   */
  private symbolsFor(asked: number, query: string): Promise<SymbolHit[] | undefined> {
    const turn = this.symbolSearch.then(() => (asked < this.asked ? undefined : findSymbols(query).catch((): SymbolHit[] => [])));
    this.symbolSearch = turn;
    return turn;
  }

  /** Runs the option `index` of the answer to `seq` (one no longer kept: nothing). */
  async choose(seq: number, index: number, question: string | undefined): Promise<void> {
    const choice = this.answers.get(seq)?.[index];
    if (choice) await choice.run(question);
  }

  private runAction(id: HashActionId, question: string | undefined): Promise<unknown> {
    const a = this.deps.attachments;
    switch (id) {
      case 'codebase':
        return Promise.resolve(vscode.commands.executeCommand('aiChat.findCodebaseFiles', ...(question?.trim() ? [question] : [])));
      case 'currentFile':
        return a.addCurrentFile();
      case 'selection':
        return Promise.resolve(a.addSelection());
      case 'openEditors':
        return a.addOpenEditors();
      case 'problems':
        return Promise.resolve(a.addProblems());
      case 'workspaceProblems':
        return Promise.resolve(this.addWorkspaceProblems());
      case 'changes':
      case 'stagedChanges':
      case 'branchChanges':
        return this.addChanges(id === 'changes' ? 'working' : id === 'stagedChanges' ? 'staged' : 'branch');
      case 'terminal':
        return a.addTerminalSelection();
      case 'symbol':
        return a.addSymbol();
      case 'files':
        return a.pickFiles();
      case 'folder':
        return a.pickFolder();
    }
  }

  /** The Problems of the workspace's files, a chip per file, those with the most errors first. */
  private addWorkspaceProblems(): number {
    const files = vscode.languages
      .getDiagnostics()
      .filter(([uri, list]) => list.length > 0 && vscode.workspace.getWorkspaceFolder(uri))
      .map(([uri, list]) => ({ uri, list, errors: list.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length }))
      .sort((x, y) => y.errors - x.errors || y.list.length - x.list.length);
    if (!files.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The workspace has no problems to attach.'));
      return 0;
    }
    const added = this.deps.attachments.addMade(files.slice(0, MAX_PROBLEM_FILES).map((f) => problemsAttachment('', relPath(f.uri), chipDiagnostics(f.list), maxKB())));
    if (files.length > MAX_PROBLEM_FILES) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The Problems of {0} files were attached (those with the most errors); {1} more files have problems.', MAX_PROBLEM_FILES, files.length - MAX_PROBLEM_FILES));
    }
    return added;
  }

  private async addChanges(kind: ChangesKind): Promise<number> {
    const chip = await changesChip(kind, this.deps.editor()?.document.uri);
    if (typeof chip === 'string') {
      void vscode.window.showInformationMessage(chip);
      return 0;
    }
    return this.deps.attachments.addMade([chip]);
  }

  /** The workspace's files by their relative path, and its folders (read once, again after a create or delete). */
  private fileList(): Promise<FileList> {
    if (!this.watcher) {
      this.watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
      const forget = () => (this.files = undefined);
      this.watcher.onDidCreate(forget);
      this.watcher.onDidDelete(forget);
    }
    this.files ??= Promise.resolve(vscode.workspace.findFiles('**/*', undefined, MAX_FILES)).then(
      (found) => {
        const uris = new Map(found.map((u) => [relPath(u), u]));
        const all = [...uris.keys()];
        return { uris, all, folders: foldersOf(all) };
      },
      () => ({ uris: new Map<string, vscode.Uri>(), all: [], folders: [] }),
    );
    return this.files;
  }

  dispose(): void {
    this.watcher?.dispose();
  }
}

/** The folder `folder` (a relative path) as a URI: a file inside it, without the rest of its path. */
function folderUri(paths: ReadonlyMap<string, vscode.Uri>, folder: string): vscode.Uri | undefined {
  for (const [path, uri] of paths) {
    if (!path.startsWith(`${folder}/`)) continue;
    const rest = path.length - folder.length;
    return uri.with({ path: uri.path.slice(0, uri.path.length - rest) });
  }
  return undefined;
}
