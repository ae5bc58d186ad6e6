import { strict as assert } from 'node:assert';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import NodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { APPLY_MAX_BYTES, applyBlock, checkApplyTarget, protectedArea, resolveApplyTarget, tooLargeToApply, workspacePathSegments } from '../../../../src/core';
import { codePathOf } from '../../../../src/wording/codeFence';

const FILE = ['import x from "x";', '', 'export function add(a, b) {', '  return a + b;', '}', '', 'export function sub(a, b) {', '  return a - b;', '}', ''].join('\n');

describe('Apply to File: what a code block does to its file', () => {
  it('a block showing one function replaces that function only', () => {
    const block = 'export function add(a, b) {\n  // sums\n  return a + b + 0;\n}\n';
    const r = applyBlock(FILE, block);
    assert.equal(r.mode, 'region');
    assert.deepEqual(r.lines, [3, 5]);
    assert.equal(r.text, FILE.replace('  return a + b;', '  // sums\n  return a + b + 0;'));
  });

  it('a block that is the whole file (or whose ends are not unique) replaces the whole file', () => {
    const whole = applyBlock(FILE, 'console.log(1);\n');
    assert.equal(whole.mode, 'whole-file');
    assert.equal(whole.text, 'console.log(1);\n');
    // Its first line "}" occurs twice: where the block goes is ambiguous.
    const ambiguous = applyBlock(FILE, '}\n\nexport function mul(a, b) {\n  return a * b;\n}');
    assert.equal(ambiguous.mode, 'whole-file');
    const full = applyBlock(FILE, FILE.replace('a + b', 'b + a'));
    assert.equal(full.mode, 'whole-file');
    assert.equal(full.text, FILE.replace('a + b', 'b + a'));
  });

  it('the region ends at the first line after its start that matches the block\'s last line with its indentation', () => {
    const nested = 'function f() {\n  if (x) {\n    y();\n  }\n}\n\nfunction g() {}\n';
    const r = applyBlock(nested, 'function f() {\n  if (x) {\n    z();\n  }\n}');
    assert.equal(r.mode, 'region');
    assert.deepEqual(r.lines, [1, 5]);
    assert.equal(r.text, nested.replace('y();', 'z();'));
  });

  it('a new file is the block; CRLF files keep CRLF; a 5,000-line file works', () => {
    assert.deepEqual(applyBlock(undefined, 'hello'), { mode: 'new-file', text: 'hello\n' });
    const crlf = FILE.replace(/\n/g, '\r\n');
    const r = applyBlock(crlf, 'export function sub(a, b) {\n  return b - a;\n}');
    assert.equal(r.mode, 'region');
    assert.ok(r.text.includes('export function sub(a, b) {\r\n  return b - a;\r\n}') && !/[^\r]\n/.test(r.text));
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const r2 = applyBlock(big, 'line 2000\nchanged\nline 2002');
    assert.equal(r2.mode, 'region');
    assert.deepEqual(r2.lines, [2001, 2003]);
    assert.equal(r2.text.split('\n').length, big.split('\n').length);
    assert.ok(r2.text.includes('line 2000\nchanged\nline 2002\nline 2003'));
  });

  it('a path from a reply stays inside the workspace', () => {
    assert.deepEqual(workspacePathSegments('src/a.ts'), ['src', 'a.ts']);
    assert.deepEqual(workspacePathSegments('./src//b.ts'), ['src', 'b.ts']);
    for (const bad of ['../x.ts', 'src/../../etc/passwd', '/etc/passwd', 'C:\\Windows\\x', '~/x', '', 'file.txt:stream', 'C:x.ts']) {
      assert.equal(workspacePathSegments(bad), undefined, bad);
    }
  });

  it('finds the file a block names in its info string', () => {
    assert.equal(codePathOf('ts src/utils.ts'), 'src/utils.ts');
    assert.equal(codePathOf('ts title="src/utils.ts"'), 'src/utils.ts');
    assert.equal(codePathOf('python path=app/main.py'), 'app/main.py');
    assert.equal(codePathOf('ts {1,3}'), '');
    assert.equal(codePathOf('ts'), '');
    assert.equal(codePathOf('sh ../../etc/passwd'), '');
    assert.equal(codePathOf('sh /etc/passwd'), '');
    assert.equal(codePathOf('ts some words here'), '');
  });
});

