// Render benchmark (npm run bench:render): streams generated replies of 25, 100 and 200 KB in
// 40-byte chunks through the real ReplyView and through a naive renderer (whole text re-rendered
// on every chunk with the same markdown-it configuration and DOMPurify sanitizer), in the same
// headless Chromium run. See `method` below for how arrival and time are measured.
import { gzipSync } from 'node:zlib';
import type { CDPSession, Page } from 'playwright-core';
import { bundle, launchChromium, servePage } from '../../test/render/harness';
import { generateReply } from './generate';
import { longestMainThreadTask } from './trace';
import type { RunResult } from './page';

const SIZES_KB = [25, 100, 200];
const CHUNK = 40;
const PER_FRAME = 1;
/** Rounds of ours per size (cheap: a few seconds each); the naive runs once (minutes). */
const REPS = 2;
/** Naive runs are quadratic: render only every n-th chunk at these sizes and scale (labelled). */
const NAIVE_SAMPLE: Record<number, number> = { 25: 1, 100: 3, 200: 24 };
const BROWSER_ARGS = ['--disable-frame-rate-limit', '--disable-gpu-vsync'];

const method = (reps: number) => [
  `Method: ${CHUNK}-byte chunks, ${PER_FRAME} chunk(s) arrive per animation frame, then the page awaits requestAnimationFrame`,
  '(frame rate limit off, so frames follow each other as fast as the work allows; one chunk per frame is about the',
  "reference server's default pace of a 24-byte chunk every 20 ms, so ours gets no batching advantage). The real ReplyView renders",
  'at most once per frame; the naive renderer re-renders the whole text on every chunk. "main-thread ms" is',
  "Chromium's TaskDuration (CDP Performance.getMetrics) over the run: script, style, layout, paint and GC of",
  'every task, in thread time (CPU time of the main thread; time spent descheduled by other processes on this',
  'shared machine is not counted). "script ms" is performance.now() around the renderer\'s own work. "longest task"',
  'is the longest RunTask on the renderer main thread in a Chromium trace of the run, thread time and wall time',
  '(ours) / the longest frame of naive script. Before every run the heap is collected (CDP HeapProfiler).',
  `Ours runs first, all sizes back to back, ${reps} rounds; its figure per size is the mean of the rounds (longest task: the worst).`,
  'Then the naive renderer runs once per size.',
].join('\n');

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

interface Measured {
  result: RunResult;
  mainMs: number;
  /** Longest task, thread time (ours: from the trace; naive: longest frame of script). */
  longestTaskMs: number;
  longestTaskWallMs: number;
}

async function measure(page: Page, cdp: CDPSession, run: () => Promise<RunResult>, trace: boolean, scale = 1): Promise<Measured> {
  await page.evaluate(() => window.bench.clear());
  // Same clean heap for every run: garbage of the previous run is not collected on this one's time.
  await cdp.send('HeapProfiler.collectGarbage');
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));
  if (trace) await page.context().browser()!.startTracing(page, { categories: ['toplevel'] });
  const before = await taskSeconds(cdp);
  const result = await run();
  const mainMs = ((await taskSeconds(cdp)) - before) * 1000 * scale;
  const longest = trace ? longestMainThreadTask(await page.context().browser()!.stopTracing()) : { cpu: result.longestScriptMs, wall: result.longestScriptMs };
  if (process.env.BENCH_VERBOSE) console.error(`  (run: ${Math.round(result.wallMs)} ms wall)`);
  return { result, mainMs, longestTaskMs: longest.cpu, longestTaskWallMs: longest.wall };
}

const f1 = (n: number) => n.toFixed(1);
const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const at0 = <T extends { kb: number }>(rows: T[], kb: number): T => rows.find((r) => r.kb === kb)!;

