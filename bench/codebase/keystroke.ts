/**
 * `npm run bench:keystroke:index`: typing in a real VS Code editor (code-server with the packaged
 * extension, driven by Playwright in Debian Chromium) with the codebase index idle and while it
 * builds cold, side by side in one run. A benchmark: it prints figures and asserts nothing.
 *
 * The workspace holds `--files=` generated TypeScript files (default 8,000, about 8 KB each), so a
 * cold index takes a while. Rounds alternate (`--rounds=`, default 5, `--keys=` keys each,
 * default 40: 200 keys a side) so both sides share the machine's noise:
 * - idle: `aiChat.codebase.enabled` off (no worker);
 * - indexing: the persisted index deleted, the setting turned on: the worker builds cold. The
 *   status bar item "Indexing… N of M" is checked at every key; keys typed after it went away
 *   are counted apart (and left out of the indexing side).
 * Keys come in bursts (`--burst=`, default 10) with a pause after each (`--pause-ms=`, default
 * 1500, longer than the second the build rests after a key), as a user pauses to think: the build
 * goes on in the pauses, so each burst's first keys land on a working build, not on a resting one.
 * For each key: from the keydown's event time to the frame that shows it (the next animation
 * frame after the keydown, then a task: the paint has happened), in the workbench page.
 * `--skip-build` uses the .vsix already in dist/. The last line is for scripts.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { f1, keySummary, launchWorkbenchBrowser, quantile } from '../workbenchBrowser';
import { profileIn, startDemo } from '../../test/e2e/launcher';
import { Workbench, waitFor } from '../../test/e2e/workbench';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const FILES = Number(arg('files', '8000'));
const ROUNDS = Number(arg('rounds', '5'));
const KEYS = Number(arg('keys', '40'));
const BURST = Number(arg('burst', '10'));
const PAUSE_MS = Number(arg('pause-ms', '1500'));
const SKIP_BUILD = process.argv.includes('--skip-build');
const TYPED = 'notes.txt';

/** A generated module: 40 functions with names of their own (about 8 KB). */
function moduleText(k: number): string {
  const words = ['ledger', 'invoice', 'payment', 'customer', 'session', 'report', 'schedule', 'account', 'render', 'parse', 'token', 'buffer'];
  const w = (i: number) => words[(k * 7 + i * 3) % words.length];
  return Array.from(
    { length: 40 },
    (_, i) => `export function ${w(i)}${w(i + 1)[0].toUpperCase()}${w(i + 1).slice(1)}${k}x${i}(input: string, count = ${i}): string {\n  // ${w(i + 2)} of module ${k}\n  return input.repeat(count).slice(0, ${k % 97});\n}\n`,
  ).join('\n');
}

function writeWorkspace(dir: string): number {
  let bytes = 0;
  for (let k = 0; k < FILES; k++) {
    const folder = path.join(dir, 'src', `area${k % 100}`);
    if (k < 100) mkdirSync(folder, { recursive: true });
    const text = moduleText(k);
    bytes += text.length;
    writeFileSync(path.join(folder, `module${k}.ts`), text);
  }
  writeFileSync(path.join(dir, TYPED), 'Notes\n\n');
  setIndexing(dir, false);
  return bytes;
}

/** Turns the index on or off in the workspace's .vscode/settings.json (the window applies it). */
function setIndexing(workspace: string, on: boolean): void {
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, '.vscode', 'settings.json'), `${JSON.stringify({ 'aiChat.codebase.enabled': on }, null, 2)}\n`);
}

/** Deletes every persisted codebase index of the profile (the next build is cold). */
function deleteIndexes(userDataDir: string): number {
  const root = path.join(userDataDir, 'User', 'workspaceStorage');
  let n = 0;
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'codebase') {
          rmSync(p, { recursive: true, force: true });
          n++;
        } else walk(p);
      }
    }
  };
  walk(root);
  return n;
}

interface Key {
  ms: number;
  indexing: boolean;
}

/** Records, for every key typed into the editor, keydown-to-paint and whether "Indexing…" was shown. */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __keys: Array<{ ms: number; indexing: boolean }> };
    w.__keys = [];
    document.addEventListener(
      'keydown',
      (e) => {
        // The keys typed (letters, space, Enter), not the click and Ctrl+End that place the cursor.
        if (!(e.target instanceof HTMLElement) || !e.target.closest('.monaco-editor') || e.ctrlKey || (e.key.length !== 1 && e.key !== 'Enter')) return;
        const t0 = e.timeStamp;
        requestAnimationFrame(() =>
          setTimeout(() => {
            const ms = performance.now() - t0;
            const indexing = [...document.querySelectorAll('.statusbar-item')].some((s) => (s.textContent ?? '').includes('Indexing…'));
            w.__keys.push({ ms, indexing });
          }, 0),
        );
      },
      { capture: true },
    );
  });
}

