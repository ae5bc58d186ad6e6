import { strict as assert } from 'node:assert';
import { applyChanges, diffLines, EditReview, regionShift, splitLines, textChanges } from '../../../../src/core/inlineEdit/hunks';

describe('edit in the editor: hunks', () => {
  it('splits lines keeping each line end, a last line without one included', () => {
    assert.deepEqual(splitLines('a\r\nb\n\nc'), ['a\r\n', 'b\n', '\n', 'c']);
    assert.deepEqual(splitLines('a\n'), ['a\n']);
    assert.deepEqual(splitLines(''), []);
  });

  it('only changed lines become hunks: lines repeated unchanged are never offered', () => {
    const original = 'function add(a, b) {\n  // sum\n  return a - b;\n}\n';
    const changed = 'function add(a, b) {\n  // sum\n  return a + b;\n}\n';
    assert.deepEqual(diffLines(original, changed), [{ start: 2, removed: ['  return a - b;\n'], added: ['  return a + b;\n'] }]);
    assert.deepEqual(diffLines(original, original), []);
  });

  it('separate changes are separate hunks; an insertion and a removal have an empty side', () => {
    const original = ['import a', 'const x = 1;', 'const y = 2;', 'const z = 3;', 'log(x)', ''].join('\n');
    const changed = ['import a', 'import b', 'const x = 1;', 'const z = 3;', 'log(x)', ''].join('\n');
    const hunks = diffLines(original, changed);
    assert.deepEqual(hunks, [
      { start: 1, removed: [], added: ['import b\n'] },
      { start: 2, removed: ['const y = 2;\n'], added: [] },
    ]);
  });

  it('CRLF lines compare with their line ends; tabs are significant', () => {
    const original = 'if (x) {\r\n\treturn 1;\r\n}\r\n';
    const changed = 'if (x) {\r\n    return 1;\r\n}\r\n';
    assert.deepEqual(diffLines(original, changed), [{ start: 1, removed: ['\treturn 1;\r\n'], added: ['    return 1;\r\n'] }]);
    assert.deepEqual(diffLines('a\r\nb\r\n', 'a\r\nb\r\n'), [], 'the same CRLF text has no hunk');
  });

  it('a missing trailing newline is a change of the last line only', () => {
    assert.deepEqual(diffLines('a\nb', 'a\nb\n'), [{ start: 1, removed: ['b'], added: ['b\n'] }]);
    assert.deepEqual(diffLines('a\nb', 'a\nc'), [{ start: 1, removed: ['b'], added: ['c'] }]);
  });

  it('the review: undoing every hunk gives the original byte for byte, keeping every hunk gives the proposal', () => {
    const original = 'one\r\ntwo\r\nthree\r\nfour\r\nfive';
    const proposed = 'one\r\n2\r\nthree\r\nfour\r\n4.5\r\nfive\r\nsix';
    const review = new EditReview(original, proposed);
    assert.equal(review.hunks.length, 2, "two -> 2; and 4.5 with the last line, which gains a line end");
    assert.equal(review.current(), proposed);
    assert.equal(review.final(false), original);
    assert.equal(review.final(true), proposed);
  });

  it('the review: undoing one hunk gives the edit that puts its lines back where the current text has them', () => {
    const original = 'a\nb\nc\nd\ne\n';
    const proposed = 'a\nB1\nB2\nc\nd\nE\n';
    const review = new EditReview(original, proposed);
    assert.equal(review.hunks.length, 2);
    assert.deepEqual(review.where(1), { line: 5, count: 1 });
    // Apply the edits to a copy of the current text, as the editor would.
    let doc = splitLines(review.current());
    const apply = (e: { start: number; end: number; text: string }) => {
      doc = [...doc.slice(0, e.start), ...splitLines(e.text), ...doc.slice(e.end)];
    };
    const first = review.undo(0);
    assert.deepEqual(first, { start: 1, end: 3, text: 'b\n' });
    apply(first);
    assert.equal(doc.join(''), 'a\nb\nc\nd\nE\n');
    assert.deepEqual(review.where(1), { line: 4, count: 1 }, 'the later hunk moved up by one line');
    review.keep(1);
    assert.equal(review.undo(1), undefined, 'a kept hunk is not undone');
    assert.equal(review.done, true);
    assert.equal(doc.join(''), review.current());
    assert.equal(review.final(false), 'a\nb\nc\nd\nE\n');
  });

  it('settles the pending hunks kept or undone', () => {
    const review = new EditReview('x\ny\n', 'X\ny\nz\n');
    review.keep(0);
    review.settle(false);
    assert.deepEqual([review.state(0), review.state(1)], ['kept', 'undone']);
    assert.equal(review.current(), 'X\ny\n');
  });

  it('a very large rewrite is one hunk between the common start and end', () => {
    const original = ['head', ...Array.from({ length: 3000 }, (_, i) => `old ${i}`), 'tail', ''].join('\n');
    const proposed = ['head', ...Array.from({ length: 3000 }, (_, i) => `new ${i}`), 'tail', ''].join('\n');
    const hunks = diffLines(original, proposed);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].start, 1);
    assert.equal(hunks[0].removed.length, 3000);
    assert.equal(new EditReview(original, proposed).final(false), original);
  });
});

