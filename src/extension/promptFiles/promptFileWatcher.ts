// Slash commands of the chat: the prompt files of the workspace folders and of the user's prompts
// folder found, read and watched (a chosen command is expanded by promptExpansion.ts). What the
// files mean is in src/core/promptFiles/promptFiles.ts.
//
// Files are read under the rules of AGENTS.md (src/extension/pipeline/instructionsFile.ts; promptFileRead.ts):
// the workspace's only in a trusted workspace; regular files, at most PROMPT_FILE_MAX_BYTES, never
// through a link that leads out of their folder (nor to a file whose name looks like a secret).
import * as vscode from 'vscode';
import {
  buildPromptList,
  builtinPrompts,
  isUserPromptFile,
  parsePromptFile,
  promptFileKind,
  promptSourceLabel,
  sortPromptFiles,
  userPrompts,
  PROMPT_FILE_GLOBS,
  PROMPT_FILES_MAX_PER_KIND,
  type PromptEntry,
  type PromptFileKind,
} from '../../core/promptFiles/promptFiles';
import { clip, MAX_NOTICE, MAX_PROMPTS, type PromptItem } from '../../protocol';
import type { Logger } from '../platform/log';
import { folderExists, listUserFolder, readPromptFile, userPromptsFolder, USER_FOLDER_SETTING } from './promptFileRead';
import { relativeTo } from '../platform/editorFacts';
import { expandChosenPrompt, type ExpandDeps } from './promptExpansion';

/** What the `/` menu lists (the chat's presenter makes the message of it), and why some prompt files are not in it. */
export interface PromptList {
  prompts: PromptItem[];
  notice?: string;
}

const KINDS = Object.keys(PROMPT_FILE_GLOBS) as PromptFileKind[];
/** What the watchers look at: each kind's files wherever they are (an event of another folder's is passed over). */
const WATCH_GLOBS = KINDS.map((kind) => `**/${PROMPT_FILE_GLOBS[kind]}`);

interface KnownFile {
  /** The workspace folder, or the user's prompts folder (`user`). */
  root: vscode.Uri;
  folderName?: string;
  user?: boolean;
  kind: PromptFileKind;
  uri: vscode.Uri;
  entry?: PromptEntry;
}

/**
 * The prompt files of the workspace folders and the user's own prompts, kept up to date: every
 * folder is searched at the start (and when folders or trust change); then each file created,
 * changed or deleted is read again (or dropped) as its watcher reports it. Reads run one at a time.
 */
