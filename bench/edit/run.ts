/**
 * `npm run bench:edit`: Edit Selection… streaming into the editor, measured in a real VS Code
 * (code-server's extension host, the workbench in headless Chromium) against the reference server.
 * Run it under the e2e lock: `flock /tmp/aichat-e2e.lock npm run bench:edit`.
 *
 * A small extension (bench/edit/harness.ts, bundled with the edit's own code) is installed into a
 * fresh code-server profile; on startup it opens a 5,000-line TypeScript file, selects a function
 * in its middle and runs Edit Selection… `--runs=` times (default 20, after one warm-up run), each
 * reply streamed by the reference server in `--chunk=` characters every `--delay=` ms (default 24
 * and 15, the server's own default pace), each run undone with Undo Edit; before each run the
 * notifications are cleared and the window is left alone `--pause=` ms (default 1000: a user types
 * an instruction between two edits; 0 starts each run at once). Printed:
 * - from a completed line of the reply reaching the extension host to its being in the document
 *   (the extension host hears of the change back from the workbench): p50, p95 and the longest,
 *   over every code line of every run;
 * - the longest extension-host task while the reply streamed (the longest stall of a 5 ms timer
 *   in the extension host), and the longest of the edit's own handling of one piece of the reply.
 * Then where the time goes: how long a line waited for the edit under way, each edit's round trip
 * (call -> the extension host hears the change; -> the call's promise), the round trip of a bare
 * one-line edit in the same file for comparison, how often the preview's decorations were set,
 * and the window's (renderer's) long tasks while the reply streamed. `--profile`: CPU profiles of
 * the window and of the extension host over the measured runs (written to the temp folder, the
 * functions with the most self time printed; profiling slows both, so its figures are not the
 * benchmark's). `--plain`: the same file as plain text, to tell VS Code's TypeScript language
 * features' work after each edit apart from the edit's own.
 * No figure is asserted: a benchmark prints numbers. The last line is JSON for scripts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { DEMO_KEY } from '../../test/server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../test/server/server';
import { demoSettings, ensureSystem, ensureToolchain, freePort, installExtension, prepareProfile, profileIn, ROOT, startCodeServer, type CodeServer } from '../../test/e2e/launcher';
import { summarize, type CpuProfile } from '../history/inspect';
import type { BenchConfig, BenchOutput } from './harness';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const RUNS = Number(arg('runs', '20'));
const CHUNK = Number(arg('chunk', '24'));
const DELAY_MS = Number(arg('delay', '15'));
const LINES = Number(arg('lines', '5000'));
const TIMEOUT_S = Number(arg('timeout', '600'));
const PAUSE_MS = Number(arg('pause', '1000'));
const PROFILE = process.argv.includes('--profile');
/** `--plain`: the same file as plain text (`.txt`), without the TypeScript language features' work after each edit. */
const PLAIN = process.argv.includes('--plain');

/** Collects the page's long tasks (wall clock), from before the workbench loads. */
function watchLongTasks(): void {
  const w = window as unknown as { benchLongTasks?: Array<[number, number]> };
  w.benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.benchLongTasks?.push([performance.timeOrigin + e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing here
  }
}

function chromiumPath(): string {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) if (p && existsSync(p)) return p;
  throw new Error('Debian chromium not found: run `bash scripts/ensure-system.sh`');
}

