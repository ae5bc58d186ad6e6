import { strict as assert } from 'node:assert';
import {
  appendMessage,
  boundDiff,
  buildCommitPrompt,
  commitMessageFromReply,
  diffRoom,
  splitDiff,
  MAX_SUBJECTS,
  type ChangedFile,
} from '../../../src/core/context/commitMessage';

const fileDiff = (path: string, lines: number, fill = 'x') =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1,${lines} +1,${lines} @@\n${Array.from({ length: lines }, (_, i) => `+${fill}${i}`).join('\n')}\n`;

describe('Write Commit Message: the diff within the budget', () => {
  it('splits a diff at each file header and reads the paths', () => {
    const d = fileDiff('a.ts', 2) + fileDiff('dir/b c.md', 1);
    const parts = splitDiff(d);
    assert.deepEqual(parts.map((p) => p.path), ['a.ts', 'dir/b c.md']);
    assert.equal(parts.map((p) => p.text).join(''), d);
    assert.deepEqual(splitDiff(''), []);
  });

  it('a diff that fits is sent whole after the file list', () => {
    const files: ChangedFile[] = [{ path: 'a.ts', change: 'modified' }];
    const d = fileDiff('a.ts', 3);
    const b = boundDiff(files, d, 10_000);
    assert.equal(b.text, `Changed files (1):\n- a.ts (modified)\n\n${d}`.trimEnd());
    assert.deepEqual(b.cut, []);
    assert.equal(b.omittedChars, 0);
  });

  it('too long: the file list stays whole, the small diff whole, the large one cut at a line end and said so', () => {
    const files: ChangedFile[] = Array.from({ length: 40 }, (_, i) => ({ path: `src/file${i}.ts`, change: i % 2 ? 'added' : 'modified' }));
    const small = fileDiff('small.ts', 3);
    const large = fileDiff('large.ts', 5_000);
    const b = boundDiff(files, small + large, 6_000);
    for (const f of files) assert.ok(b.text.includes(`- ${f.path} (${f.change})`), `${f.path} is listed`);
    assert.ok(b.text.includes(small), 'the small diff is whole');
    assert.deepEqual(b.cut, ['large.ts']);
    assert.ok(b.text.length <= 6_000 + 100, `bounded (${b.text.length})`);
    assert.match(b.text, /\n\+x\d+\n\[… \d+ more lines of this file's diff left out\]$/);
    assert.ok(b.omittedChars > large.length - 6_000);
  });

  it('many large diffs share the room equally; a share too small keeps only the header line', () => {
    const d = ['a', 'b', 'c'].map((p) => fileDiff(`${p}.ts`, 2_000)).join('');
    const b = boundDiff([{ path: 'a.ts', change: 'modified' }], d, 9_000);
    assert.deepEqual(b.cut, ['a.ts', 'b.ts', 'c.ts']);
    assert.equal((b.text.match(/more lines of this file's diff left out/g) ?? []).length, 3);
    const tiny = boundDiff([{ path: 'a.ts', change: 'modified' }], d, 300);
    assert.equal((tiny.text.match(/this file's diff left out: the whole diff is too long/g) ?? []).length, 3);
    assert.ok(tiny.text.includes('diff --git a/c.ts b/c.ts'), 'each file keeps its header line');
  });

  it('the room for the diff: the budget in characters less the rest of the request and a margin, never negative', () => {
    assert.equal(diffRoom(1_000, 500), 4_000 - 500 - 256);
    assert.equal(diffRoom(10, 5_000), 0);
  });
});

describe('Write Commit Message: the request and the reply', () => {
  it('the prompt says what is described, the rules, the recent subjects (first lines, at most 10) and the diff', () => {
    const subjects = ['feat: add x\n\nbody', '', 'fix: y', ...Array.from({ length: 20 }, (_, i) => `chore: ${i}`)];
    const p = buildCommitPrompt({ diff: 'DIFF', staged: true, recentSubjects: subjects, instructions: ' Conventional Commits ' });
    const sent = p.split('\n').filter((l) => l.startsWith('- ')).length;
    assert.equal(sent, MAX_SUBJECTS);
    assert.match(p, /^Write a commit message for these staged changes\.\n\nFollow these rules:\nConventional Commits\n\nRecent commit subjects of this repository \(follow their style\):\n- feat: add x\n- fix: y\n- chore: 0\n/);
    assert.ok(p.endsWith('\n\nDIFF'));
  });

  it('nothing staged: the prompt says these are the working tree changes; no subjects and no rules: neither section', () => {
    const p = buildCommitPrompt({ diff: 'D', staged: false, recentSubjects: [] });
    assert.equal(p, 'Write a commit message for these changes (nothing is staged: these are all the changes in the working tree).\n\nD');
  });

  it('the message: the first fenced block, else the text without quotes', () => {
    assert.equal(commitMessageFromReply('Here it is:\n\n```text\nfeat: add x\n\nWhy.\n```\n\n```\nother\n```'), 'feat: add x\n\nWhy.');
    assert.equal(commitMessageFromReply('~~~\nfix: y\n~~~'), 'fix: y');
    assert.equal(commitMessageFromReply('  "fix: z"  '), 'fix: z');
    assert.equal(commitMessageFromReply('docs: plain\r\n\r\nbody'), 'docs: plain\n\nbody');
  });

  it('kept alongside the user\'s own text: theirs first, then a blank line', () => {
    assert.equal(appendMessage('WIP notes\n\n', 'feat: x'), 'WIP notes\n\nfeat: x');
    assert.equal(appendMessage('  ', 'feat: x'), 'feat: x');
  });
});
