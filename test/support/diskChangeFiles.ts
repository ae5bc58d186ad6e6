// The workspace's files for a reply's changes on a real disk, without VS Code: Apply to File's path
// rules (core's resolveApplyTarget) over one folder, plain reads and writes, and "unsaved" files
// given by the test. For the unit tests and `npm run bench:changes`.
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { refusedTargetText, resolveApplyTarget, type ChangeFiles } from '../../src/core';

/** `failAfter`: the first write stops with an error after writing that many files (a disk that fills). */
export function diskChangeFiles(folder: string, unsaved: Set<string> = new Set(), failAfter?: number): ChangeFiles & { writes: number } {
  const files = {
    writes: 0,
    async resolve(path: string) {
      const r = await resolveApplyTarget([folder], path);
      if (!r.ok) return { ok: false as const, path, why: refusedTargetText(r.reason, path) };
      if (r.ask) return { ok: false as const, path, why: `${path} was left as it is, as you chose.` };
      return { ok: true as const, uri: pathToFileURL(r.real).toString(), path: r.segments.join('/') };
    },
    async size(uri: string) {
      return stat(fileURLToPath(uri)).then(
        (s) => s.size,
        () => undefined,
      );
    },
    async read(uri: string) {
      return readFile(fileURLToPath(uri)).then(
        (b) => new Uint8Array(b),
        () => undefined,
      );
    },
    unsaved: (uri: string) => unsaved.has(uri),
    async write(ops: ReadonlyArray<{ uri: string; bytes: Uint8Array | null }>) {
      const first = files.writes++ === 0;
      for (const [i, op] of ops.entries()) {
        if (first && failAfter !== undefined && i === failAfter) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        const path = fileURLToPath(op.uri);
        if (op.bytes === null) await rm(path, { force: true });
        else {
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, op.bytes);
        }
      }
      return true;
    },
  };
  return files;
}