describe('Apply to File: where a named path lands on disk', () => {
  let home = '';
  let ws = '';
  const write = (p: string, text = 'x\n') => {
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  };

  beforeEach(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'apply-home-')));
    ws = join(home, 'src', 'repo');
    mkdirSync(ws, { recursive: true });
    write(join(home, '.bashrc'), "# the user's real .bashrc\n");
    write(join(ws, 'src', 'ok.ts'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('a file of the workspace (existing or new, in a new folder too) is accepted where it is', async () => {
    const existing = await resolveApplyTarget([ws], 'src/ok.ts');
    assert.ok(existing.ok);
    assert.equal(existing.real, join(ws, 'src', 'ok.ts'));
    assert.equal(existing.exists, true);
    assert.deepEqual(existing.segments, ['src', 'ok.ts']);
    const created = await resolveApplyTarget([ws], 'lib/deep/new.ts');
    assert.ok(created.ok);
    assert.equal(created.real, join(ws, 'lib', 'deep', 'new.ts'));
    assert.equal(created.exists, false);
  });

  it('a committed symbolic link `up -> ../..` does not lead out: up/.bashrc is refused, the real one untouched', async () => {
    symlinkSync('../..', join(ws, 'up'));
    assert.deepEqual(await resolveApplyTarget([ws], 'up/.bashrc'), { ok: false, reason: 'outside' });
    assert.deepEqual(await resolveApplyTarget([ws], 'up/new-file.sh'), { ok: false, reason: 'outside' }, 'a new file through the link too');
    // A link to a file, and a link to a missing file outside (creating the file would follow it).
    symlinkSync(join(home, '.bashrc'), join(ws, 'rc'));
    assert.deepEqual(await resolveApplyTarget([ws], 'rc'), { ok: false, reason: 'outside' });
    symlinkSync(join(home, 'not-yet'), join(ws, 'dangling'));
    assert.deepEqual(await resolveApplyTarget([ws], 'dangling'), { ok: false, reason: 'outside' });
    // A link that stays inside the workspace is fine.
    symlinkSync('src', join(ws, 'alias'));
    const inside = await resolveApplyTarget([ws], 'alias/ok.ts');
    assert.ok(inside.ok);
    assert.equal(inside.real, join(ws, 'src', 'ok.ts'));
  });

  it('.git is refused (hooks run code), also in other cases and through a link; .vscode asks first', async () => {
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    assert.deepEqual(await resolveApplyTarget([ws], '.git/hooks/x'), { ok: false, reason: 'git' });
    assert.deepEqual(await resolveApplyTarget([ws], '.GIT/hooks/pre-commit'), { ok: false, reason: 'git' });
    assert.deepEqual(await resolveApplyTarget([ws], 'sub/.git./config'), { ok: false, reason: 'git' });
    symlinkSync('.git/hooks', join(ws, 'hooks'));
    assert.deepEqual(await resolveApplyTarget([ws], 'hooks/post-checkout'), { ok: false, reason: 'git' });
    const settings = await resolveApplyTarget([ws], '.vscode/settings.json');
    assert.ok(settings.ok);
    assert.equal(settings.ask, 'vscode');
    assert.equal((await resolveApplyTarget([ws], 'src/ok.ts') as { ask?: string }).ask, undefined);
  });

  it('*.code-workspace and .devcontainer/ ask first like .vscode/ (they too hold settings, tasks and what runs), also through a link', async () => {
    write(join(ws, 'repo.code-workspace'), '{ "folders": [{ "path": "." }] }\n');
    write(join(ws, '.devcontainer', 'devcontainer.json'), '{}\n');
    for (const [path, ask] of [
      ['repo.code-workspace', 'code-workspace'],
      ['new.code-workspace', 'code-workspace'],
      ['sub/Team.CODE-WORKSPACE', 'code-workspace'],
      ['repo.code-workspace.', 'code-workspace'],
      ['.devcontainer/devcontainer.json', 'devcontainer'],
      ['.devcontainer/Dockerfile', 'devcontainer'],
      ['.DevContainer/post-create.sh', 'devcontainer'],
      ['.devcontainer.json', 'devcontainer'],
      ['.vscode/tasks.json', 'vscode'],
    ] as const) {
      const r = await resolveApplyTarget([ws], path);
      assert.ok(r.ok, path);
      assert.equal(r.ask, ask, path);
    }
    symlinkSync('repo.code-workspace', join(ws, 'settings-link.json'));
    const linked = await resolveApplyTarget([ws], 'settings-link.json');
    assert.ok(linked.ok);
    assert.equal(linked.ask, 'code-workspace', 'the real place decides too');
    for (const path of ['src/ok.ts', 'docs/code-workspace.md', 'devcontainer/notes.md']) {
      const r = await resolveApplyTarget([ws], path);
      assert.ok(r.ok, path);
      assert.equal(r.ask, undefined, path);
    }
    // A link in an asking folder that leads into .git is refused, not asked.
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    symlinkSync('../.git/hooks', join(ws, '.vscode', 'hooks'));
    assert.deepEqual(await resolveApplyTarget([ws], '.vscode/hooks/pre-commit'), { ok: false, reason: 'git' });
    assert.equal(protectedArea(['a', 'x.code-workspace']), 'code-workspace');
    assert.equal(protectedArea(['.devcontainer', 'a.json']), 'devcontainer');
  });

  it('paths that are not relative are refused before the disk is looked at; without a folder nothing is accepted', async () => {
    for (const p of ['../x.ts', '/etc/passwd', '~/.ssh/authorized_keys', 'C:\\x.ini', '']) {
      assert.deepEqual(await resolveApplyTarget([ws], p), { ok: false, reason: 'invalid' }, p);
    }
    assert.deepEqual(await resolveApplyTarget([], 'src/ok.ts'), { ok: false, reason: 'no-folder' });
  });

  it('with several folders the one holding the file wins, else the first; the last editor is checked the same way', async () => {
    const other = join(home, 'other');
    write(join(other, 'only-here.ts'));
    const r = await resolveApplyTarget([ws, other], 'only-here.ts');
    assert.ok(r.ok);
    assert.equal(r.folder, 1);
    const n = await resolveApplyTarget([ws, other], 'brand-new.ts');
    assert.ok(n.ok);
    assert.equal(n.folder, 0);
    symlinkSync(home, join(ws, 'home'));
    assert.deepEqual(await checkApplyTarget([ws], 0, ['home', '.bashrc']), { ok: false, reason: 'outside' });
    assert.deepEqual(protectedArea(['a', '.Vscode', 'tasks.json']), 'vscode');
  });
});

