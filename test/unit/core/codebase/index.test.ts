// The codebase index: ranking, files added, replaced and removed, and the index on disk.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CodebaseIndex, INDEX_FORMAT_VERSION, deserializeIndex, loadIndex, saveIndex, serializeIndex } from '../../../../src/core/codebase';

const filler = (n: number) => Array.from({ length: n }, (_, k) => `const value${k} = compute(${k});`).join('\n');

function sample(): CodebaseIndex {
  const index = new CodebaseIndex();
  index.update('src/net/client.ts', `import { retryRequest } from './policy';\n${filler(20)}\nexport async function send(req) {\n  return retryRequest(req, 3);\n}\n`);
  index.update('src/net/policy.ts', `${filler(20)}\nexport function retryRequest(req, times) {\n  for (let k = 0; k < times; k++) {}\n}\n`);
  index.update('src/ui/button.ts', `export class Button {\n  render() {}\n}\n${filler(10)}\n`);
  index.update('docs/notes.md', 'Some notes about the button and the theme.\n');
  return index;
}

describe('codebase index: ranking and updates', () => {
  it('ranks the file that defines a name above the one that only calls it', () => {
    const found = sample().search('where is retryRequest?');
    assert.equal(found[0]?.path, 'src/net/policy.ts');
    assert.ok(found.some((m) => m.path === 'src/net/client.ts'), 'the caller is found too, below');
    assert.deepEqual(found[0].defines, ['retryRequest']);
  });

  it('gives the best chunk\'s lines and why', () => {
    const index = new CodebaseIndex();
    index.update('big.ts', `${filler(130)}\nexport function handleTimeout() {}\n${filler(50)}`);
    const [match] = index.search('handled timeouts');
    assert.equal(match.path, 'big.ts');
    assert.deepEqual([match.start, match.end], [121, 180]);
    assert.deepEqual(match.defines, ['handleTimeout']);
    assert.deepEqual(match.mentions, ['handled', 'timeouts'], 'the words as the question wrote them');
  });

  it('the names defined that start with a word, then those holding it, each with its file and line (the # menu\'s quick symbols)', () => {
    const index = sample();
    index.update('src/net/retryPolicy.ts', 'export class RetryBudget {}\nexport function shouldRetry() {}\n');
    assert.deepEqual(index.names('retry'), [
      { path: 'src/net/retryPolicy.ts', name: 'RetryBudget', line: 1 },
      { path: 'src/net/policy.ts', name: 'retryRequest', line: 21 },
      { path: 'src/net/retryPolicy.ts', name: 'shouldRetry', line: 2 },
    ]);
    assert.deepEqual(index.names('BUTTON').map((n) => n.name), ['Button'], 'case ignored');
    index.update('src/billing/api.ts', 'export class BillingApiClient {}\nexport function retry_budget_left() {}\n');
    assert.deepEqual(index.names('billing-api').map((n) => n.name), ['BillingApiClient'], 'a word with separators finds the name without them');
    assert.deepEqual(index.names('retry-budget').map((n) => n.name), ['RetryBudget', 'retry_budget_left'], 'and a snake_case name');
    assert.deepEqual(index.names('retrybudget').map((n) => n.name), ['RetryBudget'], 'a word without separators matches as written');
    index.remove('src/billing/api.ts');
    assert.deepEqual(index.names(''), []);
    assert.equal(index.names('retry', 1).length, 1);
    index.remove('src/net/retryPolicy.ts');
    assert.deepEqual(index.names('retry').map((n) => n.name), ['retryRequest'], 'a file removed takes its names');
  });

  it('counts the path: a question that names the file\'s name finds it', () => {
    const found = sample().search('button');
    assert.equal(found[0]?.path, 'src/ui/button.ts');
    assert.deepEqual(found[0].pathWords, ['button']);
  });

  it('an updated file is found by its new text and no longer by its old', () => {
    const index = sample();
    index.update('src/ui/button.ts', 'export function paintCanvas() {}\n');
    assert.equal(index.search('paintCanvas')[0]?.path, 'src/ui/button.ts');
    assert.ok(!index.search('render Button').some((m) => m.path === 'src/ui/button.ts' && m.defines.length), 'the old definition is gone');
    assert.equal(index.fileCount, 4);
  });

  it('a removed file, or a rename (remove then add), leaves no stale entry', () => {
    const index = sample();
    assert.ok(index.remove('src/net/policy.ts'));
    assert.ok(!index.search('retryRequest').some((m) => m.path === 'src/net/policy.ts'));
    index.update('src/net/retry.ts', 'export function retryRequest() {}\n');
    const found = index.search('retryRequest');
    assert.equal(found[0]?.path, 'src/net/retry.ts');
    assert.deepEqual(found.map((m) => m.path).sort(), ['src/net/client.ts', 'src/net/retry.ts']);
    assert.equal(index.remove('src/net/policy.ts'), false);
  });

  it('many removals are swept from the postings and the ranking stays the same', () => {
    const index = sample();
    for (let k = 0; k < 3000; k++) index.update(`gen/f${k}.ts`, 'export const unrelatedThing = 1;\n');
    for (let k = 0; k < 3000; k++) index.remove(`gen/f${k}.ts`);
    assert.deepEqual(index.search('retryRequest').map((m) => m.path), sample().search('retryRequest').map((m) => m.path));
    assert.deepEqual(index.search('unrelatedThing'), []);
  });
});

describe('codebase index: on disk', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'codebase-index-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back what it wrote: the same files, the same answers', async () => {
    const index = sample();
    index.remove('docs/notes.md');
    const file = join(dir, 'codebase.idx');
    await saveIndex(file, index);
    const back = await loadIndex(file);
    assert.ok(back);
    assert.deepEqual([...back.files.keys()].sort(), [...index.files.keys()].sort());
    for (const q of ['retryRequest', 'button', 'send request', 'compute value']) assert.deepEqual(back.search(q), index.search(q), q);
  });

  it('an index of another version, a torn file or garbage is refused (the caller rebuilds)', async () => {
    const data = serializeIndex(sample());
    const file = join(dir, 'codebase.idx');
    writeFileSync(file, data.subarray(0, Math.floor(data.length / 2)));
    assert.equal(await loadIndex(file), undefined, 'torn');
    writeFileSync(file, 'not an index');
    assert.equal(await loadIndex(file), undefined, 'garbage');
    const header = JSON.stringify({ magic: 'AICHAT-CODEBASE', version: INDEX_FORMAT_VERSION + 1, terms: [], files: [] });
    const size = Buffer.alloc(4);
    size.writeUInt32LE(Buffer.byteLength(header));
    writeFileSync(file, gzipSync(Buffer.concat([size, Buffer.from(header)])));
    assert.equal(await loadIndex(file), undefined, 'another version');
    assert.equal(await loadIndex(join(dir, 'missing.idx')), undefined, 'none');
    assert.throws(() => deserializeIndex(readFileSync(file)));
  });

  it('two writers on one file leave one whole index (each writes its own file, then renames)', async () => {
    const file = join(dir, 'codebase.idx');
    const a = sample();
    const b = sample();
    b.update('extra.ts', 'export function onlyInB() {}\n');
    await Promise.all([saveIndex(file, a), saveIndex(file, b), saveIndex(file, a), saveIndex(file, b)]);
    const back = await loadIndex(file);
    assert.ok(back, 'the file is whole');
    assert.ok([4, 5].includes(back.fileCount));
  });
});
