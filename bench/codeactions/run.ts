// The lightbulb's choice (chooseCodeAction, what the provider runs on every cursor move) timed over
// 10,000 calls for each diagnostic set: no diagnostics, one error at the cursor, a selection with
// 10 mixed diagnostics, and 500 diagnostics (a file full of lint warnings). Prints p50, p95, p99
// and the largest call in microseconds; the last line is JSON, for scripts.
//
//   npm run bench:codeactions            10,000 calls a set
//   npm run bench:codeactions -- 50000   other counts
import { chooseCodeAction, type CodeActionQuery, type DiagnosticFacts, type Span } from '../../src/core/lightbulb/codeActionChoice';

const CALLS = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 10_000;
const span = (l1: number, c1: number, l2: number, c2: number): Span => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const severities: DiagnosticFacts['severity'][] = ['error', 'warning', 'information', 'hint'];
const many = (n: number, spread: number): DiagnosticFacts[] =>
  Array.from({ length: n }, (_, i) => ({
    severity: severities[i % 4],
    message: `Problem number ${i} in this file`,
    code: String(1000 + i),
    source: i % 2 ? 'eslint' : 'ts',
    range: span((i * 7) % spread, i % 40, (i * 7) % spread, (i % 40) + 5),
  }));

const sets: Array<{ name: string; query: (i: number) => CodeActionQuery }> = [
  { name: 'cursor, no diagnostics', query: (i) => ({ range: span(i % 500, 3, i % 500, 3), diagnostics: [], invoked: false }) },
  { name: 'cursor on one error', query: (i) => ({ range: span(10, i % 8, 10, i % 8), diagnostics: many(1, 1).map((d) => ({ ...d, range: span(10, 0, 10, 8) })), invoked: false }) },
  { name: 'selection, 10 mixed', query: (i) => ({ range: span(i % 50, 0, (i % 50) + 20, 0), diagnostics: many(10, 80), invoked: false }) },
  { name: '500 diagnostics', query: (i) => ({ range: span(i % 3000, 2, i % 3000, 2), diagnostics: many(500, 3000), invoked: true }) },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const results: Array<{ set: string; calls: number; p50us: number; p95us: number; p99us: number; maxUs: number }> = [];
let sink = 0;
for (const set of sets) {
  // The queries are built before timing: the provider's copy of VS Code's diagnostics is not the choice.
  const queries = Array.from({ length: CALLS }, (_, i) => set.query(i));
  for (let i = 0; i < 1_000; i++) sink += chooseCodeAction(queries[i % CALLS]).kind.length; // warm-up
  const times = new Array<number>(CALLS);
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    sink += chooseCodeAction(queries[i]).kind.length;
    times[i] = (performance.now() - t0) * 1000;
  }
  times.sort((a, b) => a - b);
  const r = {
    set: set.name,
    calls: CALLS,
    p50us: +percentile(times, 50).toFixed(2),
    p95us: +percentile(times, 95).toFixed(2),
    p99us: +percentile(times, 99).toFixed(2),
    maxUs: +times[times.length - 1].toFixed(1),
  };
  results.push(r);
  console.log(`${r.set.padEnd(24)} ${CALLS} calls  p50 ${r.p50us} µs  p95 ${r.p95us} µs  p99 ${r.p99us} µs  max ${r.maxUs} µs`);
}
if (sink < 0) console.log(sink);
console.log(JSON.stringify(results));
