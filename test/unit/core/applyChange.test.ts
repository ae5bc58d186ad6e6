import { strict as assert } from 'node:assert';
import { applyBlock, workspacePathSegments } from '../../../src/core';
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
    for (const bad of ['../x.ts', 'src/../../etc/passwd', '/etc/passwd', 'C:\\Windows\\x', '~/x', '']) {
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
