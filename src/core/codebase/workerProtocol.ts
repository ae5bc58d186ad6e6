// The messages between the extension and the codebase index's worker thread (worker.ts). Both
// ends are this extension's own code in one process; nothing of it leaves the machine.
import type { FileMatch, NameMatch } from './codebaseIndex';

export interface WorkerRoot {
  /** The folder on disk. */
  path: string;
  /** Where its index is kept (the extension's storage for this workspace); none: in memory only. */
  storageFile?: string;
  /** Globs of files.exclude and search.exclude that are on, for this folder. */
  excludes: string[];
}

export type ToWorker =
  | { type: 'start'; roots: WorkerRoot[] }
  | { type: 'changed'; root: number; path: string }
  | { type: 'deleted'; root: number; path: string }
  | { type: 'search'; id: number; question: string; limit: number }
  /** The names defined that match a word (the `#` menu's symbols before the language servers'). */
  | { type: 'names'; id: number; query: string; limit: number }
  | { type: 'pause' }
  | { type: 'resume' }
  /** The user is typing: no file is read for `ms` from now (the build's CPU goes back to the editor). */
  | { type: 'rest'; ms: number }
  | { type: 'save' };

export type RootMatch = FileMatch & { root: number };

export type FromWorker =
  | { type: 'progress'; done: number; total: number }
  | { type: 'ready'; files: number; ms: number; fromDisk: boolean }
  /** Every change sent so far is in the index (tests and the status wait for it). */
  | { type: 'idle'; files: number }
  | { type: 'results'; id: number; matches: RootMatch[] }
  | { type: 'names'; id: number; hits: Array<NameMatch & { root: number }> }
  | { type: 'saved' }
  | { type: 'error'; message: string };