/** The harness extension, bundled and packed; returns the .vsix path. */
async function buildHarness(dir: string, config: BenchConfig): Promise<string> {
  const folder = path.join(dir, 'bench-edit');
  mkdirSync(folder, { recursive: true });
  await build({ entryPoints: [path.join(__dirname, 'harness.ts')], outfile: path.join(folder, 'extension.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'error' });
  const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { vscode: string } };
  const manifest = {
    name: 'bench-edit',
    displayName: 'Edit in the editor benchmark',
    description: 'Runs the Edit Selection benchmark on startup and writes the figures to a file.',
    version: '0.0.1',
    publisher: 'ai-chat-tests',
    license: 'MIT',
    private: true,
    engines: { vscode: root.engines.vscode },
    main: './extension.js',
    activationEvents: ['onStartupFinished'],
  };
  writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(folder, 'bench.json'), `${JSON.stringify(config)}\n`);
  writeFileSync(path.join(folder, 'README.md'), '# Edit in the editor benchmark\n\nBuilt and installed by the benchmark only.\n');
  const vsix = path.join(dir, 'bench-edit.vsix');
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: folder,
    encoding: 'utf8',
  });
  if (r.status !== 0 || !existsSync(vsix)) throw new Error(`packing the benchmark extension failed:\n${`${r.stdout}${r.stderr}`.slice(-4000)}`);
  return vsix;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<number> {
  ensureSystem();
  const tc = ensureToolchain();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-bench-edit-'));
  let server: ReferenceServer | undefined;
  let code: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startReferenceServer({ port: await freePort(), quiet: true, chunkSize: CHUNK, chunkDelayMs: DELAY_MS });
    const results = path.join(dir, 'results.json');
    const hostProfile = path.join(os.tmpdir(), 'bench-edit-exthost.cpuprofile');
    const vsix = await buildHarness(dir, { results, baseUrl: server.url, key: DEMO_KEY, model: 'swift-chat', runs: RUNS, fileLines: LINES, pauseMs: PAUSE_MS, fileType: PLAIN ? 'txt' : 'ts', ...(PROFILE ? { profile: hostProfile } : {}) });
    const profile = profileIn(dir);
    prepareProfile(profile, demoSettings(server.url));
    installExtension(tc, profile, vsix);
    code = await startCodeServer(tc, profile, { port: await freePort(), logFile: path.join(dir, 'code-server.log') });
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(watchLongTasks);
    await page.goto(`${code.url}?folder=${encodeURIComponent(profile.workspace)}`);
    const deadline = Date.now() + TIMEOUT_S * 1000;
    const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
    let profiling = false;
    while (!existsSync(results) && Date.now() < deadline) {
      if (cdp && !profiling && existsSync(`${results}.measuring`)) {
        profiling = true;
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await new Promise((r) => setTimeout(r, profiling ? 500 : 50));
    }
    const windowProfile = profiling ? ((await cdp?.send('Profiler.stop')) as { profile: CpuProfile } | undefined)?.profile : undefined;
    if (!existsSync(results)) throw new Error(`no figures within ${TIMEOUT_S} s; logs in ${dir}`);
    const out = JSON.parse(readFileSync(results, 'utf8')) as BenchOutput;
    if ('error' in out) throw new Error(`the benchmark failed in the extension host:\n${out.error}`);
    const allLongTasks = await page.evaluate<Array<[number, number]>>(() => (window as unknown as { benchLongTasks?: Array<[number, number]> }).benchLongTasks ?? []);
    const longTasks = allLongTasks.filter(([at, d]) => out.runs.some((r) => at + d >= r.window[0] && at <= r.window[1]));
    const streamingMs = out.runs.reduce((s, r) => s + r.window[1] - r.window[0], 0);
    const lines = out.runs.flatMap((r) => r.lineMs).sort((a, b) => a - b);
    const stalls = out.runs.map((r) => r.stallMs).sort((a, b) => a - b);
    const own = out.runs.map((r) => r.ownMs).sort((a, b) => a - b);
    const outcomes = [...new Set(out.runs.map((r) => r.outcome))].join(', ');
    const unmeasured = out.runs.reduce((s, r) => s + r.unmeasured, 0);
    console.log('Edit Selection… streaming into the editor');
    console.log(`  driven in a real VS Code: code-server's extension host, the workbench in headless Chromium; reference server, ${CHUNK}-character pieces every ${DELAY_MS} ms; ${PAUSE_MS} ms between runs`);
    console.log(`  a ${out.file} file, ${out.selection} selected; ${out.runs.length} runs after one warm-up (outcome: ${outcomes}; file restored by Undo Edit: ${out.runs.every((r) => r.restored) ? 'every run' : 'NOT every run'})`);
    console.log(`  line reaching the extension host -> in the document: p50 ${ms(percentile(lines, 50))}, p95 ${ms(percentile(lines, 95))}, longest ${ms(lines.at(-1) ?? NaN)} (${lines.length} lines${unmeasured ? `, ${unmeasured} not measured` : ''})`);
    console.log(`  longest extension-host task while streaming (5 ms timer stall): longest ${ms(stalls.at(-1) ?? NaN)}, p50 of the runs ${ms(percentile(stalls, 50))}`);
    console.log(`  longest handling of one piece of the reply by the edit: ${ms(own.at(-1) ?? NaN)}`);
    const sorted = (xs: number[]) => xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    const spread = (xs: number[]) => {
      const s = sorted(xs);
      return `p50 ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}, longest ${ms(s.at(-1) ?? NaN)}`;
    };
    const edits = out.runs.flatMap((r) => r.heardMs);
    console.log('  where the time goes:');
    console.log(`    a line waiting for the edit under way before the edit carrying it is called: ${spread(out.runs.flatMap((r) => r.waitMs))}`);
    console.log(`    an edit of the preview, call -> change heard in the extension host: ${spread(edits)} (${edits.length} edits, ${(edits.length / out.runs.length).toFixed(1)} a run)`);
    console.log(`    the same edit, call -> its promise resolved: ${spread(out.runs.flatMap((r) => r.doneMs))}`);
    // The first edits of a reply against the later ones (what the window does as the reply begins).
    const byIndex = [0, 1, 2, 3].map((i) => out.runs.map((r) => r.heardMs[i]).filter((x) => x !== undefined));
    console.log(`    the same by edit of the reply, call -> change heard: ${byIndex.map((xs, i) => `#${i + 1} p50 ${ms(percentile(sorted(xs), 50))} / p95 ${ms(percentile(sorted(xs), 95))}`).join('; ')}`);
    console.log(`    a bare one-line edit in the same file, nothing else going on, call -> change heard: ${spread(out.bare.heardMs)}; -> promise: ${spread(out.bare.doneMs)}`);
    console.log(`    the preview's decorations set ${(out.runs.reduce((s, r) => s + r.decorations, 0) / out.runs.length).toFixed(1)} times a run; longest ${ms(Math.max(...out.runs.map((r) => r.decorateMs)))}`);
    const slow = out.runs
      .flatMap((r, run) => r.lineMs.map((ms, k) => ({ ms, run: run + 1, ...r.lineAt[k], wait: r.waitMs[k] })))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6);
    for (const l of slow) {
      console.log(
        `    slow: ${ms(l.ms)} run ${l.run}, code line ${l.line + 1}, arrived ${ms(l.sinceStart)} after the command; waited ${ms(l.wait ?? NaN)}, carried by edit ${l.edit + 1}${l.review ? ' (the review\'s)' : ''} (round trip ${ms(l.editMs)})`,
      );
    }
    const busy = longTasks.reduce((s, [, d]) => s + d, 0);
    console.log(
      `    the window's long tasks (over 50 ms) while streaming: ${longTasks.length}, longest ${ms(Math.max(0, ...longTasks.map(([, d]) => d)))}, ${((100 * busy) / streamingMs).toFixed(0)}% of the streaming time`,
    );
    if (windowProfile) for (const line of summarize(windowProfile, path.join(os.tmpdir(), 'bench-edit-window.cpuprofile'), 25)) console.log(`    window: ${line}`);
    if (PROFILE && existsSync(hostProfile)) {
      const hp = JSON.parse(readFileSync(hostProfile, 'utf8')) as CpuProfile;
      for (const line of summarize(hp, hostProfile, 25)) console.log(`    extension host: ${line}`);
    }
    console.log(JSON.stringify({ runs: out.runs.length, lineP50: percentile(lines, 50), lineP95: percentile(lines, 95), lineMax: lines.at(-1), stallMax: stalls.at(-1), ownMax: own.at(-1) }));
    rmSync(dir, { recursive: true, force: true });
    return 0;
  } finally {
    await browser?.close().catch(() => undefined);
    await code?.stop();
    await server?.close().catch(() => undefined);
  }
}

main().then(
  (status) => process.exit(status),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
