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
