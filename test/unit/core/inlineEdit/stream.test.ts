import { strict as assert } from 'node:assert';
import type { EditRegion } from '../../../../src/core/inlineEdit/extract';
import { splitLines, type LineEdit } from '../../../../src/core/inlineEdit/hunks';
import { CodeGate, EditStream, lineEdit, LineSplitter, proseLine, type StreamView } from '../../../../src/core/inlineEdit/stream';
import { generateReply } from '../../../server/reply';

/** A region of `doc` (lines [start, end)), as the extension makes it. */
function regionOf(doc: string, start: number, end: number): EditRegion {
  const eol = doc.includes('\r\n') ? '\r\n' : '\n';
  const all = doc.split(/\r?\n/);
  const lines = splitLines(doc);
  return {
    before: all.slice(0, start),
    text: lines.slice(start, end).join(''),
    // As the editor gives them: a document that ends with a line end has an empty last line.
    after: all.slice(end),
    eol,
  };
}

/** Streams `reply` in pieces of `size` characters; the views after each piece that showed more. */
function stream(region: EditRegion, reply: string, size: number): { s: EditStream; views: StreamView[] } {
  const s = new EditStream(region);
  const views: StreamView[] = [];
  for (let i = 0; i < reply.length; i += size) if (s.push(reply.slice(i, i + size))) views.push(s.view());
  return { s, views };
}

/** Applies a line edit to a text's lines (what the editor does with it). */
function apply(lines: string[], edit: LineEdit): string[] {
  return [...lines.slice(0, edit.start), ...splitLines(edit.text), ...lines.slice(edit.end)];
}

const SOURCE = [
  "import { readFile } from 'node:fs/promises';",
  '',
  'export async function load(path) {',
  "  const text = await readFile(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
  'export const VERSION = 2;',
  '',
].join('\n');
const NEW_LOAD = ['export async function load(path) {', "  const text = await readFile(path, 'utf8');", '  return JSON.parse(text) ?? {};', '}'];

