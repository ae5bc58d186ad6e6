// Diagnostic (not part of the benchmark): profiles our renderer streaming one generated reply.
// `tsx bench/render/profile.ts 100 200` (`floor200`: the frame floor, `structure200`: the structure floor) prints, per size, the top self-time functions (CDP Profiler)
// and main-thread time per trace event kind (script, style, layout, paint, GC...).
import { writeFileSync } from 'node:fs';
import { bundle, launchChromium, servePage } from '../../test/render/harness';
import { generateReply } from './generate';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount?: number; children?: number[] }
interface TraceEvent { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; ts: number; args?: { name?: string } }

function lowerBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function main(): Promise<void> {
  // Each argument: KB to stream, optionally after a finished reply of PREFIX KB: `100`, `100+100`.
  // `floor200`: the frame floor of bench:render at that size instead of ours (same frames, no renderer work).
  const floorRun = process.argv.slice(2).some((a) => a.startsWith('floor'));
  // `structure200`: the structure floor (the finished reply's DOM revealed as it streams, no renderer work).
  const structureRun = process.argv.slice(2).some((a) => a.startsWith('structure'));
  const sizes = process.argv.slice(2).map((a) => a.replace(/^(floor|structure)/, '').split('+').map(Number));
  const script = await bundle('bench/render/page.ts', false);
  const server = await servePage(script, 'Render profile');
  const browser = await launchChromium(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  await page.goto(server.strictUrl);
  await page.waitForFunction(() => !!window.bench);
  const cdp = await page.context().newCDPSession(page);
  const warm = generateReply(8 * 1024, 99);
  await page.evaluate(([t]) => window.bench.ours(t, 40, 1), [warm] as const);
  for (const arg of sizes.length ? sizes : [[100], [200]]) {
    const kb = arg[arg.length - 1];
    // `-300+100`: the prefix is kept in the heap but detached from the document.
    const prefix = arg.length > 1 ? generateReply(Math.abs(arg[0]) * 1024, 999) + '\n\n' : '';
    const text = generateReply(kb * 1024, kb);
    await page.evaluate(() => window.bench.clear());
    if (prefix) await page.evaluate(([p, d]) => window.bench.prepare(p, d), [prefix, arg[0] < 0] as const);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'v8', 'blink.user_timing'] });
    if (!process.env.NO_CPU) await cdp.send('Profiler.start');
    const r = structureRun
      ? await page.evaluate(([t]) => window.bench.structureFloor(t, Math.ceil(t.length / 40)).then(() => ({ scriptMs: 0, frames: Math.ceil(t.length / 40) })), [text] as const)
      : floorRun
      ? await page.evaluate(([t]) => window.bench.frameFloor(t, Math.ceil(t.length / 40)).then(() => ({ scriptMs: 0, frames: Math.ceil(t.length / 40) })), [text] as const)
      : await page.evaluate(([t]) => window.bench.ours(t, 40, 1), [text] as const);
    const { profile } = process.env.NO_CPU ? { profile: { nodes: [], samples: [1], startTime: 0, endTime: 0 } } : await cdp.send('Profiler.stop');
    const trace = await browser.stopTracing();
    writeFileSync(`/tmp/rprof/ours-${kb}.cpuprofile`, JSON.stringify(profile));
    const nodes = profile.nodes as ProfileNode[];
    const dt = (profile.endTime - profile.startTime) / 1000 / (profile.samples ?? [1]).length;
    const self = new Map<string, number>();
    for (const n of nodes) {
      const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0) * dt);
    }
    console.log(`\n== ${arg.join('+')} KB: script ${r.scriptMs.toFixed(1)} ms, frames ${r.frames}`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${v.toFixed(1).padStart(8)} ms  ${k}`);
    const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')!;
    const byName = new Map<string, [number, number]>();
    for (const e of events) {
      if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !e.dur) continue;
      const v = byName.get(e.name) ?? [0, 0];
      v[0] += (e.tdur ?? e.dur) / 1000;
      v[1]++;
      byName.set(e.name, v);
    }
    // Cost per frame along the stream: tasks grouped in 10 segments of equal frame counts.
    const frames = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'FireAnimationFrame').map((e) => e.ts).sort((a, b) => a - b);
    const seg = (ts: number) => Math.min(9, Math.floor((10 * lowerBound(frames, ts)) / frames.length));
    const perSeg: Record<string, number[]> = {};
    for (const e of events) {
      if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !e.dur) continue;
      if (!['RunTask', 'ThreadControllerImpl::RunTask', 'FireAnimationFrame', 'Layout', 'UpdateLayoutTree', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'IntersectionObserverController::computeIntersections', 'MajorGC', 'MinorGC', 'ParseHTML'].includes(e.name)) continue;
      (perSeg[e.name] ??= new Array(10).fill(0))[seg(e.ts)] += (e.tdur ?? e.dur) / 1000 / (frames.length / 10);
    }
    console.log('  per-frame thread ms in each tenth of the stream:');
    for (const [k, v] of Object.entries(perSeg)) console.log(`  ${k.padEnd(40)} ${v.map((x) => x.toFixed(3)).join(' ')}`);
    console.log('  trace (inclusive thread ms, count):');
    for (const [k, [ms, n]] of [...byName].sort((a, b) => b[1][0] - a[1][0]).slice(0, 30)) console.log(`  ${ms.toFixed(1).padStart(8)} ms ${String(n).padStart(6)}  ${k}`);
  }
  await browser.close();
  await server.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
