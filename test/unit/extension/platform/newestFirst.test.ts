import { strict as assert } from 'node:assert';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newestFirst } from '../../../../src/extension/platform/legacyConversations';

describe('conversation files, newest first', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'ai-chat-newest-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('orders by the last write, a file gone meanwhile last, in slices with the event loop let through', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `c${i}.${i % 3 ? 'jsonl' : 'json'}`);
    for (const [i, name] of names.entries()) {
      await writeFile(join(dir, name), 'x');
      // Written in a shuffled order of time: the newest is c137.
      const when = new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 300) * 1000);
      await utimes(join(dir, name), when, when);
    }
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    // (A slice of -1 ms: a turn after every file.)
    const order = await newestFirst(dir, [...names, 'gone.jsonl'], -1);
    clearInterval(ticker);
    assert.equal(order.length, 301);
    assert.equal(order[300], 'gone');
    const expected = names.map((n, i) => ({ id: n.slice(0, n.lastIndexOf('.')), t: (i * 37) % 300 })).sort((a, b) => b.t - a.t).map((e) => e.id);
    assert.deepEqual(order.slice(0, 300), expected);
    assert.ok(turns > 0, 'the event loop had turns meanwhile');
  });
});
