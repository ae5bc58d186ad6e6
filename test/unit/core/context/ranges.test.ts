import { strict as assert } from 'node:assert';
import {
  assembleMessage,
  chipLabel,
  fileAttachment,
  onceEach,
  rangeAttachments,
  replaces,
  selectionLines,
  symbolAttachment,
  pinOf,
  rangeFromText,
  formatAttachment,
  textAttachment,
  type Attachment,
  type RangeText,
} from '../../../../src/core';

const enc = (s: string) => new TextEncoder().encode(s);

/** A document's text and the exact text of a selection of it, as an editor gives it. */
function select(doc: string, start: [number, number], end: [number, number]): RangeText {
  const lines = doc.split('\n');
  const offset = ([l, c]: [number, number]) => lines.slice(0, l).reduce((n, x) => n + x.length + 1, 0) + c;
  return { start: { line: start[0], character: start[1] }, end: { line: end[0], character: end[1] }, text: doc.slice(offset(start), offset(end)) };
}

const docOf = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} line ${i + 1}`).join('\n') + '\n';

describe('ranges of files', () => {
  it('a selection that ends at column 0 of a line does not include that line', () => {
    assert.deepEqual(selectionLines({ line: 11, character: 0 }, { line: 40, character: 0 }), { start: 12, end: 40 });
    assert.deepEqual(selectionLines({ line: 11, character: 4 }, { line: 39, character: 7 }), { start: 12, end: 40 });
    // Within one line, column 0 is that line.
    assert.deepEqual(selectionLines({ line: 5, character: 0 }, { line: 5, character: 0 }), { start: 6, end: 6 });
    const doc = docOf('a', 50);
    let n = 0;
    const [a] = rangeAttachments(() => `ctx_${++n}`, 'src/a.ts', 'typescript', [select(doc, [11, 0], [40, 0])], 100);
    assert.equal(chipLabel(a).name, 'src/a.ts:12-40');
    assert.equal(a.content, doc.split('\n').slice(11, 40).join('\n') + '\n', 'the exact text, without line 41');
    assert.match(assembleMessage('Why?', [a]), /`src\/a\.ts`, lines 12-40:\n\n```typescript\na line 12\n[^]*a line 40\n```$/);
  });

  it('names a one-line range by its line, and keeps its size and cut in the detail', () => {
    const a = textAttachment('ctx_1', 'selection', 'src/b.ts', 'typescript', 'x'.repeat(3000), 1, { start: 7, end: 7 });
    assert.deepEqual(chipLabel(a), { name: 'src/b.ts:7', detail: '2.9 KB · cut to 1 KB', icon: 'selection' });
  });

  it('five selections in three files make five chips, in document order, and the request holds each once', () => {
    let n = 0;
    const id = () => `ctx_${++n}`;
    const a = docOf('a', 60);
    const b = docOf('b', 30);
    const c = docOf('c', 10);
    // The editor lists selections in the order they were made, not in document order.
    const chips: Attachment[] = [
      ...rangeAttachments(id, 'src/a.ts', 'typescript', [select(a, [40, 0], [45, 3]), select(a, [2, 0], [5, 0])], 100),
      ...rangeAttachments(id, 'src/b.py', 'python', [select(b, [0, 0], [0, 9]), select(b, [10, 2], [20, 0])], 100),
      ...rangeAttachments(id, 'c.md', 'markdown', [select(c, [3, 0], [3, 0]), select(c, [4, 0], [6, 0])], 100),
    ];
    assert.deepEqual(chips.map((x) => chipLabel(x).name), ['src/a.ts:3-5', 'src/a.ts:41-46', 'src/b.py:1', 'src/b.py:11-20', 'c.md:5-6'], 'an empty selection makes no chip');
    // The same five again (Add Selection pressed twice) go once each.
    const again = [...chips, ...chips.map((x) => ({ ...x, id: `${x.id}_again` }))];
    const sent = assembleMessage('Compare these.', onceEach(again));
    for (const x of chips) {
      const header = `\`${x.path}\`, ${x.startLine === x.endLine ? `line ${x.startLine}` : `lines ${x.startLine}-${x.endLine}`}:`;
      assert.equal(sent.split(header).length - 1, 1, `${header} once`);
      const block = `${header}\n\n\`\`\`${x.language}\n${x.content.replace(/\n$/, '')}\n\`\`\``;
      assert.equal(sent.split(block).length - 1, 1, `${chipLabel(x).name} with its exact text once`);
    }
  });

  it('the same lines added again replace their chip; other lines of the file stay', () => {
    const one = textAttachment('ctx_1', 'selection', 'src/a.ts', 'ts', 'x', 10, { start: 3, end: 5 });
    assert.ok(replaces(textAttachment('ctx_2', 'selection', 'src/a.ts', 'ts', 'y', 10, { start: 3, end: 5 }), one));
    assert.ok(!replaces(textAttachment('ctx_3', 'selection', 'src/a.ts', 'ts', 'y', 10, { start: 3, end: 6 }), one));
    assert.ok(!replaces(textAttachment('ctx_4', 'selection', 'src/b.ts', 'ts', 'y', 10, { start: 3, end: 5 }), one));
  });
});

