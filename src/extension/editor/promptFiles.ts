// Slash commands of the chat: the workspace's prompt files found, read and watched (a chosen command
// is expanded by promptExpansion.ts). What the files mean is in src/core/context/promptFiles.ts.
//
// Files are read under the rules of AGENTS.md (src/extension/editor/instructions.ts): only in a
// trusted workspace, regular files, at most PROMPT_FILE_MAX_BYTES, never through a link that leads
// out of the workspace folder (nor, inside it, to a file whose name looks like a secret).
import * as vscode from 'vscode';
import { secretLikeName } from '../../core';
import {
  buildPromptList,
  builtinPrompts,
  parsePromptFile,
  promptFileKind,
  promptSourceLabel,
  sortPromptFiles,
  userPrompts,
  PROMPT_FILE_GLOBS,
  PROMPT_FILE_MAX_BYTES,
  PROMPT_FILES_MAX_PER_KIND,
  type PromptEntry,
  type PromptFileKind,
} from '../../core/context/promptFiles';
import { readHead, resolveInsideFolder } from '../../core/context/workspacePath';
import { clip, MAX_NOTICE, MAX_PROMPTS, type HostMessage, type PromptItem } from '../../protocol';
import type { Logger } from '../platform/log';
import { expandChosenPrompt, type ExpandDeps } from './promptExpansion';

const KINDS = Object.keys(PROMPT_FILE_GLOBS) as PromptFileKind[];
/** What the watchers look at: each kind's files wherever they are (an event of another folder's is passed over). */
const WATCH_GLOBS = KINDS.map((kind) => `**/${PROMPT_FILE_GLOBS[kind]}`);

interface KnownFile {
  folder: vscode.WorkspaceFolder;
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

