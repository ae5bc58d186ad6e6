// A reply's changes across files: a reply whose code blocks replace 50 files of 2,000 lines each,
// on a real disk, through core/changes with the extension's own storage (ChangeStorage) and a
// plain file-system port (the extension's port writes through VS Code's WorkspaceEdit instead):
//   reviewMs    Apply All's review: every file read, the blocks applied, the lines counted
//   keepMs      Keep All: the files checked unchanged, their previous contents kept by hash, the
//               journal appended, the 50 files written
//   undoMs      Undo this reply: the journal read, each file checked, the 50 previous contents
//               written back
//   redoMs      Redo: the same the other way
// each the median of 5 runs, and the space the kept copies take against the distinct previous
// contents. Then the same in a workspace that also holds 100,000 other files: the time to keep the
// previous contents must not depend on the workspace's size (only the files applied are read).
// Run: npm run bench:changes
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { keepChanges, reviewReply, turnChanges, type ChangesPorts } from '../../src/core';
import { ChangeStorage } from '../../src/extension/changes/changeStorage';
import { diskChangeFiles } from '../../test/support/diskChangeFiles';

const FILES = 50;
const LINES = 2000;
const RUNS = 5;
const OTHERS = 100_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

function fileText(i: number, version: string): string {
  const lines: string[] = [];
  for (let l = 0; l < LINES; l++) lines.push(`export const value${i}_${l} = "${version} line ${l} of file ${i}";`);
  return lines.join('\n') + '\n';
}

async function run(others: number): Promise<Record<string, number>> {
  const root = await mkdtemp(join(tmpdir(), 'aichat-changes-bench-'));
  try {
    const ws = join(root, 'ws');
    await mkdir(join(ws, 'src'), { recursive: true });
    for (let i = 0; i < FILES; i++) await writeFile(join(ws, 'src', `file${i}.ts`), fileText(i, 'before'));
    // Other files of the workspace, in folders of 1,000: never read by Apply All.
    for (let d = 0; d < others / 1000; d++) {
      const dir = join(ws, 'other', `d${d}`);
      await mkdir(dir, { recursive: true });
      await Promise.all(Array.from({ length: 1000 }, (_, f) => writeFile(join(dir, `f${f}.ts`), `export const x${f} = ${f};\n`)));
    }
    const reply = Array.from({ length: FILES }, (_, i) => '```ts src/file' + i + '.ts\n' + fileText(i, 'after') + '```').join('\n\n');
    const figures = { reviewMs: [] as number[], keepMs: [] as number[], undoMs: [] as number[], redoMs: [] as number[] };
    let storage = new ChangeStorage(join(root, 'store'));
    let distinct = 0;
    for (let r = 0; r < RUNS; r++) {
      storage = new ChangeStorage(join(root, `store${r}`));
      const ports: ChangesPorts = { files: diskChangeFiles(ws), copies: storage, journal: storage, now: () => Date.now() };
      let t = performance.now();
      const review = await reviewReply(reply, ports.files);
      figures.reviewMs.push(performance.now() - t);
      if (review.files.length !== FILES) throw new Error(`the review has ${review.files.length} files`);
      distinct = review.files.reduce((sum, f) => sum + (f.before?.length ?? 0) + f.after.length, 0);
      t = performance.now();
      const kept = await keepChanges(review.files, { conversationId: 'bench', messageId: 'msg_a02' }, ports);
      figures.keepMs.push(performance.now() - t);
      if (!kept.ok) throw new Error(`Keep failed: ${kept.reason}`);
      t = performance.now();
      const undo = await turnChanges(kept.set.id, 'undone', ports);
      figures.undoMs.push(performance.now() - t);
      t = performance.now();
      const redo = await turnChanges(kept.set.id, 'applied', ports);
      figures.redoMs.push(performance.now() - t);
      if (!undo.ok || !redo.ok) throw new Error('Undo or Redo failed');
      // Back to the previous contents for the next run.
      if (!(await turnChanges(kept.set.id, 'undone', ports)).ok) throw new Error('Undo failed');
    }
    return {
      reviewMs: round(median(figures.reviewMs)),
      keepMs: round(median(figures.keepMs)),
      undoMs: round(median(figures.undoMs)),
      redoMs: round(median(figures.redoMs)),
      storedKB: Math.round((await storage.used()) / 1024),
      distinctKB: Math.round(distinct / 1024),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`A reply changing ${FILES} files of ${LINES} lines: medians of ${RUNS} runs (goal: each step ≤ 1000 ms; kept copies ≤ the distinct contents)`);
  const small = await run(0);
  console.log('  workspace of the 50 files only:', JSON.stringify(small));
  const large = await run(OTHERS);
  console.log(`  workspace with ${OTHERS.toLocaleString('en-US')} other files:`, JSON.stringify(large));
  console.log(`  keepMs with the other files / without: ${(large.keepMs / small.keepMs).toFixed(2)} (goal: within 10 %, i.e. ≤ 1.10 up to this machine's noise)`);
}

void main();
