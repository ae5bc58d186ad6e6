import { strict as assert } from 'node:assert';
import { chooseFolderFiles, fileAttachment, folderBudgetChars, folderMessage, onceEach, requestBudget, type Attachment } from '../../../../src/core';

describe('a folder attached', () => {
  const entries = [
    { path: 'src/deep/nested/c.ts', bytes: 100 },
    { path: 'src/b.ts', bytes: 3000 },
    { path: 'src/a.ts', bytes: 500 },
    { path: 'src/.env', bytes: 10 },
    { path: 'src/big.log', bytes: 5_000_000 },
  ];

  it('takes files shallow first within the budget, counts a large file as its cut size, and names what was left out', () => {
    const choice = chooseFolderFiles(entries, 2000, 100, 1024);
    // a.ts (500) + b.ts (cut: 1024) fit; big.log (cut: 1024) does not, the small nested c.ts still does.
    assert.deepEqual(choice.take.map((e) => e.path), ['src/a.ts', 'src/b.ts', 'src/deep/nested/c.ts']);
    assert.deepEqual(choice.leftOut, [{ path: 'src/.env', reason: 'secret' }, { path: 'src/big.log', reason: 'budget' }]);
    assert.equal(
      folderMessage('src', choice, entries.length),
      "src: 3 of 5 files attached; left out, over the model's budget or the chip limit: src/big.log; never sent (secret-looking names): src/.env.",
    );
  });

  it('a folder over the budget lists every file it left out (the first eight by name, then how many more)', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ path: `lib/f${String(i).padStart(2, '0')}.ts`, bytes: 1000 }));
    const choice = chooseFolderFiles(many, 5000, 100, 100_000);
    assert.equal(choice.take.length, 5);
    assert.equal(choice.leftOut.length, 15);
    assert.match(folderMessage('lib', choice, 20) ?? '', /^lib: 5 of 20 files attached; left out, over the model's budget or the chip limit: lib\/f05\.ts, lib\/f06\.ts, .*lib\/f12\.ts and 7 more\.$/);
    assert.equal(folderMessage('lib', chooseFolderFiles(many, 1e9, 100, 1e6), 20), undefined, 'all went: nothing to say');
    assert.equal(chooseFolderFiles(many, 1e9, 3, 1e6).leftOut.filter((x) => x.reason === 'count').length, 17, 'the chip limit too');
  });

  it("its budget is three quarters of the model's input budget, in characters", () => {
    assert.equal(folderBudgetChars(requestBudget(8192)), Math.floor(((8192 - 2048) * 4 * 3) / 4));
  });

  it('a file added, pinned and inside a folder goes once', () => {
    const file = (id: string, text: string): Attachment => {
      const r = fileAttachment(id, 'src/a.ts', new TextEncoder().encode(text), 100);
      assert.ok(r.ok);
      return r.attachment;
    };
    // As a send orders them: the pins (read again now), then the chips: the file added, then the folder's.
    const sent = onceEach([file('pin', 'now'), file('chip', 'earlier'), file('folder', 'earlier'), { ...file('other', 'x'), path: 'src/b.ts' }]);
    assert.deepEqual(sent.map((a) => [a.id, a.content]), [['pin', 'now'], ['other', 'x']]);
  });
});
