import { strict as assert } from 'node:assert';
import { extractReplacement, fencedBlocks, looksLikeProse, type EditRegion } from '../../../../src/core/inlineEdit/extract';
import { buildEditPrompt, enclosingBlock } from '../../../../src/core/inlineEdit/prompt';

const FILE = [
  "import { readFile } from 'node:fs/promises';",
  '',
  'export async function load(path: string) {',
  "  const text = await readFile(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
  'export const VERSION = 2;',
];

/** The region of lines [start, end) of FILE with line end `eol`. */
function region(start: number, end: number, eol: '\n' | '\r\n' = '\n', lines = FILE): EditRegion {
  return { before: lines.slice(0, start), text: lines.slice(start, end).map((l) => l + eol).join(''), after: lines.slice(end), eol };
}

describe('edit in the editor: the code that replaces the selection', () => {
  it('takes the code of a fence and drops the prose around it', () => {
    const reply = [
      'Here is the function with error handling:',
      '',
      '```ts',
      'export async function load(path: string) {',
      "  const text = await readFile(path, 'utf8').catch(() => '{}');",
      '  return JSON.parse(text);',
      '}',
      '```',
      '',
      'The `catch` returns an empty object when the file is missing.',
    ].join('\n');
    const r = extractReplacement(reply, region(2, 6));
    assert.deepEqual(r, {
      kind: 'code',
      from: 'fence',
      code: "export async function load(path: string) {\n  const text = await readFile(path, 'utf8').catch(() => '{}');\n  return JSON.parse(text);\n}\n",
    });
  });

  it('of several fences takes the longest (a usage example is left out)', () => {
    const reply = 'Changed:\n```ts\nconst a = 1;\nconst b = 2;\n```\nUse it like:\n```ts\nf()\n```\n';
    const r = extractReplacement(reply, region(7, 8));
    assert.equal(r.kind === 'code' && r.code, 'const a = 1;\nconst b = 2;\n');
  });

  it('a reply that is the whole file gives only the lines that replace the selection', () => {
    const whole = [...FILE.slice(0, 4), '  return JSON.parse(text) as unknown;', ...FILE.slice(5)].join('\n');
    const r = extractReplacement('```typescript\n' + whole + '\n```', region(4, 5));
    assert.deepEqual(r, { kind: 'code', from: 'wholeFile', code: '  return JSON.parse(text) as unknown;\n' });
  });

  it('a reply that repeats the window sent around the selection gives only the new lines', () => {
    const reply = ['```ts', 'export async function load(path: string) {', "  const text = await readFile(path, 'utf8');", '  return JSON.parse(text) ?? {};', '}', '', 'export const VERSION = 2;', '```'].join('\n');
    const r = extractReplacement(reply, region(4, 5));
    assert.equal(r.kind === 'code' && r.code, '  return JSON.parse(text) ?? {};\n');
    assert.equal(r.kind === 'code' && r.from, 'wholeFile');
  });

  it('a replacement that starts with a closing brace like the line before is not mistaken for context', () => {
    const lines = ['if (a) {', '  x();', '}', '}', 'end();'];
    const r = extractReplacement('```js\n}\nfoo();\n```', region(3, 4, '\n', lines));
    assert.equal(r.kind === 'code' && r.code, '}\nfoo();\n');
    assert.equal(r.kind === 'code' && r.from, 'fence');
  });

  it('bare code without a fence is the replacement', () => {
    const r = extractReplacement('export const VERSION = 3;\n', region(7, 8));
    assert.deepEqual(r, { kind: 'code', from: 'plain', code: 'export const VERSION = 3;\n' });
  });

  it('a reply with no code says so', () => {
    const prose = 'I cannot change this code without knowing which format the file uses. Could you tell me more about it?';
    assert.deepEqual(extractReplacement(prose, region(2, 6)), { kind: 'none', reason: 'prose' });
    assert.deepEqual(extractReplacement('   \n', region(2, 6)), { kind: 'none', reason: 'empty' });
    assert.equal(looksLikeProse('const a = 1;\nreturn a;'), false);
  });

  it('a closed empty fence removes the selection; an unclosed one (a stopped reply) is its text so far', () => {
    assert.deepEqual(extractReplacement('Remove it:\n```ts\n```', region(7, 8)), { kind: 'code', from: 'fence', code: '' });
    assert.deepEqual(fencedBlocks('```ts\nconst a'), [{ body: 'const a', closed: false }]);
    assert.deepEqual(fencedBlocks('````md\n```ts\nx\n```\n````'), [{ body: '```ts\nx\n```', closed: true }], 'a longer fence holds a shorter one');
  });

  it('fences follow the Chat view\'s rule (text/fences.ts): inside a list item, a tilde fence whose info holds a backtick', () => {
    assert.deepEqual(fencedBlocks('1. Change it:\n\n    ```ts\n    const a = 1;\n    ```\nDone.'), [{ body: '    const a = 1;', closed: true }], 'indented under a list item');
    assert.deepEqual(fencedBlocks('~~~ts `x`\nconst a = 1;\n~~~'), [{ body: 'const a = 1;', closed: true }]);
    assert.deepEqual(fencedBlocks('``` a`b\nconst a = 1;'), [], 'a backtick in a backtick fence\'s info is inline code');
  });

  it('CRLF documents get CRLF code; a region without a final line end gets none', () => {
    const r = extractReplacement('```ts\nexport const VERSION = 3;\nexport const NAME = "x";\n```', region(7, 8, '\r\n'));
    assert.equal(r.kind === 'code' && r.code, 'export const VERSION = 3;\r\nexport const NAME = "x";\r\n');
    const last: EditRegion = { before: FILE.slice(0, 7), text: 'export const VERSION = 2;', after: [], eol: '\n' };
    assert.equal((extractReplacement('```ts\nexport const VERSION = 3;\n```', last) as { code: string }).code, 'export const VERSION = 3;');
  });

  it('code given without the selection\'s indentation gets it back; tabs are kept', () => {
    const lines = ['class A {', '\tm() {', '\t\treturn 1;', '\t}', '}'];
    const r = extractReplacement('```ts\nm() {\n\treturn 2;\n}\n```', region(1, 4, '\n', lines));
    assert.equal(r.kind === 'code' && r.code, '\tm() {\n\t\treturn 2;\n\t}\n');
  });
});

