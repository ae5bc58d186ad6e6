import { strict as assert } from 'node:assert';
import {
  buildCodeActionPrompt,
  chooseCodeAction,
  linesAround,
  spansMeet,
  CONTEXT_LINES,
  MAX_LINE_CHARS,
  MAX_PROMPT_DIAGNOSTICS,
  MAX_PROMPT_LINES,
  type DiagnosticFacts,
  type Span,
} from '../../../../src/core/lightbulb/codeActionChoice';

const span = (l1: number, c1: number, l2: number, c2: number): Span => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const diag = (severity: DiagnosticFacts['severity'], range: Span, message = `${severity} here`, code = '', source = ''): DiagnosticFacts => ({
  severity,
  message,
  code,
  source,
  range,
});

describe('the lightbulb: which AI Chat action a range offers', () => {
  it('an error under the cursor offers Fix with it', () => {
    const e = diag('error', span(3, 4, 3, 9));
    assert.deepEqual(chooseCodeAction({ range: span(3, 6, 3, 6), diagnostics: [e], invoked: false }), { kind: 'fix', diagnostics: [e] });
  });

  it('a warning offers Fix too; a cursor that touches the diagnostic\'s end is on it', () => {
    const w = diag('warning', span(0, 0, 0, 5));
    assert.equal(chooseCodeAction({ range: span(0, 5, 0, 5), diagnostics: [w], invoked: false }).kind, 'fix');
    assert.equal(chooseCodeAction({ range: span(0, 6, 0, 6), diagnostics: [w], invoked: true }).kind, 'explain', 'one column past it: not on it');
  });

  it('Fix carries only the errors and warnings that meet the range, errors first then by position', () => {
    const w = diag('warning', span(2, 0, 2, 3));
    const e1 = diag('error', span(4, 1, 4, 2));
    const e0 = diag('error', span(1, 0, 1, 9));
    const far = diag('error', span(40, 0, 40, 1));
    const hint = diag('hint', span(2, 0, 2, 3));
    const c = chooseCodeAction({ range: span(1, 0, 5, 0), diagnostics: [w, e1, far, hint, e0], invoked: false });
    assert.equal(c.kind, 'fix');
    assert.deepEqual(c.kind === 'fix' && c.diagnostics, [e0, e1, w]);
  });

  it('only information or hints at the range: Explain with them', () => {
    const info = diag('information', span(7, 0, 7, 4));
    const hint = diag('hint', span(7, 2, 7, 3));
    assert.deepEqual(chooseCodeAction({ range: span(7, 2, 7, 2), diagnostics: [hint, info], invoked: false }), { kind: 'explain', diagnostics: [info, hint] });
  });

  it('a selection without problems offers Explain; the error elsewhere in the file is not its concern', () => {
    const elsewhere = diag('error', span(20, 0, 20, 4));
    assert.deepEqual(chooseCodeAction({ range: span(2, 0, 6, 0), diagnostics: [elsewhere], invoked: false }), { kind: 'explain', diagnostics: [] });
  });

  it('an empty range with nothing reported: nothing on a cursor move (no lightbulb on every line), Explain when asked with Ctrl+.', () => {
    assert.deepEqual(chooseCodeAction({ range: span(2, 3, 2, 3), diagnostics: [], invoked: false }), { kind: 'none' });
    assert.deepEqual(chooseCodeAction({ range: span(2, 3, 2, 3), diagnostics: [], invoked: true }), { kind: 'explain', diagnostics: [] });
  });

  it('ranges meet when they share a position, over several lines too', () => {
    assert.ok(spansMeet(span(1, 5, 3, 0), span(3, 0, 3, 0)));
    assert.ok(spansMeet(span(1, 5, 3, 0), span(0, 0, 9, 9)));
    assert.ok(!spansMeet(span(1, 5, 3, 0), span(3, 1, 4, 0)));
    assert.ok(!spansMeet(span(1, 5, 3, 0), span(0, 0, 1, 4)));
  });
});

