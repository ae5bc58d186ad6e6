// The repository's rules in a real extension host: RulesService over the real workspace, file
// system and watchers, and @aichat through the one turn pipeline. A Python rule goes with a
// request whose active editor holds a .py file and says why under the answer; a TypeScript rule
// does not; a rule file that is a link to .git/config or .env is listed as refused and never sent;
// a rule that holds the key is never sent; an edit of a rule file is what the next request carries,
// and a deleted one goes.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiKeyStore, API_KEY_SECRET } from '../../../../src/extension/account/keyStore';
import { answerRequest } from '../../../../src/extension/chat/native/participant';
import { TurnService, type TurnServiceDeps } from '../../../../src/extension/pipeline/turnService';
import { InstructionsService } from '../../../../src/extension/pipeline/instructionsFile';
import { RulesService } from '../../../../src/extension/rules/rulesService';
import { closeAllEditors, memento, secretStorage, silent } from './fakes';

const KEY = 'sk-rules-check-0c1d2e3f4a5b6c7d';

describe('The repository\'s rules, with @aichat', function () {
  this.timeout(60_000);
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const at = (...parts: string[]) => vscode.Uri.joinPath(folder(), ...parts);
  const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const made: vscode.Uri[] = [];

  let keys: ApiKeyStore;
  let instructions: InstructionsService;
  let rules: RulesService;
  const sent: string[] = [];

  before(async () => {
    await write(at('.github', 'instructions', 'py.instructions.md'), '---\napplyTo: "**/*.py"\n---\nPython rule exthost-py-rule\n');
    await write(at('.cursor', 'rules', 'ts.mdc'), '---\nglobs: **/*.ts\nalwaysApply: false\n---\nTypeScript rule exthost-ts-rule\n');
    await write(at('src', 'tally.py'), 'def tally(xs):\n    return sum(xs)\n');
    made.push(at('.github', 'instructions'), at('.cursor'), at('src', 'tally.py'), at('.claude'));
    keys = new ApiKeyStore(secretStorage({ [API_KEY_SECRET]: KEY }));
    await keys.get();
    instructions = new InstructionsService(memento(), silent);
    rules = new RulesService({
      workspaceState: memento(),
      logger: silent,
      instructions: () => ({ name: instructions.current.name, sent: undefined }),
      holdsKey: (t) => keys.holds(t),
      keyChanged: keys.onDidChange,
    });
    await rules.ready;
  });

  after(async () => {
    rules.dispose();
    instructions.dispose();
    keys.dispose();
    await closeAllEditors();
    for (const uri of made) await vscode.workspace.fs.delete(uri, { recursive: true }).then(undefined, () => undefined);
  });

  /** @aichat answers once; what the Chat view was shown and which command buttons. */
  async function ask(prompt: string): Promise<{ text: string; buttons: string[] }> {
    const client = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: async (req: { messages: Array<{ role: string; content: string }> }) => {
        sent.push(req.messages.find((m) => m.role === 'system')?.content ?? '');
        return {
          abort() {},
          async *[Symbol.asyncIterator]() {
            yield { event: 'f', messageId: 'm' };
            yield { event: '0', data: 'ok' };
            yield { event: 'e', finishReason: 'stop', isContinued: false };
            yield { event: 'd', finishReason: 'stop' };
          },
        };
      },
    };
    const turns = new TurnService({
      keys,
      instructions: () => instructions,
      rules: () => rules,
      config: { settings: { model: 'swift-chat', systemPrompt: '', contextMaxTokens: 8_000, temperature: 1, search: false, baseUrl: 'http://127.0.0.1:9' } },
      models: { models: [], costOf: () => 1 },
      balance: { state: {} },
      accounting: { start: () => ({ backend: (inner: unknown) => inner, settle: async () => ({ pending: false }) }) },
      clients: { get: () => client },
      logger: silent,
    } as unknown as TurnServiceDeps);
    const text: string[] = [];
    const buttons: string[] = [];
    const stream = { markdown: (t: string) => void text.push(t), button: (b: vscode.Command) => void buttons.push(b.command), progress: () => undefined } as unknown as vscode.ChatResponseStream;
    await answerRequest({ extensionUri: vscode.Uri.file('/'), turns, logger: silent, openInChat: async () => undefined }, { prompt } as unknown as vscode.ChatRequest, { history: [] }, stream, new vscode.CancellationTokenSource().token);
    return { text: text.join(''), buttons };
  }

  it('the active editor holds a .py file: the Python rule goes (and not the TypeScript one), and the answer says Rules: 1 with why', async () => {
    await vscode.window.showTextDocument(at('src', 'tally.py'));
    const r = await ask('Any advice? exthost-rules-one');
    const system = sent.at(-1) ?? '';
    assert.ok(system.includes('exthost-py-rule'), system);
    assert.ok(!system.includes('exthost-ts-rule'), 'the TypeScript rule went with a request that has no .ts file');
    assert.match(r.text, /\*Rules: 1\*/);
    assert.match(r.text, /`\.github\/instructions\/py\.instructions\.md`: matched `src\/tally\.py` by `\*\*\/\*\.py`/);
    assert.ok(r.buttons.includes('aiChat.showRules'), `buttons: ${r.buttons.join(', ')}`);
  });

  it('no editor open: neither pattern rule goes, and the answer lists no rules', async () => {
    await closeAllEditors();
    const r = await ask('And now? exthost-rules-two');
    const system = sent.at(-1) ?? '';
    assert.ok(!system.includes('exthost-py-rule') && !system.includes('exthost-ts-rule'), system);
    assert.doesNotMatch(r.text, /Rules:/);
  });

  it('rule files that link to .git/config-like and .env files are listed as refused and never sent', async function () {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const root = folder().fsPath;
    fs.writeFileSync(path.join(root, '.env'), 'DATABASE_PASSWORD=exthost-hunter2\n');
    made.push(at('.env'));
    fs.mkdirSync(path.join(root, '.claude', 'rules'), { recursive: true });
    fs.symlinkSync('../../.env', path.join(root, '.claude', 'rules', 'env.md'));
    // The workspace's .git/config (a token in a remote URL): made for the test when the folder has no .git.
    if (!fs.existsSync(path.join(root, '.git'))) {
      fs.mkdirSync(path.join(root, '.git'));
      fs.writeFileSync(path.join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://x-access-token:ghp_EXTHOSTFAKE@github.com/o/r.git\n');
      made.push(at('.git'));
    }
    fs.symlinkSync('../../.git/config', path.join(root, '.claude', 'rules', 'git.md'));
    await rules.refresh();
    const listed = rules.choice().rules.filter((c) => c.rule.path.startsWith('.claude/rules/'));
    assert.deepEqual(listed.map((c) => [c.rule.path, c.sent, c.reason.kind]), [
      ['.claude/rules/env.md', false, 'unreadable'],
      ['.claude/rules/git.md', false, 'unreadable'],
    ]);
    assert.match(listed[0].rule.problem ?? '', /looks like a secret/);
    await ask('Anything? exthost-rules-three');
    const system = sent.at(-1) ?? '';
    assert.ok(!system.includes('exthost-hunter2') && !system.includes('ghp_EXTHOSTFAKE') && !system.includes('[remote'), 'a secret went as a rule');
  });

  it('a rule that holds the API key is never sent; an edit of a rule file is what the next request carries', async () => {
    const always = at('.cursor', 'rules', 'always.mdc');
    await write(always, `---\nalwaysApply: true\n---\nCall the service with ${KEY}\n`);
    await rules.refresh();
    await ask('With the key rule? exthost-rules-four');
    assert.ok(!(sent.at(-1) ?? '').includes(KEY), 'the key went in a rule');
    assert.equal(rules.choice().rules.find((c) => c.rule.path === '.cursor/rules/always.mdc')?.reason.kind, 'unreadable');
    // Edited: the next request carries the new text (the file is looked at before each request,
    // whether or not the watcher reported the change: this host may be out of file watches).
    await write(always, '---\nalwaysApply: true\n---\nAlways rule exthost-always-edited\n');
    await ask('After the edit? exthost-rules-five');
    assert.ok((sent.at(-1) ?? '').includes('exthost-always-edited'), sent.at(-1));
    await vscode.workspace.fs.delete(always);
    await ask('After the delete? exthost-rules-six');
    assert.ok(!(sent.at(-1) ?? '').includes('exthost-always-edited'), 'a deleted rule file still went');
  });
});