describe('edit in the editor: the request', () => {
  const many = Array.from({ length: 300 }, (_, i) => `line ${i + 1};`);

  it('has the instruction, the selection, the language and path, and a window of at most 60 lines each side', () => {
    const p = buildEditPrompt({ instruction: ' Rename x to count ', languageId: 'typescript', path: 'src/a.ts', lines: many, start: 149, end: 151 });
    assert.match(p.prompt, /^Instruction: Rename x to count\n/);
    assert.match(p.prompt, /File `src\/a\.ts` \(typescript\), selected lines 150-151:\n```typescript\nline 150;\nline 151;\n```/);
    assert.equal(p.before.length, 60);
    assert.equal(p.before[0], 'line 90;');
    assert.equal(p.before[59], 'line 149;');
    assert.deepEqual([p.after.length, p.after[0]], [60, 'line 152;']);
    assert.ok(!p.prompt.includes('line 89;') && !p.prompt.includes('line 212;'));
    assert.match(p.prompt, /Before the selection \(from line 90\):/);
  });

  it('caps the window in characters, keeping the lines nearest the selection', () => {
    const long = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(500, 'x'));
    const p = buildEditPrompt({ instruction: 'x', languageId: 'plaintext', path: 'a.txt', lines: long, start: 50, end: 51, windowChars: 2_000 });
    assert.deepEqual(p.before.map((l) => l.slice(0, 2)), ['47', '48', '49'], 'three lines of 501 characters fit in 2,000');
    assert.deepEqual(p.after.map((l) => l.slice(0, 2)), ['51', '52', '53']);
    assert.ok(p.prompt.length < 6_000);
  });

  it('at the start of a file there is no "before" part; code holding backticks gets a longer fence', () => {
    const p = buildEditPrompt({ instruction: 'x', languageId: 'markdown', path: 'README.md', lines: ['```sh', 'npm i', '```'], start: 0, end: 3 });
    assert.ok(!p.prompt.includes('Before the selection'));
    assert.match(p.prompt, /````markdown\n```sh\nnpm i\n```\n````/);
  });

  it('the enclosing block of a cursor: the smallest folding range with its closing line', () => {
    const lines = ['class A {', '  m() {', '    return 1;', '  }', '}', 'x();'];
    const ranges = [{ start: 0, end: 3 }, { start: 1, end: 2 }];
    assert.deepEqual(enclosingBlock(lines, 2, ranges), { start: 1, end: 4 });
    assert.deepEqual(enclosingBlock(lines, 1, ranges), { start: 1, end: 4 });
    assert.deepEqual(enclosingBlock(lines, 5, ranges), { start: 5, end: 6 }, 'outside every block: the line');
  });
});
