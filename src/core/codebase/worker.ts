// The codebase index's worker thread: builds and keeps each workspace folder's index (indexer.ts)
// and answers searches, off the extension host's thread. Changes are applied one after another,
// after the first build; a search is answered at once from what is indexed so far.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { CodebaseIndexer } from './indexer';
import type { FromWorker, RootMatch, ToWorker } from './workerProtocol';

const port = parentPort;

// On Linux a priority set with pid 0 is the calling thread's alone: the index then gives way to
// the extension host's thread (and the editor) when cores are scarce. Elsewhere it would be the
// whole extension host's process, so it is left alone.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Not allowed here: the worker keeps the host's priority.
  }
}
let indexers: CodebaseIndexer[] = [];
/** The build, then each change in order. */
let queue: Promise<void> = Promise.resolve();
let pending = 0;

const post = (message: FromWorker) => port?.postMessage(message);
const fail = (err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) });

function enqueue(work: () => Promise<void>): void {
  pending++;
  queue = queue
    .then(work)
    .catch(fail)
    .finally(() => {
      if (--pending === 0) post({ type: 'idle', files: indexers.reduce((n, ix) => n + ix.index.fileCount, 0) });
    });
}

function handle(message: ToWorker): void {
  switch (message.type) {
    case 'start': {
      for (const ix of indexers) ix.dispose();
      const progress = message.roots.map(() => ({ done: 0, total: 0 }));
      indexers = message.roots.map(
        (root, k) =>
          new CodebaseIndexer({
            root: root.path,
            excludes: root.excludes,
            storageFile: root.storageFile,
            onProgress: (done, total) => {
              progress[k] = { done, total };
              post({ type: 'progress', done: progress.reduce((n, p) => n + p.done, 0), total: progress.reduce((n, p) => n + p.total, 0) });
            },
          }),
      );
      enqueue(async () => {
        const started = performance.now();
        const reports = await Promise.all(indexers.map((ix) => ix.build()));
        post({ type: 'ready', files: reports.reduce((n, r) => n + r.files, 0), ms: performance.now() - started, fromDisk: reports.every((r) => r.fromDisk) });
      });
      return;
    }
    case 'changed':
      enqueue(() => indexers[message.root]?.changed(message.path) ?? Promise.resolve());
      return;
    case 'deleted':
      enqueue(async () => indexers[message.root]?.deleted(message.path));
      return;
    case 'search': {
      const matches: RootMatch[] = indexers
        .flatMap((ix, root) => ix.search(message.question, message.limit).map((m) => ({ ...m, root })))
        .sort((a, b) => b.score - a.score)
        .slice(0, message.limit);
      post({ type: 'results', id: message.id, matches });
      return;
    }
    case 'names': {
      const hits = indexers
        .flatMap((ix, root) => ix.names(message.query, message.limit).map((m) => ({ ...m, root })))
        .sort((a, b) => a.name.length - b.name.length)
        .slice(0, message.limit);
      post({ type: 'names', id: message.id, hits });
      return;
    }
    case 'pause':
      for (const ix of indexers) ix.pause();
      return;
    case 'resume':
      for (const ix of indexers) ix.resume();
      return;
    case 'rest':
      for (const ix of indexers) ix.rest(message.ms);
      return;
    case 'save':
      enqueue(async () => {
        await Promise.all(indexers.map((ix) => ix.save()));
        post({ type: 'saved' });
      });
      return;
  }
}

port?.on('message', (message: ToWorker) => {
  try {
    handle(message);
  } catch (err) {
    fail(err);
  }
});
