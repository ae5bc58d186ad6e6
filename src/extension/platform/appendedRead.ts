// Reading conversation files: whole, or (the history index, only ever appended to until it is
// rewritten) from where an earlier read of it ended.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { IndexCursor } from '../../core';

/** The file's text; undefined when it cannot be read. */
export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A plain file of at most `maxBytes`, read synchronously: its text; undefined when there is no such
 * file; false when it is something else (a named pipe, a folder: opened without waiting for a
 * writer), longer, or cannot be read (the caller reads it asynchronously, and says what failed).
 */
export function readSmallFile(file: string, maxBytes: number): string | undefined | false {
  let fd: number;
  try {
    // (No O_NONBLOCK on Windows, which has no named pipes among files.)
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return (err as { code?: string }).code === 'ENOENT' ? undefined : false;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return false;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's lines from `since` on when `since` is of this same file (device and inode: a durable
 * rewrite is a new file) and it has not shrunk; else the whole file. Whole lines only: a line still
 * being appended (by another window) is left for the next read (but not NULs, which no writer
 * appends). Undefined when there is no file.
 */
export async function readAppended(file: string, since: IndexCursor | undefined): Promise<{ text: string; cursor: IndexCursor; appended: boolean } | undefined> {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = await fh.stat();
    const id = `${st.dev}:${st.ino}`;
    const appended = since !== undefined && since.file === id && since.offset <= st.size;
    const start = appended ? since.offset : 0;
    const buf = Buffer.alloc(st.size - start);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    let end = buf.lastIndexOf(0x0a, got - 1) + 1;
    // NULs after the last line (a power loss can leave them) are no line being appended: they are
    // read as a line that does not parse, so that an index made of them is seen to be damaged.
    const nul = buf.indexOf(0, end);
    if (nul !== -1 && nul < got) end = got;
    return { text: buf.toString('utf8', 0, end), cursor: { file: id, offset: start + end }, appended };
  } finally {
    await fh.close();
  }
}
