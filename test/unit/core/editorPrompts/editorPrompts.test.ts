import { strict as assert } from 'node:assert';
import {
  buildEditorPrompt,
  detectTestFramework,
  formatProblems,
  formatSelectionMessage,
  problemsInSelection,
  type SelectionInfo,
  type SelectionProblem,
} from '../../../../src/core';
import { appendToDraft } from '../../../../src/protocol';

const oneLine: SelectionInfo = { code: 'const x = 1;', languageId: 'typescript', fileName: 'src/a.ts', startLine: 4, endLine: 4 };
const multi: SelectionInfo = {
  code: 'function add(a, b) {\n  return a - b;\n}\n',
  languageId: 'javascript',
  fileName: 'lib/math.js',
  startLine: 10,
  endLine: 12,
};

describe('editor prompts (Explain, Fix, Write Tests)', () => {
  it('Explain: the prompt, then the selection exactly as Send Selection builds it (1 line)', () => {
    const text = buildEditorPrompt({ kind: 'explain', selection: oneLine });
    assert.equal(text, 'Explain this code:\n\n`src/a.ts`, line 4:\n\n```typescript\nconst x = 1;\n```');
    assert.equal(text, formatSelectionMessage({ ...oneLine, question: 'Explain this code:' }));
  });

  it('Explain: a multi-line selection names its line range and drops the trailing newline', () => {
    const text = buildEditorPrompt({ kind: 'explain', selection: multi });
    assert.ok(text.startsWith('Explain this code:\n\n`lib/math.js`, lines 10-12:\n\n```javascript\nfunction add(a, b) {'));
    assert.ok(text.endsWith('  return a - b;\n}\n```'));
  });

  it('an empty selection still gives a well-formed block (the command refuses it before)', () => {
    const text = buildEditorPrompt({ kind: 'explain', selection: { ...oneLine, code: '' } });
    assert.equal(text, 'Explain this code:\n\n`src/a.ts`, line 4:\n\n```typescript\n\n```');
  });

  it('Fix lists only the problems meeting the selection, one per line, before the code', () => {
    const problems: SelectionProblem[] = [
      { severity: 'warning', startLine: 12, endLine: 12, message: 'Missing semicolon' },
      { severity: 'error', startLine: 11, endLine: 11, message: "Operator '-' looks wrong\n  in add" },
      { severity: 'error', startLine: 3, endLine: 3, message: 'outside, before' },
      { severity: 'hint', startLine: 13, endLine: 20, message: 'outside, after' },
      { severity: 'information', startLine: 8, endLine: 10, message: 'spans into the selection' },
    ];
    const text = buildEditorPrompt({ kind: 'fix', selection: multi, problems });
    const head = text.slice(0, text.indexOf('`lib/math.js`'));
    assert.equal(
      head,
      "Fix this code. Its problems:\n- Info, line 8: spans into the selection\n- Error, line 11: Operator '-' looks wrong in add\n- Warning, line 12: Missing semicolon\n\n",
    );
    assert.ok(!text.includes('outside'));
  });

  it('Fix with no problems in the selection says so', () => {
    const text = buildEditorPrompt({ kind: 'fix', selection: multi, problems: [{ severity: 'error', startLine: 1, endLine: 1, message: 'far away' }] });
    assert.ok(text.startsWith('Fix this code (VS Code reports no problems in it):\n\n`lib/math.js`'));
    assert.ok(!text.includes('far away'));
    assert.equal(buildEditorPrompt({ kind: 'fix', selection: multi }), text);
  });

  it('Write Tests names the framework when one is known', () => {
    assert.ok(buildEditorPrompt({ kind: 'tests', selection: oneLine, framework: 'vitest' }).startsWith('Write tests for this code using vitest:\n\n'));
    assert.ok(buildEditorPrompt({ kind: 'tests', selection: oneLine }).startsWith('Write tests for this code:\n\n'));
  });

  it('a selection containing ``` fences gets a longer fence that it cannot close', () => {
    const code = 'const md = `\n```js\nx\n```\n`;';
    const text = buildEditorPrompt({ kind: 'explain', selection: { ...oneLine, code, endLine: 8 } });
    assert.ok(text.includes('\n````typescript\n' + code + '\n````'));
  });

  it('a 5,000-line selection is kept whole', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `const v${i} = ${i};`);
    const text = buildEditorPrompt({ kind: 'fix', selection: { ...oneLine, code: lines.join('\n'), startLine: 1, endLine: 5000 }, problems: [{ severity: 'error', startLine: 4999, endLine: 4999, message: 'late' }] });
    assert.ok(text.includes('- Error, line 4999: late'));
    assert.ok(text.includes('`src/a.ts`, lines 1-5000:'));
    assert.equal(text.split('\n').filter((l) => l.startsWith('const v')).length, 5000);
  });

  it('problemsInSelection sorts by line and keeps problems touching either end', () => {
    const ps: SelectionProblem[] = [
      { severity: 'error', startLine: 20, endLine: 20, message: 'b' },
      { severity: 'error', startLine: 5, endLine: 10, message: 'a' },
      { severity: 'error', startLine: 21, endLine: 21, message: 'c' },
    ];
    assert.deepEqual(problemsInSelection(ps, 10, 20).map((p) => p.message), ['a', 'b']);
    assert.equal(formatProblems([]), '');
  });

  it('detectTestFramework reads dependencies and ignores broken package.json', () => {
    assert.equal(detectTestFramework(JSON.stringify({ devDependencies: { mocha: '^10', typescript: '5' } })), 'mocha');
    assert.equal(detectTestFramework(JSON.stringify({ devDependencies: { jest: '29' } })), 'jest');
    assert.equal(detectTestFramework(JSON.stringify({ dependencies: { jest: '29' }, devDependencies: { vitest: '1' } })), 'vitest');
    assert.equal(detectTestFramework(JSON.stringify({ devDependencies: { ava: '6' } })), undefined);
    assert.equal(detectTestFramework('{ not json'), undefined);
    assert.equal(detectTestFramework('null'), undefined);
    assert.equal(detectTestFramework(undefined), undefined);
  });
});

describe('appendToDraft (the message box keeps what the user typed)', () => {
  it('an empty or blank box takes the prompt as is', () => {
    assert.equal(appendToDraft('', 'P'), 'P');
    assert.equal(appendToDraft('  \n', 'P'), 'P');
  });
  it('text already there stays, the prompt follows after a blank line', () => {
    assert.equal(appendToDraft('my question', 'P'), 'my question\n\nP');
    assert.equal(appendToDraft('my question\n\n\n', 'P'), 'my question\n\nP');
    assert.equal(appendToDraft('  indented first', 'P'), '  indented first\n\nP');
  });
});
