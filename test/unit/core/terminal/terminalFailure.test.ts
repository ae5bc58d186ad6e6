import { strict as assert } from 'node:assert';
import {
  buildTerminalPrompt,
  outputTail,
  OutputTail,
  plainOutput,
  MAX_OUTPUT_CHARS,
  MAX_OUTPUT_LINES,
} from '../../../../src/core/terminal/terminalFailure';

describe('Explain Last Terminal Failure: the output and the prompt', () => {
  it('plain output: colours, cursor moves, titles and shell integration marks are taken out; \\r keeps a line\'s last state', () => {
    const raw = '\x1b]633;C\x07\x1b[31mError:\x1b[0m not found\r\nprogress 10%\rprogress 100%\n\x1b]0;title\x1b\\done\x07';
    assert.equal(plainOutput(raw), 'Error: not found\nprogress 100%\ndone');
  });

  it('the end is kept: at most 200 lines and 16,000 characters, cut at a line start, and said so', () => {
    const many = Array.from({ length: 1_000 }, (_, i) => `line ${i}`).join('\n');
    const t = outputTail(many);
    assert.equal(t.cut, true);
    assert.equal(t.text.split('\n').length, MAX_OUTPUT_LINES);
    assert.ok(t.text.endsWith('line 999'));
    const wide = Array.from({ length: 100 }, (_, i) => `${i}:${'x'.repeat(500)}`).join('\n');
    const w = outputTail(wide);
    assert.ok(w.text.length <= MAX_OUTPUT_CHARS);
    assert.match(w.text, /^\d+:x+/, 'starts at a line start');
    assert.ok(w.text.endsWith(`99:${'x'.repeat(500)}`));
    assert.deepEqual(outputTail('short\n\n'), { text: 'short', cut: false });
  });

  it('the tail buffer keeps only the newest characters of a long stream and counts what it dropped', () => {
    const tail = new OutputTail(10);
    for (const c of ['abc', 'defg', 'hijkl', 'mnopqrstuvwxyz']) tail.push(c);
    assert.equal(tail.text(), 'qrstuvwxyz');
    assert.equal(tail.dropped, 16);
    const small = new OutputTail(100);
    small.push('a');
    small.push('b');
    assert.equal(small.text(), 'ab');
    assert.equal(small.dropped, 0);
  });

  it('the prompt: the question with the exit code and folder, the command, then the end of the output', () => {
    const p = buildTerminalPrompt({ commandLine: 'npm test ', exitCode: 1, output: '\x1b[31mFAIL\x1b[0m src/a.test.ts\n  expected 2, got 3\n', cwd: '/work/app' });
    assert.equal(
      p,
      'This command failed in the terminal (in /work/app) with exit code 1. Explain why, and how to fix it:\n\n```sh\nnpm test\n```\n\nIts output:\n\n```text\nFAIL src/a.test.ts\n  expected 2, got 3\n```',
    );
  });

  it('no output, no folder; output dropped earlier is said; backticks in the output get a longer fence', () => {
    assert.equal(buildTerminalPrompt({ commandLine: 'false', exitCode: 1, output: '' }), 'This command failed in the terminal with exit code 1. Explain why, and how to fix it:\n\n```sh\nfalse\n```\n\nIt wrote no output.');
    const p = buildTerminalPrompt({ commandLine: 'make', exitCode: 2, output: 'see ``` here', outputDropped: true });
    assert.match(p, /The end of its output \(the start is left out\):\n\n````text\nsee ``` here\n````$/);
  });
});
