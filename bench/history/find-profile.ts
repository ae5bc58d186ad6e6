// Diagnostic (not part of the benchmark): where the time of a find goes. `npx tsx
// bench/history/find-profile.ts [rare|common] [runs]` runs find.ts's conversation and query, traces
// each find (Chromium trace: main-thread events between the query typed and the frame after the
// first result) and prints the events by kind (thread ms, summed over the runs, and per run), with
// the top self-time functions (CDP Profiler).
import { writeFileSync } from 'node:fs';
import { launchChromium, serveChatPanel } from '../../test/render/harness';
import { conversation, COMMON, RARE, firstResult } from './find';

interface TraceEvent { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; ts: number; args?: { name?: string; data?: unknown } }
interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }

async function main(): Promise<void> {
  const query = process.argv[2] === 'common' ? COMMON : RARE;
  const runs = Number(process.argv[3] ?? 5);
  const panel = await serveChatPanel('src/webview/main.ts', false);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    const cdp = await page.context().newCDPSession(page);
    const byName = new Map<string, [number, number]>();
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.evaluate((d) => window.postMessage(JSON.parse(d), '*'), JSON.stringify(conversation(i + 1)));
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
      await page.keyboard.press('Control+f');
      await page.evaluate(() => new Promise((ok) => setTimeout(ok, 200)));
      await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'v8', 'blink.user_timing'] });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      const r = await firstResult(page, query, true);
      const { profile } = await cdp.send('Profiler.stop');
      const trace = await browser.stopTracing();
      times.push(r.ms);
      writeFileSync(`/tmp/fprof/find-${i}.json`, trace);
      const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
      const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')!;
      const marks = events.filter((e) => e.name === 'find-start' || e.name === 'find-end').sort((a, b) => a.ts - b.ts);
      const t0 = marks.find((e) => e.name === 'find-start')?.ts ?? 0;
      const t1 = marks.find((e) => e.name === 'find-end')?.ts ?? Infinity;
      const line: string[] = [];
      for (const e of events) {
        if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !e.dur || e.ts < t0 || e.ts > t1) continue;
        const v = byName.get(e.name) ?? [0, 0];
        v[0] += (e.tdur ?? e.dur) / 1000;
        v[1]++;
        byName.set(e.name, v);
        if (['FunctionCall', 'Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'FireAnimationFrame', 'TimerFire', 'IntersectionObserverController::computeIntersections', 'MinorGC', 'MajorGC', 'EventDispatch', 'RunTask', 'ThreadControllerImpl::RunTask'].includes(e.name)) {
          line.push(`${((e.ts - t0) / 1000).toFixed(1)}+${(e.dur / 1000).toFixed(1)} ${e.name}`);
        }
      }
      console.log(`run ${i}: ${r.ms.toFixed(1)} ms (${r.count})`);
      if (process.env.TIMELINE) console.log('  ' + line.join('\n  '));
      // Samples between the two marks: self time per function, and inclusive time of the functions on the stack.
      const nodes = new Map((profile.nodes as ProfileNode[]).map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes as Array<ProfileNode & { children?: number[] }>) for (const c of n.children ?? []) parent.set(c, n.id);
      const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      let ts = profile.startTime;
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      for (let k = 0; k < samples.length; k++) {
        ts += deltas[k] ?? 0;
        if (ts < t0 || ts > t1) continue;
        const dt = ((deltas[k + 1] ?? 0) || 100) / 1000;
        const leaf = nodes.get(samples[k])!;
        self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
        const seen = new Set<string>();
        for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
          const key = name(nodes.get(id)!);
          if (seen.has(key)) continue;
          seen.add(key);
          total.set(key, (total.get(key) ?? 0) + dt);
        }
      }
      await page.keyboard.press('Escape');
    }
    console.log(`times: ${times.map((t) => t.toFixed(1)).join(' ')}`);
    console.log('trace events between the query and the frame after (inclusive thread ms per run, count):');
    for (const [k, [ms, n]] of [...byName].sort((a, b) => b[1][0] - a[1][0]).slice(0, 30)) console.log(`  ${(ms / runs).toFixed(2).padStart(8)} ms ${String(n / runs).padStart(6)}  ${k}`);
    console.log('self time per run (CDP Profiler, between the marks):');
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(v / runs).toFixed(2).padStart(8)} ms  ${k}`);
    console.log('inclusive time per run (CDP Profiler, between the marks):');
    for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`  ${(v / runs).toFixed(2).padStart(8)} ms  ${k}`);
  } finally {
    await browser.close();
    await panel.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
