// A file's bytes as Apply All reads and writes them: its text (UTF-8, with or without a byte-order
// mark), the bytes of a changed text that keep the file's own mark, and the hash a kept copy is
// stored under. Line ends are the text's own (applyBlock writes the file's).
import { createHash } from 'node:crypto';

const BOM = [0xef, 0xbb, 0xbf];

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

/** The text of a file, or undefined when it is not UTF-8 text (invalid UTF-8, or a NUL byte: binary). */
export function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    // The mark is not part of the text (the written bytes put it back).
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The bytes of `text` for a file that was `before` (undefined: a new file): its byte-order mark kept. */
export function bytesOf(text: string, before: Uint8Array | undefined): Uint8Array {
  const body = new TextEncoder().encode(text);
  if (!before || !hasBom(before)) return body;
  const out = new Uint8Array(body.length + 3);
  out.set(BOM, 0);
  out.set(body, 3);
  return out;
}

/** The name a copy of these bytes is kept under. */
export function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
