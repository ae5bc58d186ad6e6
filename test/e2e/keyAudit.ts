// Searches files for API keys in every form a program could have written them: the bytes as
// UTF-8 (also inside JSON strings and SQLite pages), UTF-16LE and UTF-16BE (Chromium's and
// SQLite's text encodings), and base64 at each of its three alignments. Reads every file of a
// tree, whatever its name or size, including SQLite databases and their -wal/-journal files.
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface KeyHit {
  file: string;
  key: string;
  encoding: 'utf8' | 'utf16le' | 'utf16be' | 'base64';
}

/** The byte patterns of `key` in each encoding (base64: the stable middle of each alignment). */
export function keyPatterns(key: string): Array<{ encoding: KeyHit['encoding']; bytes: Buffer }> {
  const utf8 = Buffer.from(key, 'utf8');
  const le = Buffer.from(key, 'utf16le');
  const be = Buffer.from(le);
  be.swap16();
  const out: Array<{ encoding: KeyHit['encoding']; bytes: Buffer }> = [
    { encoding: 'utf8', bytes: utf8 },
    { encoding: 'utf16le', bytes: le },
    { encoding: 'utf16be', bytes: be },
  ];
  for (let shift = 0; shift < 3; shift++) {
    // Base64 of the key preceded by `shift` bytes: the characters that depend only on the key.
    const b64 = Buffer.concat([Buffer.alloc(shift), utf8]).toString('base64');
    // Character i holds bits [6i, 6i+6) of the bytes; the key's bits are [8*shift, 8*(shift+length)).
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + utf8.length)) / 6);
    const middle = b64.slice(start, end);
    if (middle.length >= 12) out.push({ encoding: 'base64', bytes: Buffer.from(middle, 'latin1') });
  }
  return out;
}

/** Every file under `root` (symbolic links are not followed). */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const p = path.join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** Every place a key appears in the files under `roots`. */
export function scanForKeys(roots: readonly string[], keys: readonly string[]): KeyHit[] {
  const patterns = keys.map((key) => ({ key, forms: keyPatterns(key) }));
  const hits: KeyHit[] = [];
  for (const root of roots) {
    for (const file of filesUnder(root)) {
      let data: Buffer;
      try {
        data = readFileSync(file);
      } catch {
        continue; // removed while scanning (a log rotated)
      }
      for (const { key, forms } of patterns) {
        for (const f of forms) if (data.includes(f.bytes)) hits.push({ file, key, encoding: f.encoding });
      }
    }
  }
  return hits;
}

/** Every string in `text` (e.g. the HTML of every frame) that contains a key. */
export function keysInText(text: string, keys: readonly string[]): string[] {
  return keys.filter((k) => keyPatterns(k).some((p) => p.encoding !== 'utf16le' && p.encoding !== 'utf16be' && text.includes(p.bytes.toString('latin1'))));
}

/** The API keys the end-to-end run types: the demo key and every key-like literal in its sources. */
export function keysUsedBy(sourceFiles: readonly string[], extra: readonly string[]): string[] {
  const found = new Set(extra);
  for (const f of sourceFiles) {
    for (const m of readFileSync(f, 'utf8').matchAll(/['"`](sk-[A-Za-z0-9_-]{8,})['"`]/g)) found.add(m[1]);
  }
  return [...found];
}
