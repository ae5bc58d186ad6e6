// Files of the workspace on the local disk: where a path really lands (symbolic links followed)
// and bounded reads. Used before the extension reads or writes a file that a reply, a setting or
// the workspace itself names. VS Code-free (node's fs).
import { constants, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';

export type InsideResult =
  | {
      ok: true;
      /** The real path on disk (of the file, or of its deepest existing parent plus the rest). */
      real: string;
      /** Its segments relative to the folder's real path. */
      relative: string[];
      /** True when the file itself exists. */
      exists: boolean;
    }
  /** outside: it lands outside the folder; dangling: a symbolic link to nothing (a write would follow it). */
  | { ok: false; reason: 'outside' | 'dangling' | 'unreadable'; real?: string };

function errCode(err: unknown): string | undefined {
  return (err as { code?: string } | undefined)?.code;
}

/** True when `child` is `parent` or below it (both absolute, normalised). */
export function isPathInside(parent: string, child: string, includeSelf = false): boolean {
  const rel = nodePath.relative(parent, child);
  if (rel === '') return includeSelf;
  return rel !== '..' && !rel.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(rel);
}

/**
 * Where `segments` under `folder` lands on disk: the real path of the file, or of its deepest
 * existing parent with the missing segments appended, and whether that is inside the folder's
 * own real path. A dangling symbolic link on the way is refused (creating the file would follow it).
 */
export async function resolveInsideFolder(folder: string, segments: readonly string[]): Promise<InsideResult> {
  let folderReal: string;
  try {
    folderReal = await fsp.realpath(folder);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  let existing = nodePath.join(folder, ...segments);
  const missing: string[] = [];
  let base: string | undefined;
  for (;;) {
    try {
      base = await fsp.realpath(existing);
      break;
    } catch (err) {
      const code = errCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { ok: false, reason: 'unreadable' };
      // realpath fails on a link whose target is missing, but the link itself is there.
      const linked = await fsp.lstat(existing).then(
        (s) => s.isSymbolicLink(),
        () => false,
      );
      if (linked) return { ok: false, reason: 'dangling' };
      const parent = nodePath.dirname(existing);
      if (parent === existing) return { ok: false, reason: 'unreadable' };
      missing.unshift(nodePath.basename(existing));
      existing = parent;
    }
  }
  const real = nodePath.join(base, ...missing);
  if (!isPathInside(folderReal, real)) return { ok: false, reason: 'outside', real };
  return { ok: true, real, relative: nodePath.relative(folderReal, real).split(nodePath.sep), exists: missing.length === 0 };
}

export interface HeadRead {
  /** The first bytes of the file (at most the maximum asked for). */
  bytes: Uint8Array;
  /** The file's size when it was opened. */
  size: number;
}

/**
 * The first `max` bytes of a regular file, read with one bounded buffer (never the whole file).
 * Refuses what is not a regular file (FIFOs, devices, folders) before reading a byte.
 * `noFollow`: refuse a symbolic link at the last segment (where the platform can).
 */
export async function readHead(path: string, max: number, opts: { noFollow?: boolean } = {}): Promise<HeadRead> {
  const flags = constants.O_RDONLY | (opts.noFollow && constants.O_NOFOLLOW ? constants.O_NOFOLLOW : 0) | (constants.O_NONBLOCK ?? 0);
  const handle = await fsp.open(path, flags);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTFILE' }); // l10n-ignore: an error code the callers turn into a message
    const want = Math.max(0, Math.min(max, stat.size));
    const buffer = new Uint8Array(want);
    let read = 0;
    while (read < want) {
      const { bytesRead } = await handle.read(buffer, read, want - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { bytes: read === want ? buffer : buffer.subarray(0, read), size: stat.size };
  } finally {
    await handle.close();
  }
}
