// Looks for secrets in files and text: every file under a folder is read as raw bytes
// (settings JSON, SQLite state databases with their -wal/-journal files, logs, storage,
// exported files) and searched for each secret in UTF-8, UTF-16LE, UTF-16BE and base64
// (the three alignments a secret can take inside a longer base64 text).
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface KeyHit {
  /** The file (or the place in the page) the secret was found in. */
  where: string;
  /** Which encoding of the secret matched. */
  encoding: string;
  /** The secret, shortened so that a report does not print it whole. */
  key: string;
}

/** A secret shown by its first characters only. */
export function masked(key: string): string {
  return `${key.slice(0, 7)}…(${key.length} chars)`;
}

/**
 * The byte patterns a secret can be stored as. Base64: the secret's encoding at each of
 * the three offsets inside a longer text, trimmed to the characters that do not depend
 * on the bytes around it.
 */
export function keyPatterns(key: string): Array<{ encoding: string; bytes: Buffer }> {
  const utf8 = Buffer.from(key, 'utf8');
  const le = Buffer.from(key, 'utf16le');
  const be = Buffer.from(le).swap16();
  const out = [
    { encoding: 'utf-8', bytes: utf8 },
    { encoding: 'utf-16le', bytes: le },
    { encoding: 'utf-16be', bytes: be },
  ];
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad), utf8]).toString('base64');
    // Characters fed only by the secret's bytes: skip those touched by the padding in
    // front, and the last group that mixes in whatever follows.
    const start = pad === 0 ? 0 : pad === 1 ? 2 : 3;
    const usable = Math.floor(((pad + utf8.length) * 8) / 6);
    const core = b64.slice(start, usable).replace(/=+$/, '');
    if (core.length >= 12) out.push({ encoding: `base64(offset ${pad})`, bytes: Buffer.from(core, 'ascii') });
  }
  return out;
}

/** Hits of every secret in `data` (a file's bytes or a page's text). */
export function scanBuffer(data: Buffer, keys: readonly string[], where: string): KeyHit[] {
  const hits: KeyHit[] = [];
  for (const key of keys) {
    for (const p of keyPatterns(key)) {
      if (data.includes(p.bytes)) hits.push({ where, encoding: p.encoding, key: masked(key) });
    }
  }
  return hits;
}

/** Every regular file under `root` (symbolic links are not followed). */
export function filesUnder(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) files.push(p);
    }
  };
  if (existsSync(root)) walk(root);
  return files.sort();
}

export interface ScanResult {
  hits: KeyHit[];
  /** How many files were read, and their total size in bytes. */
  files: number;
  bytes: number;
}

/** Searches every file under each root for every secret. */
export function scanFiles(roots: readonly string[], keys: readonly string[]): ScanResult {
  const result: ScanResult = { hits: [], files: 0, bytes: 0 };
  for (const root of roots) {
    for (const file of filesUnder(root)) {
      let data: Buffer;
      try {
        data = readFileSync(file);
      } catch {
        continue; // removed while the folder was read (a rotated log, a closed journal)
      }
      result.files++;
      result.bytes += data.length;
      result.hits.push(...scanBuffer(data, keys, file));
    }
  }
  return result;
}
