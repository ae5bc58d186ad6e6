// Writes that survive a crash: a file rewritten whole is either the old or the new one (temporary
// file, fsync, rename, fsync of the folder); an append is flushed, and a new file's name too.
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The extension of a temporary file being written (one a crash left behind is removed on start). */
export const TMP_EXT = '.tmp';

let tmpCount = 0;

/**
 * Flushes a folder, so that a rename or a new file in it survives a crash (the file's own fsync
 * does not record its name). Where a folder cannot be opened for this (Windows), the file
 * system records names itself, and nothing is done.
 */
export async function syncFolder(folder: string): Promise<void> {
  let fh;
  try {
    fh = await open(folder, 'r');
  } catch {
    return;
  }
  try {
    await fh.sync();
  } catch (err) {
    // A file system that cannot flush a folder (EINVAL, EISDIR, EPERM) has nothing more to give.
    const code = (err as { code?: string }).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EBADF') throw err;
  } finally {
    await fh.close();
  }
}

/** Writes a file so that a crash leaves either the old or the new content: temp file, fsync, rename, fsync of the folder. */
export async function writeDurably(target: string, text: string): Promise<void> {
  const tmp = `${target}.${process.pid}.${++tmpCount}${TMP_EXT}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, target);
  await syncFolder(dirname(target));
}

/**
 * Appends and flushes to disk; resolves with the file's size after the append. A file that does
 * not end in a newline (an earlier append cut short) gets one first, so the new records are not
 * glued to the torn line.
 */
export async function appendDurably(file: string, text: string): Promise<number> {
  const fh = await open(file, 'a+');
  let created = false;
  let after: number;
  try {
    const { size } = await fh.stat();
    created = size === 0;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) text = '\n' + text;
    }
    await fh.appendFile(text, 'utf8');
    await fh.datasync();
    after = (await fh.stat()).size;
  } finally {
    await fh.close();
  }
  // A new file: its name is recorded in the folder, flushed too.
  if (created) await syncFolder(dirname(file));
  return after;
}

