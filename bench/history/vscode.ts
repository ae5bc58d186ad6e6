/**
 * `npm run bench:history -- --vscode [--conversations 10000] [--turns 1000] [--skip-build]`: History
 * in code-server (run it under the e2e lock). N conversations (4 turns each, the newest one `--turns`
 * turns) are written as logs into a fresh profile with neither index (as after a crash, or the
 * upgrade from 0.1.0 files); then, through the real History quick pick, driven by Playwright:
 *
 *   first items, no index     the command run (Enter in the palette) to the first conversation on
 *                             screen, while the history index is rebuilt
 *   found while indexing      a phrase inside a message of the newest conversation, typed while the
 *                             quick pick says "Indexing… N of M": the keystroke to its result
 *   first items, index        the same first open once both indexes are built (History reopened)
 *   search p95                a phrase inside one conversation (20 taken at random), typed to its result
 *   extension host memory     the JS heap of the extension host (after a full collection, read
 *                             through its inspector, bench/history/inspect.ts) with every
 *                             conversation indexed, over the same process before History was first
 *                             opened; and its resident size the same way
 *
 * `--profile`: CPU profiles of the extension host while History first opens and while the 20
 * searches run (the functions with the most self time are printed; the profiles are written
 * beside the figures for DevTools).
 *
 * Figures only: nothing here asserts a time. The last line is for scripts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { appendMessage, createConversation, encodeLog } from '../../src/core';
import { EXTENSION_ID, startDemo } from '../../test/e2e/launcher';
import { Workbench, waitFor } from '../../test/e2e/workbench';
import { HostInspector, summarize } from './inspect';
import { rng, vocabulary, zipfText } from './words';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

const phrase = (c: number, t: number) => `how do I do thing ${c}x${t}?`;
const query = (c: number) => `thing ${c}x1`;
const titleOf = (c: number) => `Bench conversation ${c}`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

function seed(folder: string, count: number, longTurns: number): void {
  mkdirSync(folder, { recursive: true });
  const rand = rng(49);
  const words = vocabulary(3000, rand);
  const text = (chars: number) => zipfText(words, rand, chars);
  const base = Date.parse('2025-11-01T00:00:00Z');
  for (let c = 0; c < count; c++) {
    const turns = c === count - 1 ? Math.max(4, longTurns) : 4;
    const conv = createConversation(`bench-${c}`, new Date(base + c * 60_000));
    for (let t = 0; t < turns; t++) {
      const at = new Date(base + c * 60_000 + t * 1000);
      appendMessage(conv, 'user', `${phrase(c, t)} ${text(60)}`, at);
      appendMessage(conv, 'assistant', text(500), at, { meta: { model: 'swift-chat', credits: 1 } });
    }
    conv.title = titleOf(c);
    const file = path.join(folder, `${conv.id}.jsonl`);
    writeFileSync(file, encodeLog(conv, conv.messages.map((_, i) => `b.${i}`)));
    const when = new Date(base + c * 1000);
    utimesSync(file, when, when);
  }
}

/** This code-server's extension host (in code-server's process group): its pid and resident size, bytes. */
function extensionHost(group: number | undefined): { pid: number; rss: number } | undefined {
  const out = execFileSync('ps', ['-eo', 'pgid=,pid=,rss=,args='], { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 });
  const f = out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => Number(f[0]) === group && f.includes('--type=extensionHost'));
  return f && { pid: Number(f[1]), rss: Number(f[2]) * 1024 };
}

