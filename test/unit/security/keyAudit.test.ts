// The key-leak audit's scanner finds a planted key in every form it is meant to, and nothing
// in a clean tree: the end-to-end audit (journey 99) can only pass because the key is absent.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keysInText, scanForKeys } from '../../e2e/keyAudit';

const KEY = 'sk-demo-0000000000000001';
const OTHER = 'sk-wrong-0000000000000099';

describe('key-leak audit scanner', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'key-audit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function plant(rel: string, data: Buffer | string): void {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, data);
  }

  it('finds nothing in a tree without the key', () => {
    plant('User/settings.json', JSON.stringify({ 'aiChat.baseUrl': 'http://127.0.0.1:8787' }));
    plant('User/globalStorage/state.vscdb', Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 7)]));
    assert.deepEqual(scanForKeys([dir], [KEY, OTHER]), []);
  });

  it('finds a planted key in settings, a log, a SQLite page (UTF-8 and UTF-16) and its WAL, nested storage and base64', () => {
    const page = (text: Buffer) => Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(100, 1), text, Buffer.alloc(300, 0)]);
    const be = Buffer.from(KEY, 'utf16le');
    be.swap16();
    plant('User/settings.json', JSON.stringify({ 'aiChat.apiKey': KEY }));
    plant('logs/20261122/exthost1/output_logging/1-AI Chat.log', `x-api-key: ${KEY}\n`);
    plant('User/globalStorage/state.vscdb', page(Buffer.from(KEY, 'utf16le')));
    plant('User/workspaceStorage/abc/state.vscdb-wal', page(Buffer.from(`{"k":"${KEY}"}`)));
    plant('User/globalStorage/ext/conversations/x.jsonl', be);
    plant('exported.md', `token ${Buffer.from(`Bearer:${KEY}`).toString('base64')}`);
    plant('a/b/c/d/e/deep.bin', Buffer.concat([Buffer.alloc(70_000, 1), Buffer.from(KEY), Buffer.alloc(10, 2)]));
    const hits = scanForKeys([dir], [KEY, OTHER]);
    const byFile = new Map(hits.map((h) => [path.relative(dir, h.file), h.encoding]));
    assert.equal(byFile.get('User/settings.json'), 'utf8');
    assert.equal(byFile.get('logs/20261122/exthost1/output_logging/1-AI Chat.log'), 'utf8');
    assert.equal(byFile.get('User/globalStorage/state.vscdb'), 'utf16le');
    assert.equal(byFile.get('User/workspaceStorage/abc/state.vscdb-wal'), 'utf8');
    assert.equal(byFile.get('User/globalStorage/ext/conversations/x.jsonl'), 'utf16be');
    assert.equal(byFile.get('exported.md'), 'base64');
    assert.equal(byFile.get('a/b/c/d/e/deep.bin'), 'utf8');
    assert.equal(byFile.size, 7);
    assert.ok(hits.every((h) => h.key === KEY), 'the other key is not reported');
  });

  it('finds base64 of the key at every alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      plant(`b64-${prefix.length}.txt`, Buffer.from(prefix + KEY + '!').toString('base64'));
    }
    const files = new Set(scanForKeys([dir], [KEY]).map((h) => path.basename(h.file)));
    assert.deepEqual([...files].sort(), ['b64-0.txt', 'b64-1.txt', 'b64-2.txt', 'b64-3.txt']);
  });

  it('finds the key in page text (a webview frame, an input value), plain or base64', () => {
    assert.deepEqual(keysInText(`<input value="${KEY}">`, [KEY, OTHER]), [KEY]);
    assert.deepEqual(keysInText(`data:text/plain;base64,${Buffer.from(OTHER).toString('base64')}`, [KEY, OTHER]), [OTHER]);
    assert.deepEqual(keysInText('<p>nothing here</p>', [KEY, OTHER]), []);
  });
});
