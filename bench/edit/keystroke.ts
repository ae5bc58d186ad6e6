/**
 * `npm run bench:keystroke:edit`: typing in one editor of a real VS Code (code-server with the
 * packaged extension and the reference server, driven by Playwright in Debian Chromium) while Edit
 * in the editor streams a reply into a file in the editor beside it, and the same typing with no
 * edit, side by side in one run. A benchmark: it prints figures and asserts nothing.
 *
 * The workspace holds a TypeScript file of `--file-lines=` lines (default 2,000) and `notes.txt`,
 * side by side. Rounds alternate (`--rounds=`, default 5, `--keys=` keys each, default 40):
 * - idle: keys typed into notes.txt;
 * - editing: Edit Selection… on a function in the middle of the TypeScript file, asking for a
 *   `--lines=`-line function (default 300: the reference server's `lines:N`), whose lines stream
 *   into the file (the reference server sends `--chunk=` characters every `--delay=` ms, default
 *   24 and 15, as `npm run bench:edit`); once its progress says "lines so far", the keys are typed
 *   into notes.txt. Keys painted while the lines stream are counted; any after the edit was
 *   complete are left out and counted apart. The edit is then undone (AI Chat: Undo Edit).
 * For each key: from the keydown's event time to the frame that shows it (the next animation
 * frame after the keydown, then a task: the paint has happened), in the workbench page.
 * `--profile`: the window's CPU profile while the keys of the first editing round are typed (its
 * functions with the most self time, by script). `--plain`: the same file as plain text (`ledger.txt`), without TypeScript's features at work
 * after each edit. `--skip-build` uses the .vsix already in dist/. The last line is for scripts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { f1, keySummary, launchWorkbenchBrowser, quantile } from '../workbenchBrowser';
import { profileIn, startDemo } from '../../test/e2e/launcher';
import { setKey } from '../../test/e2e/steps';
import { Workbench, waitFor } from '../../test/e2e/workbench';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROUNDS = Number(arg('rounds', '5'));
const KEYS = Number(arg('keys', '40'));
const FILE_LINES = Number(arg('file-lines', '2000'));
const REPLY_LINES = Number(arg('lines', '300'));
const CHUNK = Number(arg('chunk', '24'));
const DELAY_MS = Number(arg('delay', '15'));
const SKIP_BUILD = process.argv.includes('--skip-build');
/** `--profile`: the window's CPU profile while keys are typed beside the first edit; its functions with the most self time are printed. */
const PROFILE = process.argv.includes('--profile');
/** `--plain`: the same text in a plain text file, without the language's features at work after each edit. */
const PLAIN = process.argv.includes('--plain');
const TARGET = PLAIN ? 'ledger.txt' : 'ledger.ts';
const TYPED = 'notes.txt';

/** A TypeScript module of `lines` lines: functions of six lines; the one to edit starts at `editAt`. */
function moduleText(lines: number): { text: string; editAt: number } {
  const out: string[] = ['// The ledger of the benchmark', ''];
  for (let k = 0; out.length < lines; k++) {
    out.push(`export function total${k}(values: number[]): number {`, '  let sum = 0;', `  for (const v of values) sum += v * ${k};`, '  return sum;', '}', '');
  }
  // The function in the middle: its first line (1-based).
  const middle = Math.floor(out.length / 2);
  const editAt = out.findIndex((l, i) => i >= middle && l.startsWith('export function')) + 1;
  return { text: out.join('\n'), editAt };
}

interface Key {
  ms: number;
  /** What the notifications said when the key was painted: the edit's lines streaming, or its review. */
  streaming: boolean;
  reviewing: boolean;
}

/** Records, for every key typed into an editor, keydown-to-paint and what the edit was doing. */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __keys: Key[] };
    w.__keys = [];
    document.addEventListener(
      'keydown',
      (e) => {
        // The keys typed (letters, space, Enter), not the shortcuts that move the focus and cursor.
        if (!(e.target instanceof HTMLElement) || !e.target.closest('.monaco-editor') || e.ctrlKey || (e.key.length !== 1 && e.key !== 'Enter')) return;
        const t0 = e.timeStamp;
        requestAnimationFrame(() =>
          setTimeout(() => {
            const ms = performance.now() - t0;
            const toasts = [...document.querySelectorAll('.notifications-toasts .notification-toast')].map((t) => t.textContent ?? '');
            w.__keys.push({ ms, streaming: toasts.some((t) => t.includes('lines so far')), reviewing: toasts.some((t) => /changes? proposed/.test(t)) });
          }, 0),
        );
      },
      { capture: true },
    );
  });
}

/** Whether the first group's editor still shows the edit's lines (the reference server's `step N of`). */
async function fileChanged(page: Page): Promise<boolean> {
  const text = await page.locator('.editor-group-container').first().locator('.view-lines').innerText().catch(() => '');
  return /step \d+ of/.test(text);
}

