// The key guard on large texts: a message with attachments (files can be hundreds of KB) is checked
// before it is sent, queued or kept as a draft, on the extension host. Prints the median time of
// holdsKey for texts of 100 KB, 500 KB and 2 MB that do not hold the key (the slowest case: every
// form is looked at), of three kinds: code with escapes and % signs (every pass runs), plain prose,
// and a text full of the key's first characters (the prefix search at its busiest).
//
//   npm run bench:keyguard
import { holdsKey } from '../../src/core/account/keyMatch';

const KEY = 'sk-live-abcdef1234567890XYZ';
const RUNS = 15;

const line = (i: number) => `  const s${i} = "caf\\u00e9 %20 \\x41" + encodeURIComponent(value${i}) + '\u200b'; // 50% of ${i}\n`;
const kinds: Record<string, (bytes: number) => string> = {
  'code with escapes': (bytes) => {
    let s = '';
    for (let i = 0; s.length < bytes; i++) s += line(i);
    return s.slice(0, bytes);
  },
  prose: (bytes) => 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(bytes / 45)).slice(0, bytes),
  "the key's first characters, repeated": (bytes) => `${KEY.slice(0, 14)}# `.repeat(Math.ceil(bytes / 16)).slice(0, bytes),
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out: Array<{ kind: string; kb: number; medianMs: number; maxMs: number }> = [];
for (const [kind, make] of Object.entries(kinds)) {
  for (const kb of [100, 500, 2000]) {
    const text = make(kb * 1024);
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      const held = holdsKey(text, [KEY]);
      times.push(performance.now() - t0);
      if (held) throw new Error(`${kind}: unexpectedly holds the key`);
    }
    const row = { kind, kb, medianMs: Number(median(times).toFixed(2)), maxMs: Number(Math.max(...times).toFixed(2)) };
    out.push(row);
    console.log(`${kind.padEnd(38)} ${String(kb).padStart(5)} KB: median ${row.medianMs} ms, slowest ${row.maxMs} ms (${RUNS} runs)`);
  }
}
console.log(JSON.stringify(out));
