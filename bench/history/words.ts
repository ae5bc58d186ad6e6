// Deterministic made-up words for the History benchmarks (no Math.random: every run sees the same text).

/** A small deterministic generator. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pra', 'den', 'gul', 'fen', 'tor', 'bax', 'qui', 'zel', 'mon', 'ler', 'sta', 'wir'];

/** `n` distinct words of two to four syllables. */
export function vocabulary(n: number, rand: () => number): string[] {
  const words = new Set<string>();
  while (words.size < n) {
    const len = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < len; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/**
 * About `chars` characters of words from `words`, Zipf-like (frequent words often, rare ones now
 * and then); `lineBreaks`: the chance of a line break after each word.
 */
export function zipfText(words: readonly string[], rand: () => number, chars: number, lineBreaks = 0): string {
  const out: string[] = [];
  let size = 0;
  while (size < chars) {
    const w = words[Math.floor(words.length * rand() ** 3)];
    out.push(w);
    size += w.length + 1;
    if (lineBreaks > 0 && rand() < lineBreaks) out.push('\n');
  }
  return out.join(' ');
}
