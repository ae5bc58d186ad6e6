// AI Chat: Write Commit Message (Source Control title bar and the palette): the staged diff (or,
// with nothing staged, the working tree's, said so) read through the built-in Git extension's API,
// bounded to the model's budget with the file list whole, sent with the repository's recent commit
// subjects through the one turn pipeline; the message goes into the repository's commit box,
// replacing nothing the user typed there without asking. Stop ends it while it runs.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  appendMessage, boundDiff, buildCommitPrompt, COMMIT_SYSTEM, commitMessageFromReply, diffRoom, readCommitRules,
  type ChangedFile, type CommitRules,
} from '../../core/sourceControl/commitMessage';
import { actionCommand, actionTitle } from '../../core';
import type { ErrorView } from '../../protocol';
import type { SurfaceTurnResult, TurnService } from '../pipeline/turnService';
import { changeWord, gitAccess, initialized, relative, type GitAccess, type GitApi, type GitRepository } from './gitApi';

export const WRITE_COMMIT_COMMAND = 'aiChat.writeCommitMessage';
export const STOP_COMMIT_COMMAND = 'aiChat.stopCommitMessage';
const RUNNING_CONTEXT = 'aiChat.writingCommitMessage';

// ---- The command. ----

export type CommitOutcome =
  | { kind: 'filled'; message: string; staged: boolean; how: 'empty' | 'replaced' | 'appended' }
  | { kind: 'kept'; message: string }
  | { kind: 'noGit' | 'noRepository' | 'noChanges' | 'notPicked' | 'busy' }
  | { kind: 'refused' | 'failed'; message: string }
  | { kind: 'stopped' }
  | { kind: 'empty' };

export interface CommitDeps {
  turns: Pick<TurnService, 'run' | 'facts'>;
  git: () => Promise<GitAccess>;
  /**
   * aiChat.commitMessage.instructions and the repository's .github/commit-instructions.md;
   * `notice`: why the repository's file is not used (said to the user).
   */
  instructions: (root: vscode.Uri) => CommitRules | Promise<CommitRules>;
  /** The commit box holds text: replace it, add the message below it, or keep it (undefined). */
  askReplace: (existing: string) => Promise<'replace' | 'append' | undefined>;
  /** Puts the written message on the clipboard (when the user keeps their own). */
  copy: (text: string) => Thenable<void>;
  /** Several repositories and none is the active file's: the user picks one. */
  pickRepository: (repos: readonly GitRepository[]) => Promise<GitRepository | undefined>;
  /** An information or error message with buttons; resolves with the chosen button's title. */
  say: (kind: 'info' | 'error', message: string, ...buttons: string[]) => Thenable<string | undefined>;
}

