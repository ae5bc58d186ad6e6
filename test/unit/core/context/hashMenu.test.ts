import { strict as assert } from 'node:assert';
import { assembleMessage, attachmentItems, chipLabel, foldersOf, hashActions, matchActions, onceEach, rankPaths, replaces, textAttachment } from '../../../../src/core';
import { hashQuery, withoutHashQuery } from '../../../../src/protocol';

describe('the # menu', () => {
  describe('where a #word is typed (hashQuery)', () => {
    it('a # at the start or after white space, the caret at the end of the word', () => {
      assert.deepEqual(hashQuery('#', 1), { start: 0, query: '' });
      assert.deepEqual(hashQuery('Where is #pri', 13), { start: 9, query: 'pri' });
      assert.deepEqual(hashQuery('a\n#src/a', 8), { start: 2, query: 'src/a' });
      // The caret in the middle of other text: only white space may follow it.
      assert.deepEqual(hashQuery('#pri more', 4), { start: 0, query: 'pri' });
      assert.equal(hashQuery('#prix', 4), undefined);
    });
    it('a # inside a word, or no # before the caret, is no #word', () => {
      assert.equal(hashQuery('issue#12', 8), undefined);
      assert.equal(hashQuery('plain text', 10), undefined);
      assert.equal(hashQuery('#one two', 8), undefined);
      assert.equal(hashQuery('', 0), undefined);
    });
    it('the #word taken out leaves the text around it, one space between', () => {
      assert.deepEqual(withoutHashQuery('Where is #pri', 9, 13), { text: 'Where is ', caret: 9 });
      assert.deepEqual(withoutHashQuery('see #pri now', 4, 8), { text: 'see now', caret: 4 });
      assert.deepEqual(withoutHashQuery('#x', 0, 2), { text: '', caret: 0 });
    });
  });

  describe('the actions', () => {
    it('a bare # lists every action, codebase first; typing keeps those whose name starts with the word, then those holding it', () => {
      const all = hashActions();
      assert.equal(matchActions(all, '').length, all.length);
      assert.equal(all[0].id, 'codebase');
      assert.deepEqual(matchActions(all, 'c').map((a) => a.id), ['codebase', 'changes', 'selection', 'branchChanges']);
      assert.deepEqual(matchActions(all, 'stag').map((a) => a.id), ['stagedChanges']);
      assert.deepEqual(matchActions(all, 'PROB').map((a) => a.id), ['problems', 'workspaceProblems']);
      assert.deepEqual(matchActions(all, 'zzz'), []);
      assert.equal(new Set(all.map((a) => a.name)).size, all.length, 'each action is named once');
    });
  });

  describe('files by path (rankPaths)', () => {
    const paths = ['src/pricing.ts', 'src/core/priceTable.ts', 'test/pricing.test.ts', 'src/app/deep/compute/prices/index.ts', 'docs/PRICING.md', 'src/print.ts', 'README.md'];
    it('the name equal to the word first, then starting with it, then holding it, then the path holding it; the shorter path first within a rank', () => {
      assert.deepEqual(rankPaths(paths, 'pricing'), ['src/pricing.ts', 'docs/PRICING.md', 'test/pricing.test.ts']);
      assert.deepEqual(rankPaths(paths, 'price').slice(0, 2), ['src/core/priceTable.ts', 'src/app/deep/compute/prices/index.ts']);
      assert.deepEqual(rankPaths(paths, 'compute/'), ['src/app/deep/compute/prices/index.ts']);
    });
    it('letters in order match last, fewer gaps first; no match, no path; an empty word lists nothing', () => {
      const got = rankPaths(paths, 'prt');
      assert.ok(got.includes('src/print.ts') && got.includes('src/core/priceTable.ts'), JSON.stringify(got));
      assert.equal(got.indexOf('src/print.ts') < got.indexOf('src/core/priceTable.ts'), true);
      assert.deepEqual(rankPaths(paths, 'qqq'), []);
      assert.deepEqual(rankPaths(paths, ''), []);
      // A number or a short word matches only as written: "#12" is an issue, not a path.
      assert.deepEqual(rankPaths(['src/a1b2.ts', 'docs/12-notes.md'], '12'), ['docs/12-notes.md']);
      assert.deepEqual(rankPaths(['src/print.ts'], 'pt'), []);
    });
    it('10,000 paths: at most the limit, best first', () => {
      const many = Array.from({ length: 10_000 }, (_, i) => `src/module${i % 100}/file${i}.ts`);
      const got = rankPaths([...many, 'src/target/needle.ts'], 'needle', 20);
      assert.deepEqual(got, ['src/target/needle.ts']);
      assert.equal(rankPaths(many, 'file1', 20).length, 20);
      assert.equal(rankPaths(many, 'file1', 20)[0], 'src/module1/file1.ts');
    });
    it('the best `limit` paths whatever their order: the first of the whole ranking, in its order', () => {
      const many = Array.from({ length: 2_000 }, (_, i) => `src/${['pay', 'ship', 'bill'][i % 3]}/m${i % 37}/file${i}${i % 5 ? '.ts' : ''}`);
      const reversed = [...many].reverse();
      for (const q of ['file1', 'pay', 'ship/m3', 'fl9', 'p1', 'bill/']) {
        const whole = rankPaths(many, q, many.length);
        for (const limit of [1, 7, 20]) {
          assert.deepEqual(rankPaths(many, q, limit), whole.slice(0, limit), `${q} ${limit}`);
          assert.deepEqual(rankPaths(reversed, q, limit), whole.slice(0, limit), `${q} ${limit}, reversed`);
        }
      }
    });
    it('the folders of the paths, each once, without the root', () => {
      assert.deepEqual(foldersOf(['src/a/b.ts', 'src/a/c.ts', 'src/d.ts', 'top.ts']).sort(), ['src', 'src/a']);
    });
  });

  describe('Git changes as a chip', () => {
    const diff = 'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
    it('is named by which changes, sent as a diff block with a header, once, and recorded without a path', () => {
      const chip = textAttachment('ctx_1', 'changes', 'staged', 'diff', diff, 100);
      assert.equal(chipLabel(chip).icon, 'git-compare');
      assert.match(chipLabel(chip).detail, /changes/);
      const sent = assembleMessage('Review these', [chip]);
      assert.match(sent, /^Review these\n\nGit changes \(staged\):\n\n```diff\ndiff --git/);
      assert.equal(onceEach([chip, { ...chip, id: 'ctx_2' }]).length, 1);
      const [item] = attachmentItems([chip]);
      assert.equal(item.kind, 'changes');
      assert.equal(item.path, undefined);
      assert.equal(replaces({ ...chip, id: 'ctx_2' }, chip), true, 'the same changes attached again replace the chip');
    });
  });
});
