// A file that stalls, as on a slow network drive: a named pipe in its place gives its text to a
// reader only when the journey writes it.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';

/** Makes `file` a named pipe (it must not exist). */
export function makeStalled(file: string): void {
  execFileSync('mkfifo', [file]);
}

/**
 * Gives `text` to every reader waiting on any of `files` (those that are there), until `done` says
 * so; fails after `ms` with `what`. `text` must fit one write to a pipe (64 KB).
 */
export async function feedStalled(files: string[], text: string, done: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(what);
    for (const file of files) {
      let fd: number;
      try {
        // Opens only when a reader is waiting (ENXIO otherwise), so nothing blocks here.
        fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch {
        continue;
      }
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