describe('edit in the editor: the reply as it streams', () => {
  it('splits a growing reply into complete lines: CRLF cut between pieces, a lone CR, a last line without a line end', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push('a\r'), []);
    assert.deepEqual(s.push('\nb\rc'), ['a', 'b']);
    assert.deepEqual(s.push('\n\nd'), ['c', '']);
    assert.equal(s.end(), 'd');
    assert.equal(s.end(), undefined);
  });

  it('prose around a fence: only the fenced lines are code, each shown once its line is complete, nothing after the fence', () => {
    const region = regionOf(SOURCE, 2, 6);
    const reply = ['Here is the updated function, which returns an empty object:', '', '```js', ...NEW_LOAD, '```', 'Now an empty file gives {}.', '```js', 'load("x");', '```'].join('\n');
    const s = new EditStream(region);
    const shownAfter: number[] = [];
    for (const ch of reply) {
      s.push(ch);
      shownAfter.push(s.code.length);
    }
    assert.deepEqual(s.code, NEW_LOAD);
    assert.equal(s.state, 'closed');
    // A line is shown the moment its line end arrives, not before.
    const firstEnd = reply.indexOf('\n', reply.indexOf('```js\n') + 6);
    assert.equal(shownAfter[firstEnd - 1], 0);
    assert.equal(shownAfter[firstEnd], 1);
    assert.deepEqual(s.finish(), { kind: 'code', code: `${NEW_LOAD.join('\n')}\n`, from: 'fence' });
  });

  it('the reference server\'s markdown reply (heading, paragraph, list, table, then a fence): nothing but the fence\'s code is shown', () => {
    const original = ['export function total(values: number[]): number {', '  let sum = 0;', '  for (const v of values) sum += v;', '  return sum;', '}', ''].join('\n');
    const region = regionOf(`// top\n\n${original}`, 2, 7);
    const reply = generateReply([{ role: 'user', content: 'Instruction: Use reduce e2e-edit-undo' }]);
    for (const size of [1, 7, 24, 400]) {
      const { s, views } = stream(region, reply, size);
      const fenced = /```typescript\n([\s\S]*?)\n```/.exec(reply)?.[1].split('\n');
      assert.ok(fenced && fenced.length > 3);
      assert.deepEqual(s.code, fenced, `pieces of ${size}`);
      for (const v of views) for (const line of v.lines.slice(0, v.shown)) assert.ok(!/Key points|\| Step|You wrote/.test(line), `no prose shown: ${line}`);
      const done = s.finish();
      assert.equal(done.kind, 'code');
      if (done.kind === 'code') assert.equal(done.code, `${fenced.join('\n')}\n`);
    }
  });

  it('a reply that starts with prose or markdown shows nothing until a fence opens; without one, nothing at all', () => {
    const region = regionOf(SOURCE, 2, 6);
    for (const start of ['# Updated load', '- **Change**: return an empty object', '| a | b |', 'Sure, I will make it return an empty object.']) {
      const { s } = stream(region, `${start}\n${NEW_LOAD.join('\n')}\n`, 5);
      assert.deepEqual(s.code, [], start);
      assert.equal(s.state, 'prose');
    }
    assert.ok(proseLine('The function now returns an empty object.'));
    assert.ok(!proseLine('  return JSON.parse(text) ?? {};'));
    assert.ok(!proseLine('// Returns the parsed file.'));
  });

  it('bare code is shown once it clearly is code (three lines), or at once when it repeats a line of the selection', () => {
    const region = regionOf(SOURCE, 2, 6);
    // The first line repeats the selection's: code from the start.
    const gate = new CodeGate(new Set(['export async function load(path) {']));
    assert.deepEqual(gate.take(''), []);
    assert.deepEqual(gate.take('export async function load(path) {'), ['export async function load(path) {']);
    assert.equal(gate.state, 'bare');
    // New lines that do not repeat the selection: held until three read as code, then shown together.
    const other = ['const cache = new Map();', 'function get(key) {', '  return cache.get(key);', '}'];
    const s = new EditStream(region);
    assert.equal(s.push(`${other[0]}\n${other[1]}\n`), false);
    assert.deepEqual(s.code, []);
    assert.equal(s.push(`${other[2]}\n`), true);
    assert.deepEqual(s.code, other.slice(0, 3));
    s.push(`${other[3]}\n`);
    assert.deepEqual(s.code, other);
    // Three short lines without code punctuation are not taken for code.
    const words = new EditStream(region);
    words.push('Sure thing\nHere it is\nok then\nx = 1;\n');
    assert.deepEqual(words.code, []);
  });

  it('lines the reply repeats unchanged are never shown as changes; the lines it has not reached stay as they were', () => {
    const region = regionOf(SOURCE, 2, 6);
    const s = new EditStream(region);
    s.push('```js\n');
    s.push(`${NEW_LOAD[0]}\n${NEW_LOAD[1]}\n`);
    let v = s.view();
    assert.deepEqual(v.added, [], 'two unchanged lines: no change');
    assert.equal(v.shown, 2);
    assert.equal(v.pending, 2);
    assert.equal(v.lines.join(''), region.text, 'the region reads as before');
    s.push(`${NEW_LOAD[2]}\n`);
    v = s.view();
    assert.deepEqual(v.added, [2]);
    assert.deepEqual(v.removed, []);
    assert.equal(v.lines.join(''), `${NEW_LOAD.slice(0, 3).join('\n')}\n  return JSON.parse(text);\n}\n`);
    s.push('}\n');
    v = s.view();
    assert.deepEqual(v.added, [2, 3], 'a lone bracket matches only the next original line');
    s.push('```\n');
    v = s.view();
    // The block is complete: the view is the exact diff (the review's), the changed line taken out.
    assert.deepEqual(v.removed, [{ at: 2, lines: ['  return JSON.parse(text);\n'] }]);
    assert.deepEqual(v.added, [2]);
    assert.equal(v.pending, 0);
    assert.equal(v.lines.join(''), `${NEW_LOAD.join('\n')}\n`);
  });

  it('a whole-file reply: the repeated lines before the selection are never shown, those after are held', () => {
    const region = regionOf(SOURCE, 2, 6);
    const whole = SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};');
    const { s, views } = stream(region, `\`\`\`js\n${whole}\`\`\`\n`, 3);
    for (const v of views) assert.ok(!v.lines.slice(0, v.shown).some((l) => l.startsWith('import')), 'the import line is not repeated into the region');
    assert.deepEqual(s.code, NEW_LOAD, 'the lines after the selection ("", "export const VERSION = 2;") are held, then dropped');
    assert.equal(s.view().lines.join(''), `${NEW_LOAD.join('\n')}\n`);
    const done = s.finish();
    assert.deepEqual(done, { kind: 'code', code: `${NEW_LOAD.join('\n')}\n`, from: 'wholeFile' });
  });

  it('a held repeat that breaks off is shown after all', () => {
    const region = regionOf(SOURCE, 2, 6);
    const s = new EditStream(region);
    s.push(`\`\`\`js\n${NEW_LOAD.join('\n')}\n\nexport function other() {}\n`);
    assert.deepEqual(s.code, [...NEW_LOAD, '', 'export function other() {}']);
  });

  it('a CRLF file: the shown lines have CRLF ends; tabs are kept; code without the indentation gets it', () => {
    const doc = 'class A {\r\n\tload() {\r\n\t\treturn 1;\r\n\t}\r\n}\r\n';
    const region = regionOf(doc, 1, 4);
    assert.equal(region.eol, '\r\n');
    const s = new EditStream(region);
    s.push('```ts\r\nload() {\r\n\treturn 2;\r\n}\r\n```\r\n');
    assert.deepEqual(s.code, ['\tload() {', '\t\treturn 2;', '\t}']);
    const v = s.view();
    assert.deepEqual(v.lines, ['\tload() {\r\n', '\t\treturn 2;\r\n', '\t}\r\n']);
    assert.deepEqual(v.added, [1]);
    const done = s.finish();
    assert.equal(done.kind === 'code' ? done.code : '', '\tload() {\r\n\t\treturn 2;\r\n\t}\r\n');
  });

  it('a region at the end of a file without a final line end: the view has none either once it is all replaced', () => {
    const doc = 'a = 1\nb = 2';
    const region = regionOf(doc, 1, 2);
    assert.equal(region.text, 'b = 2');
    const s = new EditStream(region);
    s.push('```py\nb = 3\n');
    assert.deepEqual(s.view().lines, ['b = 3\n', 'b = 2'], 'the original line not reached yet is still there');
    s.push('```');
    assert.deepEqual(s.view().lines, ['b = 3\n', 'b = 2'], 'the closing fence is not a line until its line end');
    s.push('\n');
    assert.deepEqual(s.view().lines, ['b = 3']);
    const done = s.finish();
    assert.equal(done.kind === 'code' ? done.code : '', 'b = 3');
  });

  it('the smallest line edit between two views', () => {
    assert.equal(lineEdit(['a\n', 'b\n'], ['a\n', 'b\n']), undefined);
    assert.deepEqual(lineEdit(['a\n', 'c\n'], ['a\n', 'b\n', 'c\n']), { start: 1, end: 1, text: 'b\n' });
    assert.deepEqual(lineEdit(['a\n', 'x\n', 'y\n', 'c\n'], ['a\n', 'b\n', 'c\n']), { start: 1, end: 3, text: 'b\n' });
    assert.deepEqual(lineEdit(['a\n', 'b'], ['a\n', 'c']), { start: 1, end: 2, text: 'c' });
  });

  it('on a text model: each view is one small edit of the last; the document outside the region never changes, and the final code is one more edit', () => {
    const doc = SOURCE.replace(/\n/g, '\r\n');
    const region = regionOf(doc, 2, 6);
    const before = splitLines(doc).slice(0, 2);
    const after = splitLines(doc).slice(6);
    const reply = `Here you go:\r\n\r\n\`\`\`javascript\r\n${['export async function load(path, fallback = {}) {', "\tconst text = await readFile(path, 'utf8');", '  if (!text) return fallback;', '  return JSON.parse(text);', '}'].join('\r\n')}\r\n\`\`\`\r\nDone.`;
    for (const size of [1, 4, 13]) {
      const s = new EditStream(region);
      let shown = splitLines(region.text);
      let edits = 0;
      for (let i = 0; i < reply.length; i += size) {
        if (!s.push(reply.slice(i, i + size))) continue;
        const edit = lineEdit(shown, s.view().lines);
        if (!edit) continue;
        edits++;
        assert.ok(edit.end - edit.start <= 2 && splitLines(edit.text).length <= 2, 'a small edit, not the whole region');
        shown = apply(shown, edit);
        const text = [...before, ...shown, ...after].join('');
        assert.ok(text.startsWith(before.join('')) && text.endsWith(after.join('')));
        assert.ok(!text.includes('Here you go') && !text.includes('```'), 'no prose, no fence in the document');
        assert.ok(!/[^\r]\n/.test(text), 'CRLF only');
      }
      // Four new lines are edits; the closing "}" repeats the original's last line, which is already there.
      assert.equal(edits, 4, `pieces of ${size}`);
      const done = s.finish();
      assert.equal(done.kind, 'code');
      if (done.kind !== 'code') return;
      const last = lineEdit(shown, splitLines(done.code));
      const final = last ? apply(shown, last) : shown;
      assert.equal(final.join(''), done.code);
      assert.equal(done.code.split('\r\n').length - 1, 5);
    }
  });

  it('on a text model: stopping at any point and putting the original lines back gives the document byte for byte (CRLF, tabs, no final line end)', () => {
    const doc = 'head\r\n\tfn(a) {\r\n\t\treturn a;\r\n\t}'; // the region is the last three lines, without a final line end
    const region = regionOf(doc, 1, 4);
    const before = splitLines(doc).slice(0, 1);
    const reply = 'Sure:\n```\nfn(a, b) {\n\treturn a + b;\n}\n```';
    for (let stop = 0; stop <= reply.length; stop++) {
      const s = new EditStream(region);
      s.push(reply.slice(0, stop));
      let shown = splitLines(region.text);
      const edit = lineEdit(shown, s.view().lines);
      if (edit) shown = apply(shown, edit);
      assert.ok(![...before, ...shown].join('').includes('Sure'), 'no prose in the document');
      const back = lineEdit(shown, splitLines(region.text));
      const restored = back ? apply(shown, back) : shown;
      assert.equal([...before, ...restored].join(''), doc, `stopped after ${stop} characters`);
    }
  });
});
