// The codebase index on disk: one gzip file per workspace. A header (format version, the words,
// each file's path, time, size and definitions) in JSON, then each chunk's words as varints (term
// ids ascending, as differences). An index of another version, or a file cut short (gzip checks
// its length and CRC), is refused: the caller builds a new one. Writes go to a file of their own,
// renamed over the old one, so two windows on one workspace never leave a torn file.
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CodebaseIndex, type Chunk } from './codebaseIndex';

/** Bump when the tokenizer, the chunks or the format change: an older index is rebuilt. */
export const INDEX_FORMAT_VERSION = 1;
const MAGIC = 'AICHAT-CODEBASE';

interface Header {
  magic: string;
  version: number;
  terms: string[];
  /** path, mtime, size, number of chunks, definitions as name, line, name, line… */
  files: [string, number, number, number, (string | number)[]][];
}

class Writer {
  private buf = Buffer.alloc(1 << 16);
  length = 0;
  varint(v: number): void {
    if (this.length + 10 > this.buf.length) {
      const next = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(next, 0, 0, this.length);
      this.buf = next;
    }
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

export function serializeIndex(index: CodebaseIndex): Buffer {
  // Only the words still in use, renumbered.
  const remap = new Map<number, number>();
  const terms: string[] = [];
  const w = new Writer();
  const files: Header['files'] = [];
  for (const file of index.files.values()) {
    const chunks = file.chunks.map((c) => index.chunks[c]).filter((c): c is Chunk => !!c);
    files.push([file.path, file.mtime, file.size, chunks.length, file.defs.flatMap((d) => [d.name, d.line])]);
    for (const chunk of chunks) {
      const ids = Array.from(chunk.terms, (t) => {
        let id = remap.get(t);
        if (id === undefined) {
          id = terms.length;
          remap.set(t, id);
          terms.push(index.terms[t]);
        }
        return id;
      });
      const order = ids.map((_, k) => k).sort((a, b) => ids[a] - ids[b]);
      w.varint(chunk.start);
      w.varint(chunk.end - chunk.start);
      w.varint(ids.length);
      let prev = 0;
      for (const k of order) {
        w.varint(ids[k] - prev);
        prev = ids[k];
        w.varint(chunk.tfs[k]);
      }
    }
  }
  const header = Buffer.from(JSON.stringify({ magic: MAGIC, version: INDEX_FORMAT_VERSION, terms, files } satisfies Header), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  return gzipSync(Buffer.concat([size, header, w.bytes()]), { level: 6 });
}

/** The index read back; throws on another version or a damaged file. */
export function deserializeIndex(data: Uint8Array): CodebaseIndex {
  const raw = gunzipSync(data);
  const headerLength = raw.readUInt32LE(0);
  const header = JSON.parse(raw.subarray(4, 4 + headerLength).toString('utf8')) as Header;
  if (header.magic !== MAGIC || header.version !== INDEX_FORMAT_VERSION || !Array.isArray(header.terms) || !Array.isArray(header.files)) {
    throw new Error('not an index of this version'); // l10n-ignore: never shown: the index is rebuilt
  }
  let at = 4 + headerLength;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (at >= raw.length) throw new Error('index cut short'); // l10n-ignore: never shown: the index is rebuilt
      const b = raw[at++];
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
  };
  const index = new CodebaseIndex();
  // A fresh index numbers the words in the header's order: header ids are index ids.
  const ids = header.terms.map((t) => index.intern(String(t)));
  for (const [path, mtime, size, count, flatDefs] of header.files) {
    const chunks: Chunk[] = [];
    for (let c = 0; c < count; c++) {
      const start = varint();
      const end = start + varint();
      const n = varint();
      const terms = new Uint32Array(n);
      const tfs = new Uint16Array(n);
      let prev = 0;
      let len = 0;
      for (let k = 0; k < n; k++) {
        prev += varint();
        if (prev >= ids.length) throw new Error('index damaged'); // l10n-ignore: never shown: the index is rebuilt
        terms[k] = prev;
        tfs[k] = varint();
        len += tfs[k];
      }
      chunks.push({ file: 0, start, end, len, terms, tfs });
    }
    const defs = [];
    for (let k = 0; k + 1 < flatDefs.length; k += 2) defs.push({ name: String(flatDefs[k]), line: Number(flatDefs[k + 1]) });
    index.insert(path, mtime, size, defs, chunks);
  }
  if (at !== raw.length) throw new Error('index damaged'); // l10n-ignore: never shown: the index is rebuilt
  return index;
}

/** Writes the index beside its final name, then renames it over (atomic on one file system). */
export async function saveIndex(file: string, index: CodebaseIndex): Promise<number> {
  const data = serializeIndex(index);
  await fsp.mkdir(nodePath.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await fsp.writeFile(temp, data);
    await fsp.rename(temp, file);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
  return data.length;
}

/** The index saved for this workspace, or undefined when there is none or it cannot be used (then it is rebuilt). */
export async function loadIndex(file: string): Promise<CodebaseIndex | undefined> {
  try {
    return deserializeIndex(await fsp.readFile(file));
  } catch {
    return undefined;
  }
}
