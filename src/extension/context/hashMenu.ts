// The `#` menu's host: for each `#word` the box asks about, what can be attached (the actions of
// "+", and #codebase, #changes, #staged, #branch, #problems-all), then the workspace's files and
// folders whose paths match, then its symbols (a second answer: the language servers take longer;
// one symbol search at a time, for the newest word: see symbolsFor).
// A choice runs what "+" runs, or attaches the file, folder or symbol. The workspace's file list is
// read once (files.exclude and search.exclude apply) and again after a file is created or deleted;
// a search superseded by a later one (the next letter) stops where it is.
import * as vscode from 'vscode';
import { MAX_HASH_OPTIONS, foldersOf, hashActions, matchActions, problemsAttachment, rankPaths, type HashActionId } from '../../core';
import type { ContextOption, HostMessage } from '../../protocol';
import { chipDiagnostics, fit, maxKB, relPath, searchExcludeGlob } from '../platform/editorFacts';
import type { ContextAttachments } from './attachments';
import { changesChip, type ChangesKind } from './gitChanges';
import type { CodebaseName } from '../codebase/codebaseService';
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

type Choice = { option: ContextOption; run(question: string | undefined): Promise<unknown> };
type FileList = { uris: Map<string, vscode.Uri>; paths: string[]; folders: string[] };

/** A path as the menu shows it: relative, with the folder's name first in a workspace of several. */
const menuPath = (uri: vscode.Uri) => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);

export interface HashMenuDeps {
  attachments: ContextAttachments;
  /** The text editor the user last worked in. */
  editor(): vscode.TextEditor | undefined;
  post(message: Extract<HostMessage, { type: 'contextOptions' }>): void;
  /** The names the workspace's files define (the codebase index): listed at once, before the language servers answer. */
  names?(query: string): Promise<CodebaseName[]>;
}

