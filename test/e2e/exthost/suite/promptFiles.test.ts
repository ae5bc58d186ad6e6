// Slash commands from prompt files, against the real workspace API: the files of the workspace
// folder are found with findFiles (.github/prompts, .claude/commands, .continue/prompts), a
// malformed one and a link out of the workspace are listed with their error, a file changed on
// disk is read again when the list is used (the list says so through onDidChange), a deleted one leaves it; and a
// chosen prompt is expanded with the real editor's selection and file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { PromptFiles } from '../../../../src/extension/promptFiles/promptFileWatcher';
import { promptListMessageOf } from '../../../../src/extension/chat/common/presenter';
import { expandChosenPrompt, type ExpandDeps } from '../../../../src/extension/promptFiles/promptExpansion';
import { closeAllEditors, silent } from './fakes';

const REVIEW = (description: string) => `---
description: ${description}
argument-hint: focus area
model: chat-large
tools: ['codebase']
---
Review \${file}:

\${selection}

Focus: \${input:focus:naming}
`;

describe('Prompt files in a real workspace', function () {
  this.timeout(60_000);
  const root = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const uri = (...parts: string[]) => vscode.Uri.joinPath(root(), ...parts);
  const write = (path: string, text: string) => vscode.workspace.fs.writeFile(uri(...path.split('/')), new TextEncoder().encode(text));
  /** Folders this test made (deleted after); folders that were there stay. */
  const made: vscode.Uri[] = [];
  let outside: string;
  let service: PromptFiles;

  before(async () => {
    for (const dir of ['.github', '.claude', '.continue']) {
      const exists = await vscode.workspace.fs.stat(uri(dir)).then(
        () => true,
        () => false,
      );
      if (!exists) made.push(uri(dir));
    }
    await vscode.workspace.fs.createDirectory(uri('.github', 'prompts'));
    await vscode.workspace.fs.createDirectory(uri('.claude', 'commands'));
    await vscode.workspace.fs.createDirectory(uri('.continue', 'prompts'));
    await write('.github/prompts/review.prompt.md', REVIEW('Review the code'));
    await write('.github/prompts/broken.prompt.md', '---\ndescription: never closed\nbody\n');
    await write('.claude/commands/fix-issue.md', '---\ndescription: Fix an issue\nargument-hint: [number]\n---\nFix issue #$ARGUMENTS.\n');
    await write('.continue/prompts/check.prompt', 'name: check\ndescription: Check for mistakes\n---\nCheck this: {{{ input }}}\n');
    // A link to a file outside the workspace folder: listed, never read.
    outside = mkdtempSync(join(tmpdir(), 'prompt-outside-'));
    writeFileSync(join(outside, 'secret.md'), 'Text from outside the workspace');
    if (root().scheme === 'file') symlinkSync(join(outside, 'secret.md'), join(root().fsPath, '.github', 'prompts', 'outside.prompt.md'));
    service = new PromptFiles(silent);
    await service.ready;
  });

  after(async () => {
    service?.dispose();
    await closeAllEditors();
    for (const f of ['.github/prompts/review.prompt.md', '.github/prompts/broken.prompt.md', '.github/prompts/outside.prompt.md', '.github/prompts/probe.prompt.md', '.claude/commands/fix-issue.md', '.claude/commands/lint.md', '.continue/prompts/check.prompt', 'prompt-target.ts']) {
      await vscode.workspace.fs.delete(uri(...f.split('/'))).then(undefined, () => undefined);
    }
    for (const dir of made) await vscode.workspace.fs.delete(dir, { recursive: true }).then(undefined, () => undefined);
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  it('finds the three kinds of prompt file after the built-ins, each with its description', () => {
    const names = service.entries.map((e) => e.name);
    assert.deepEqual(names.slice(0, 4), ['explain', 'fix', 'tests', 'new']);
    const review = service.find('review');
    assert.equal(review?.source, 'github');
    assert.equal(review?.description, 'Review the code');
    assert.equal(review?.argumentHint, 'focus area');
    assert.deepEqual(review?.unsupported, ['tools']);
    assert.equal(service.find('fix-issue')?.source, 'claude');
    assert.equal(service.find('check')?.description, 'Check for mistakes');
    // Order: .github, then .claude, then .continue.
    assert.ok(names.indexOf('review') < names.indexOf('fix-issue') && names.indexOf('fix-issue') < names.indexOf('check'), names.join(' '));
  });

  it('a malformed file and a link out of the workspace are listed with their error', () => {
    assert.match(service.find('broken')?.error ?? '', /never closed/);
    if (root().scheme === 'file') {
      const out = service.find('outside');
      assert.match(out?.error ?? '', /outside the workspace/);
      assert.equal(out?.body, '');
    }
    const message = promptListMessageOf(service.view());
    assert.equal(message.type, 'promptList');
    if (message.type === 'promptList') assert.ok(message.prompts.some((p) => p.name === 'broken' && p.error));
  });

  it('a prompt file written, changed or deleted on disk is in the list as it is when the list is next used', async () => {
    // The watchers report a change as it happens, but a watcher can miss one (VS Code's recursive
    // watcher may not run on a host out of file watches): the `/` list and @aichat read the files
    // again when they are used (recheck), and the list says it changed through onDidChange.
    let changes = 0;
    const sub = service.onDidChange(() => changes++);
    try {
      await write('.github/prompts/probe.prompt.md', 'Probe');
      const first = service.recheck();
      assert.equal(service.recheck(), first, 'asks made before the search started share it');
      await first;
      assert.equal(service.find('probe')?.body, 'Probe');
      assert.ok(changes > 0, 'onDidChange fired');
      await vscode.workspace.fs.delete(uri('.github', 'prompts', 'probe.prompt.md'));
      await service.recheck();
      assert.equal(service.find('probe'), undefined);
      await write('.github/prompts/review.prompt.md', REVIEW('Review the code, changed'));
      await service.recheck();
      assert.equal(service.find('review')?.description, 'Review the code, changed');
      await write('.claude/commands/lint.md', 'Lint $ARGUMENTS.');
      await service.recheck();
      assert.equal(service.find('lint')?.source, 'claude');
      await vscode.workspace.fs.delete(uri('.claude', 'commands', 'lint.md'));
      await service.recheck();
      assert.equal(service.find('lint'), undefined);
    } finally {
      sub.dispose();
    }
  });

  it('a chosen prompt is expanded with the editor\'s selection and file and the value asked, into the box', async () => {
    await write('prompt-target.ts', 'export const answer = 42;\nexport const other = 1;\n');
    const doc = await vscode.workspace.openTextDocument(uri('prompt-target.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 0, 0, 25);
    const inserted: string[] = [];
    const models: ({ id: string; label: string } | undefined)[] = [];
    const asked: vscode.InputBoxOptions[] = [];
    const said: string[] = [];
    const deps: ExpandDeps = {
      prompts: service,
      editor: () => editor,
      models: () => [{ valueId: 'chat-large', name: 'Chat Large', costInCreditPerUse: 2, isActive: true, type: 'text' }],
      selectedModel: () => 'chat-small',
      insert: async (text, model) => void (inserted.push(text), models.push(model)),
      newChat: () => undefined,
      ask: async (o) => (asked.push(o), 'naming and tests'),
      info: async (m) => (said.push(m), undefined),
      warn: async (m) => said.push(m),
    };
    const text = await expandChosenPrompt(deps, 'review');
    assert.equal(inserted.length, 1);
    assert.equal(text, inserted[0]);
    assert.equal(inserted[0], 'Review prompt-target.ts:\n\nexport const answer = 42;\n\nFocus: naming and tests');
    assert.equal(asked[0]?.placeHolder, 'naming');
    // The model it names goes with the text (that send uses it, the box shows its price) and is said; the unsupported field is named.
    assert.deepEqual(models[0], { id: 'chat-large', label: 'Chat Large · 2 credits' });
    assert.ok(said.some((m) => m.includes('Chat Large · 2 credits') && m.includes('tools')), said.join(' | '));
    // Named once: the second time, only the model is said.
    said.length = 0;
    await expandChosenPrompt(deps, 'review');
    assert.ok(said.length === 1 && !said[0].includes('tools'), said.join(' | '));
    // A model that cannot be used: the selected model answers, and the user is told.
    said.length = 0;
    await expandChosenPrompt({ ...deps, models: () => [] }, 'review');
    assert.equal(models.at(-1), undefined);
    assert.match(said[0] ?? '', /names the model chat-large, which is not among the models available now: the selected model answers/);

    // Claude's $ARGUMENTS from the words after the name; nothing asked.
    asked.length = 0;
    assert.equal(await expandChosenPrompt(deps, 'fix-issue', '42'), 'Fix issue #42.');
    assert.equal(asked.length, 0);
    // A malformed one puts nothing in the box and says why.
    assert.equal(await expandChosenPrompt(deps, 'broken'), undefined);
    assert.ok(said.at(-1)?.includes('never closed'), said.at(-1));
    // Cancelling the question puts nothing in the box.
    const before = inserted.length;
    assert.equal(await expandChosenPrompt({ ...deps, ask: async () => undefined }, 'review'), undefined);
    assert.equal(inserted.length, before);
  });
});

describe('The user\'s prompts folder (aiChat.userPromptsFolder)', function () {
  this.timeout(90_000);
  let dir: string;
  let outside: string;
  let service: PromptFiles | undefined;
  const config = () => vscode.workspace.getConfiguration('aiChat');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-prompts-'));
    outside = mkdtempSync(join(tmpdir(), 'user-prompts-outside-'));
    writeFileSync(join(dir, 'standup.prompt.md'), '---\ndescription: My standup notes\nagent: helper\n---\nSummarize ${selection} for the standup.\n');
    writeFileSync(join(dir, 'notes.md'), 'Not a prompt file');
    writeFileSync(join(outside, 'elsewhere.md'), 'Text from outside the folder');
    symlinkSync(join(outside, 'elsewhere.md'), join(dir, 'linked.prompt.md'));
    await config().update('userPromptsFolder', dir, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    service?.dispose();
    await config().update('userPromptsFolder', undefined, vscode.ConfigurationTarget.Global);
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** Resolves when `check` holds after a change of the list (or already holds); rejects after `ms`. */
  const until = (s: PromptFiles, check: () => boolean, what: string, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`the list never showed: ${what}`));
      }, ms);
      const sub = s.onDidChange(() => {
        if (!check()) return;
        clearTimeout(timer);
        sub.dispose();
        resolve();
      });
    });

  it('its *.prompt.md files are listed with their source, a link out of it with its error; other files are not', async () => {
    service = new PromptFiles(silent);
    await service.ready;
    const standup = service.find('standup');
    assert.equal(standup?.source, 'userFolder');
    assert.equal(standup?.description, 'My standup notes');
    assert.deepEqual(standup?.unsupported, ['agent']);
    assert.match(service.find('linked')?.error ?? '', /outside your prompts folder/);
    assert.equal(service.find('linked')?.body, '');
    assert.equal(service.find('notes'), undefined);
    const message = promptListMessageOf(service.view());
    assert.ok(message.type === 'promptList');
    const item = message.prompts.find((p) => p.name === 'standup');
    assert.equal(item?.source, 'your prompts folder: standup.prompt.md');
    assert.match(item?.note ?? '', /Not supported: agent/);
    // After the built-ins and the setting's prompts, before the workspace's files.
    const names = service.entries.map((e) => e.source);
    assert.ok(names.indexOf('userFolder') > names.lastIndexOf('builtin'), names.join(' '));
  });

  it('a file changed in it is read again when the list is used', async () => {
    assert.ok(service);
    writeFileSync(join(dir, 'standup.prompt.md'), '---\ndescription: Standup, changed\n---\nSummarize.\n');
    await service.recheck();
    assert.equal(service.find('standup')?.description, 'Standup, changed');
  });

  it('a setting that is not an absolute path is said in the list, not read', async () => {
    assert.ok(service);
    const s = service;
    await config().update('userPromptsFolder', 'relative/prompts', vscode.ConfigurationTarget.Global);
    await until(s, () => !s.find('standup'), 'the folder gone');
    const message = promptListMessageOf(s.view());
    assert.ok(message.type === 'promptList');
    assert.match(message.notice ?? '', /must be an absolute path/);
  });
});