describe('Edit in the editor: what a save writes during the review', () => {
  it('the pending hunks are not saved: the original with only the kept hunks, whatever was decided in which order', () => {
    const original = 'a\nb\nc\nd\ne\n';
    const proposed = 'A\nb\nc\nC2\nd\n';
    const review = new EditReview(original, proposed);
    assert.equal(review.hunks.length, 3);
    assert.equal(review.saved(), original, 'nothing kept yet: the original');
    review.keep(1);
    assert.equal(review.saved(), 'a\nb\nc\nC2\nd\ne\n', 'the kept hunk only');
    review.undo(2);
    assert.equal(review.saved(), 'a\nb\nc\nC2\nd\ne\n', 'an undone hunk is not saved either');
    assert.equal(review.current(), 'A\nb\nc\nC2\nd\ne\n', 'the editor still shows the pending hunk');
    review.settle(true);
    assert.equal(review.saved(), review.current(), 'once kept, everything shown is saved');
  });

  it('the edits that take the pending hunks out touch only their lines, and the edits back restore the proposal byte for byte', () => {
    const original = 'one\r\ntwo\r\nthree\r\nfour\r\nfive';
    const proposed = 'one\r\n2\r\nthree\r\nfour\r\n4.5\r\nfive\r\nsix';
    const review = new EditReview(original, proposed);
    review.keep(0);
    const shown = review.current();
    const saved = review.saved();
    const out = textChanges(shown, saved);
    assert.deepEqual(out, [{ at: shown.indexOf('4.5'), length: '4.5\r\nfive\r\nsix'.length, text: 'five' }], 'one edit, of the pending hunk\'s lines only');
    assert.equal(applyChanges(shown, out), 'one\r\n2\r\nthree\r\nfour\r\nfive');
    assert.equal(applyChanges(saved, textChanges(saved, shown)), shown);
  });

  it('the round trip holds for additions, removals, an empty region and a missing final newline', () => {
    const pairs: Array<[string, string]> = [
      ['', 'x\n'],
      ['x\n', ''],
      ['a\nb', 'a\nb\n'],
      ['a\nb\nc\n', 'a\nc\n'],
      ['k\nl\n', 'j\nk\nl\nm\n'],
      ['same\n', 'same\n'],
    ];
    for (const [from, to] of pairs) {
      assert.equal(applyChanges(from, textChanges(from, to)), to, `${JSON.stringify(from)} -> ${JSON.stringify(to)}`);
      assert.equal(applyChanges(to, textChanges(to, from)), from, `${JSON.stringify(to)} -> ${JSON.stringify(from)}`);
    }
    assert.deepEqual(textChanges('same\n', 'same\n'), []);
  });
});

describe('Edit in the editor: what a change of the document does to the region under edit', () => {
  const change = (rangeOffset: number, rangeLength: number, text: string) => ({ rangeOffset, rangeLength, text });
  it('changes before the region move it by what they add or take out', () => {
    assert.equal(regionShift([change(0, 0, 'abc'), change(5, 3, 'x')], 10, 20), 1);
  });
  it('changes after it, or an insertion at its end, leave it where it is', () => {
    assert.equal(regionShift([change(25, 2, 'yyy'), change(20, 0, 'z')], 10, 20), 0);
  });
  it('a change inside it, an insertion at its start, or a deletion reaching into it touches it', () => {
    assert.equal(regionShift([change(12, 1, '')], 10, 20), 'touched');
    assert.equal(regionShift([change(10, 0, 'a')], 10, 20), 'touched');
    assert.equal(regionShift([change(8, 3, '')], 10, 20), 'touched');
  });
  it('a deletion that ends at its start moves it', () => {
    assert.equal(regionShift([change(8, 2, '')], 10, 20), -2);
  });
  it('an empty region: an insertion at its place touches it', () => {
    assert.equal(regionShift([change(10, 0, 'a')], 10, 10), 'touched');
  });
});
