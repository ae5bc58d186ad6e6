import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendMessage, ConversationStore } from '../../../../src/core';
import { readAppended, readSmallFile } from '../../../../src/extension/platform/appendedRead';
import { FileConversationStorage } from '../../../../src/extension/platform/conversationFiles';
import { writeDurably } from '../../../../src/extension/platform/durableFiles';
import { WindowStore } from '../../../support/windowStore';

describe('the history index read from where the last read ended', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'ai-chat-appended-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('whole at first; then only the lines appended; a line still being written waits; a rewrite or a shorter file is read whole', async () => {
    const file = join(dir, 'index.jsonl');
    assert.equal(await readAppended(file, undefined), undefined, 'no file');
    await writeFile(file, 'one\ntwo\n');
    const first = await readAppended(file, undefined);
    assert.deepEqual([first?.text, first?.appended], ['one\ntwo\n', false]);
    await appendFile(file, 'three\nfou');
    const second = await readAppended(file, first?.cursor);
    assert.deepEqual([second?.text, second?.appended], ['three\n', true], 'the torn line is left');
    await appendFile(file, 'r\n');
    const third = await readAppended(file, second?.cursor);
    assert.deepEqual([third?.text, third?.appended], ['four\n', true]);
    const none = await readAppended(file, third?.cursor);
    assert.deepEqual([none?.text, none?.appended], ['', true]);
    await writeDurably(file, 'five\n');
    const rewritten = await readAppended(file, none?.cursor);
    assert.deepEqual([rewritten?.text, rewritten?.appended], ['five\n', false], 'a new file');
    await truncate(file, 0);
    await appendFile(file, 'six\n');
    // (Same file, now shorter than where the last read ended.)
    const shorter = await readAppended(file, { file: rewritten?.cursor.file ?? '', offset: 100 });
    assert.deepEqual([shorter?.text, shorter?.appended], ['six\n', false]);
  });

  it('a window lists what another one saved, renamed and deleted since, and a rewrite of the index by it', async () => {
    let n = 0;
    const a = new WindowStore(new FileConversationStorage(dir), { newId: () => `a-${++n}` });
    const b = new WindowStore(new FileConversationStorage(dir), { newId: () => `b-${++n}` });
    for (const store of [a, b, a]) {
      appendMessage(store.current, 'user', `hello from ${store === a ? 'a' : 'b'}`);
      await store.save();
      store.newConversation();
    }
    const ids = async (s: ConversationStore) => (await s.list()).map((c) => `${c.id}:${c.title}`).sort();
    assert.deepEqual(await ids(a), ['a-1:hello from a', 'a-3:hello from a', 'b-2:hello from b']);
    appendMessage(b.current, 'user', 'another from b');
    await b.save();
    await b.rename('a-1', 'renamed by b');
    await b.list();
    await b.remove('a-3');
    assert.deepEqual(await ids(a), ['a-1:renamed by b', 'b-2:hello from b', 'b-4:another from b']);
    // The index rewritten (as a compaction does), then appended to: a reads it whole, and lists the same.
    const indexFile = join(dir, 'conversations', '_index.jsonl');
    await writeDurably(indexFile, await readFile(indexFile, 'utf8'));
    await b.rename('b-2', 'renamed again');
    assert.deepEqual(await ids(a), ['a-1:renamed by b', 'b-2:renamed again', 'b-4:another from b']);
    assert.deepEqual(await ids(a), await ids(new WindowStore(new FileConversationStorage(dir))));
  });

  it('a small plain file is read at once; a missing one is undefined; a pipe, a folder or a longer file is left to an asynchronous read', async () => {
    const file = join(dir, 'log.jsonl');
    await writeFile(file, 'héllo\n');
    assert.equal(readSmallFile(file, 64), 'héllo\n');
    assert.equal(readSmallFile(join(dir, 'none.jsonl'), 64), undefined);
    assert.equal(readSmallFile(file, 3), false, 'longer than asked');
    await mkdir(join(dir, 'folder.jsonl'));
    assert.equal(readSmallFile(join(dir, 'folder.jsonl'), 64), false);
    // A named pipe with no writer (not on Windows): opened and left without waiting for one.
    if (process.platform === 'win32') return;
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    assert.equal(readSmallFile(join(dir, 'pipe.jsonl'), 64), false);
  });
});
