// A reply's changes across files on a real disk: Apply All's review, Keep, Undo and Redo byte for
// byte (CRLF, a byte-order mark, no final newline, a new file), all or nothing when a file changed
// since, the journal read again by another window or after a reload, and .git left alone.
import * as assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { keepChanges, repliesOf, reviewReply, turnChanges, type ChangesPorts } from '../../../../src/core';
import { ChangeStorage } from '../../../../src/extension/changes/changeStorage';
import { diskChangeFiles } from '../../../support/diskChangeFiles';

const fence = (path: string, code: string, lang = 'ts') => '```' + `${lang} ${path}\n${code}\n` + '```';

describe('a reply\'s changes across files (core/changes)', () => {
  let root: string;
  let ws: string;
  let store: string;
  let unsaved: Set<string>;
  let now = 1_000;
  const ports = (): ChangesPorts & { files: ReturnType<typeof diskChangeFiles> } => {
    const storage = new ChangeStorage(store);
    return { files: diskChangeFiles(ws, unsaved), copies: storage, journal: storage, now: () => ++now };
  };
  const bytes = (p: string) => readFile(join(ws, p));
  const exists = (p: string) => stat(join(ws, p)).then(() => true, () => false);
  const uriOf = (p: string) => pathToFileURL(join(ws, p)).toString();

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'changes-'));
    ws = join(root, 'ws');
    store = join(root, 'store');
    await mkdir(join(ws, 'src'), { recursive: true });
    unsaved = new Set();
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** Three files of every shape: CRLF with a mark, LF without a final newline, and a new one. */
  async function threeFiles() {
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const a = 1;\r\nexport const b = 2;\r\n')]);
    const noEol = Buffer.from('line one\nline two');
    await writeFile(join(ws, 'src/a.ts'), crlf);
    await writeFile(join(ws, 'notes.txt'), noEol);
    const reply = [
      'Here are the changes:',
      fence('src/a.ts', 'export const a = 10;\nexport const b = 20;'),
      fence('notes.txt', 'line one\nline 2', 'text'),
      '1. A new file:',
      '   ' + fence('src/new.ts', 'export {};').replace(/\n/g, '\n   '),
      fence('', 'echo not a file', 'sh'),
    ].join('\n\n');
    return { crlf, noEol, reply };
  }

  it('reviews every named file with its lines, writes nothing, and counts blocks that name none', async () => {
    const { crlf, reply } = await threeFiles();
    const p = ports();
    const review = await reviewReply(reply, p.files);
    assert.deepEqual(review.files.map((f) => f.path), ['src/a.ts', 'notes.txt', 'src/new.ts']);
    assert.equal(review.unnamed, 1);
    assert.deepEqual(review.files.map((f) => [f.added, f.removed]), [[2, 2], [1, 1], [1, 0]]);
    assert.equal(p.files.writes, 0);
    assert.deepEqual(await bytes('src/a.ts'), crlf);
    assert.equal(await exists('src/new.ts'), false);
    // The kept file keeps its mark and its CRLF.
    assert.deepEqual(Buffer.from(review.files[0].after), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const a = 10;\r\nexport const b = 20;\r\n')]));
  });

  it('Keep writes the kept files as one edit; Undo gives every byte back and removes the new file; Redo writes the reply\'s again', async () => {
    const { crlf, noEol, reply } = await threeFiles();
    const p = ports();
    const review = await reviewReply(reply, p.files);
    const kept = await keepChanges(review.files, { conversationId: 'c1', messageId: 'msg_a02' }, p);
    assert.ok(kept.ok);
    assert.equal(p.files.writes, 1);
    const written = [await bytes('src/a.ts'), await bytes('notes.txt'), await bytes('src/new.ts')];
    assert.equal(written[2].toString(), 'export {};\n');
    // Another window (or the same after a reload): a new storage on the same folder.
    const later = ports();
    const undo = await turnChanges(kept.set.id, 'undone', later);
    assert.ok(undo.ok);
    assert.deepEqual(await bytes('src/a.ts'), crlf);
    assert.deepEqual(await bytes('notes.txt'), noEol);
    assert.equal(await exists('src/new.ts'), false);
    assert.equal((await later.journal.entries()).get(kept.set.id)?.state, 'undone');
    const redo = await turnChanges(kept.set.id, 'applied', ports());
    assert.ok(redo.ok);
    assert.deepEqual([await bytes('src/a.ts'), await bytes('notes.txt'), await bytes('src/new.ts')], written);
    assert.equal(repliesOf((await ports().journal.entries()).values(), 'c1').get('msg_a02')?.state, 'applied');
  });

  it('Undo does nothing when a file changed since, on disk or unsaved in an editor, and names it; Restore the Others writes the rest', async () => {
    const { crlf, reply } = await threeFiles();
    const p = ports();
    const kept = await keepChanges((await reviewReply(reply, p.files)).files, { conversationId: 'c1', messageId: 'msg_a02' }, p);
    assert.ok(kept.ok);
    await writeFile(join(ws, 'notes.txt'), 'the user wrote this');
    unsaved.add(uriOf('src/new.ts'));
    const undo = await turnChanges(kept.set.id, 'undone', p);
    assert.equal(undo.ok, false);
    assert.ok(!undo.ok && undo.reason === 'differs');
    assert.deepEqual(!undo.ok && undo.reason === 'differs' ? undo.files.map((f) => f.path).sort() : [], ['notes.txt', 'src/new.ts']);
    assert.notDeepEqual(await bytes('src/a.ts'), crlf, 'nothing restored');
    const others = await turnChanges(kept.set.id, 'undone', p, true);
    assert.ok(others.ok);
    assert.deepEqual(await bytes('src/a.ts'), crlf);
    assert.equal((await bytes('notes.txt')).toString(), 'the user wrote this', 'the user\'s change stays');
    assert.equal(await exists('src/new.ts'), true, 'the file with unsaved work stays');
    // Redo leaves alone what the Undo left alone.
    const redo = await turnChanges(kept.set.id, 'applied', p);
    assert.ok(redo.ok);
    assert.deepEqual(redo.ok && redo.restored, ['src/a.ts']);
    assert.equal((await bytes('notes.txt')).toString(), 'the user wrote this');
  });

  it('Keep writes nothing when a file changed since the review', async () => {
    const { reply } = await threeFiles();
    const p = ports();
    const review = await reviewReply(reply, p.files);
    await writeFile(join(ws, 'notes.txt'), 'changed meanwhile');
    const kept = await keepChanges(review.files, { conversationId: 'c1', messageId: 'msg_a02' }, p);
    assert.deepEqual(kept, { ok: false, reason: 'stale', paths: ['notes.txt'] });
    assert.equal(p.files.writes, 0);
    assert.equal(await exists('src/new.ts'), false);
  });

  it('a write that fails part way (a disk that fills) puts back what it wrote: nothing of the reply stays, and no undo is offered', async () => {
    const { crlf, noEol, reply } = await threeFiles();
    const storage = new ChangeStorage(store);
    const p: ChangesPorts = { files: diskChangeFiles(ws, unsaved, 1), copies: storage, journal: storage, now: () => ++now };
    const review = await reviewReply(reply, p.files);
    const kept = await keepChanges(review.files, { conversationId: 'c1', messageId: 'msg_a02' }, p);
    assert.deepEqual(kept, { ok: false, reason: 'failed' });
    assert.deepEqual(await bytes('src/a.ts'), crlf, 'the file written before the failure is back');
    assert.deepEqual(await bytes('notes.txt'), noEol);
    assert.equal(await exists('src/new.ts'), false);
    assert.equal(repliesOf((await storage.entries()).values(), 'c1').size, 0, 'the failed set is not a reply\'s changes');
  });

  it('two replies on one file: undone newest first both work; the older first is refused (the file is the newer reply\'s)', async () => {
    await writeFile(join(ws, 'src/a.ts'), 'one\n');
    const p = ports();
    const first = await keepChanges((await reviewReply(fence('src/a.ts', 'two'), p.files)).files, { conversationId: 'c1', messageId: 'msg_a02' }, p);
    const second = await keepChanges((await reviewReply(fence('src/a.ts', 'three'), p.files)).files, { conversationId: 'c1', messageId: 'msg_a04' }, p);
    assert.ok(first.ok && second.ok);
    const older = await turnChanges(first.set.id, 'undone', p);
    assert.ok(!older.ok && older.reason === 'differs');
    assert.equal((await bytes('src/a.ts')).toString(), 'three\n');
    assert.ok((await turnChanges(second.set.id, 'undone', p)).ok);
    assert.ok((await turnChanges(first.set.id, 'undone', p)).ok);
    assert.equal((await bytes('src/a.ts')).toString(), 'one\n');
  });

  it('refuses .git, paths out of the folder, binary files and files with unsaved changes; .git is never touched', async () => {
    await mkdir(join(ws, '.git'), { recursive: true });
    await writeFile(join(ws, '.git/config'), '[core]\n');
    await writeFile(join(ws, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    await writeFile(join(ws, 'open.ts'), 'x\n');
    unsaved.add(uriOf('open.ts'));
    const before = (await stat(join(ws, '.git/config'))).mtimeMs;
    const p = ports();
    const review = await reviewReply([fence('.git/config', '[x]'), fence('logo.png', 'png'), fence('open.ts', 'y'), fence('src/ok.ts', 'ok')].join('\n'), p.files);
    assert.deepEqual(review.files.map((f) => f.path), ['src/ok.ts']);
    assert.deepEqual(review.refused.map((r) => r.path), ['.git/config', 'logo.png', 'open.ts']);
    assert.match(review.refused[0].why, /\.git folder/);
    assert.match(review.refused[1].why, /not UTF-8 text/);
    assert.match(review.refused[2].why, /not saved/);
    assert.ok((await keepChanges(review.files, { conversationId: 'c1', messageId: 'msg_a02' }, p)).ok);
    assert.equal((await stat(join(ws, '.git/config'))).mtimeMs, before);
    assert.equal((await readFile(join(ws, '.git/config'), 'utf8')), '[core]\n');
  });

  it('keeps each content once by its hash, lets the oldest replies go past the limit, and their undo then says so', async () => {
    await writeFile(join(ws, 'a.ts'), 'a'.repeat(5000) + '\n');
    const p = ports();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await keepChanges((await reviewReply(fence('a.ts', `v${i}`), p.files)).files, { conversationId: 'c1', messageId: `msg_a0${i}` }, p);
      assert.ok(r.ok);
      ids.push(r.set.id);
    }
    const storage = new ChangeStorage(store);
    // The first set holds the 5 KB original and v0; the later ones only small texts.
    assert.equal((await readdir(join(store, 'copies'))).length, 4);
    // Without the first set, the copies take 9 bytes: only it goes, and the 5 KB original with it.
    assert.deepEqual(await storage.bound(100), [ids[0]]);
    assert.equal((await readdir(join(store, 'copies'))).length, 3);
    const gone = await turnChanges(ids[0], 'undone', p);
    assert.deepEqual(gone, { ok: false, reason: 'gone' });
    assert.ok((await turnChanges(ids[2], 'undone', p)).ok);
    assert.ok((await turnChanges(ids[1], 'undone', p)).ok);
    assert.equal((await bytes('a.ts')).toString(), 'v0\n');
  });
});