/**
 * The host side of Apply to File (src/extension/applyToFile/applyToFile.ts) run against a small
 * stand-in of the `vscode` API whose file system is the real disk: what it reads, shows and asks.
 */
describe('Apply to File in the editor: what is read, shown and asked', () => {
  const Module = NodeModule as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const realResolve = Module._resolveFilename;
  const FAKE_ID = join(tmpdir(), 'aichat-fake-vscode.cjs');
  let ws = '';
  const calls = { reads: [] as string[], stats: [] as string[], commands: [] as string[], warnings: [] as string[], errors: [] as string[], infos: [] as string[] };
  let answer: string | undefined;

  class Uri {
    constructor(
      readonly scheme: string,
      readonly path: string,
    ) {}
    get fsPath() {
      return this.path;
    }
    toString() {
      return `${this.scheme}://${this.path}`;
    }
    static file(p: string) {
      return new Uri('file', p);
    }
    static from(c: { scheme: string; path: string }) {
      return new Uri(c.scheme, c.path);
    }
    static joinPath(base: Uri, ...parts: string[]) {
      return new Uri(base.scheme, join(base.path, ...parts));
    }
  }
  class FileSystemError extends Error {
    constructor(
      message: string,
      readonly code: string,
    ) {
      super(message);
    }
  }
  const fake = {
    Uri,
    FileSystemError,
    EventEmitter: class {
      event = () => ({ dispose() {} });
      fire() {}
      dispose() {}
    },
    l10n: { t: (s: string, ...args: unknown[]) => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) },
    commands: {
      registerCommand: () => ({ dispose() {} }),
      executeCommand: async (id: string) => void calls.commands.push(id),
    },
    window: {
      showWarningMessage: async (m: string, ...items: unknown[]) => {
        calls.warnings.push(m);
        return items.some((i) => i === answer) ? answer : undefined;
      },
      showErrorMessage: async (m: string) => void calls.errors.push(m),
      showInformationMessage: async (m: string) => void calls.infos.push(m),
      tabGroups: { all: [] },
    },
    workspace: {
      get workspaceFolders() {
        return [{ uri: Uri.file(ws), index: 0, name: 'ws' }];
      },
      textDocuments: [],
      registerTextDocumentContentProvider: () => ({ dispose() {} }),
      getWorkspaceFolder: () => fake.workspace.workspaceFolders[0],
      asRelativePath: (u: Uri) => u.path.slice(ws.length + 1),
      fs: {
        async stat(u: Uri) {
          calls.stats.push(u.path);
          try {
            const s = statSync(u.path);
            return { type: s.isFile() ? 1 : 2, size: s.size, ctime: 0, mtime: 0 };
          } catch {
            throw new FileSystemError('not found', 'FileNotFound');
          }
        },
        async readFile(u: Uri) {
          calls.reads.push(u.path);
          let size: number;
          try {
            size = statSync(u.path).size;
          } catch {
            throw new FileSystemError('not found', 'FileNotFound');
          }
          // The stand-in refuses what node could not hold as one string, as VS Code's would fail.
          if (size > 64 * 1024 * 1024) throw new Error('Cannot create a string longer than 0x1fffffe8 characters');
          return new Uint8Array(readFileSync(u.path));
        },
      },
    },
  };

  let ApplyToFileClass: typeof import('../../../../src/extension/applyToFile/applyToFile').ApplyToFile;
  const logger = { info() {}, warn() {}, error() {}, debug() {}, trace() {} };
  const sparse = (path: string, bytes: number) => {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'w');
    ftruncateSync(fd, bytes);
    closeSync(fd);
  };

  before(() => {
    (globalThis as Record<string, unknown>).__aichatFakeVscode = fake;
    writeFileSync(FAKE_ID, 'module.exports = globalThis.__aichatFakeVscode;\n');
    Module._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? FAKE_ID : realResolve.call(this, request, ...rest);
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ApplyToFileClass = (require('../../../../src/extension/applyToFile/applyToFile') as typeof import('../../../../src/extension/applyToFile/applyToFile')).ApplyToFile;
  });
  after(() => {
    Module._resolveFilename = realResolve;
    rmSync(FAKE_ID, { force: true });
  });
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'apply-editor-')));
    for (const list of Object.values(calls)) list.length = 0;
    answer = undefined;
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  const apply = () => new ApplyToFileClass({ lastEditor: () => undefined } as never, logger);

  it('a block naming a file of hundreds of MB: the file is looked at (stat), never read, and the user is told it is too large', async () => {
    for (const [name, mb] of [
      ['data/dump-300.sql', 300],
      ['data/dump-600.sql', 600],
    ] as const) {
      sparse(join(ws, name), mb * 1024 * 1024);
      for (const list of Object.values(calls)) list.length = 0;
      await apply().propose('CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\n', name);
      assert.deepEqual(calls.reads, [], `${name}: not read`);
      assert.ok(calls.stats.includes(join(ws, name)), `${name}: its size was looked at`);
      assert.equal(calls.commands.includes('vscode.diff'), false, `${name}: no diff`);
      assert.equal(calls.errors.length, 1, `${name}: one message`);
      const shown = calls.errors[0];
      assert.match(shown, new RegExp(`^${name.replace(/\./g, '\\.')} is too large for Apply to File \\(${mb}\\.0 MB; at most ${APPLY_MAX_BYTES / 1024 / 1024} MB\\)`), shown);
      assert.match(shown, /not applied/);
      assert.doesNotMatch(shown, /0x1fffffe8|Error:/, 'no error text of the runtime');
    }
  });

  it('a file just under the limit is read and shown as a diff; just over it is not', async () => {
    const under = join(ws, 'under.txt');
    writeFileSync(under, 'a\n'.repeat(APPLY_MAX_BYTES / 2));
    await apply().propose('b\n', 'under.txt');
    assert.deepEqual(calls.reads, [under]);
    assert.ok(calls.commands.includes('vscode.diff'));
    for (const list of Object.values(calls)) list.length = 0;
    writeFileSync(under, 'a\n'.repeat(APPLY_MAX_BYTES / 2) + 'x');
    await apply().propose('b\n', 'under.txt');
    assert.deepEqual(calls.reads, []);
    assert.equal(calls.commands.includes('vscode.diff'), false);
    assert.equal(tooLargeToApply(APPLY_MAX_BYTES), false);
    assert.equal(tooLargeToApply(APPLY_MAX_BYTES + 1), true);
  });

  it('a new file (not there yet) is proposed as a new file', async () => {
    await apply().propose('hello\n', 'src/new.ts');
    assert.ok(calls.commands.includes('vscode.diff'));
    assert.deepEqual(calls.errors, []);
  });

  it('a .code-workspace file or .devcontainer/ asks first, naming what it is; no answer shows nothing', async () => {
    for (const [name, says] of [
      ['repo.code-workspace', /workspace file: its settings, tasks and launch configurations change what VS Code runs/],
      ['.devcontainer/devcontainer.json', /dev container configuration: it says what VS Code builds and runs/],
      ['.vscode/tasks.json', /\.vscode folder/],
    ] as const) {
      mkdirSync(dirname(join(ws, name)), { recursive: true });
      writeFileSync(join(ws, name), '{}\n');
      for (const list of Object.values(calls)) list.length = 0;
      await apply().propose('{ "x": 1 }\n', name);
      assert.equal(calls.warnings.length, 1, name);
      assert.match(calls.warnings[0], says, name);
      assert.equal(calls.commands.includes('vscode.diff'), false, `${name}: nothing shown without a yes`);
      for (const list of Object.values(calls)) list.length = 0;
      answer = 'Show the Change';
      await apply().propose('{ "x": 1 }\n', name);
      answer = undefined;
      assert.ok(calls.commands.includes('vscode.diff'), `${name}: shown after a yes`);
    }
  });
});
