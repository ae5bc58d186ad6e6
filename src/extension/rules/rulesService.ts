// The repository's rules in VS Code: every rule file of the first workspace folder (the formats of
// core/rules/ruleFormats.ts), found once, each read again only when it changes, created or deleted;
// nothing read in Restricted Mode, nor from a folder that is not on this computer's disk. A rule
// is chosen for a request by the request's files (its attachments, and the active editor's file);
// the user turns a rule off for the workspace. What the rules mean is core's (src/core/rules).
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import {
  chooseRules, loadRule, normalizePath, requestRules, ruleFormatOf, sortRules, RULE_FILE_GLOBS,
  type RequestRules, type Rule, type RulesChoice, type SentRule,
} from '../../core';
import { relativeTo } from '../platform/editorFacts';
import type { Logger } from '../platform/log';

const OFF_KEY = 'aiChat.rulesOff';
/**
 * What is watched: from the folder's root down (a pattern with a fixed folder in front is watched
 * only where that folder exists, so a .cursor/rules made later would go unseen); each event's path
 * says whether it is a rule file.
 */
const WATCH_GLOBS = ['**/*.md', '**/*.mdc', '**/*.txt', '**/.cursorrules', '**/.clinerules', '**/.windsurfrules'];
/** Most rule files read (a workspace with more lists the first ones). */
const MAX_RULE_FILES = 1000;
/** A request looks for new rule files (in the background) when the last search is older than this. */
const FIND_EVERY_MS = 10_000;

/** What says a file changed: its time and size (links followed), or that it is gone. */
async function stampOf(folder: string, path: string): Promise<string> {
  try {
    const s = await fsp.stat(nodePath.join(folder, ...path.split('/')));
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'gone';
  }
}

export interface RulesServiceDeps {
  workspaceState: vscode.Memento;
  logger: Logger;
  /** The project instructions file (read by its own service): its workspace-relative name, and whether it goes with requests. */
  instructions: () => { name: string; sent: SentRule | undefined };
  /** Whether a text holds the user's API key (a rule that does is never sent). */
  holdsKey: (text: string) => boolean;
  /** The key was set or cleared (rules are looked at again for it). */
  keyChanged: vscode.Event<void>;
}

export class RulesService implements vscode.Disposable {
  private readonly rules = new Map<string, Rule>();
  private sorted: Rule[] | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private watchers: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** A rule file was read again (or went, or came), or a rule was turned off or on. */
  readonly onDidChange = this.changed.event;
  /** Settles once the rule files were first found and read. */
  ready: Promise<void>;
  private scanning = 0;
  /** Grows with every change of the rules read, the key or the rules turned off. */
  private version = 0;
  /** Each rule file's stamp when it was last read. */
  private stamps = new Map<string, string>();
  private lastFind = 0;
  private checking: Promise<void> | undefined;
  private last: { key: string; rules: RequestRules } | undefined;
  /** Whether a rule's text holds the key, looked at once per rule read and key set. */
  private holdsKey = new WeakMap<Rule, boolean>();

