// The history index and the search index on real files, when another window deletes (P3) and when
// the index file cannot be used (P6: a power loss, a crash, another version of the extension).
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendMessage, ConversationStore, type Conversation } from '../../../../src/core';
import { FileConversationStorage } from '../../../../src/extension/platform/conversationFiles';
import { WindowStore } from '../../../support/windowStore';

describe('history index on files: deletes in other windows, damaged indexes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ai-chat-index-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  let windows = 0;
  const windowOn = (opts: { searchPersistDelayMs?: number; rebuildInlineUpTo?: number } = {}) => {
    const w = ++windows;
    let n = 0;
    return new WindowStore(new FileConversationStorage(dir), { newId: () => `w${w}-conv-${++n}`, ...opts });
  };
  const indexFile = () => join(dir, 'conversations', '_index.jsonl');
  const turn = async (store: ConversationStore, conv: Conversation, q: string) => {
    appendMessage(conv, 'user', q);
    appendMessage(conv, 'assistant', `answer to ${q}`);
    await store.save(conv);
  };

  it('P3: a compaction in a window that has not read the index since another window deleted a conversation does not bring it back, nor undo a rename', async () => {
    const A = windowOn();
    const secret = A.newConversation();
    await turn(A, secret, 'my diagnosis is X, what should I tell my employer?');
    const other = A.newConversation();
    await turn(A, other, 'another question');
    const chat = A.newConversation();
    appendMessage(chat, 'user', 'an ordinary question');
    await A.save(chat);
    await A.list(); // History opened once in A
    const B = windowOn();
    await B.list();
    await B.remove(secret.id);
    await B.rename(other.id, 'Renamed in window B');
    await B.flush();
    // Window A keeps chatting, History closed, until it compacts the index.
    const before = (await stat(indexFile())).size;
    for (let i = 0; i < 120; i++) {
      appendMessage(chat, 'assistant', `reply ${i}`);
      appendMessage(chat, 'user', `question ${i + 1}`);
      await A.save(chat);
    }
    await A.flush();
    assert.ok((await stat(indexFile())).size < before + 120 * 100, 'the index was compacted');
    const text = await readFile(indexFile(), 'utf8');
    assert.equal(text.includes(secret.id), false, 'the deleted conversation is not in the index file');
    const C = windowOn();
    const listed = await C.list();
    assert.equal(listed.some((c) => c.id === secret.id), false, 'a new window does not list it');
    assert.equal(listed.find((c) => c.id === other.id)?.title, 'Renamed in window B', 'the rename stays');
    assert.equal((await A.list()).some((c) => c.id === secret.id), false, 'nor does window A');
  });

  it("P3: a deleted conversation's words do not come back into the search index from a window that searched before the delete", async () => {
    const A = windowOn({ searchPersistDelayMs: 0 });
    await A.catchUpSearch();
    const c = A.newConversation();
    await turn(A, c, 'my database password is Zebra7Pelican42, fix the config');
    const chat = A.newConversation();
    appendMessage(chat, 'user', 'ordinary question');
    await A.save(chat);
    await A.flush();
    assert.equal((await A.search('Zebra7Pelican42')).length, 1);
    const B = windowOn({ searchPersistDelayMs: 0 });
    await B.catchUpSearch();
    await B.remove(c.id);
    await B.flush();
    const searchFile = join(dir, 'conversations', '_search.json');
    assert.equal((await readFile(searchFile, 'utf8')).includes('zebra7pelican42'), false);
    appendMessage(chat, 'assistant', 'an answer in window A');
    await A.save(chat);
    await A.flush();
    assert.equal((await readFile(searchFile, 'utf8')).includes('zebra7pelican42'), false, 'window A does not write its words back');
    assert.equal((await A.search('Zebra7Pelican42')).length, 0, 'window A does not find it');
    assert.equal((await windowOn().search('Zebra7Pelican42')).length, 0, 'a new window does not find it');
  });

  const damages: Array<[string, (text: string, size: number) => string | Buffer]> = [
    ['a file of NULs (a power loss)', (_text, size) => Buffer.alloc(size)],
    ['every line cut short (a crash)', (text) => text.split('\n').map((l) => l.slice(0, Math.max(0, l.length - 3))).join('\n')],
    ['written by another version (a field of another type)', (text) => text.replace(/"messageCount":2/g, '"messageCount":"2"')],
    ['written by another version (its version line)', (text) => '{"index":99}\n' + text],
  ];
  for (const [what, damage] of damages) {
    it(`P6: an index that cannot be used, ${what}, is rebuilt from the logs: History lists every conversation`, async () => {
      const A = windowOn();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const c = A.newConversation();
        await turn(A, c, `question ${i}`);
        ids.push(c.id);
      }
      await A.flush();
      const text = await readFile(indexFile(), 'utf8');
      await writeFile(indexFile(), damage(text, Buffer.byteLength(text)));
      const B = windowOn();
      assert.deepEqual((await B.list()).map((c) => c.id).sort(), [...ids].sort());
      // The rebuilt index is written: a third window lists them from it.
      assert.deepEqual((await windowOn().list()).map((c) => c.id).sort(), [...ids].sort());
    });
  }

  it('P6: a damaged index of many conversations is rebuilt in the background, History saying so meanwhile, then lists them all', async () => {
    const A = windowOn();
    for (let i = 0; i < 8; i++) await turn(A, A.newConversation(), `question ${i}`);
    await A.flush();
    const size = (await stat(indexFile())).size;
    await writeFile(indexFile(), Buffer.alloc(size));
    const B = windowOn({ rebuildInlineUpTo: 2 });
    const progress: boolean[] = [];
    B.onSearchProgress((p) => progress.push(p.building));
    await B.list();
    assert.equal(B.listingPartial || progress.includes(true), true, 'History shows it is rebuilding');
    while (B.listingPartial) await new Promise<void>((resolve) => B.onSearchProgress((p) => !p.building && resolve()));
    assert.equal((await B.list()).length, 8);
  });
});
