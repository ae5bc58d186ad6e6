// The journal of replies' changes read back (a torn last line skipped, a let-go set stays gone) and
// the code blocks of a reply as Apply All reads them (the same reading as the chat panel's).
import * as assert from 'node:assert/strict';
import { compactJournal, journalLine, readJournal, repliesOf, setsToLetGo, type ChangeSet } from '../../../../src/core';
import { fencedBlocks, namedFiles } from '../../../../src/wording/codeFence';

const h = (c: string) => c.repeat(64);
const set = (id: string, messageId: string, at: number, before: string | null, after: string, size = 10): ChangeSet => ({
  id,
  conversationId: 'c1',
  messageId,
  at,
  files: [{ path: 'a.ts', uri: 'file:///ws/a.ts', before, after, beforeSize: before ? size : 0, afterSize: size }],
});

describe('the journal of replies\' changes', () => {
  it('reads sets and states in order, skips a torn or foreign line, and keeps a let-go set gone', () => {
    const text =
      journalLine({ v: 1, kind: 'set', set: set('chg_1', 'msg_a02', 1, h('a'), h('b')) }) +
      journalLine({ v: 1, kind: 'state', id: 'chg_1', state: 'undone', at: 2 }) +
      '{"v":1,"kind":"state","id":"chg_1","state":"app' + '\n' +
      journalLine({ v: 1, kind: 'set', set: set('chg_2', 'msg_a04', 3, null, h('c')) }) +
      journalLine({ v: 1, kind: 'state', id: 'chg_2', state: 'gone', at: 4 }) +
      journalLine({ v: 1, kind: 'state', id: 'chg_2', state: 'applied', at: 5 }) +
      '{"v":2,"kind":"set"}\n';
    const entries = readJournal(text);
    assert.deepEqual([...entries.keys()], ['chg_1', 'chg_2']);
    assert.equal(entries.get('chg_1')?.state, 'undone');
    assert.equal(entries.get('chg_2')?.state, 'gone');
    // Compacted, it reads the same.
    assert.deepEqual(readJournal(compactJournal(entries.values())), entries);
    assert.deepEqual([...repliesOf(entries.values(), 'c1').keys()], ['msg_a02', 'msg_a04']);
    assert.equal(repliesOf(entries.values(), 'other').size, 0);
  });

  it('lets the oldest sets go first, never the newest, counting a shared copy once', () => {
    const entries = [...readJournal(
      journalLine({ v: 1, kind: 'set', set: set('chg_1', 'msg_a02', 1, h('a'), h('b'), 100) }) +
        journalLine({ v: 1, kind: 'set', set: set('chg_2', 'msg_a04', 2, h('b'), h('c'), 100) }) +
        journalLine({ v: 1, kind: 'set', set: set('chg_3', 'msg_a06', 3, h('c'), h('d'), 100) }),
    ).values()];
    assert.deepEqual(setsToLetGo(entries, 400), []);
    assert.deepEqual(setsToLetGo(entries, 300), ['chg_1']);
    assert.deepEqual(setsToLetGo(entries, 0), ['chg_1', 'chg_2']);
  });
});

describe('code blocks that name files (wording/codeFence)', () => {
  it('reads fences of either kind, indented in a list, the path from the info string, and an unclosed last block', () => {
    const md = ['```ts src/a.ts', 'a', '```', '~~~py path=app/main.py', 'b', '~~~', '1. step', '   ```js title="web/x.js"', '   c', '   ```', '````', '```not a fence', '````', '```ts src/a.ts', 'd'].join('\n');
    const blocks = fencedBlocks(md);
    assert.deepEqual(blocks.map((b) => [b.path, b.code]), [['src/a.ts', 'a\n'], ['app/main.py', 'b\n'], ['web/x.js', 'c\n'], ['', '```not a fence\n'], ['src/a.ts', 'd\n']]);
    assert.deepEqual(namedFiles(md), ['src/a.ts', 'app/main.py', 'web/x.js']);
    assert.deepEqual(namedFiles('```sh ../../etc/passwd\nx\n```\n```ts /etc/x.ts\ny\n```'), []);
  });
});
