// Root hooks of the end-to-end run: one reference server, one code-server with the
// packaged extension, one Chromium page for every journey (the journeys run in file
// order and each sets up what it needs through the UI). A failed journey keeps a
// screenshot, the extension's "AI Chat" log and code-server's log under
// test-results/failures/.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context, Suite, Test } from 'mocha';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT, startDemo, type Demo } from './launcher';
import { Workbench } from './workbench';

export const RESULTS = path.join(ROOT, 'test-results');
export const SCREENSHOTS = path.join(RESULTS, 'screenshots');
const LEGACY_CONVERSATIONS = path.join(ROOT, 'test', 'fixtures', 'storage-0.1.0', 'conversations');
const FAILURES = path.join(RESULTS, 'failures');

interface E2E {
  demo: Demo;
  browser: Browser;
  page: Page;
  wb: Workbench;
}

let current: E2E | undefined;
let profileDir: string | undefined;

/** The running demo, browser page and workbench helpers (inside a journey). */
export function e2e(): E2E {
  if (!current) throw new Error('the e2e environment did not start (see the before-all hook failure)');
  return current;
}

function chromiumPath(): string {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && existsSync(p)) return p;
  }
  throw new Error('Debian chromium not found: run `bash scripts/ensure-system.sh`');
}

/** Every `*AI Chat*.log` under the user-data-dir's logs folder, oldest session first. */
export function extensionLogs(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/AI Chat.*\.log$/.test(name)) found.push(p);
    }
  };
  walk(path.join(userDataDir, 'logs'));
  return found.sort();
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

/**
 * With E2E_RESULTS set (the soak, test/e2e/soak.ts), one JSON line per test run is appended to
 * that file: its journey (the top describe), title, state and duration in milliseconds.
 */
function recordResult(test: Test): void {
  const file = process.env.E2E_RESULTS;
  if (!file) return;
  const line = { journey: journeyOf(test), title: test.title, state: test.state ?? 'unknown', ms: test.duration ?? 0 };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

function journeyOf(test: Test): string {
  let journey: Suite | undefined = test.parent;
  while (journey?.parent && !journey.parent.root) journey = journey.parent;
  return journey?.title ?? test.title;
}

/**
 * Time per journey, printed at the end of the run (slowest first): its tests alone, and its wall
 * time (from its first test's start to the next journey's, so with its hooks and the reset before
 * each test).
 */
const journeyMs = new Map<string, { tests: number; wall: number }>();
let startMs = 0;
let open: { journey: string; at: number } | undefined;

function closeJourney(now: number): void {
  if (!open) return;
  const row = journeyMs.get(open.journey) ?? { tests: 0, wall: 0 };
  row.wall += now - open.at;
  journeyMs.set(open.journey, row);
  open = undefined;
}

function startTest(test: Test | undefined): void {
  if (!test) return;
  const journey = journeyOf(test);
  if (open?.journey === journey) return;
  const now = Date.now();
  closeJourney(now);
  open = { journey, at: now };
}

function addDuration(test: Test): void {
  const key = journeyOf(test);
  const row = journeyMs.get(key) ?? { tests: 0, wall: 0 };
  row.tests += test.duration ?? 0;
  journeyMs.set(key, row);
}

function printDurations(): void {
  closeJourney(Date.now());
  if (journeyMs.size === 0) return;
  const rows = [...journeyMs].sort((a, b) => b[1].wall - a[1].wall);
  const sum = (f: (r: { tests: number; wall: number }) => number) => (rows.reduce((n, [, r]) => n + f(r), 0) / 1000).toFixed(1);
  console.log(`\n  Time per journey, slowest first (${(startMs / 1000).toFixed(1)} s to start code-server; ${sum((r) => r.wall)} s in journeys, ${sum((r) => r.tests)} s of it in tests):`);
  console.log('     wall    tests');
  for (const [title, r] of rows) console.log(`  ${(r.wall / 1000).toFixed(1).padStart(7)} ${(r.tests / 1000).toFixed(1).padStart(7)} s  ${title}`);
}

export const mochaHooks = {
  async beforeAll(this: Context) {
    this.timeout(15 * 60_000); // a first run builds code-server's native modules
    const started = Date.now();
    rmSync(FAILURES, { recursive: true, force: true });
    mkdirSync(SCREENSHOTS, { recursive: true });
    // A fresh VS Code profile per run (user data, extensions, demo project), removed at the end.
    profileDir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-e2e-'));
    const demo = await startDemo({
      dir: profileDir,
      skipBuild: process.env.E2E_SKIP_BUILD === '1',
      // The walkthrough moves the focus to a step it opens after its animation unless motion is
      // reduced: then at once, so that a journey can wait for the focus instead of for time.
      settings: { 'workbench.welcomePage.preferReducedMotion': true },
      // Conversations saved by 0.1.0 (no current-conversation pointer, so every journey starts on a
      // new chat): journey 10 opens them after the upgrade.
      seedGlobalStorage: readdirSync(LEGACY_CONVERSATIONS)
        .filter((n) => n.endsWith('.json'))
        .map((n) => ({ from: path.join(LEGACY_CONVERSATIONS, n), to: path.join('conversations', n) })),
      log: (msg) => console.log(`  ${msg}`),
    });
    try {
      const browser = await chromium.launch({
        executablePath: chromiumPath(),
        headless: process.env.E2E_HEADED !== '1',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
      });
      const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'en-US' });
      const page = await context.newPage();
      const wb = new Workbench(page, demo.code.url);
      current = { demo, browser, page, wb };
      await wb.open();
      startMs = Date.now() - started;
    } catch (err) {
      await demo.stop();
      throw err;
    }
  },

  async beforeEach(this: Context) {
    startTest(this.currentTest);
    // Each journey starts from a quiet workbench, whatever the previous one left open.
    if (current) await current.wb.resetUi().catch(() => {});
  },

  async afterEach(this: Context) {
    const test = this.currentTest;
    if (test) {
      recordResult(test);
      addDuration(test);
    }
    if (!test || test.state !== 'failed' || !current) return;
    const name = slug(test.fullTitle());
    mkdirSync(FAILURES, { recursive: true });
    try {
      await current.page.screenshot({ path: path.join(FAILURES, `${name}.png`) });
    } catch {
      /* page gone */
    }
    const logs = extensionLogs(current.demo.profile.userDataDir);
    logs.forEach((file, i) => copyFileSync(file, path.join(FAILURES, `${name}.ai-chat.${i + 1}.log`)));
    if (logs.length === 0) writeFileSync(path.join(FAILURES, `${name}.ai-chat.log`), '(no "AI Chat" log found)\n');
    if (existsSync(current.demo.code.logFile)) copyFileSync(current.demo.code.logFile, path.join(FAILURES, `${name}.code-server.log`));
    console.log(`      kept: test-results/failures/${name}.png and its logs`);
  },

  async afterAll(this: Context) {
    this.timeout(60_000);
    printDurations();
    if (current) {
      const { browser, demo } = current;
      current = undefined;
      await browser.close().catch(() => {});
      await demo.stop();
    }
    if (profileDir && process.env.E2E_KEEP_PROFILE !== '1') rmSync(profileDir, { recursive: true, force: true });
  },
};
