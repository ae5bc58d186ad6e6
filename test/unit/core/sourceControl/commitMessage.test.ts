import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  appendMessage,
  boundDiff,
  buildCommitPrompt,
  COMMIT_RULES_FILE,
  COMMIT_RULES_MAX_BYTES,
  commitMessageFromReply,
  diffRoom,
  readCommitRules,
  splitDiff,
  MAX_SUBJECTS,
  type ChangedFile,
} from '../../../../src/core/sourceControl/commitMessage';

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

describe("Write Commit Message: the repository's own commit rules (.github/commit-instructions.md), read as AGENTS.md is", () => {
  const TOKEN = 'ghp_FAKE0123456789abcdef';
  let home = '';
  let repo = '';
  const rulesPath = () => join(repo, ...COMMIT_RULES_FILE.split('/'));
  /** Writes `files` (relative to the repository) and makes the rules file a link to `target`. */
  const linkRulesTo = (target: string) => {
    rmSync(rulesPath(), { force: true });
    symlinkSync(target, rulesPath());
  };

  beforeEach(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'commit-rules-')));
    repo = join(home, 'cloned-repo');
    const files: Record<string, string> = {
      '.git/config': `[remote "origin"]\n\turl = https://x-access-token:${TOKEN}@github.com/org/repo.git\n`,
      '.env': `DATABASE_PASSWORD=${TOKEN}\n`,
      'secrets/prod.pem': `-----BEGIN PRIVATE KEY-----\n${TOKEN}\n-----END PRIVATE KEY-----\n`,
      'docs/commit-style.md': 'Use Conventional Commits.\n',
      '.github/.keep': '',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, name)), { recursive: true });
      writeFileSync(join(repo, name), text);
    }
    writeFileSync(join(home, 'outside.md'), `TOKEN=${TOKEN}\n`);
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('P2: a link to .git/config, .env or a key file inside the repository is not read nor sent, and the user is told why', async () => {
    for (const [target, shown] of [
      ['../.git/config', '.git/config'],
      ['../.env', '.env'],
      ['../secrets/prod.pem', 'secrets/prod.pem'],
    ]) {
      linkRulesTo(target);
      const rules = await readCommitRules(repo, true);
      assert.equal(rules.text, '', `${target}: no rules`);
      assert.ok(!JSON.stringify(rules).includes(TOKEN), `${target}: the secret is nowhere in the answer`);
      assert.ok(
        buildCommitPrompt({ diff: 'DIFF', staged: true, recentSubjects: [], instructions: rules.text }).indexOf(TOKEN) === -1,
        `${target}: the secret is not in the request`,
      );
      assert.equal(
        rules.notice,
        `AI Chat: .github/commit-instructions.md → ${shown} is not sent: its name looks like a secret (a key, a login or an .env file). ` +
          'The commit message is written without these rules: make .github/commit-instructions.md a text file of its own (not a link), or put the rules in the aiChat.commitMessage.instructions setting.',
      );
    }
  });

  it('a link out of the repository is not followed either, and said; in Restricted Mode nothing is read, nothing said', async () => {
    linkRulesTo('../../outside.md');
    const out = await readCommitRules(repo, true);
    assert.equal(out.text, '');
    assert.match(out.notice ?? '', /^AI Chat: \.github\/commit-instructions\.md is not sent: it leads to a file outside the workspace\. /);
    linkRulesTo('../docs/commit-style.md');
    assert.deepEqual(await readCommitRules(repo, false), { text: '' });
  });

  it('a text file (or a link to one inside the repository) gives its first 8 KB; no file: nothing, nothing said', async () => {
    assert.deepEqual(await readCommitRules(repo, true), { text: '' });
    linkRulesTo('../docs/commit-style.md');
    assert.deepEqual(await readCommitRules(repo, true), { text: 'Use Conventional Commits.' });
    rmSync(rulesPath());
    writeFileSync(rulesPath(), `# Commits\n\nUse the imperative mood.\n${'é'.repeat(10_000)}`);
    const long = await readCommitRules(repo, true);
    assert.match(long.text, /^# Commits\n\nUse the imperative mood\.\né/);
    assert.ok(new TextEncoder().encode(long.text).length <= COMMIT_RULES_MAX_BYTES, 'at most 8 KB');
    assert.ok(!long.text.includes('\uFFFD'), 'never cut inside a character');
    assert.equal(long.notice, undefined);
  });
});