describe('once per request', () => {
  const file = (path: string, text: string, maxKB = 100): Attachment => {
    const r = fileAttachment(`f_${path}`, path, enc(text), maxKB);
    assert.ok(r.ok);
    return r.attachment;
  };
  const range = (path: string, start: number, end: number, id = `r_${path}_${start}_${end}`) => textAttachment(id, 'selection', path, 'ts', `lines ${start}-${end} of ${path}`, 100, { start, end });

  it('a file added twice goes once, the first', () => {
    const a = file('src/a.ts', 'one');
    const b = { ...file('src/a.ts', 'two'), id: 'second' };
    assert.deepEqual(onceEach([a, b]).map((x) => x.content), ['one']);
  });

  it('a range inside a file also attached goes with the file, whichever came first', () => {
    const a = file('src/a.ts', docOf('a', 20));
    assert.deepEqual(onceEach([range('src/a.ts', 3, 5), a, range('src/b.ts', 3, 5)]).map((x) => x.id), ['f_src/a.ts', 'r_src/b.ts_3_5']);
  });

  it('a range past the part of a cut file that is kept still goes', () => {
    const a = file('src/big.ts', docOf('big', 2000), 1);
    assert.ok(a.cutToKB !== undefined);
    assert.deepEqual(onceEach([a, range('src/big.ts', 2, 4), range('src/big.ts', 1500, 1510)]).map((x) => x.id), ['f_src/big.ts', 'r_src/big.ts_1500_1510']);
  });

  it('a range inside a wider range of the same file goes with the wider one; equal ranges once', () => {
    const out = onceEach([range('src/a.ts', 10, 12), range('src/a.ts', 5, 20), range('src/a.ts', 5, 20, 'dup'), range('src/a.ts', 18, 30)]);
    assert.deepEqual(out.map((x) => x.id), ['r_src/a.ts_5_20', 'r_src/a.ts_18_30']);
  });

  it('Problems go once per file; terminal selections all go', () => {
    const p = { ...range('src/a.ts', 1, 1), kind: 'problems' as const, id: 'p1' };
    const t1 = textAttachment('t1', 'terminal', 'bash', '', 'one', 10);
    const t2 = textAttachment('t2', 'terminal', 'bash', '', 'two', 10);
    assert.deepEqual(onceEach([p, { ...p, id: 'p2' }, t1, t2]).map((x) => x.id), ['p1', 't1', 't2']);
  });
});

describe('a symbol as a range chip', () => {
  const sym = symbolAttachment('ctx_9', 'parseInput', 'src/parse.ts', 'typescript', 'export function parseInput() {\n  return 1;\n}\n', { start: 12, end: 14 }, 100);

  it('is named by the symbol, says where it is, and its block says which symbol', () => {
    assert.deepEqual(chipLabel(sym), { name: 'parseInput', detail: 'src/parse.ts:12-14 · 45 B', icon: 'selection' });
    assert.match(formatAttachment(sym), /^`src\/parse\.ts`, lines 12-14 \(parseInput\):\n\n```typescript\nexport function parseInput\(\) \{/);
  });

  it('pinned, it keeps its name and is read again from the lines it had', () => {
    const pin = pinOf(sym);
    assert.deepEqual(pin, { kind: 'range', path: 'src/parse.ts', startLine: 12, endLine: 14, symbol: 'parseInput' });
    const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const again = pin && rangeFromText('ctx_10', pin, 'typescript', text, 100);
    assert.deepEqual([again && chipLabel(again).name, again?.content], ['parseInput', 'line 12\nline 13\nline 14\n']);
  });

  it('inside a file attached goes with the file, once', () => {
    const file: Attachment = { id: 'ctx_1', kind: 'file', path: 'src/parse.ts', language: 'typescript', content: 'whole file', bytes: 10 };
    assert.deepEqual(onceEach([sym, file]).map((a) => a.id), ['ctx_1']);
  });
});