async function main(): Promise<void> {
  const count = arg('conversations', 10000);
  const longTurns = arg('turns', 1000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-bench-vscode-'));
  const folder = path.join(dir, 'user-data', 'User', 'globalStorage', EXTENSION_ID, 'conversations');
  let t0 = performance.now();
  seed(folder, count, longTurns);
  // --current: the long conversation was the current one when the last window closed, so the
  // window's first History also reopens it (as after a reload with the chat not on screen).
  const current = process.argv.includes('--current');
  if (current) writeFileSync(path.join(folder, 'current-conversation'), `bench-${count - 1}`);
  console.log(`Seeded ${count} conversations (the newest ${longTurns} turns${current ? ', the current one' : ''}) in ${ms(performance.now() - t0)}, no index`);
  const demo = await startDemo({ dir, skipBuild: process.argv.includes('--skip-build'), log: (m) => console.log(`  ${m}`) });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'en-US' })).newPage();
    const wb = new Workbench(page, demo.code.url);
    await wb.open();
    const host = extensionHost(demo.code.process.pid);
    const rssBefore = host?.rss ?? 0;
    const inspector = host && (await HostInspector.attach(host.pid));
    if (!inspector) console.log('  (the extension host inspector could not be opened: its heap is not measured)');
    const heapBefore = (await inspector?.heapUsed()) ?? 0;
    const profiling = !!inspector && process.argv.includes('--profile');
    const profiles: string[] = [];
    const box = page.locator('.quick-input-widget input[placeholder^="Search every message"]');
    const title = () => wb.quickInput().locator('.quick-input-title').innerText().catch(() => '');
    const row = (text: string, matching = false) => {
      const r = wb.quickPickRows().filter({ hasText: text });
      return (matching ? r.filter({ hasText: /matching message/ }) : r).first();
    };
    /** Runs Show History; the time from Enter to the first conversation listed. */
    const open = async () => {
      await wb.openPalette();
      await wb.quickInputBox().fill('>AI Chat: Show History');
      await wb.quickInput().locator('.monaco-list-row[aria-label^="AI Chat: Show History"]').first().waitFor();
      const start = performance.now();
      await wb.quickInputBox().press('Enter');
      await box.waitFor({ state: 'visible' });
      await row('Bench conversation').waitFor({ state: 'visible', timeout: 120_000 });
      return performance.now() - start;
    };
    /** Types a query; the time from the keystroke to its conversation listed as a match. */
    /** In the page: the input event to the row in the list (what Playwright's own steps add is left out). */
    const inPage: number[] = [];
    const find = async (c: number) => {
      // (A string: the functions tsx compiles carry a helper the page does not have.)
      await page.evaluate(`(() => {
        const title = ${JSON.stringify(titleOf(c))};
        window.benchInput = window.benchRow = undefined;
        const input = document.querySelector('.quick-input-widget input');
        input?.addEventListener('input', () => (window.benchInput ??= performance.now()), { once: true });
        const list = document.querySelector('.quick-input-widget .quick-input-list') ?? document.body;
        const observer = new MutationObserver(() => {
          const seen = [...list.querySelectorAll('.monaco-list-row')].some((r) => r.textContent?.includes(title) && /matching message/.test(r.textContent));
          if (window.benchInput !== undefined && seen) {
            window.benchRow = performance.now();
            observer.disconnect();
          }
        });
        observer.observe(list, { childList: true, subtree: true, characterData: true });
      })()`);
      const start = performance.now();
      await box.fill(query(c));
      await row(titleOf(c), true).waitFor({ state: 'visible', timeout: 120_000 });
      const elapsed = performance.now() - start;
      const t = await page.evaluate<{ benchInput?: number; benchRow?: number }>('({ benchInput: window.benchInput, benchRow: window.benchRow })');
      if (t.benchInput !== undefined && t.benchRow !== undefined) inPage.push(t.benchRow - t.benchInput);
      return elapsed;
    };

    if (profiling) await inspector.startProfile();
    const firstNoIndex = await open();
    if (profiling) profiles.push('first open, no index:', ...(await inspector.stopProfile(path.join(os.tmpdir(), 'history-first-open.cpuprofile'))));
    const titleAtFirst = await title();
    const foundWhileBuilding = await find(count - 1);
    const titleAtFound = await title();
    t0 = performance.now();
    await waitFor(async () => !/Indexing|Loading/.test(await title()), 'the index was not built', 30 * 60_000);
    const buildS = (performance.now() - t0 + firstNoIndex + foundWhileBuilding) / 1000;
    await wb.closeQuickInput();
    if (profiling) await inspector.startProfile();
    const firstIndexed = await open();
    if (profiling) profiles.push('first open, index built:', ...(await inspector.stopProfile(path.join(os.tmpdir(), 'history-open-indexed.cpuprofile'))));
    const rand = rng(7);
    const times: number[] = [];
    inPage.length = 0;
    const cdp = profiling ? await page.context().newCDPSession(page) : undefined;
    if (profiling) {
      await inspector.startProfile();
      await cdp?.send('Profiler.enable');
      await cdp?.send('Profiler.start');
    }
    for (let i = 0; i < 20; i++) times.push(await find(Math.floor(rand() * count)));
    if (profiling) {
      profiles.push('20 searches, extension host:', ...(await inspector.stopProfile(path.join(os.tmpdir(), 'history-search.cpuprofile'))));
      const { profile } = (await cdp?.send('Profiler.stop')) ?? {};
      if (profile) profiles.push('20 searches, the window:', ...summarize(profile, path.join(os.tmpdir(), 'history-search-window.cpuprofile')));
    }
    await wb.closeQuickInput();
    const rssAfter = extensionHost(demo.code.process.pid)?.rss ?? 0;
    const heapAfter = (await inspector?.heapUsed()) ?? 0;
    inspector?.close();
    for (const line of profiles) console.log(`  ${line}`);

    console.log('');
    console.log(`History in code-server, ${count} conversations (one of ${longTurns} turns) (goal in brackets):`);
    console.log(`  first conversations on screen, no index: ${ms(firstNoIndex)} after the command (<= 300); the title then: "${titleAtFirst}"`);
    console.log(`  a phrase of the newest conversation, typed while indexing: found in ${ms(foundWhileBuilding)}; the title then: "${titleAtFound}"`);
    console.log(`  both indexes built in the background in about ${buildS.toFixed(1)} s`);
    console.log(`  first conversations on screen, index built: ${ms(firstIndexed)} (<= 300)`);
    console.log(`  search, keystroke to the conversation listed: p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))} (p95 <= 100)`);
    if (inPage.length) console.log(`  the same in the page, input event to the row in the list: p50 ${ms(percentile(inPage, 50))}, p95 ${ms(percentile(inPage, 95))} (${inPage.length} of 20)`);
    const mb = (n: number) => (n / 2 ** 20).toFixed(1);
    if (inspector) {
      console.log(`  extension host JS heap: ${mb(heapAfter - heapBefore)} MB more with every conversation indexed than before History opened (<= 150); ${mb(heapBefore)} MB before, ${mb(heapAfter)} MB after`);
    }
    console.log(`  extension host resident memory: ${mb(rssAfter - rssBefore)} MB more than before History opened (resident size: not what the goal measures)`);
    console.log(
      `vscode: conversations=${count} firstNoIndexMs=${firstNoIndex.toFixed(0)} foundWhileBuildingMs=${foundWhileBuilding.toFixed(0)} firstIndexedMs=${firstIndexed.toFixed(0)} ` +
        `searchP95Ms=${percentile(times, 95).toFixed(0)} exthostHeapMB=${inspector ? mb(heapAfter - heapBefore) : 'n/a'} exthostRssMB=${mb(rssAfter - rssBefore)}`,
    );
  } finally {
    await browser.close();
    await demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
