import { strict as assert } from 'node:assert';
import { pathToFileURL } from 'node:url';
import { MAX_DROPPED_URIS, carriesFiles, droppedUris, parseWebviewMessage, pathToFileUri } from '../../../src/protocol';

/** A drop's data as the DOM gives it: lower-case types, getData per type. */
function drop(data: Record<string, string>) {
  const types = Object.keys(data).map((t) => t.toLowerCase());
  return droppedUris((t) => data[t] ?? data[Object.keys(data).find((k) => k.toLowerCase() === t) ?? ''] ?? '', types);
}

describe('protocol: files dropped on the chat', () => {
  it('knows a file drag from its types alone (the data is unreadable while dragging)', () => {
    assert.equal(carriesFiles(['text/plain', 'application/vnd.code.uri-list']), true);
    assert.equal(carriesFiles(['ResourceURLs']), true);
    assert.equal(carriesFiles(['Files']), true);
    assert.equal(carriesFiles(['text/plain', 'text/html']), false);
    assert.equal(carriesFiles([]), false);
  });

  it('reads every file of an Explorer drag from the full list, not the one-entry text/uri-list', () => {
    const r = drop({
      'application/vnd.code.uri-list': 'file:///work/a.ts\r\nfile:///work/b%20c.ts\r\nvscode-remote://ssh-remote%2Bbox/home/u/d.py',
      'text/uri-list': 'file:///work/a.ts',
      'text/plain': '/work/a.ts',
    });
    assert.deepEqual(r.uris, ['file:///work/a.ts', 'file:///work/b%20c.ts', 'vscode-remote://ssh-remote%2Bbox/home/u/d.py']);
    assert.equal(r.dropped, 3);
  });

  it('falls back to resourceurls, then text/uri-list (comments skipped), then codefiles paths', () => {
    assert.deepEqual(drop({ resourceurls: JSON.stringify(['file:///x/1.ts', 'file:///x/2.ts']) }).uris, ['file:///x/1.ts', 'file:///x/2.ts']);
    assert.deepEqual(drop({ 'text/uri-list': '# a comment\r\nfile:///x/3.ts\r\n' }).uris, ['file:///x/3.ts']);
    assert.deepEqual(drop({ codefiles: JSON.stringify(['/home/u/my file.ts', 'C:\\src\\w.ts', 'relative.ts']) }).uris, [
      'file:///home/u/my%20file.ts',
      'file:///C:/src/w.ts',
    ]);
  });

  it('ignores damaged data, duplicates, text without a scheme and overlong entries, and cuts at the limit', () => {
    assert.deepEqual(drop({ resourceurls: '{not json', 'text/uri-list': 'not a uri\r\nfile:///ok.ts\r\nfile:///ok.ts' }).uris, ['file:///ok.ts']);
    assert.deepEqual(drop({ resourceurls: JSON.stringify([42, null, 'file:///n.ts']) }).uris, ['file:///n.ts']);
    assert.deepEqual(drop({ 'text/uri-list': `file:///${'a'.repeat(5000)}` }).uris, []);
    const many = Array.from({ length: 120 }, (_, i) => `file:///w/f${i}.ts`).join('\r\n');
    const r = drop({ 'application/vnd.code.uri-list': many });
    assert.equal(r.uris.length, MAX_DROPPED_URIS);
    assert.equal(r.dropped, 120);
    assert.equal(r.uris[0], 'file:///w/f0.ts');
  });

  it('a drop message is checked at the boundary: count, length and numbers', () => {
    assert.equal(parseWebviewMessage({ type: 'dropUris', uris: ['file:///a.ts'], total: 1, outsideFiles: 0 }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'dropUris', uris: Array(MAX_DROPPED_URIS + 1).fill('file:///a.ts'), total: 51, outsideFiles: 0 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'dropUris', uris: [''], total: 1, outsideFiles: 0 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'dropUris', uris: [], total: -1, outsideFiles: 0 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'dropUris', uris: [], total: 0 }).ok, false);
  });
});

describe('protocol: dropped paths become file URIs as node\'s pathToFileURL makes them', () => {
  it('#, ? and % in a name stay in the name (the probe\'s paths)', () => {
    const r = drop({ codefiles: JSON.stringify(['/home/u/notes#2024.md', '/home/u/what?.txt', 'C:\\Users\\u\\a#b.ts', '/home/u/100%.txt']) });
    assert.deepEqual(r.uris, ['file:///home/u/notes%232024.md', 'file:///home/u/what%3F.txt', 'file:///C:/Users/u/a%23b.ts', 'file:///home/u/100%25.txt']);
    const paths = r.uris.map((u) => new URL(u)).map((u) => [decodeURIComponent(u.pathname), u.hash, u.search]);
    assert.deepEqual(paths, [
      ['/home/u/notes#2024.md', '', ''],
      ['/home/u/what?.txt', '', ''],
      ['/C:/Users/u/a#b.ts', '', ''],
      ['/home/u/100%.txt', '', ''],
    ]);
  });

  it('equals pathToFileURL for names with every printable ASCII character, spaces and non-ASCII', () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => c !== '/' && c !== '\\').join('');
    const names = [ascii, 'my file.ts', 'café ✓ 🚀.md', 'a[1]{2}^|`.txt', "it's (a) $test&=+,;@!~*.js"];
    for (const name of names) {
      assert.equal(pathToFileUri(`/home/u/${name}`), pathToFileURL(`/home/u/${name}`).href, name);
      assert.equal(pathToFileUri(`C:\\Users\\u\\${name}`), pathToFileURL(`C:\\Users\\u\\${name}`, { windows: true }).href, `windows ${name}`);
    }
    assert.equal(pathToFileUri('relative/x.ts'), undefined);
    assert.equal(pathToFileUri('/bad\ud800.ts'), undefined);
  });
});