describe('the lightbulb: the prompt of the chosen action', () => {
  const doc = (n: number, line = (i: number) => `line ${i + 1}`) => ({ lineAt: line, lineCount: n });

  it('Fix lists each diagnostic with severity, source, code, line and column, then the lines around it in a fence', () => {
    const e = diag('error', span(9, 6, 9, 11), "Type 'string' is not assignable to type 'number'.", '2322', 'ts');
    const p = buildCodeActionPrompt({ choice: { kind: 'fix', diagnostics: [e] }, range: span(9, 7, 9, 7), ...doc(100), languageId: 'typescript', fileName: 'src/a.ts' });
    const expectedCode = Array.from({ length: 11 }, (_, i) => `line ${i + 5}`).join('\n');
    assert.equal(
      p.prompt,
      `Fix this problem:\n- Error ts(2322), line 10, column 7: Type 'string' is not assignable to type 'number'.\n\n\`src/a.ts\`, lines 5-15:\n\n\`\`\`typescript\n${expectedCode}\n\`\`\``,
    );
    assert.equal(p.instruction, "Fix this problem:\n- Error ts(2322), line 10, column 7: Type 'string' is not assignable to type 'number'.");
    assert.deepEqual(p.focus, { start: 9, end: 9 });
  });

  it("Fix carries the user's own rules for fixes (aiChat.fix.instructions) in its question, the edit's instruction too; Explain never does", () => {
    const e = diag('error', span(2, 0, 2, 1), 'bad');
    const rules = 'Fix the cause, never cast to any.';
    const fix = buildCodeActionPrompt({ choice: { kind: 'fix', diagnostics: [e] }, range: span(2, 0, 2, 0), ...doc(5), languageId: 'ts', fileName: 'a.ts', fixRules: `  ${rules}\n` });
    assert.match(fix.instruction, /^Fix this problem:\n- Error, line 3, column 1: bad\n\nFollow these rules for fixes:\nFix the cause, never cast to any\.$/);
    assert.ok(fix.prompt.startsWith(fix.instruction + '\n\n`a.ts`'), fix.prompt);
    const none = buildCodeActionPrompt({ choice: { kind: 'fix', diagnostics: [e] }, range: span(2, 0, 2, 0), ...doc(5), languageId: 'ts', fileName: 'a.ts', fixRules: '   ' });
    assert.ok(!none.instruction.includes('Follow these rules'), 'blank rules add nothing');
    const explain = buildCodeActionPrompt({ choice: { kind: 'explain', diagnostics: [e] }, range: span(2, 0, 2, 0), ...doc(5), languageId: 'ts', fileName: 'a.ts', fixRules: rules });
    assert.ok(!explain.prompt.includes(rules), 'Explain does not carry the rules for fixes');
  });

  it('a diagnostic without code or source names its severity alone; one with only a source names it', () => {
    const a = diag('warning', span(0, 0, 0, 1), 'unused', '', '');
    const b = diag('error', span(1, 0, 1, 1), 'bad\n  thing', '', 'eslint');
    const p = buildCodeActionPrompt({ choice: { kind: 'fix', diagnostics: [b, a] }, range: span(0, 0, 1, 1), ...doc(3), languageId: 'js', fileName: 'x.js' });
    assert.match(p.instruction, /^Fix these problems:\n- Error eslint, line 2, column 1: bad thing\n- Warning, line 1, column 1: unused$/);
  });

  it('many diagnostics: the first 20 are listed and the rest counted; a long message is cut', () => {
    const list = Array.from({ length: 25 }, (_, i) => diag('error', span(i, 0, i, 1), i === 0 ? 'x'.repeat(5_000) : `e${i}`));
    const p = buildCodeActionPrompt({ choice: { kind: 'fix', diagnostics: list }, range: span(0, 0, 0, 0), ...doc(30), languageId: 'ts', fileName: 'a.ts' });
    const rows = p.instruction.split('\n').slice(1);
    assert.equal(rows.length, MAX_PROMPT_DIAGNOSTICS + 1);
    assert.equal(rows.at(-1), '- … and 5 more');
    assert.ok(rows[0].length < 1_100, `the long message is cut (${rows[0].length})`);
  });

  it('the code is bounded: at most 60 lines, each at most 400 characters; a fence longer than any backtick run', () => {
    const long = buildCodeActionPrompt({
      choice: { kind: 'explain', diagnostics: [] },
      range: span(100, 0, 400, 0),
      ...doc(1_000, (i) => (i === 101 ? 'y'.repeat(10_000) : i === 102 ? 'a ``` b' : `l${i}`)),
      languageId: 'ts',
      fileName: 'big.ts',
    });
    const body = long.prompt.split('\n````ts\n')[1].split('\n````')[0].split('\n');
    assert.equal(body.length, MAX_PROMPT_LINES);
    assert.equal(body[CONTEXT_LINES], 'l100', 'the focus starts after its context lines');
    assert.equal(body[CONTEXT_LINES + 1], `${'y'.repeat(MAX_LINE_CHARS)}…`);
    assert.match(long.prompt, /^Explain lines 101-400 of this code:\n\n`big.ts`, lines 96-155:/);
  });

  it('Explain at a cursor names its line; Explain with notes lists them', () => {
    const one = buildCodeActionPrompt({ choice: { kind: 'explain', diagnostics: [] }, range: span(2, 1, 2, 1), ...doc(4), languageId: 'py', fileName: 'a.py' });
    assert.match(one.prompt, /^Explain line 3 of this code:\n\n`a.py`, lines 1-4:\n\n```py\nline 1\nline 2\nline 3\nline 4\n```$/);
    const hint = diag('hint', span(0, 0, 0, 2), 'could be const', '', 'ts');
    const noted = buildCodeActionPrompt({ choice: { kind: 'explain', diagnostics: [hint] }, range: span(0, 0, 0, 0), ...doc(2), languageId: 'ts', fileName: 'b.ts' });
    assert.match(noted.instruction, /^Explain this note and the code it is about:\n- Hint ts, line 1, column 1: could be const$/);
  });

  it('a selection ending at the start of a line does not take that line', () => {
    const p = buildCodeActionPrompt({ choice: { kind: 'explain', diagnostics: [] }, range: span(3, 0, 5, 0), ...doc(50), languageId: 'ts', fileName: 'a.ts' });
    assert.deepEqual(p.focus, { start: 3, end: 4 });
  });

  it('lines around: clamped to the document, never past its end', () => {
    assert.deepEqual(linesAround(0, 0, 1), { first: 0, last: 0 });
    assert.deepEqual(linesAround(2, 2, 3), { first: 0, last: 2 });
    assert.deepEqual(linesAround(50, 60, 10), { first: 4, last: 9 }, 'a stale range past the end');
    assert.deepEqual(linesAround(20, 20, 100), { first: 15, last: 25 });
  });
});
