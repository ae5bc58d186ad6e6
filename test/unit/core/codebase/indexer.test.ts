// A workspace folder's index on disk: which files are read (ignore files, exclude globs, secret
// names, binaries, large files), saves, deletions and renames, the index kept between sessions,
// and nothing sent anywhere while it is built and searched.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
// The modules' own objects (a namespace import's properties cannot be replaced).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CodebaseIndexer, EASE_AFTER_REST_MS, ExcludeGlobs, idleAfterSlice, IgnoreRules, MAX_INDEXED_BYTES, looksBinary, neverIndexed, parseGitignore } from '../../../../src/core/codebase';

function write(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

describe('codebase index: which files are read', () => {
  it('reads .gitignore as git does: anchoring, folders only, negation, **, comments, escapes', () => {
    const rules = new IgnoreRules();
    rules.add('', '# comment\n*.log\n!keep.log\n/build\ndist/\ndocs/**/draft.md\n\\#hash.txt\ntrailing.txt   \n');
    rules.add('pkg', 'local.ts\n');
    const ignored = (p: string, dir = false) => rules.ignores(p, dir);
    assert.ok(ignored('a.log') && ignored('deep/x/a.log'));
    assert.ok(!ignored('keep.log'), 'negated');
    assert.ok(ignored('build', true) && !ignored('src/build', true), 'anchored at the root');
    assert.ok(ignored('dist', true) && ignored('src/dist', true) && !ignored('dist', false), 'folders only');
    assert.ok(ignored('docs/a/b/draft.md') && !ignored('draft.md'));
    assert.ok(ignored('#hash.txt') && ignored('trailing.txt'));
    assert.ok(ignored('pkg/local.ts') && ignored('pkg/sub/local.ts') && !ignored('local.ts'), 'a folder\'s file rules only under it');
    assert.ok(rules.ignoresFile('build/out.js') && rules.ignoresFile('src/dist/x.js') && !rules.ignoresFile('src/x.js'), 'through a folder');
    assert.deepEqual(parseGitignore('\n# only a comment\n   \n'), []);
  });

  it('exclude globs (files.exclude, search.exclude) leave out a path or anything under a matching folder', () => {
    const globs = new ExcludeGlobs(['**/node_modules', '**/*.snap', 'out/**']);
    assert.ok(globs.excludes('node_modules/a/index.js') && globs.excludes('pkg/node_modules/x.ts'));
    assert.ok(globs.excludes('test/__snapshots__/a.snap') && globs.excludes('out/x/y.js'));
    assert.ok(!globs.excludes('src/index.ts'));
  });

  it('never reads names of secrets, binaries by extension, lock files or minified files', () => {
    for (const p of ['.env', 'config/.env.local', 'certs/server.pem', 'deploy/id_rsa', '.ssh/config', '.git/config', 'src/secrets.json', 'img/logo.png', 'package-lock.json', 'vendor/jquery.min.js']) {
      assert.ok(neverIndexed(p), p);
    }
    for (const p of ['src/index.ts', 'README.md', 'lib/retry.js']) assert.ok(!neverIndexed(p), p);
    assert.ok(looksBinary(new Uint8Array([0x50, 0x4b, 0x00, 0x01])));
    assert.ok(!looksBinary(new TextEncoder().encode('plain text')));
  });
});

describe('codebase index: a workspace folder', () => {
  let root = '';
  let store = '';
  beforeEach(() => {
    const dir = mkdtempSync(join(tmpdir(), 'codebase-ws-'));
    root = join(dir, 'ws');
    store = join(dir, 'storage', 'codebase.idx');
    write(root, {
      '.gitignore': 'generated/\n*.tmp\n',
      'src/retry.ts': 'export function retryFailedRequest() {}\n',
      'src/client.ts': 'export class HttpClient {}\n',
      'generated/retry.ts': 'export function retryFailedRequest() {}\n',
      'notes.tmp': 'retryFailedRequest\n',
      'out/retry.js': 'function retryFailedRequest() {}\n',
      '.env': 'RETRY_FAILED_REQUEST_TOKEN=abc\n',
      'src/apiKey.ts': 'export const retryFailedRequestKey = 1;\n',
      'assets/blob.dat.txt': new Uint8Array([114, 101, 116, 114, 121, 0, 1, 2]),
      'big/large.ts': `export function retryFailedRequest() {}\n${'x'.repeat(MAX_INDEXED_BYTES)}`,
    });
  });
  afterEach(() => rmSync(dirname(root), { recursive: true, force: true }));

  const paths = (ix: CodebaseIndexer, q = 'retryFailedRequest') => ix.search(q, 50).map((m) => m.path).sort();

  it('indexes only what the rules allow: not ignored, excluded, secret, binary or large files', async () => {
    const ix = new CodebaseIndexer({ root, excludes: ['out/**'], storageFile: store });
    const report = await ix.build();
    assert.deepEqual(paths(ix), ['src/retry.ts']);
    assert.deepEqual([...ix.index.files.keys()].sort(), ['.gitignore', 'src/client.ts', 'src/retry.ts']);
    assert.equal(report.fromDisk, false);
  });

  it('a saved file is searchable by its new text; a deleted one and a renamed one leave no stale entry', async () => {
    const ix = new CodebaseIndexer({ root, excludes: ['out/**'] });
    await ix.build();
    writeFileSync(join(root, 'src/client.ts'), 'export class HttpClient {\n  backoffWithJitter() {\n  }\n}\n');
    await ix.changed('src/client.ts');
    assert.deepEqual(paths(ix, 'backoffWithJitter'), ['src/client.ts']);
    renameSync(join(root, 'src/retry.ts'), join(root, 'src/again.ts'));
    ix.deleted('src/retry.ts');
    await ix.changed('src/again.ts');
    assert.ok(paths(ix).includes('src/again.ts') && !paths(ix).includes('src/retry.ts'));
    rmSync(join(root, 'src'), { recursive: true });
    ix.deleted('src');
    assert.deepEqual(paths(ix), []);
    assert.deepEqual([...ix.index.files.keys()], ['.gitignore']);
  });

  it('while the user types (a rest), the build reads no file; a later key moves the end; it goes on when the rest ends, or stops when disposed', async () => {
    const untilResting = async (ix: CodebaseIndexer) => {
      while (!ix.resting) await new Promise((resolve) => setImmediate(resolve));
    };
    const ix = new CodebaseIndexer({ root, excludes: ['out/**'] });
    ix.rest(3_600_000);
    const building = ix.build();
    await untilResting(ix);
    assert.equal(ix.index.fileCount, 0, 'a file was read during the rest');
    ix.rest(3_600_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(ix.resting && ix.index.fileCount === 0, 'a second key ended the rest');
    ix.rest(0);
    await building;
    assert.deepEqual(paths(ix), ['src/retry.ts']);

    const stopped = new CodebaseIndexer({ root, excludes: ['out/**'] });
    stopped.rest(3_600_000);
    const stopping = stopped.build();
    await untilResting(stopped);
    stopped.dispose();
    const report = await stopping;
    assert.equal(report.files, 0, 'a disposed build read on');
  });

  it('after a rest the build eases back: idle as long as each slice of work, for a while; never when the user has not typed', () => {
    assert.equal(idleAfterSlice(6, 50_000, 0), 0, 'no rest yet: no idling');
    assert.equal(idleAfterSlice(6, 50_000, 49_000), 6, 'a second after a rest: idle as long as the slice');
    assert.equal(idleAfterSlice(6, 50_000, 50_500), 6, 'a key during the slice (the rest ends later): idle too');
    assert.equal(idleAfterSlice(6, 50_000, 50_000 - EASE_AFTER_REST_MS), 0, 'the easing is over');
    assert.equal(idleAfterSlice(-1, 50_000, 49_000), 0);
  });

  it('a change to .gitignore, or a file the rules refuse, is followed', async () => {
    const ix = new CodebaseIndexer({ root, excludes: ['out/**'] });
    await ix.build();
    await ix.changed('notes.tmp');
    assert.deepEqual(paths(ix), ['src/retry.ts'], 'an ignored file reported by the watcher is not read');
    writeFileSync(join(root, '.gitignore'), '*.tmp\n');
    await ix.changed('.gitignore');
    assert.deepEqual(paths(ix), ['generated/retry.ts', 'src/retry.ts']);
  });

  it('reopened: the saved index is read and only what changed meanwhile is read again; a torn one is rebuilt', async () => {
    // (A binary file is looked at again at each start: none here.)
    rmSync(join(root, 'assets'), { recursive: true });
    const first = new CodebaseIndexer({ root, excludes: ['out/**'], storageFile: store });
    await first.build();
    writeFileSync(join(root, 'src/new.ts'), 'export function retryFailedRequest() {}\n');
    const second = new CodebaseIndexer({ root, excludes: ['out/**'], storageFile: store });
    const report = await second.build();
    assert.equal(report.fromDisk, true);
    assert.equal(report.read, 1);
    assert.deepEqual(paths(second), ['src/new.ts', 'src/retry.ts']);
    writeFileSync(store, 'torn');
    const third = new CodebaseIndexer({ root, excludes: ['out/**'], storageFile: store });
    const rebuilt = await third.build();
    assert.equal(rebuilt.fromDisk, false);
    assert.deepEqual(paths(third), ['src/new.ts', 'src/retry.ts']);
  });

  it('opens no connection and looks up no name while building, updating and searching', async () => {
    const attempts: string[] = [];
    const originals = {
      connect: Reflect.get(net.Socket.prototype, 'connect') as unknown,
      lookup: dns.lookup,
      promisesLookup: dns.promises.lookup,
      httpRequest: http.request,
      httpsRequest: https.request,
      fetch: globalThis.fetch,
    };
    const record = (what: string) =>
      function (this: unknown, ...args: unknown[]): never {
        attempts.push(`${what} ${JSON.stringify(args[0] ?? '')}`);
        throw new Error(`outbound ${what} during indexing`);
      };
    net.Socket.prototype.connect = record('socket.connect');
    (dns as { lookup: unknown }).lookup = record('dns.lookup');
    (dns.promises as { lookup: unknown }).lookup = record('dns.promises.lookup');
    (http as { request: unknown }).request = record('http.request');
    (https as { request: unknown }).request = record('https.request');
    globalThis.fetch = record('fetch');
    try {
      const ix = new CodebaseIndexer({ root, excludes: [], storageFile: store });
      await ix.build();
      writeFileSync(join(root, 'src/client.ts'), 'export class HttpClient { fetchWithRetry() {} }\n');
      await ix.changed('src/client.ts');
      ix.deleted('src/retry.ts');
      ix.search('where is the retry of a failed request handled?');
      await ix.save();
      const again = new CodebaseIndexer({ root, excludes: [], storageFile: store });
      await again.build();
      again.search('fetch with retry');
    } finally {
      Reflect.set(net.Socket.prototype, 'connect', originals.connect);
      (dns as { lookup: unknown }).lookup = originals.lookup;
      (dns.promises as { lookup: unknown }).lookup = originals.promisesLookup;
      (http as { request: unknown }).request = originals.httpRequest;
      (https as { request: unknown }).request = originals.httpsRequest;
      globalThis.fetch = originals.fetch;
    }
    assert.deepEqual(attempts, []);
  });
});
