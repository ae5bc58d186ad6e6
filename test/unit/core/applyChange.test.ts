import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyBlock, checkApplyTarget, protectedArea, resolveApplyTarget, workspacePathSegments } from '../../../src/core';
import { codePathOf } from '../../../src/webview/render/highlight';

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