/** The repository the command is about: the one it was invoked on, the only one, the active file's, or a pick. */
async function chooseRepository(deps: CommitDeps, api: GitApi, target: unknown): Promise<GitRepository | 'none' | 'notPicked'> {
  const given = target && typeof target === 'object' ? (target as { rootUri?: unknown }).rootUri : undefined;
  const root =
    given instanceof vscode.Uri
      ? given
      : given && typeof given === 'object' && typeof (given as { fsPath?: unknown }).fsPath === 'string'
        ? vscode.Uri.file((given as { fsPath: string }).fsPath)
        : undefined;
  const repos = api.repositories;
  if (root) {
    const found = repos.find((r) => r.rootUri.toString() === root.toString()) ?? api.getRepository(root);
    if (found) return found;
  }
  if (repos.length === 0) return 'none';
  if (repos.length === 1) return repos[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const ofActive = active ? api.getRepository(active) : null;
  if (ofActive) return ofActive;
  return (await deps.pickRepository(repos)) ?? 'notPicked';
}

async function showError(deps: CommitDeps, error: ErrorView): Promise<void> {
  const buttons = error.actions.flatMap((a) => {
    const command = actionCommand(a);
    return command ? [{ title: actionTitle(a), command }] : [];
  });
  const chosen = await deps.say('error', error.message, ...buttons.map((b) => b.title));
  const button = buttons.find((b) => b.title === chosen);
  if (button) await vscode.commands.executeCommand(button.command.command, ...(button.command.arguments ?? []));
}

export interface RunControl {
  signal: AbortSignal;
  /** Progress text (the wait, "Thinking…", a retry notice). */
  report: (message: string) => void;
}

/** Writes the message for the repository `target` (the SourceControl of the title bar) or the chosen one. */
export async function writeCommitMessage(deps: CommitDeps, target: unknown, control: RunControl): Promise<CommitOutcome> {
  const access = await deps.git();
  if (access.kind !== 'ready') {
    const message =
      access.kind === 'missing'
        ? vscode.l10n.t('AI Chat: Write Commit Message needs the built-in Git extension, which is not installed or is disabled.')
        : vscode.l10n.t('AI Chat: Git is turned off in this window (the git.enabled setting). Turn it on to write a commit message.');
    void deps.say('error', message);
    return { kind: 'noGit' };
  }
  await initialized(access.api);
  const repo = await chooseRepository(deps, access.api, target);
  if (repo === 'notPicked') return { kind: 'notPicked' };
  if (repo === 'none') {
    void deps.say('info', vscode.l10n.t('AI Chat: no Git repository is open. Open a folder that holds one (or run Git: Initialize Repository), then write the commit message.'));
    return { kind: 'noRepository' };
  }
  await repo.status();
  const staged = repo.state.indexChanges.length > 0;
  const changes = staged ? repo.state.indexChanges : [...repo.state.workingTreeChanges, ...(repo.state.untrackedChanges ?? [])];
  if (changes.length === 0) {
    void deps.say('info', vscode.l10n.t('AI Chat: {0} has no changes to describe.', path.basename(repo.rootUri.fsPath)));
    return { kind: 'noChanges' };
  }
  control.report(staged ? vscode.l10n.t('Reading the staged changes…') : vscode.l10n.t('Nothing is staged: reading all the changes in the working tree…'));
  const files: ChangedFile[] = changes.map((c) => ({ path: relative(repo.rootUri, c.uri), change: changeWord(c.status) }));
  const [diff, log, facts] = await Promise.all([
    repo.diff(staged),
    repo.log({ maxEntries: 10 }).catch(() => []), // a repository without commits has no log
    deps.turns.facts(),
  ]);
  const rules = await deps.instructions(repo.rootUri);
  if (rules.notice) void deps.say('info', rules.notice);
  const instructions = rules.text;
  const skeleton = buildCommitPrompt({ diff: '', staged, recentSubjects: log.map((c) => c.message), instructions });
  const system = [facts.systemSetting, facts.instructions, COMMIT_SYSTEM].join('\n\n');
  const bounded = boundDiff(files, diff, diffRoom(facts.budget, skeleton.length + system.length));
  const prompt = buildCommitPrompt({ diff: bounded.text, staged, recentSubjects: log.map((c) => c.message), instructions });
  if (control.signal.aborted) return { kind: 'stopped' };
  control.report(vscode.l10n.t('Writing the commit message…'));
  const ran: SurfaceTurnResult = await deps.turns.run(
    { surface: 'commit', prompt, system: COMMIT_SYSTEM },
    { text: () => undefined, status: (s) => control.report(s || vscode.l10n.t('Writing the commit message…')) },
    control.signal,
  );
  if (ran.kind === 'refused') {
    void showError(deps, ran.error);
    return { kind: 'refused', message: ran.error.message };
  }
  const r = ran.result;
  if (r.ending === 'stopped') return { kind: 'stopped' };
  if (r.ending === 'error' || r.ending === 'failed') {
    const error: ErrorView = r.error ?? { kind: 'unknown', message: vscode.l10n.t('The reply failed.'), actions: [] };
    void showError(deps, error);
    return { kind: 'failed', message: error.message };
  }
  const message = commitMessageFromReply(r.text);
  if (!message) {
    void deps.say('error', vscode.l10n.t('AI Chat: the reply held no commit message. Try again, or another model.'));
    return { kind: 'empty' };
  }
  // Read the box now: the user may have typed while the message was being written.
  const existing = repo.inputBox.value;
  if (!existing.trim()) {
    repo.inputBox.value = message;
    if (!staged) void deps.say('info', vscode.l10n.t('AI Chat: nothing was staged, so the message describes all the changes in the working tree. Stage them before you commit.'));
    return { kind: 'filled', message, staged, how: 'empty' };
  }
  const answer = existing.trim() === message.trim() ? 'replace' : await deps.askReplace(existing);
  if (answer === 'replace' || answer === 'append') {
    repo.inputBox.value = answer === 'replace' ? message : appendMessage(repo.inputBox.value, message);
    return { kind: 'filled', message, staged, how: answer === 'replace' ? 'replaced' : 'appended' };
  }
  // Not awaited: the outcome does not hang on the clipboard (a browser may hold the write back).
  deps.copy(message).then(
    () => void deps.say('info', vscode.l10n.t('AI Chat: your commit message was kept; the written one is on the clipboard.')),
    () => void deps.say('info', vscode.l10n.t('AI Chat: your commit message was kept. The written one: {0}', message)),
  );
  return { kind: 'kept', message };
}

/** The Write and Stop commands, with the progress in the Source Control view (or a notification from the palette). */
export function registerCommitMessage(turns: TurnService): vscode.Disposable[] {
  let running: AbortController | undefined;
  const deps: CommitDeps = {
    turns,
    git: gitAccess,
    instructions: async (root) => {
      const own = vscode.workspace.getConfiguration('aiChat').get<string>('commitMessage.instructions', '') ?? '';
      const repository = await repositoryInstructions(root);
      return { ...repository, text: [own, repository.text].filter((t) => t.trim() !== '').join('\n\n') };
    },
    askReplace: async (existing) => {
      const replace = vscode.l10n.t('Replace');
      const append = vscode.l10n.t('Add Below');
      const shown = existing.length > 120 ? `${existing.slice(0, 119)}…` : existing;
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('The commit message box already holds your text. Replace it with the written message?'),
        { modal: true, detail: shown },
        replace,
        append,
      );
      return choice === replace ? 'replace' : choice === append ? 'append' : undefined;
    },
    copy: (text) => vscode.env.clipboard.writeText(text),
    pickRepository: async (repos) => {
      const picked = await vscode.window.showQuickPick(
        repos.map((r) => ({ label: path.basename(r.rootUri.fsPath), description: r.rootUri.fsPath, repo: r })),
        { placeHolder: vscode.l10n.t('Which repository is the commit message for?') },
      );
      return picked?.repo;
    },
    say: (kind, message, ...buttons) => (kind === 'info' ? vscode.window.showInformationMessage(message, ...buttons) : vscode.window.showErrorMessage(message, ...buttons)),
  };
  const setRunning = (on: boolean) => void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, on);
  return [
    vscode.commands.registerCommand(WRITE_COMMIT_COMMAND, async (target?: unknown) => {
      if (running) {
        void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat is already writing a commit message: Stop it first.'));
        return { kind: 'busy' } satisfies CommitOutcome;
      }
      const controller = new AbortController();
      running = controller;
      setRunning(true);
      // From the title bar the Source Control view shows the progress and the Stop button; from the palette, a notification with Cancel.
      const inView = target !== undefined;
      try {
        return await vscode.window.withProgress(
          {
            location: inView ? vscode.ProgressLocation.SourceControl : vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('AI Chat: Write Commit Message'),
            cancellable: true,
          },
          async (progress, token) => {
            const sub = token.onCancellationRequested(() => controller.abort());
            try {
              return await writeCommitMessage(deps, target, { signal: controller.signal, report: (message) => progress.report({ message }) });
            } finally {
              sub.dispose();
            }
          },
        );
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat could not write the commit message: {0}', err instanceof Error ? err.message : String(err)));
        return undefined;
      } finally {
        running = undefined;
        setRunning(false);
      }
    }),
    vscode.commands.registerCommand(STOP_COMMIT_COMMAND, () => running?.abort()),
    new vscode.Disposable(() => running?.abort()),
  ];
}

/**
 * `.github/commit-instructions.md` of the repository, read under the rules of AGENTS.md
 * (readCommitRules): only in a trusted workspace, a text file inside the repository (never through
 * a link out of it, nor to a file whose name looks like a secret: `.git/config`, `.env`, `*.pem`),
 * its first 8 KB; with a notice when the file is there but not used.
 */
export async function repositoryInstructions(root: vscode.Uri): Promise<CommitRules> {
  if (root.scheme !== 'file') return { text: '' };
  return readCommitRules(root.fsPath, vscode.workspace.isTrusted);
}
