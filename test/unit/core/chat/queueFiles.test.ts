// core/chat/queue.ts restoreQueue: a queued message saved by an earlier window keeps the files it
// carries (its attachments' paths, for the rules that apply to them), as far as they are well formed.
import { strict as assert } from 'node:assert';
import { restoreQueue } from '../../../../src/core';

describe('restoreQueue (core/chat/queue.ts): the files of a saved queued message', () => {
  it('keeps well-formed files and drops what is not a string (or too long)', () => {
    const long = 'x/'.repeat(600);
    const q = restoreQueue({
      items: [
        { id: 'q1', text: 'one', model: 'm', files: ['src/a.py', 7, null, { p: 1 }, 'lib/b.ts', long] },
        { id: 'q2', text: 'two', model: 'm', files: 'src/a.py' },
        { id: 'q3', text: 'three', model: 'm', files: [1, 2] },
        { id: 'q4', text: 'four', model: 'm' },
      ],
    });
    assert.deepEqual(q.items.map((i) => [i.id, i.files]), [
      ['q1', ['src/a.py', 'lib/b.ts']],
      ['q2', undefined],
      ['q3', undefined],
      ['q4', undefined],
    ]);
    for (const i of q.items.slice(1)) assert.equal('files' in i, false, `${i.id}: no empty files list`);
    assert.equal(q.state, 'stopped');
  });

  it('at most 100 files a message', () => {
    const q = restoreQueue({ items: [{ id: 'q1', text: 'one', model: 'm', files: Array.from({ length: 150 }, (_, i) => `f${i}.py`) }] });
    assert.equal(q.items[0].files?.length, 100);
    assert.equal(q.items[0].files?.[99], 'f99.py');
  });
});