  constructor(private readonly logger: Logger) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('aiChat.prompts')) this.rebuild(true);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.watch()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh()),
    );
    this.ready = this.watch();
  }

  /** The `/` menu's feed: the list as the chat shows it, and the choice of one expanded into the box. */
  menu(chat: Omit<ExpandDeps, 'prompts' | 'ask' | 'info' | 'warn'>): { message(): HostMessage; expand(name: string, args?: string): Promise<string | undefined> } {
    const deps: ExpandDeps = {
      ...chat,
      prompts: this,
      ask: (o) => vscode.window.showInputBox(o),
      info: (m, ...b) => vscode.window.showInformationMessage(m, ...b),
      warn: (m) => vscode.window.showWarningMessage(m),
    };
    return { message: () => this.message(), expand: (name, args) => expandChosenPrompt(deps, name, args) };
  }

  /** The list the `/` menu shows, in its order. */
  get entries(): readonly PromptEntry[] {
    return this.list;
  }

  find(name: string): PromptEntry | undefined {
    return this.list.find((e) => e.name === name) ?? this.list.find((e) => e.name.toLowerCase() === name.toLowerCase());
  }

  /** The `promptList` message for the webview. */
  message(): HostMessage {
    const prompts: PromptItem[] = this.list.slice(0, MAX_PROMPTS).map((e) => toItem(e));
    const notice = vscode.workspace.workspaceFolders?.length && !vscode.workspace.isTrusted
      ? vscode.l10n.t('Prompt files of this workspace are not read in Restricted Mode. Trust the workspace to use them.')
      : undefined;
    return { type: 'promptList', prompts, ...(notice ? { notice: clip(notice, MAX_NOTICE) } : {}) };
  }

  private watch(): Promise<void> {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      // Watchers from the folder's root down (a pattern with a fixed folder in front is watched only
      // where that folder exists: a .github/prompts made later would go unseen); each event's path
      // says which kind of prompt file it is, if any.
      const seen = (deleted: boolean) => (uri: vscode.Uri) => {
        const relative = relativeTo(folder.uri, uri);
        const kind = relative === undefined ? undefined : promptFileKind(relative);
        if (kind) this.fileChanged({ folder, kind, uri }, deleted);
      };
      for (const glob of WATCH_GLOBS) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
        this.watchers.push(watcher, watcher.onDidCreate(seen(false)), watcher.onDidChange(seen(false)), watcher.onDidDelete(seen(true)));
      }
    }
    return this.refresh();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.work.then(task).catch((err: unknown) => this.logger.warn('Reading prompt files failed', { message: String(err) }));
    this.work = run;
    return run;
  }

  /** Searches every workspace folder for prompt files and reads them all again. */
  refresh(): Promise<void> {
    return this.enqueue(async () => {
      const next = new Map<string, KnownFile>();
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
              const file: KnownFile = { folder, kind, uri };
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

  /** A watcher saw a prompt file created, changed or deleted: that file is read again, or dropped. */
  private fileChanged(file: KnownFile, deleted: boolean): void {
    void this.enqueue(async () => {
      if (!vscode.workspace.isTrusted) return;
      const key = file.uri.toString();
      if (!deleted && !this.known.has(key)) {
        // As many files of a kind per folder as the search takes, no more.
        let count = 0;
        for (const k of this.known.values()) if (k.folder === file.folder && k.kind === file.kind) count++;
        if (count >= PROMPT_FILES_MAX_PER_KIND) return;
      }
      const entry = deleted ? undefined : await this.read(file);
      if (entry) this.known.set(key, { ...file, entry });
      else this.known.delete(key);
      this.publish();
    });
  }

  private async read(file: KnownFile): Promise<PromptEntry | undefined> {
    const relative = relativeTo(file.folder.uri, file.uri) ?? vscode.workspace.asRelativePath(file.uri, false).replace(/\\/g, '/');
    if (!relative || promptFileKind(relative) !== file.kind) return undefined;
    const content = await readPromptFile(file.folder.uri, relative, file.uri);
    if (content === undefined) return undefined;
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    return parsePromptFile({ kind: file.kind, path: relative, ...(several ? { folder: file.folder.name } : {}), ...content });
  }

  private publish(): void {
    const entries = [...this.known.values()].flatMap((k) => (k.entry ? [k.entry] : []));
    this.files = sortPromptFiles(entries, (vscode.workspace.workspaceFolders ?? []).map((f) => f.name));
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

/** The path of `uri` below `folder` with `/`, or undefined when it is not below it. */
function relativeTo(folder: vscode.Uri, uri: vscode.Uri): string | undefined {
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}

/**
 * A prompt file's first bytes, or why it cannot be read; undefined when it is not listed at all
 * (gone since it was found). Links are followed only inside the folder, and never to a file whose
 * name looks like a secret; a folder not on this computer's disk has its links refused outright.
 */
async function readPromptFile(
  folder: vscode.Uri,
  relative: string,
  uri: vscode.Uri,
): Promise<{ content: Uint8Array | Error; size?: number; refused?: 'outside' | 'secret' | 'special' } | undefined> {
  const refused = (why: 'outside' | 'secret' | 'special') => ({ content: new Uint8Array(0), refused: why });
  if (folder.scheme === 'file') {
    const segments = relative.split('/').filter((s) => s && s !== '.');
    if (segments.includes('..')) return refused('outside');
    const inside = await resolveInsideFolder(folder.fsPath, segments);
    if (!inside.ok) return inside.reason === 'outside' ? refused('outside') : undefined;
    if (!inside.exists) return undefined;
    const real = inside.relative.join('/');
    if (real !== segments.join('/') && secretLikeName(real)) return refused('secret');
    try {
      const head = await readHead(inside.real, PROMPT_FILE_MAX_BYTES + 4, { noFollow: true });
      return { content: head.bytes, size: head.size };
    } catch (err) {
      return { content: err as Error };
    }
  }
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.SymbolicLink) return refused('outside');
    if (!(stat.type & vscode.FileType.File)) return refused('special');
    if (stat.size > PROMPT_FILE_MAX_BYTES) return { content: new Uint8Array(0), size: stat.size };
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { content: bytes.subarray(0, PROMPT_FILE_MAX_BYTES + 4), size: bytes.length };
  } catch (err) {
    return err instanceof vscode.FileSystemError && err.code === 'FileNotFound' ? undefined : { content: err as Error };
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