/** Types `count` keys into the second editor group, one at a time (the next once this one is painted). */
async function typeRound(page: Page, count: number): Promise<Key[]> {
  // The editor of notes.txt (the second group) with the cursor at its end.
  await page.keyboard.press('Control+2');
  await page.keyboard.press('Control+End');
  await page.evaluate(() => ((window as unknown as { __keys: unknown[] }).__keys = []));
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(i % 40 === 39 ? 'Enter' : i % 8 === 7 ? 'Space' : 'abcdefgh'[i % 8]);
    await page.waitForFunction((n) => (window as unknown as { __keys: unknown[] }).__keys.length >= n, i + 1, { polling: 'raf', timeout: 30_000 });
  }
  return page.evaluate(() => (window as unknown as { __keys: Key[] }).__keys);
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }>;
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** The profile's functions with the most self time, and the share of each script. */
function printProfile(profile: CpuProfile): void {
  const total = (profile.endTime - profile.startTime) / 1000;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  const byScript = new Map<string, number>();
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const script = frame.url.split('/').slice(-1)[0] || (frame.functionName.startsWith('(') ? frame.functionName : '(native)');
    byFunction.set(`${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber + 1}`, (byFunction.get(`${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber + 1}`) ?? 0) + ms);
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `    ${ms.toFixed(0).padStart(6)} ms  ${k}`).join('\n');
  console.log(`  the window's CPU profile while the keys were typed beside the edit (${total.toFixed(0)} ms): by script\n${top(byScript, 8)}\n  by function (self time)\n${top(byFunction, 25)}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-bench-kbd-edit-'));
  const log = (msg: string) => console.log(`  ${msg}`);
  const profile = profileIn(dir);
  mkdirSync(profile.workspace, { recursive: true });
  const { text, editAt } = moduleText(FILE_LINES);
  writeFileSync(path.join(profile.workspace, TARGET), text);
  writeFileSync(path.join(profile.workspace, TYPED), 'Notes\n\n');
  console.log(`bench:keystroke:edit: ${ROUNDS} rounds of ${KEYS} keys idle / while Edit Selection… streams a ${REPLY_LINES}-line function into a ${FILE_LINES.toLocaleString('en-US')}-line ${PLAIN ? 'plain text' : 'TypeScript'} file beside (reference server: ${CHUNK}-character pieces every ${DELAY_MS} ms; load average ${os.loadavg()[0].toFixed(1)})`);
  const demo = await startDemo({
    dir,
    skipBuild: SKIP_BUILD,
    chunkSize: CHUNK,
    chunkDelayMs: DELAY_MS,
    settings: { 'editor.quickSuggestions': { other: false, comments: false, strings: false }, 'editor.wordBasedSuggestions': 'off', 'files.autoSave': 'off' },
    log,
  });
  const browser = await launchWorkbenchBrowser();
  const idle: number[] = [];
  const editing: number[] = [];
  let leftOut = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const wb = new Workbench(page, demo.code.url);
    await wb.open();
    await setKey(wb);
    await wb.clearNotifications();
    // ledger.ts in the first group, notes.txt in the second.
    await wb.openFile(TARGET);
    await wb.runCommand('View: Split Editor Right');
    await wb.openFile(TYPED);
    await installProbe(page);
    // A first round, not counted: the editors and the page warm up.
    await typeRound(page, 20);
    for (let r = 1; r <= ROUNDS; r++) {
      const a = await typeRound(page, KEYS);
      idle.push(...a.map((k) => k.ms));

      // Edit Selection… on the function in the middle of ledger.ts.
      await wb.clearNotifications();
      await page.keyboard.press('Control+1');
      await wb.selectLines(editAt, editAt + 4);
      await wb.runCommand('AI Chat: Edit Selection…');
      await waitFor(async () => /Edit Selection \(/.test(await wb.quickInput().locator('.quick-input-title').innerText().catch(() => '')), 'the quick input of Edit Selection… never showed');
      await wb.answerInput(`Rewrite it as one longer function lines:${REPLY_LINES}`);
      await wb.waitForNotification(/lines so far/, 60_000);
      const cdp = PROFILE && r === 1 ? await page.context().newCDPSession(page) : undefined;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const b = await typeRound(page, KEYS);
      if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
      const during = b.filter((k) => k.streaming && !k.reviewing).map((k) => k.ms);
      editing.push(...during);
      leftOut += b.length - during.length;
      console.log(`  round ${r}: idle ${keySummary(a.map((k) => k.ms))}\n           editing ${keySummary(during)}${b.length - during.length ? ` (${b.length - during.length} keys after the lines were in, left out)` : ''}`);

      // The review, then Undo Edit in the file's editor: the file as it was for the next round.
      await wb.waitForNotification(/changes? proposed/, 120_000);
      await wb.hideNotificationCenter();
      await page.keyboard.press('Control+1');
      await wb.runCommand('AI Chat: Undo Edit');
      await waitFor(async () => !(await fileChanged(page)), 'Undo Edit did not give the file back', 30_000);
      await wb.clearNotifications();
    }
  } finally {
    await browser.close().catch(() => undefined);
    await demo.stop();
    if (process.env.KEEP_BENCH_DIR) console.log(`  kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  console.log(`Keystroke to paint in a VS Code editor (code-server), ${ROUNDS} alternating rounds of ${KEYS} keys:`);
  console.log(`  no edit:                          ${keySummary(idle)}`);
  console.log(`  while an edit streams beside it:  ${keySummary(editing)}${leftOut ? `; ${leftOut} keys typed after an edit's lines were in left out` : ''}`);
  const d95 = quantile(editing, 0.95) - quantile(idle, 0.95);
  console.log(`  p95 difference: ${d95 >= 0 ? '+' : ''}${f1(d95)} ms`);
  console.log(`keystroke-edit: idleP95=${f1(quantile(idle, 0.95))} editingP95=${f1(quantile(editing, 0.95))} idleMax=${f1(Math.max(...idle))} editingMax=${f1(Math.max(...editing))} keys=${idle.length}/${editing.length}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
