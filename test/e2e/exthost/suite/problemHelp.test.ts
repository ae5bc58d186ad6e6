// Help where the problem shows up, against the real API: the lightbulb's provider (registered by
// the installed extension) asked by VS Code itself on a real diagnostic, and Write Commit Message on
// real Git repositories made here, read through the built-in Git extension. The turn pipeline is a
// stand-in that answers a given reply (the pipeline is tested with the reference server elsewhere).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { closeAllEditors } from './fakes';
import type { TurnCharge, TurnResult } from '../../../../src/core';
import type { SendFacts, SurfaceTurnRequest, SurfaceTurnResult } from '../../../../src/extension/pipeline/turnService';
import { runQuickFix, type QuickFixArgs } from '../../../../src/extension/lightbulb/quickFix';
import { explainLastFailure, FailureHint, TerminalFailures, type ShellExecution, type ShellExecutionEnd, type ShellExecutionStart } from '../../../../src/extension/terminal/explainTerminalFailure';
import { repositoryInstructions, writeCommitMessage, type CommitDeps } from '../../../../src/extension/sourceControl/commitMessageCommand';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { gitAccess, type GitApi, type GitRepository } from '../../../../src/extension/sourceControl/gitApi';

const folder = () => {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the test window has a workspace folder');
  return f.uri;
};

/**
 * Asks until `ok` holds for the answer (the workbench hears of a diagnostic a moment after it is
 * set, later still on a busy machine), for at most `timeoutMs`; the last answer is returned either
 * way, for the test's own assertion to say what was missing.
 */