export class HashMenuHost implements vscode.Disposable {
  private files: Promise<FileList> | undefined;
  private readonly watching: vscode.Disposable[] = [];
  /** The options of the last few `#word`s asked about, by their number. */
  private readonly answers = new Map<number, Choice[]>();
  /** Searches begun: one begun later (the next letter, a page made again) supersedes it. */
  private searches = 0;
  /** The symbol search under way (one at a time). */
  private symbolSearch: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: HashMenuDeps) {}

  /** The options for `query` (`seq`: the box's number for it): the actions and paths, then with the symbols. */
  async search(seq: number, query: string): Promise<void> {
    const mine = ++this.searches;
    const current = () => mine === this.searches;
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
    const list = await this.fileList();
    if (!current()) return;
    const files: Choice[] = rankPaths(list.paths, query).map((path) => ({
      option: { kind: 'file', icon: 'file', label: fit(path.slice(path.lastIndexOf('/') + 1), 300), detail: fit(path, 500) },
      run: () => this.deps.attachments.addFile(list.uris.get(path) as vscode.Uri),
    }));
    const folders: Choice[] = rankPaths(list.folders, query, MAX_FOLDERS).map((folder) => ({
      option: { kind: 'folder', icon: 'folder', label: fit(folder, 300) },
      run: () => {
        const uri = folderUri(list.uris, folder);
        return uri ? this.deps.attachments.addFolder(uri) : Promise.resolve(0);
      },
    }));
    // The names the codebase index knows come with the paths (at once); the language servers' after.
    const named = wantsSymbols && this.deps.names ? await this.deps.names(query).catch((): CodebaseName[] => []) : [];
    if (!current()) return;
    const quick: Choice[] = named.slice(0, MAX_SYMBOLS).map((n) => ({
      option: { kind: 'symbol', icon: 'symbol-method', label: fit(n.name, 300), detail: fit(`${menuPath(n.uri)}:${n.line}`, 500) },
      run: () => this.addIndexedName(n),
    }));
    // Symbols after the actions, before the files: a name typed is most often a function's.
    answer([...actions, ...quick, ...files, ...folders], wantsSymbols);
    if (!wantsSymbols) return;
    const hits = await this.symbolsFor(mine, query);
    if (!hits || !current()) return;
    // A symbol the index listed already keeps its place (the current option stays where it is).
    const listed = (hit: SymbolHit) => named.some((n) => n.name === hit.name.replace(/\(\)$/, '') && n.uri.toString() === hit.uri.toString() && Math.abs(n.line - 1 - hit.range.start.line) <= 3);
    const symbols: Choice[] = hits
      .filter((hit) => !listed(hit))
      .slice(0, Math.max(0, MAX_SYMBOLS - quick.length))
      .map((hit) => ({
        option: { kind: 'symbol', icon: 'symbol-method', label: fit(hit.name, 300), detail: fit(`${menuPath(hit.uri)}:${hit.range.start.line + 1}${hit.container ? ` · ${hit.container}` : ''}`, 500) },
        run: () => this.deps.attachments.addSymbol(hit),
      }));
    answer([...actions, ...quick, ...symbols, ...files, ...folders], false);
  }

  /**
   * The workspace's symbols for `query`, one search at a time: a word typed while a search runs
   * waits for it, and is dropped (undefined) when a newer word came meanwhile. The language servers
   * answer in turn, so each letter typed would otherwise queue a search the menu no longer shows.
   */
  private symbolsFor(mine: number, query: string): Promise<SymbolHit[] | undefined> {
    const turn = this.symbolSearch.then(() => (mine < this.searches ? undefined : findSymbols(query).catch((): SymbolHit[] => [])));
    this.symbolSearch = turn;
    return turn;
  }

  /** Runs the option shown as `option` in the answer to `seq` (one no longer kept: nothing). */
  async choose(seq: number, option: Pick<ContextOption, 'kind' | 'label' | 'detail'>, question: string | undefined): Promise<void> {
    const choice = this.answers.get(seq)?.find((c) => c.option.kind === option.kind && c.option.label === option.label && c.option.detail === option.detail);
    if (choice) await choice.run(question);
  }

  private runAction(id: HashActionId, question: string | undefined): Promise<unknown> {
    const a = this.deps.attachments;
    switch (id) {
      case 'codebase':
        // The box's text as it is (none: the command asks for the question).
        return Promise.resolve(vscode.commands.executeCommand('aiChat.findCodebaseFiles', question ?? ''));
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

  /**
   * A name the index found, as a symbol chip: its whole lines as the file's outline gives them (the
   * symbol at that line), else that line alone.
   */
  private async addIndexedName(n: CodebaseName): Promise<boolean> {
    const doc = await Promise.resolve(vscode.workspace.openTextDocument(n.uri)).catch(() => undefined);
    const outline = doc ? await findSymbols('', doc).catch((): SymbolHit[] => []) : [];
    const near = outline
      .filter((h) => h.name === n.name || h.name === `${n.name}()`)
      .sort((a, b) => Math.abs(a.range.start.line + 1 - n.line) - Math.abs(b.range.start.line + 1 - n.line))[0];
    const line = new vscode.Range(n.line - 1, 0, n.line - 1, 0);
    return this.deps.attachments.addSymbol(near ?? { name: n.name, kind: vscode.SymbolKind.Function, uri: n.uri, range: line });
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

  /**
   * The workspace's files by their path as the menu shows it (the folder's name first in a
   * workspace of several), read once with files.exclude and search.exclude, again after a create,
   * a delete, a change of those settings or of the workspace's folders.
   */
  private fileList(): Promise<FileList> {
    if (!this.watching.length) {
      const forget = () => (this.files = undefined);
      const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
      this.watching.push(
        watcher,
        watcher.onDidCreate(forget),
        watcher.onDidDelete(forget),
        vscode.workspace.onDidChangeWorkspaceFolders(forget),
        vscode.workspace.onDidChangeConfiguration((e) => {
          if (e.affectsConfiguration('files.exclude') || e.affectsConfiguration('search.exclude')) forget();
        }),
      );
    }
    this.files ??= Promise.resolve(vscode.workspace.findFiles('**/*', searchExcludeGlob(), MAX_FILES)).then(
      (found) => {
        const uris = new Map(found.map((u) => [menuPath(u), u]));
        const paths = [...uris.keys()];
        return { uris, paths, folders: foldersOf(paths) };
      },
      () => ({ uris: new Map<string, vscode.Uri>(), paths: [], folders: [] }),
    );
    return this.files;
  }

  dispose(): void {
    for (const d of this.watching) d.dispose();
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
