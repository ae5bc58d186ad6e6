// Diagnostic (not part of the benchmark): where the time of late keys goes. Reads the trace that
// `npx tsx bench/render/keystroke.ts --trace=/tmp/keys.json [--no-minify]` wrote while typing
// with a reply streaming, and prints, for the keys shown later than the next frame and for the
// others, the mean time each thread was busy between the key's keydown and its paint (top-level
// tasks only, so nothing is counted twice), the main thread's own work in thread time against wall
// time, and the slowest keys' main-thread tasks by name.
//
//   npx tsx bench/render/keystroke-trace.ts /tmp/keys.json
import { readFileSync } from 'node:fs';

interface TraceEvent { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string; data?: { type?: string; functionName?: string } } }

const events = (JSON.parse(readFileSync(process.argv[2] ?? '/tmp/keys.json', 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
const threadName = new Map<string, string>();
for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) threadName.set(`${e.pid}:${e.tid}`, e.args.name);
const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
if (!main) throw new Error('no renderer main thread in the trace');

// The keys: the marks the benchmark sets at keydown and when the key is painted.
const marks = new Map<string, number>();
for (const e of events) if (/^key-(down|shown)-\d+$/.test(e.name)) marks.set(e.name, e.ts);
const keys: Array<{ n: number; down: number; shown: number; ms: number }> = [];
for (let n = 0; marks.has(`key-down-${n}`); n++) {
  const down = marks.get(`key-down-${n}`)!;
  const shown = marks.get(`key-shown-${n}`);
  if (shown !== undefined) keys.push({ n, down, shown, ms: (shown - down) / 1000 });
}
const LATE_MS = 1000 / 60 + 1;
const late = keys.filter((k) => k.ms > LATE_MS);
const onTime = keys.filter((k) => k.ms <= LATE_MS);

// Top-level tasks of each thread (the outermost task events), to sum busy time per thread kind.
const kind = (thread: string): string | undefined =>
  thread === 'CrRendererMain' ? 'renderer main thread' : /Compositor/.test(thread) ? 'compositor threads' : /ThreadPool|Raster/.test(thread) ? 'raster and pool workers' : /CrGpuMain|VizDisplay|Viz/.test(thread) ? 'display (GPU, Viz)' : undefined;
const tasks = events.filter((e) => e.ph === 'X' && e.dur && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'ThreadPool_RunTask' || e.name === 'TaskGraphRunner::RunTask'));
const busy = (from: number, to: number): Map<string, number> => {
  const out = new Map<string, number>();
  for (const e of tasks) {
    const k = kind(threadName.get(`${e.pid}:${e.tid}`) ?? '');
    if (!k) continue;
    const overlap = Math.min(to, e.ts + e.dur!) - Math.max(from, e.ts);
    if (overlap > 0) out.set(k, (out.get(k) ?? 0) + overlap / 1000);
  }
  return out;
};
const meanBusy = (ks: typeof keys): string => {
  const sum = new Map<string, number>();
  for (const k of ks) for (const [name, ms] of busy(k.down, k.shown)) sum.set(name, (sum.get(name) ?? 0) + ms);
  const mean = ks.reduce((s, k) => s + k.ms, 0) / Math.max(1, ks.length);
  return `${ks.length} keys, ${mean.toFixed(1)} ms on average; busy meanwhile: ${[...sum].sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${(ms / Math.max(1, ks.length)).toFixed(1)} ms`).join(', ')}`;
};
console.log(`Keys typed while the reply streamed: ${keys.length}, shown later than the next frame (> ${LATE_MS.toFixed(1)} ms): ${late.length}`);
console.log(`  late:    ${meanBusy(late)}`);
console.log(`  on time: ${meanBusy(onTime)}`);

// The main thread's own work (thread time) against its wall time, which holds the time it waited for a core.
for (const name of ['TypingCommand::InsertText', 'Layout', 'FireAnimationFrame']) {
  const xs = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur && e.name === name);
  if (!xs.length) continue;
  const stat = (f: (e: TraceEvent) => number) => `mean ${(xs.reduce((sum, e) => sum + f(e), 0) / xs.length / 1000).toFixed(1)} ms, at most ${(Math.max(...xs.map(f)) / 1000).toFixed(1)} ms`;
  console.log(`  ${name} (${xs.length}): thread time ${stat((e) => e.tdur ?? e.dur!)}; wall time ${stat((e) => e.dur!)}`);
}

// The slowest keys: the renderer main thread's work by name (outermost events of a few kinds).
const NAMES = new Set(['EventDispatch', 'FunctionCall', 'TypingCommand::InsertText', 'FireAnimationFrame', 'Blink.ForcedStyleAndLayout.UpdateTime', 'WebFrameWidgetImpl::UpdateLifecycle', 'MajorGC', 'MinorGC', 'V8.GC_MARK_COMPACTOR', 'Receive mojo message']);
for (const k of [...late].sort((a, b) => b.ms - a.ms).slice(0, 3)) {
  console.log(`  key ${k.n}, ${k.ms.toFixed(1)} ms:`);
  for (const e of events) {
    if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !e.dur || e.dur < 300 || !NAMES.has(e.name)) continue;
    if (e.ts + e.dur <= k.down || e.ts >= k.shown) continue;
    const what = e.args?.data?.type ?? e.args?.data?.functionName ?? '';
    console.log(`    at ${((e.ts - k.down) / 1000).toFixed(1).padStart(5)} ms: ${e.name}${what ? ` (${what})` : ''} ${(e.dur / 1000).toFixed(2)} ms`);
  }
}