async function until<T>(ask: () => Thenable<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let v = await ask();
  while (!ok(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
    v = await ask();
  }
  return v;
}

describe('the lightbulb: Fix with AI Chat and Explain with AI Chat', () => {
  const collection = vscode.languages.createDiagnosticCollection('aichat-quickfix-test');
  let uri: vscode.Uri;
  const text = ['function area(r) {', '  const pi = 3.14;', '  return pi * r * r', '}', 'area("2");', ''].join('\n');
  const error = new vscode.Diagnostic(new vscode.Range(4, 5, 4, 8), "Argument of type 'string' is not assignable to parameter of type 'number'.", vscode.DiagnosticSeverity.Error);
  error.source = 'ts';
  error.code = 2345;

  before(async () => {
    uri = vscode.Uri.joinPath(folder(), `quickfix-${Date.now()}.js`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await vscode.window.showTextDocument(uri);
    collection.set(uri, [error]);
  });
  after(async () => {
    collection.dispose();
    await vscode.workspace.getConfiguration('aiChat').update('codeActions.enabled', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
    await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  });

  const actionsAt = (range: vscode.Range) => vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range);
  const ours = (list: vscode.CodeAction[] | undefined) => (list ?? []).filter((a) => /with AI Chat$/.test(a.title));
  /** Our actions on the error once the workbench has heard of its diagnostic (a test run on its own comes before that). */
  const onTheError = async () => ours(await until(() => actionsAt(new vscode.Range(4, 6, 4, 6)), (l) => ours(l).some((a) => a.title === 'Fix with AI Chat')));

  it('on the error: "Fix with AI Chat", a quick fix with the diagnostic, never preferred', async () => {
    const list = await onTheError();
    assert.deepEqual(list.map((a) => a.title), ['Fix with AI Chat']);
    const fix = list[0];
    assert.ok(fix.kind && vscode.CodeActionKind.QuickFix.contains(fix.kind), `a quickfix kind (${fix.kind?.value})`);
    assert.ok(!fix.isPreferred, 'not preferred over the language\'s own fixes');
    assert.equal(fix.command?.command, 'aiChat.quickFix.fix');
    const args = fix.command?.arguments?.[0] as QuickFixArgs;
    assert.equal(args.choice.kind, 'fix');
    assert.deepEqual(args.choice.diagnostics.map((d) => [d.severity, d.message, d.code, d.source]), [['error', error.message, '2345', 'ts']]);
  });

  it('a selection without problems: "Explain with AI Chat", not a quick fix, not preferred', async () => {
    const list = ours(await actionsAt(new vscode.Range(0, 0, 2, 0)));
    assert.deepEqual(list.map((a) => a.title), ['Explain with AI Chat']);
    assert.ok(!list[0].kind || !vscode.CodeActionKind.QuickFix.contains(list[0].kind), `not a quick fix (${list[0].kind?.value})`);
    assert.ok(!list[0].isPreferred);
  });

  it('aiChat.codeActions.enabled off: neither is offered; on again: Fix is back', async () => {
    const config = vscode.workspace.getConfiguration('aiChat');
    await config.update('codeActions.enabled', false, vscode.ConfigurationTarget.Global);
    assert.deepEqual(ours(await until(() => actionsAt(new vscode.Range(4, 6, 4, 6)), (l) => ours(l).length === 0)), []);
    assert.deepEqual(ours(await actionsAt(new vscode.Range(0, 0, 2, 0))), []);
    await config.update('codeActions.enabled', undefined, vscode.ConfigurationTarget.Global);
    const back = ours(await until(() => actionsAt(new vscode.Range(4, 6, 4, 6)), (l) => ours(l).length > 0));
    assert.deepEqual(back.map((a) => a.title), ['Fix with AI Chat']);
  });

  it('choosing Fix without Edit in the editor: the chat\'s box gets the diagnostic\'s message, code, source, severity and the lines around it', async () => {
    const [fix] = await onTheError();
    const args = fix.command?.arguments?.[0] as QuickFixArgs;
    const boxed: string[] = [];
    const edits: unknown[] = [];
    const how = await runQuickFix({ insertPrompt: async (t) => void boxed.push(t), canEdit: async () => false, edit: async (...a) => edits.push(a) }, args);
    assert.equal(how, 'chat');
    assert.equal(edits.length, 0);
    assert.equal(boxed.length, 1);
    const prompt = boxed[0];
    assert.match(prompt, /^Fix this problem:\n- Error ts\(2345\), line 5, column 6: Argument of type 'string' is not assignable to parameter of type 'number'\.\n\n`quickfix-\d+\.js`, lines 1-6:\n\n```javascript\n/);
    assert.ok(prompt.includes('  return pi * r * r\n}\narea("2");'), 'the lines around it');
  });

  it('choosing Fix with Edit in the editor: it runs on the problem\'s whole lines with the problems as its instruction', async () => {
    const [fix] = await onTheError();
    const edits: Array<{ range: vscode.Range; instruction: string }> = [];
    const how = await runQuickFix(
      { insertPrompt: async () => assert.fail('the chat is not used'), canEdit: async () => true, edit: async (range, instruction) => void edits.push({ range, instruction }) },
      fix.command?.arguments?.[0] as QuickFixArgs,
    );
    assert.equal(how, 'edit');
    assert.equal(edits.length, 1);
    assert.ok(edits[0].range.isEqual(new vscode.Range(4, 0, 4, 10)), `whole line 5 (${JSON.stringify(edits[0].range)})`);
    assert.equal(edits[0].instruction, "Fix this problem:\n- Error ts(2345), line 5, column 6: Argument of type 'string' is not assignable to parameter of type 'number'.");
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), uri.toString(), 'the file is the active editor');
    assert.ok(editor?.selection.isEqual(edits[0].range), 'its lines are selected');
  });
});

describe("A repository's own commit rules (.github/commit-instructions.md)", () => {
  it('are read from the repository (its first 8 KB); a link out of it is not followed', async () => {
    const root = mkdtempSync(nodePath.join(tmpdir(), 'commit-rules-'));
    const outside = mkdtempSync(nodePath.join(tmpdir(), 'commit-rules-outside-'));
    try {
      mkdirSync(nodePath.join(root, '.github'));
      const file = nodePath.join(root, '.github', 'commit-instructions.md');
      writeFileSync(file, '# Commits\n\nUse the imperative mood e2e-commit-rules.\n' + 'x'.repeat(20_000));
      const rules = await repositoryInstructions(vscode.Uri.file(root));
      assert.match(rules.text, /^# Commits\n\nUse the imperative mood e2e-commit-rules\./);
      assert.ok(rules.text.length <= 8 * 1024, `${rules.text.length} characters read`);
      assert.equal(rules.notice, undefined);
      assert.deepEqual(await repositoryInstructions(vscode.Uri.file(outside)), { text: '' }, 'none there: nothing');
      rmSync(file);
      writeFileSync(nodePath.join(outside, 'secret.md'), 'TOKEN=e2e-not-to-be-sent');
      symlinkSync(nodePath.join(outside, 'secret.md'), file);
      const out = await repositoryInstructions(vscode.Uri.file(root));
      assert.equal(out.text, '', 'a link out of the repository is not read');
      assert.match(out.notice ?? '', /leads to a file outside the workspace/);
      // A link inside the repository to a file whose name looks like a secret (P2): the clone's
      // .git/config, where the remote URL may hold a token.
      rmSync(file);
      mkdirSync(nodePath.join(root, '.git'));
      writeFileSync(nodePath.join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://x-access-token:ghp_E2E_NOT_TO_BE_SENT@github.com/o/r.git\n');
      symlinkSync('../.git/config', file);
      const secret = await repositoryInstructions(vscode.Uri.file(root));
      assert.equal(secret.text, '', 'a link to .git/config is not read');
      assert.ok(!JSON.stringify(secret).includes('ghp_E2E_NOT_TO_BE_SENT'));
      assert.match(secret.notice ?? '', /commit-instructions\.md → \.git\/config is not sent: its name looks like a secret/);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('Write Commit Message on real Git repositories', function () {
  this.timeout(60_000);
  const made: vscode.Uri[] = [];
  let api: GitApi | undefined;
  const git = (cwd: vscode.Uri, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: cwd.fsPath, encoding: 'utf8' });

  /** A repository in the workspace with two commits; opened in the Git extension. */
  async function makeRepo(): Promise<{ root: vscode.Uri; repo: GitRepository }> {
    const root = vscode.Uri.joinPath(folder(), `repo-${Date.now()}-${made.length}`);
    made.push(root);
    await vscode.workspace.fs.createDirectory(root);
    git(root, 'init', '-q', '-b', 'main');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'greet.ts'), new TextEncoder().encode("export const greeting = 'helo';\n"));
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'feat(greet): add the greeting');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'README.md'), new TextEncoder().encode('# Greeting\n'));
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'docs: say what the greeting is');
    assert.ok(api);
    const repo = (await (api as unknown as { openRepository(u: vscode.Uri): Promise<GitRepository | null> }).openRepository(root)) ?? api.getRepository(root);
    assert.ok(repo, 'the Git extension opened the repository');
    return { root, repo };
  }

  interface Run {
    sent: SurfaceTurnRequest[];
    said: string[];
    asked: string[];
    copied: string[];
  }
  const facts: SendFacts = { hasKey: true, model: 'swift-chat', cost: 2, balance: 100, systemSetting: '', instructions: '', budget: 8_000 };
  /** The command's parts with a pipeline that answers `reply` (or waits for Stop when `hold`). */
  function deps(reply: string, run: Run, opts: { answer?: 'replace' | 'append'; hold?: boolean; instructions?: string } = {}): CommitDeps {
    return {
      git: gitAccess,
      instructions: () => ({ text: opts.instructions ?? '' }),
      turns: {
        facts: async () => facts,
        run: async (req, _sink, signal): Promise<SurfaceTurnResult> => {
          run.sent.push(req);
          if (opts.hold) await new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r())));
          const result = { ending: signal.aborted ? 'stopped' : 'complete', text: signal.aborted ? '' : reply, answered: true, started: true, meta: {}, sources: [], files: [] } as unknown as TurnResult;
          return { kind: 'ran', result, charge: Promise.resolve({} as TurnCharge) };
        },
      },
      askReplace: async (existing) => (run.asked.push(existing), opts.answer),
      copy: async (text) => void run.copied.push(text),
      pickRepository: async () => assert.fail('no pick: the repository is named'),
      say: async (_kind, message) => (run.said.push(message), undefined),
    };
  }
  const fresh = (): Run => ({ sent: [], said: [], asked: [], copied: [] });
  const control = () => ({ signal: new AbortController().signal, report: () => undefined });

  after(async () => {
    await vscode.workspace.getConfiguration('git').update('enabled', false, vscode.ConfigurationTarget.Global);
    for (const root of made) await vscode.workspace.fs.delete(root, { recursive: true }).then(undefined, () => undefined);
  });

  it('Git turned off (git.enabled): a clear message, nothing sent', async () => {
    const run = fresh();
    const out = await writeCommitMessage(deps('x', run), undefined, control());
    assert.equal(out.kind, 'noGit');
    assert.equal(run.sent.length, 0);
    assert.match(run.said[0], /Git is turned off in this window \(the git\.enabled setting\)/);
  });

  it('no repository open: a clear message, nothing sent', async () => {
    const ext = vscode.extensions.getExtension<{ enabled: boolean; onDidChangeEnablement: vscode.Event<boolean>; getAPI(v: 1): GitApi }>('vscode.git');
    assert.ok(ext, 'the built-in Git extension');
    const exports = ext.isActive ? ext.exports : await ext.activate();
    const enabled = exports.enabled ? Promise.resolve() : new Promise<void>((r) => exports.onDidChangeEnablement((on) => on && r()));
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    await enabled;
    api = exports.getAPI(1);
    if (api.state !== 'initialized') await new Promise<void>((r) => api?.onDidChangeState((s) => s === 'initialized' && r()));
    assert.equal(api.repositories.length, 0, 'the test workspace is no repository');
    const run = fresh();
    const out = await writeCommitMessage(deps('x', run), undefined, control());
    assert.equal(out.kind, 'noRepository');
    assert.equal(run.sent.length, 0);
    assert.match(run.said[0], /no Git repository is open/);
  });

  it('a staged change: its diff, the file list and the recent subjects are sent (surface commit); the reply\'s fenced block fills the empty box', async () => {
    const { root, repo } = await makeRepo();
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'greet.ts'), new TextEncoder().encode("export const greeting = 'hello';\n"));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'README.md'), new TextEncoder().encode('# Greeting\n\nNot staged.\n'));
    git(root, 'add', 'greet.ts');
    const run = fresh();
    const out = await writeCommitMessage(deps('Here:\n\n```\nfix(greet): spell hello right\n```', run, { instructions: 'Conventional Commits.' }), { rootUri: root }, control());
    assert.deepEqual(out, { kind: 'filled', message: 'fix(greet): spell hello right', staged: true, how: 'empty' });
    assert.equal(repo.inputBox.value, 'fix(greet): spell hello right');
    assert.equal(run.sent.length, 1);
    const req = run.sent[0];
    assert.equal(req.surface, 'commit');
    assert.match(req.prompt, /^Write a commit message for these staged changes\./);
    assert.match(req.prompt, /Follow these rules:\nConventional Commits\./);
    assert.match(req.prompt, /\n- docs: say what the greeting is\n- feat\(greet\): add the greeting\n/);
    assert.match(req.prompt, /Changed files \(1\):\n- greet\.ts \(modified\)\n/);
    assert.ok(req.prompt.includes("-export const greeting = 'helo';\n+export const greeting = 'hello';"), 'the staged diff');
    assert.ok(!req.prompt.includes('Not staged.'), 'not the working tree\'s change');
    assert.deepEqual(run.said, [], 'nothing more to say');
  });

  it('the box holds the user\'s text: asked first; kept (the message goes to the clipboard) or added below', async () => {
    const { root, repo } = await makeRepo();
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'greet.ts'), new TextEncoder().encode("export const greeting = 'hi';\n"));
    git(root, 'add', 'greet.ts');
    repo.inputBox.value = 'my own words';
    const keep = fresh();
    const kept = await writeCommitMessage(deps('feat: say hi', keep), { rootUri: root }, control());
    assert.equal(kept.kind, 'kept');
    assert.deepEqual(keep.asked, ['my own words']);
    assert.equal(repo.inputBox.value, 'my own words');
    assert.deepEqual(keep.copied, ['feat: say hi']);
    await until(async () => keep.said.length, (n) => n > 0, 10_000);
    assert.match(keep.said[0], /your commit message was kept; the written one is on the clipboard/);
    const add = fresh();
    const added = await writeCommitMessage(deps('feat: say hi', add, { answer: 'append' }), { rootUri: root }, control());
    assert.equal(added.kind, 'filled');
    assert.equal(repo.inputBox.value, 'my own words\n\nfeat: say hi');
  });

  it('an empty stage: the working tree\'s changes are described, and the user is told so', async () => {
    const { root, repo } = await makeRepo();
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'README.md'), new TextEncoder().encode('# Greeting\n\nA friendly one.\n'));
    const run = fresh();
    const out = await writeCommitMessage(deps('docs: describe the greeting', run), { rootUri: root }, control());
    assert.deepEqual(out, { kind: 'filled', message: 'docs: describe the greeting', staged: false, how: 'empty' });
    assert.equal(repo.inputBox.value, 'docs: describe the greeting');
    assert.match(run.sent[0].prompt, /^Write a commit message for these changes \(nothing is staged: these are all the changes in the working tree\)\./);
    assert.ok(run.sent[0].prompt.includes('+A friendly one.'), 'the working tree diff');
    assert.match(run.said[0], /nothing was staged, so the message describes all the changes in the working tree/);
  });

  it('no change at all: said, nothing sent; Stop while it runs leaves the box as it was', async () => {
    const { root, repo } = await makeRepo();
    const none = fresh();
    assert.equal((await writeCommitMessage(deps('x', none), { rootUri: root }, control())).kind, 'noChanges');
    assert.equal(none.sent.length, 0);
    assert.match(none.said[0], /has no changes to describe/);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'greet.ts'), new TextEncoder().encode("export const greeting = 'hey';\n"));
    git(root, 'add', 'greet.ts');
    const stop = new AbortController();
    const run = fresh();
    const pending = writeCommitMessage(deps('feat: hey', run, { hold: true }), { rootUri: root }, { signal: stop.signal, report: () => undefined });
    await until(async () => run.sent.length, (n) => n > 0, 10_000);
    stop.abort();
    assert.equal((await pending).kind, 'stopped');
    assert.equal(repo.inputBox.value, '');
  });
});

describe('Explain Last Terminal Failure', () => {
  const start = new vscode.EventEmitter<ShellExecutionStart>();
  const end = new vscode.EventEmitter<ShellExecutionEnd>();
  const failures = new TerminalFailures({ onDidStartTerminalShellExecution: start.event, onDidEndTerminalShellExecution: end.event });
  const terminal = vscode.window.createTerminal({ name: 'failing-build' });
  after(() => {
    failures.dispose();
    terminal.dispose();
  });
  const execution = (commandLine: string, chunks: string[]): ShellExecution => ({
    commandLine: { value: commandLine },
    cwd: folder(),
    read: async function* () {
      for (const c of chunks) yield c;
    },
  });
  /** Runs a command through the shell integration events; resolves once a failure is remembered (or at once for exit 0). */
  async function run(commandLine: string, chunks: string[], exitCode: number): Promise<void> {
    const e = execution(commandLine, chunks);
    const recorded = exitCode === 0 ? Promise.resolve() : new Promise<void>((r) => failures.onDidRecord(() => r()));
    start.fire({ terminal, execution: e });
    end.fire({ terminal, execution: e, exitCode });
    await recorded;
  }
  const explain = async () => {
    const boxed: string[] = [];
    const said: string[][] = [];
    const how = await explainLastFailure({ failures, insertPrompt: async (t) => void boxed.push(t), say: async (m, ...b) => (said.push([m, ...b]), undefined) });
    return { how, boxed, said };
  };

  it('a command that exits non-zero: its command line, exit code, folder and output (escapes removed) go to the chat\'s box', async () => {
    await run('npm test', ['\x1b[31mFAIL\x1b[0m src/a.test.ts\r\n', '  expected 2, got 3\r\n'], 1);
    const r = await explain();
    assert.equal(r.how, 'prompt');
    assert.equal(
      r.boxed[0],
      `This command failed in the terminal (in ${folder().fsPath}) with exit code 1. Explain why, and how to fix it:\n\n\`\`\`sh\nnpm test\n\`\`\`\n\nIts output:\n\n\`\`\`text\nFAIL src/a.test.ts\n  expected 2, got 3\n\`\`\``,
    );
  });

  it('a long output keeps its end; a later success in the same terminal leaves nothing to explain', async () => {
    await run('make', [Array.from({ length: 5_000 }, (_, i) => `step ${i}`).join('\n'), '\nerror: the last step failed\n'], 2);
    const long = await explain();
    assert.match(long.boxed[0], /exit code 2/);
    assert.match(long.boxed[0], /The end of its output \(the start is left out\):/);
    assert.match(long.boxed[0], /step 4999\nerror: the last step failed\n```$/);
    assert.ok(!long.boxed[0].includes('step 10\n'), 'the start is left out');
    await run('make', ['ok\n'], 0);
    const none = await explain();
    assert.equal(none.boxed.length, 0);
    assert.notEqual(none.how, 'prompt');
    assert.equal(none.said.length, 1, 'it says why');
  });

  it('a failed command shows the status bar hint, one at a time; a success in that terminal or the setting off shows none', async () => {
    const hint = new FailureHint(failures);
    try {
      await run('npm run build', ['error TS2322\n'], 1);
      assert.equal(hint.visible, true, 'shown after the failure');
      await run('npm run build', ['ok\n'], 0);
      assert.equal(hint.visible, false, 'gone once a command of that terminal went well');
      await vscode.workspace.getConfiguration('aiChat').update('terminal.offerExplain', false, vscode.ConfigurationTarget.Global);
      try {
        await run('npm test', ['FAIL\n'], 1);
        assert.equal(hint.visible, false, 'off with aiChat.terminal.offerExplain');
      } finally {
        await vscode.workspace.getConfiguration('aiChat').update('terminal.offerExplain', undefined, vscode.ConfigurationTarget.Global);
      }
    } finally {
      hint.dispose();
    }
  });

  it('a host without shell integration: says why and offers the terminal selection through Add Context', async () => {
    const without = new TerminalFailures({});
    const r = await explainLastFailure({ failures: without, insertPrompt: async () => assert.fail('nothing to put in the box'), say: async (m, ...b) => (assert.match(m, /needs VS Code 1\.93 or later/), assert.deepEqual(b, ['Add Context…']), undefined) });
    assert.equal(r, 'unsupported');
    without.dispose();
  });
});