  constructor(private readonly deps: RulesServiceDeps) {
    this.subscriptions.push(
      this.changed,
      this.changed.event(() => this.version++),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.rescan()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.rescan()),
      deps.keyChanged(() => {
        this.holdsKey = new WeakMap();
        this.changed.fire();
      }),
    );
    this.ready = this.rescan();
  }

  private folder(): vscode.WorkspaceFolder | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.scheme === 'file' ? folder : undefined;
  }

  /** Watches the folder and finds every rule file again (a new folder, trust granted). */
  rescan(): Promise<void> {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    const folder = this.folder();
    if (folder && vscode.workspace.isTrusted) {
      for (const glob of WATCH_GLOBS) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
        watcher.onDidCreate((uri) => void this.reread(uri));
        watcher.onDidChange((uri) => void this.reread(uri));
        watcher.onDidDelete((uri) => this.forget(uri));
        this.watchers.push(watcher);
      }
    }
    return this.refresh();
  }

  /**
   * Finds and reads every rule file again, then takes them in at once (requests meanwhile use the
   * rules read before). The rules list does it before it shows: a watcher can miss a change.
   */
  refresh(): Promise<void> {
    const run = ++this.scanning;
    this.lastFind = Date.now();
    const folder = this.folder();
    if (!folder || !vscode.workspace.isTrusted) {
      this.rules.clear();
      this.sorted = undefined;
      this.changed.fire();
      return Promise.resolve();
    }
    return (async () => {
      const found = await Promise.all(
        RULE_FILE_GLOBS.map((glob) => vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), undefined, MAX_RULE_FILES).then(undefined, () => [] as vscode.Uri[])),
      );
      const paths = [...new Set(found.flat().map((uri) => this.relative(uri)).filter((p): p is string => p !== undefined))].slice(0, MAX_RULE_FILES);
      // Stamped before they are read: a change while reading is seen by the next check.
      const stamps = await Promise.all(paths.map((p) => stampOf(folder.uri.fsPath, p)));
      const read = await Promise.all(paths.map((p) => loadRule(folder.uri.fsPath, p).catch(() => undefined)));
      if (run !== this.scanning) return;
      this.rules.clear();
      this.stamps = new Map(paths.map((p, i) => [p, stamps[i]]));
      for (const rule of read) if (rule) this.rules.set(rule.id, rule);
      this.sorted = undefined;
      this.deps.logger.info('Rules read', { files: this.rules.size });
      this.changed.fire();
    })();
  }

  /** Any file's workspace-relative path, when it is in the first folder. */
  private workspacePath(uri: vscode.Uri): string | undefined {
    const folder = this.folder();
    const path = folder && relativeTo(folder.uri, uri);
    return path === undefined ? undefined : normalizePath(path);
  }

  /** A rule file's workspace-relative path, when it is one of the first folder. */
  private relative(uri: vscode.Uri): string | undefined {
    const path = this.workspacePath(uri);
    return path && ruleFormatOf(path) ? path : undefined;
  }

  private reread(uri: vscode.Uri): Promise<void> {
    const path = this.relative(uri);
    return path ? this.rereadPath(path) : Promise.resolve();
  }

  private async rereadPath(path: string): Promise<void> {
    const folder = this.folder();
    if (!folder || !vscode.workspace.isTrusted) return;
    const stamp = await stampOf(folder.uri.fsPath, path);
    const rule = await loadRule(folder.uri.fsPath, path).catch(() => undefined);
    if (rule) this.rules.set(path, rule);
    else this.rules.delete(path);
    if (stamp === 'gone') this.stamps.delete(path);
    else this.stamps.set(path, stamp);
    this.sorted = undefined;
    this.changed.fire();
  }

  private forget(uri: vscode.Uri): void {
    const path = this.relative(uri);
    if (!path) return;
    this.stamps.delete(path);
    if (this.rules.delete(path)) {
      this.sorted = undefined;
      this.changed.fire();
    }
  }

  /**
   * Before a request: the rule files read are looked at (time and size) and a changed or deleted
   * one is read again, so a request never carries a rule as it was before an edit, even when the
   * file watcher missed it (a host out of file watches). New rule files come through the watcher,
   * or through a search started here in the background when the last one is older than 10 s.
   */
  fresh(): Promise<void> {
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async check(): Promise<void> {
    await this.ready;
    const folder = this.folder();
    if (!folder || !vscode.workspace.isTrusted) return;
    if (Date.now() - this.lastFind >= FIND_EVERY_MS) void this.refresh();
    const paths = [...this.stamps.keys()];
    const now = await Promise.all(paths.map((p) => stampOf(folder.uri.fsPath, p)));
    const changed = paths.filter((p, i) => now[i] !== this.stamps.get(p));
    await Promise.all(changed.map((p) => this.rereadPath(p)));
  }

  /** The rules read, in the order they are sent: the project instructions file left out (its own service sends it), a rule holding the key made unreadable. */
  private current(): Rule[] {
    if (!this.sorted) {
      const skip = normalizePath(this.deps.instructions().name);
      this.sorted = sortRules([...this.rules.values()].filter((r) => r.id !== skip));
    }
    return this.sorted.map((r) => {
      if (r.state !== 'ok' || !r.text) return r;
      let holds = this.holdsKey.get(r);
      if (holds === undefined) this.holdsKey.set(r, (holds = this.deps.holdsKey(r.text)));
      return holds ? { ...r, state: 'unreadable' as const, problem: vscode.l10n.t('it holds your AI Chat API key') } : r;
    });
  }

  private off(): ReadonlySet<string> {
    const saved = this.deps.workspaceState.get<unknown>(OFF_KEY, []);
    return new Set(Array.isArray(saved) ? saved.filter((x): x is string => typeof x === 'string') : []);
  }

  /** The request's files: the given ones (attachments), then the active editor's. */
  private requestFiles(files: readonly string[]): string[] {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const active = uri ? this.workspacePath(uri) : undefined;
    return [...files, ...(active ? [active] : [])];
  }

  /**
   * The rules that go with a request carrying `files` (workspace-relative), and why; the project
   * instructions listed first when they go. The last answer is kept while nothing it depends on
   * changed (the meter asks at each keystroke, and a send asks again as it goes).
   */
  forRequest(files: readonly string[] = []): RequestRules {
    const request = this.requestFiles(files);
    const off = this.off();
    const instructions = this.deps.instructions().sent;
    const key = JSON.stringify([this.version, request, [...off], instructions]);
    if (this.last?.key !== key) this.last = { key, rules: requestRules(this.current(), { files: request, off }, instructions) };
    return this.last.rules;
  }

  /** Every rule with whether it would go with a request carrying `files`, and why. */
  choice(files: readonly string[] = []): RulesChoice {
    return chooseRules(this.current(), { files: this.requestFiles(files), off: this.off() });
  }

  /** The project instructions file changed (its name, or whether it goes): the list follows. */
  refreshInstructions(): void {
    this.sorted = undefined;
    this.changed.fire();
  }

  /** The rules listed turned off for this workspace (`off`) or on again (the rest of `listed`), in one change. */
  async setOff(listed: readonly string[], off: ReadonlySet<string>): Promise<void> {
    const next = new Set(this.off());
    for (const id of listed) {
      if (off.has(id)) next.add(id);
      else next.delete(id);
    }
    await this.deps.workspaceState.update(OFF_KEY, [...next].sort());
    this.changed.fire();
  }

  dispose(): void {
    this.scanning++;
    for (const w of this.watchers) w.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