export class PromptFiles implements vscode.Disposable {
  private known = new Map<string, KnownFile>();
  private files: PromptEntry[] = [];
  private list: PromptEntry[] = [];
  private watchers: vscode.Disposable[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the list changed (a file created, changed or deleted, the setting, trust, folders). */
  readonly onDidChange = this.changed.event;
  /** The reads, one after another. */
  private work: Promise<void> = Promise.resolve();
  /** Settles once the first search and read are done. */
  readonly ready: Promise<void>;
  /** Why the user's prompts folder named in the setting is not listed (said in the `/` list). */
  private userFolderError: string | undefined;
  /** A search asked for by `recheck` that has not started yet (later asks share it). */
  private recheckQueued: Promise<void> | undefined;

  /** `globalStorage`: the extension's global storage (VS Code's user prompts folder is found beside it). */
  constructor(
    private readonly logger: Logger,
    private readonly globalStorage?: vscode.Uri,
  ) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`aiChat.${USER_FOLDER_SETTING}`)) void this.watch();
        else if (e.affectsConfiguration('aiChat.prompts')) this.rebuild(true);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.watch()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh()),
    );
    this.ready = this.watch();
  }

  /** The `/` menu's feed: the list as the chat shows it, and the choice of one expanded into the box. */
  menu(chat: Omit<ExpandDeps, 'prompts' | 'ask' | 'info' | 'warn'>): {
    view(): PromptList;
    expand(name: string, args?: string): Promise<string | undefined>;
    recheck(): Promise<void>;
  } {
    const deps: ExpandDeps = {
      ...chat,
      prompts: this,
      ask: (o) => vscode.window.showInputBox(o),
      info: (m) => vscode.window.showInformationMessage(m),
      warn: (m) => vscode.window.showWarningMessage(m),
    };
    return { view: () => this.view(), expand: (name, args) => expandChosenPrompt(deps, name, args), recheck: () => this.recheck() };
  }

  /** The list the `/` menu shows, in its order. */
  get entries(): readonly PromptEntry[] {
    return this.list;
  }

  find(name: string): PromptEntry | undefined {
    return this.list.find((e) => e.name === name) ?? this.list.find((e) => e.name.toLowerCase() === name.toLowerCase());
  }

  /** What the `/` menu lists, and why some prompt files are not in it. */
  view(): PromptList {
    const prompts: PromptItem[] = this.list.slice(0, MAX_PROMPTS).map((e) => toItem(e));
    const restricted = vscode.workspace.workspaceFolders?.length && !vscode.workspace.isTrusted
      ? vscode.l10n.t('Prompt files of this workspace are not read in Restricted Mode. Trust the workspace to use them.')
      : undefined;
    const notice = [restricted, this.userFolderError].filter((n) => n).join(' ');
    return { prompts, ...(notice ? { notice } : {}) };
  }

  private watch(): Promise<void> {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const add = (pattern: vscode.RelativePattern, seen: (deleted: boolean) => (uri: vscode.Uri) => void) => {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.watchers.push(watcher, watcher.onDidCreate(seen(false)), watcher.onDidChange(seen(false)), watcher.onDidDelete(seen(true)));
    };
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      // Watchers from the folder's root down (a pattern with a fixed folder in front is watched only
      // where that folder exists: a .github/prompts made later would go unseen); each event's path
      // says which kind of prompt file it is, if any.
      const seen = (deleted: boolean) => (uri: vscode.Uri) => {
        const relative = relativeTo(folder.uri, uri);
        const kind = relative === undefined ? undefined : promptFileKind(relative);
        if (kind) this.fileChanged({ root: folder.uri, ...(several ? { folderName: folder.name } : {}), kind, uri }, deleted);
      };
      for (const glob of WATCH_GLOBS) add(new vscode.RelativePattern(folder, glob), seen);
    }
    const user = this.userFolder();
    if (user) {
      add(new vscode.RelativePattern(user, '*.prompt.md'), (deleted) => (uri) => {
        const name = relativeTo(user, uri);
        if (name !== undefined && isUserPromptFile(name)) this.fileChanged({ root: user, user: true, kind: 'github', uri }, deleted);
      });
    }
    return this.refresh();
  }

  /** The user's prompts folder, if any (a setting that cannot be used is kept to be said). */
  private userFolder(): vscode.Uri | undefined {
    const found = userPromptsFolder(this.globalStorage);
    this.userFolderError = found && 'error' in found ? found.error : undefined;
    return found && 'uri' in found ? found.uri : undefined;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.work.then(task).catch((err: unknown) => this.logger.warn('Reading prompt files failed', { message: String(err) }));
    this.work = run;
    return run;
  }

  /**
   * The folders searched and the files read again because the list is about to be used (the `/`
   * list opened, an @aichat slash command): a watcher can miss a change (a folder made while the
   * window is open, a file system that reports nothing), and the list must still be the files'.
   * Asks made before the search started share it.
   */
  recheck(): Promise<void> {
    if (this.recheckQueued) return this.recheckQueued;
    const queued = this.refresh(() => {
      if (this.recheckQueued === queued) this.recheckQueued = undefined;
    });
    this.recheckQueued = queued;
    return queued;
  }

  /** Searches every workspace folder for prompt files and reads them all again (`starting`: called when the search starts). */
  refresh(starting?: () => void): Promise<void> {
    return this.enqueue(async () => {
      starting?.();
      const next = new Map<string, KnownFile>();
      await this.readUserFolder(next);
      const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      // Restricted Mode: nothing of the workspace is read (as AGENTS.md).
      if (vscode.workspace.isTrusted) {
        for (const folder of vscode.workspace.workspaceFolders ?? []) {
          for (const kind of KINDS) {
            let uris: vscode.Uri[];
            try {
              uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, PROMPT_FILE_GLOBS[kind]), undefined, PROMPT_FILES_MAX_PER_KIND);
            } catch (err) {
              this.logger.warn('Finding prompt files failed', { kind, message: String(err) });
              continue;
            }
            for (const uri of uris) {
              const file: KnownFile = { root: folder.uri, ...(several ? { folderName: folder.name } : {}), kind, uri };
              file.entry = await this.read(file);
              if (file.entry) next.set(uri.toString(), file);
            }
          }
        }
      }
      this.known = next;
      this.publish();
      this.logger.info('Prompt files read', { files: this.files.length, unusable: this.files.filter((e) => e.error).length });
    });
  }

  /** The user's prompts folder's files, read into `next` (its own, not the workspace's: read in Restricted Mode too). */
  private async readUserFolder(next: Map<string, KnownFile>): Promise<void> {
    const found = userPromptsFolder(this.globalStorage);
    if (!found || 'error' in found) return;
    const exists = await folderExists(found.uri);
    const uris = exists ? await listUserFolder(found.uri) : undefined;
    if (!exists || uris instanceof Error) {
      // The default folder may well not exist; the one the setting names is said.
      if (found.explicit) this.userFolderError = vscode.l10n.t('The prompts folder {0} (aiChat.userPromptsFolder) could not be read. Check the setting.', found.uri.fsPath);
      return;
    }
    this.userFolderError = undefined;
    for (const uri of uris ?? []) {
      const file: KnownFile = { root: found.uri, user: true, kind: 'github', uri };
      file.entry = await this.read(file);
      if (file.entry) next.set(uri.toString(), file);
    }
  }

  /** A watcher saw a prompt file created, changed or deleted: that file is read again, or dropped. */
  private fileChanged(file: KnownFile, deleted: boolean): void {
    void this.enqueue(async () => {
      if (!file.user && !vscode.workspace.isTrusted) return;
      const key = file.uri.toString();
      if (!deleted && !this.known.has(key)) {
        // As many files of a kind per folder as the search takes, no more.
        let count = 0;
        for (const k of this.known.values()) if (k.root.toString() === file.root.toString() && k.kind === file.kind) count++;
        if (count >= PROMPT_FILES_MAX_PER_KIND) return;
      }
      const entry = deleted ? undefined : await this.read(file);
      if (entry) this.known.set(key, { ...file, entry });
      else this.known.delete(key);
      this.publish();
    });
  }

  private async read(file: KnownFile): Promise<PromptEntry | undefined> {
    const relative = relativeTo(file.root, file.uri);
    if (!relative || (file.user ? !isUserPromptFile(relative) : promptFileKind(relative) !== file.kind)) return undefined;
    const content = await readPromptFile(file.root, relative, file.uri);
    if (content === undefined) return undefined;
    return parsePromptFile({ kind: file.kind, path: relative, ...(file.folderName ? { folder: file.folderName } : {}), ...(file.user ? { inUserFolder: true } : {}), ...content });
  }

  private publish(): void {
    const known = [...this.known.values()];
    const entries = (user: boolean) => known.flatMap((k) => (k.entry && !!k.user === user ? [k.entry] : []));
    // The user's prompts folder first (by name), then the workspace's.
    const mine = entries(true).sort((a, b) => (a.path ?? '').localeCompare(b.path ?? ''));
    this.files = [...mine, ...sortPromptFiles(entries(false), (vscode.workspace.workspaceFolders ?? []).map((f) => f.name))];
    this.rebuild(false);
  }

  private rebuild(fire: boolean): void {
    const own = vscode.workspace.getConfiguration('aiChat').inspect<unknown>('prompts')?.globalValue;
    const next = buildPromptList(builtinPrompts(), userPrompts(own), this.files);
    const same = JSON.stringify(next) === JSON.stringify(this.list);
    this.list = next;
    if (!same || fire) this.changed.fire();
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** What the `/` menu shows of an entry. */
function toItem(e: PromptEntry): PromptItem {
  const notes: string[] = [];
  if (e.shadowed) notes.push(vscode.l10n.t('/{0} is taken by an earlier prompt', e.shadowed));
  if (e.unsupported.length) notes.push(vscode.l10n.t('Not supported: {0}', e.unsupported.join(', ')));
  if (e.model) notes.push(vscode.l10n.t('Names the model {0}', e.model));
  return {
    name: clip(e.name, 200),
    description: clip(e.description, 1000),
    source: clip(promptSourceLabel(e), 600),
    ...(e.argumentHint ? { argumentHint: clip(e.argumentHint, 300) } : {}),
    ...(notes.length ? { note: clip(notes.join(' · '), MAX_NOTICE) } : {}),
    ...(e.error ? { error: clip(e.error, MAX_NOTICE) } : {}),
  };
}