async function typeRound(page: Page, count: number): Promise<Key[]> {
  await page.evaluate(() => ((window as unknown as { __keys: unknown[] }).__keys = []));
  for (let i = 0; i < count; i++) {
    // A pause to think: the same on both sides (the build, if any, goes on meanwhile).
    if (i > 0 && i % BURST === 0) await new Promise((res) => setTimeout(res, PAUSE_MS));
    await page.keyboard.press(i % 40 === 39 ? 'Enter' : i % 8 === 7 ? 'Space' : 'abcdefgh'[i % 8]);
    // One key at a time: the next is pressed once this one is painted.
    await page.waitForFunction((n) => (window as unknown as { __keys: unknown[] }).__keys.length >= n, i + 1, { polling: 'raf', timeout: 30_000 });
  }
  return page.evaluate(() => (window as unknown as { __keys: Array<{ ms: number; indexing: boolean }> }).__keys);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-bench-kbd-index-'));
  const log = (msg: string) => console.log(`  ${msg}`);
  const profile = profileIn(dir);
  mkdirSync(profile.workspace, { recursive: true });
  const bytes = writeWorkspace(profile.workspace);
  console.log(`bench:keystroke:index: ${FILES.toLocaleString('en-US')} generated files (${(bytes / 1e6).toFixed(1)} MB), ${ROUNDS} rounds of ${KEYS} keys idle / indexing (load average ${os.loadavg()[0].toFixed(1)})`);
  const demo = await startDemo({
    dir,
    skipBuild: SKIP_BUILD,
    settings: { 'editor.quickSuggestions': { other: false, comments: false, strings: false }, 'editor.wordBasedSuggestions': 'off', 'files.autoSave': 'off' },
    log,
  });
  const browser = await launchWorkbenchBrowser();
  const idle: number[] = [];
  const indexing: number[] = [];
  // Each burst's first keys apart from the rest: a build that resumed in the pause shows there.
  const HEAD = 3;
  const head = { idle: [] as number[], indexing: [] as number[] };
  const heads = (keys: Key[]) => keys.filter((_, i) => i % BURST < HEAD);
  let after = 0;
  const rounds: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const wb = new Workbench(page, demo.code.url);
    await wb.open();
    await wb.openFile(TYPED);
    await installProbe(page);
    const status = page.locator('.statusbar-item').filter({ hasText: 'Indexing…' }).first();
    const typeInEditor = async (count: number) => {
      await wb.editor().click();
      await page.keyboard.press('Control+End');
      return typeRound(page, count);
    };
    // A first round, not counted: the editor and the page warm up.
    await typeInEditor(20);
    for (let r = 1; r <= ROUNDS; r++) {
      const a = await typeInEditor(KEYS);
      idle.push(...a.map((k) => k.ms));
      head.idle.push(...heads(a).map((k) => k.ms));

      deleteIndexes(profile.userDataDir);
      const t0 = Date.now();
      setIndexing(profile.workspace, true);
      await status.waitFor({ timeout: 60_000 }).catch(async (err: unknown) => {
        const items = await page.locator('.statusbar-item').allTextContents();
        throw new Error(`the status bar never showed "Indexing…" (it shows: ${items.map((t) => t.trim()).filter(Boolean).join(' | ')})`, { cause: err });
      });
      const b = await typeInEditor(KEYS);
      const during = b.filter((k) => k.indexing).map((k) => k.ms);
      indexing.push(...during);
      head.indexing.push(...heads(b).filter((k) => k.indexing).map((k) => k.ms));
      after += b.length - during.length;
      const shown = (await status.textContent().catch(() => null))?.trim() ?? 'built';
      rounds.push(`round ${r}: idle ${keySummary(a.map((k) => k.ms))}\n           indexing ${keySummary(during)}${b.length - during.length ? ` (${b.length - during.length} keys after the index was built, left out)` : ''}; at the round's end: ${shown.replace(/^\W+/, '')} (${((Date.now() - t0) / 1000).toFixed(1)} s after it was turned on)`);
      console.log(`  ${rounds[rounds.length - 1]}`);

      // Off again: the worker saves and stops; its index is deleted before the next cold build.
      setIndexing(profile.workspace, false);
      await waitFor(async () => (await status.count()) === 0, 'the index did not stop', 30_000);
      await new Promise((res) => setTimeout(res, 4000)); // the stopped worker's last save (it ends within 3 s)
      deleteIndexes(profile.userDataDir);
    }
  } finally {
    await browser.close().catch(() => undefined);
    await demo.stop();
    if (process.env.KEEP_BENCH_DIR) console.log(`  kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  console.log(`Keystroke to paint in a VS Code editor (code-server, ${FILES.toLocaleString('en-US')} files in the workspace), ${ROUNDS} alternating rounds of ${KEYS} keys in bursts of ${BURST}, ${PAUSE_MS} ms apart:`);
  console.log(`  index idle (off):        ${keySummary(idle)}`);
  console.log(`  index building (cold):   ${keySummary(indexing)}${after ? `; ${after} keys typed after a build ended left out` : ''}`);
  console.log(`  the first ${HEAD} keys of each burst: idle p50 ${f1(quantile(head.idle, 0.5))} / p95 ${f1(quantile(head.idle, 0.95))} ms, building p50 ${f1(quantile(head.indexing, 0.5))} / p95 ${f1(quantile(head.indexing, 0.95))} ms`);
  const d95 = quantile(indexing, 0.95) - quantile(idle, 0.95);
  console.log(`  p95 difference: ${d95 >= 0 ? '+' : ''}${f1(d95)} ms (goal: within 5 ms: ${Math.abs(d95) <= 5 ? 'met' : 'not met'} in this run)`);
  console.log(`keystroke-index: idleP95=${f1(quantile(idle, 0.95))} indexingP95=${f1(quantile(indexing, 0.95))} idleMax=${f1(Math.max(...idle))} indexingMax=${f1(Math.max(...indexing))} keys=${idle.length}/${indexing.length}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
