// The codebase index's worker thread (worker.ts, dist/codebaseWorker.js in the extension): its
// messages in order: the build, a change, a deletion, searches answered from what is indexed.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FromWorker, RootMatch, ToWorker } from '../../../../src/core/codebase';

describe('codebase index: the worker thread', function () {
  this.timeout(60_000);
  let dir = '';
  let worker: Worker | undefined;
  const received: FromWorker[] = [];

  /** The next message of this type (already received or to come). */
  function next<T extends FromWorker['type']>(type: T, after = 0): Promise<Extract<FromWorker, { type: T }>> {
    return new Promise((resolve) => {
      const look = () => {
        const found = received.slice(after).find((m) => m.type === type);
        if (found) {
          worker?.off('message', look);
          resolve(found as Extract<FromWorker, { type: T }>);
        }
      };
      worker?.on('message', look);
      look();
    });
  }
  const send = (message: ToWorker) => worker?.postMessage(message);
  let searches = 0;
  async function search(question: string): Promise<RootMatch[]> {
    const id = ++searches;
    const at = received.length;
    send({ type: 'search', id, question, limit: 10 });
    for (;;) {
      const m = await next('results', at);
      if (m.id === id) return m.matches;
    }
  }
  async function settled(message: ToWorker): Promise<void> {
    const at = received.length;
    send(message);
    await next('idle', at);
  }

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'codebase-worker-'));
    mkdirSync(join(dir, 'ws', 'src'), { recursive: true });
    writeFileSync(join(dir, 'ws', 'src', 'retry.ts'), 'export function retryFailedRequest() {}\n');
    writeFileSync(join(dir, 'ws', 'src', 'pool.ts'), 'export class ConnectionPool {}\n');
    // The worker's TypeScript is run through tsx's require hook, as the tests are.
    const file = join(__dirname, '../../../../src/core/codebase/worker.ts');
    worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true });
    worker.on('message', (m: FromWorker) => received.push(m));
  });
  after(async () => {
    await worker?.terminate();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds, answers, follows a change and a deletion, and saves', async () => {
    send({ type: 'start', roots: [{ path: join(dir, 'ws'), excludes: [], storageFile: join(dir, 'store', 'a.idx') }] });
    const ready = await next('ready');
    assert.equal(ready.files, 2);
    assert.deepEqual((await search('retry failed request')).map((m) => [m.root, m.path]), [[0, 'src/retry.ts']]);

    writeFileSync(join(dir, 'ws', 'src', 'pool.ts'), 'export class ConnectionPool {\n  drainIdleSockets() {\n  }\n}\n');
    await settled({ type: 'changed', root: 0, path: 'src/pool.ts' });
    assert.equal((await search('drain idle sockets'))[0]?.path, 'src/pool.ts');

    rmSync(join(dir, 'ws', 'src', 'retry.ts'));
    await settled({ type: 'deleted', root: 0, path: 'src/retry.ts' });
    assert.deepEqual(await search('retry failed request'), []);

    // The names defined, for the # menu.
    const asked = received.length;
    send({ type: 'names', id: 99, query: 'drain', limit: 5 });
    const names = await next('names', asked);
    assert.deepEqual(names.type === 'names' ? names.hits : [], [{ root: 0, path: 'src/pool.ts', name: 'drainIdleSockets', line: 2 }]);

    const at = received.length;
    send({ type: 'save' });
    await next('saved', at);
    assert.ok(!received.some((m) => m.type === 'error'), JSON.stringify(received.filter((m) => m.type === 'error')));
  });
});