/** `--sizes=100,200` (default 25,100,200), `--no-naive` (ours only, for quick iterations), `--reps=N`. */
function options(argv: string[]): { sizes: number[]; naive: boolean; reps: number } {
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const sizes = arg('sizes')?.split(',').map(Number).filter((n) => n > 0) ?? SIZES_KB;
  return { sizes, naive: !argv.includes('--no-naive'), reps: Math.max(1, Number(arg('reps') ?? REPS)) };
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const opts = options(process.argv.slice(2));
  const script = await bundle('bench/render/page.ts', true);
  const server = await servePage(script, 'Render benchmark');
  const browser = await launchChromium(BROWSER_ARGS);
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  await page.goto(server.strictUrl);
  await page.waitForFunction(() => !!window.bench);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });

  console.log(method(opts.reps));
  console.log(`Chromium ${browser.version()}, replies from bench/render/generate.ts (prose, lists, task lists, tables, code, quotes).\n`);

  // The fast paths must not change what is shown: every frame of a 25 KB stream compared with a
  // fresh render of the same text (see verify in page.ts). A mismatch fails the benchmark.
  const check = await page.evaluate(([t, c]) => window.bench.verify(t, c), [generateReply(25 * 1024, 25), CHUNK] as const);
  console.log(`Check: ${check.checked} streamed frames of a 25 KB reply equal a fresh render of the same text: ${check.mismatches === 0 ? 'yes' : `NO (${check.mismatches} differ)`}\n`);
  if (check.mismatches) throw new Error(`streamed DOM differs from a fresh render: ${check.first}`);

  // Warm up both paths (JIT) on a small reply.
  const warm = generateReply(8 * 1024, 99);
  await page.evaluate(([t, c]) => window.bench.ours(t, c, 1), [warm, CHUNK] as const);
  await page.evaluate(([t, c]) => window.bench.naive(t, c, 1), [warm, CHUNK] as const);

  const texts = new Map(opts.sizes.map((kb) => [kb, generateReply(kb * 1024, kb)]));
  // Ours: all sizes back to back, `reps` rounds (25, 100, 200, 25, 100, 200, ...), before the long
  // naive runs, so that a change of machine load hits every size alike; each size's figure is the
  // mean of its rounds (every round is printed).
  const oursRuns = new Map<number, Measured[]>();
  const timed = async (run: () => Promise<unknown>): Promise<number> => {
    await page.evaluate(() => window.bench.clear());
    await cdp.send('HeapProfiler.collectGarbage');
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));
    const before = await taskSeconds(cdp);
    await run();
    return ((await taskSeconds(cdp)) - before) * 1000;
  };
  // The frame floor of a size is measured right after each round of ours at that size, so that
  // each ours / floor ratio comes from two runs a few seconds apart (the machine's load moves
  // both); the figure is the mean of the rounds' ratios.
  const floorRuns = new Map<number, number[]>();
  // And the structure floor (page.ts structureFloor): the finished reply's DOM revealed as it
  // streams, by a renderer with no work of its own.
  const structureRuns = new Map<number, number[]>();
  for (let rep = 0; rep < opts.reps; rep++) {
    for (const [kb, text] of texts) {
      const m = await measure(page, cdp, () => page.evaluate(([t, c, p]) => window.bench.ours(t, c, p), [text, CHUNK, PER_FRAME] as const), true);
      oursRuns.set(kb, [...(oursRuns.get(kb) ?? []), m]);
      if (kb < 100) continue;
      const floor = await timed(() => page.evaluate(([t, n]) => window.bench.frameFloor(t, n), [text, m.result.frames] as const));
      floorRuns.set(kb, [...(floorRuns.get(kb) ?? []), floor]);
      const structure = await timed(() => page.evaluate(([t, n]) => window.bench.structureFloor(t, n), [text, m.result.frames] as const));
      structureRuns.set(kb, [...(structureRuns.get(kb) ?? []), structure]);
    }
  }
  const floors = new Map<number, number>();
  const oneShots = new Map<number, number>();
  for (const kb of opts.sizes.filter((k) => k >= 100)) {
    const runs = floorRuns.get(kb)!;
    floors.set(kb, meanOf(runs));
    // The finished reply rendered once (mean of two): paid by any renderer that shows it with these libraries.
    const once = [await timed(() => page.evaluate((t) => window.bench.oneShot(t), texts.get(kb)!)), await timed(() => page.evaluate((t) => window.bench.oneShot(t), texts.get(kb)!))];
    oneShots.set(kb, (once[0] + once[1]) / 2);
  }

  const rows: Array<{ kb: number; ours: Measured; naive?: Measured; sample: number }> = [];
  for (const [kb, text] of texts) {
    const runs = oursRuns.get(kb)!;
    const mean = (f: (m: Measured) => number) => runs.reduce((sum, m) => sum + f(m), 0) / runs.length;
    const ours: Measured = {
      result: { ...runs[0].result, scriptMs: mean((m) => m.result.scriptMs) },
      mainMs: mean((m) => m.mainMs),
      longestTaskMs: Math.max(...runs.map((m) => m.longestTaskMs)),
      longestTaskWallMs: Math.max(...runs.map((m) => m.longestTaskWallMs)),
    };
    const sample = NAIVE_SAMPLE[kb] ?? 1;
    const naive = opts.naive
      ? await measure(page, cdp, () => page.evaluate(([t, c, p, s]) => window.bench.naive(t, c, p, s), [text, CHUNK, PER_FRAME, sample] as const), false, sample)
      : undefined;
    rows.push({ kb, ours, naive, sample });
    const each = runs.length > 1 ? ` [runs: ${runs.map((m) => f1(m.mainMs)).join(', ')}]` : '';
    console.log(
      `${String(kb).padStart(3)} KB (${text.length} bytes, ${ours.result.chunks} chunks): ` +
        `ours ${f1(ours.mainMs)} ms main-thread${each} (${f1(ours.result.scriptMs)} ms script, ${ours.result.renders} renders), ` +
        (naive
          ? `naive ${f1(naive.mainMs)} ms main-thread (${f1(naive.result.scriptMs)} ms script` +
            `${sample > 1 ? `; sampled: 1 in ${sample} chunks rendered, times scaled x${sample}` : ''}), ` +
            `ratio ${f1(naive.mainMs / ours.mainMs)}x, `
          : '') +
        `longest task ours ${f1(ours.longestTaskMs)} ms thread time (${f1(ours.longestTaskWallMs)} ms wall)` +
        (naive ? `, naive longest frame ${f1(naive.longestTaskMs)} ms script` : ''),
    );
  }
  await browser.close();
  await server.close();

  console.log('');
  const floorRatios = new Map<number, number>();
  const structureRatios = new Map<number, [number, number]>();
  for (const [kb, floor] of floors) {
    const ours = at0(rows, kb).ours;
    const pairs = oursRuns.get(kb)!.map((m, i) => [m.mainMs, floorRuns.get(kb)![i]] as const);
    const ratio = meanOf(pairs.map(([o, f]) => o / f));
    floorRatios.set(kb, ratio);
    console.log(
      `Frame floor at ${kb} KB: changing one short text node per frame for the same ${ours.result.frames} frames, ` +
        `with the finished reply on the page and the same frame loop as ours (its timing callbacks), costs ${f1(floor)} ms main-thread (style, layout, paint, commit of each frame) ` +
        `[runs: ${pairs.map(([, f]) => f1(f)).join(', ')}]; ours above that floor: ${f1(ours.mainMs - floor)} ms; ` +
        `ours / floor: ${ratio.toFixed(2)}x (mean of the rounds: ${pairs.map(([o, f]) => (o / f).toFixed(2)).join(', ')}).`,
    );
    const structures = structureRuns.get(kb)!;
    const structureRatio = meanOf(structures.map((st, i) => st / pairs[i][1]));
    const oursOverStructure = meanOf(structures.map((st, i) => pairs[i][0] / st));
    structureRatios.set(kb, [structureRatio, oursOverStructure]);
    console.log(
      `  Structure floor at ${kb} KB: the finished reply's DOM revealed in document order over the same frames (new text nodes, elements inserted as reached; no parsing, no re-render) ` +
        `costs ${f1(meanOf(structures))} ms [runs: ${structures.map(f1).join(', ')}]; structure / frame floor: ${structureRatio.toFixed(2)}x ` +
        `(rounds: ${structures.map((st, i) => (st / pairs[i][1]).toFixed(2)).join(', ')}); ours / structure floor: ${oursOverStructure.toFixed(2)}x ` +
        `(rounds: ${structures.map((st, i) => (pairs[i][0] / st).toFixed(2)).join(', ')}).`,
    );
    const once = oneShots.get(kb)!;
    console.log(
      `  Rendered once at ${kb} KB: the finished reply given in one go to a fresh view, and its frame, costs ${f1(once)} ms main-thread ` +
        `(${((100 * once) / floor).toFixed(1)}% of the floor); (floor + once) / floor: ${((floor + once) / floor).toFixed(2)}x; ` +
        `ours above floor + once (the cost of showing it while it streams): ${f1(ours.mainMs - floor - once)} ms.`,
    );
  }
  const moduleJs = Buffer.from(await bundle('src/webview/render/index.ts', true));
  console.log(
    `\nRender module bundle (src/webview/render with markdown-it, highlight.js core + 27 languages, DOMPurify), ` +
      `minified: ${(moduleJs.length / 1024).toFixed(0)} KB, ${(gzipSync(moduleJs).length / 1024).toFixed(0)} KB gzip`,
  );

  const has = (kb: number) => rows.some((r) => r.kb === kb);
  const at = (kb: number) => rows.find((r) => r.kb === kb)!;
  const ratio100 = has(100) && at(100).naive ? at(100).naive!.mainMs / at(100).ours.mainMs : NaN;
  const growth = has(100) && has(200) ? at(200).ours.mainMs / at(100).ours.mainMs : NaN;
  const longest = Math.max(...rows.map((r) => r.ours.longestTaskMs));
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log('\nTargets:');
  console.log(`  ours >= 50x cheaper than naive at 100 KB: ${f1(ratio100)}x - ${met(ratio100 >= 50)}`);
  // The floors' own growth over the same sizes: what the browser's per-frame cost adds as the page grows.
  const floorGrowth = floors.has(100) && floors.has(200) ? floors.get(200)! / floors.get(100)! : NaN;
  const structureGrowth = structureRuns.has(100) && structureRuns.has(200) ? meanOf(structureRuns.get(200)!) / meanOf(structureRuns.get(100)!) : NaN;
  console.log(
    `  linear growth, 200 KB <= 2.2x 100 KB: ${growth.toFixed(2)}x - ${met(growth <= 2.2)} ` +
      `(the frame floor's own growth ${floorGrowth.toFixed(2)}x, the structure floor's ${structureGrowth.toFixed(2)}x)`,
  );
  const longestWall = Math.max(...rows.map((r) => r.ours.longestTaskWallMs));
  console.log(`  longest task < 16 ms: ${f1(longest)} ms thread time - ${met(longest < 16)} (wall ${f1(longestWall)} ms, includes descheduling by other processes)`);
  const floorOf = (kb: number) => (floorRatios.has(kb) ? floorRatios.get(kb)!.toFixed(2) : 'NaN');
  if (floorRatios.has(200)) console.log(`  ours within 1.2x of the frame floor at 200 KB: ${floorOf(200)}x - ${met(floorRatios.get(200)! <= 1.2)}`);
  console.log(`(bench took ${Math.round((Date.now() - t0) / 1000)} s)`);
  const structureOf = (kb: number) => (structureRatios.has(kb) ? `structure${kb}=${structureRatios.get(kb)![0].toFixed(2)} oursOverStructure${kb}=${structureRatios.get(kb)![1].toFixed(2)}` : '');
  console.log(
    `render: ratio100=${f1(ratio100)} growth=${growth.toFixed(2)} floorGrowth=${floorGrowth.toFixed(2)} structureGrowth=${structureGrowth.toFixed(2)} longestTaskMs=${f1(longest)} floor100=${floorOf(100)} floor200=${floorOf(200)} ${structureOf(100)} ${structureOf(200)}`.trimEnd(),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
