/**
 * `npm run bench:native`: the same long replies from the reference server, once in the AI Chat panel
 * and once through @aichat in VS Code's Chat view, in one run of code-server (fresh profile, VS Code's
 * AI features on), driven by Playwright in Debian Chromium. Run it under the e2e lock:
 *
 *     flock /tmp/aichat-e2e.lock npm run bench:native
 *
 * For each reply size (default 50 KB and 200 KB, `--sizes=50,200`), printed per surface:
 * - the time from sending to the reply's last line in the surface's DOM (the reply's closing
 *   sentence in the last response; a run that does not get there within `--timeout=` seconds
 *   says how far it got: the highest "Part N" heading shown of the reply's last one);
 * - the workbench renderer's main-thread time over the same span, and until the renderer is quiet
 *   again (CDP Performance.getMetrics on the workbench page: TaskDuration, ScriptDuration,
 *   LayoutDuration, RecalcStyleDuration; the panel's webview frames are same-site and run on that
 *   renderer's main thread too);
 * - the ratio Chat view / panel.
 *
 * Two ways the service's text reaches the Chat view are measured:
 * - "as the service sends it": the reference server streams 40-character parts with no delay
 *   (200 KB: about 5,000 parts), and @aichat does what it does with them;
 * - "coalesced" (`--coalesced=50,200,400`, KB): the server streams one part every `--every=` ms
 *   (default 100; a list tries each) at `--rate=` KB/s (default 20, i.e. 2,048-character parts at
 *   100 ms): one Chat view update per part, which is what a text coalescer with that interval makes
 *   of a stream of that rate. This shows where the Chat view itself breaks down with updates at
 *   that pace, whatever @aichat does. `--every=0` is the service's 40-character parts themselves,
 *   paced at the same rate (one update per part: what @aichat gets without coalescing).
 *   `--sizes=` (empty) leaves out the panel and the unpaced per-part runs.
 *
 * Every measurement runs in a browser context of its own (its own renderer), in a new chat.
 * `--skip-build` uses the .vsix already in dist/. The last lines are for scripts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchWorkbenchBrowser } from '../workbenchBrowser';
import { generateReply } from '../../test/server/reply';
import { startDemo, type Demo } from '../../test/e2e/launcher';
import { setKey } from '../../test/e2e/steps';
import { Workbench, waitFor, type Chat } from '../../test/e2e/workbench';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean).map(Number);

const SIZES_KB = list(arg('sizes', '50,200'));
const COALESCED_KB = list(arg('coalesced', '50,200,400'));
/** Stream rate of the coalesced runs, KB/s, and the update intervals tried (ms). */
const RATE_KBPS = Number(arg('rate', '20'));
const EVERY_MS = list(arg('every', '100'));
const partFor = (every: number) => Math.round((RATE_KBPS * 1024 * every) / 1000);
const TIMEOUT_S = Number(arg('timeout', '180'));
const SKIP_BUILD = process.argv.includes('--skip-build');
/** The service's parts as the issue measured them: 40 characters, no delay. */
const SERVICE_PART = 40;

const CLOSING = 'That’s the gist ✓ — ask a follow-up and I’ll go deeper.';
/** @aichat's note at the end of a reply it cut (the rest is offered in AI Chat). */
const CUT_NOTE = /the Chat view shows its beginning/;

interface Metrics {
  task: number;
  script: number;
  layout: number;
  style: number;
}

interface Result {
  surface: string;
  kb: number;
  chars: number;
  parts: number;
  /** Seconds to the last line, or undefined when it did not get there. */
  lastLineS?: number;
  /** Seconds to the middle of the reply (its middle "Part N" heading shown). */
  halfS?: number;
  /** The reply was cut: `lastLineS` is when the cut's note showed. */
  cut?: boolean;
  /** The highest "Part N" heading shown when the run stopped, and the reply's last. */
  shownPart?: number;
  lastPart?: number;
  toLastLine: Metrics;
  toQuiet: Metrics;
  quietS: number;
}

async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: m } = await cdp.send('Performance.getMetrics');
  const get = (name: string) => m.find((x) => x.name === name)?.value ?? 0;
  return { task: get('TaskDuration'), script: get('ScriptDuration'), layout: get('LayoutDuration'), style: get('RecalcStyleDuration') };
}

const minus = (a: Metrics, b: Metrics): Metrics => ({ task: a.task - b.task, script: a.script - b.script, layout: a.layout - b.layout, style: a.style - b.style });

/** Waits until the renderer's main thread did less than 50 ms of work in a 1 s window (at most 60 s). */
async function quiet(cdp: CDPSession): Promise<Metrics> {
  const deadline = Date.now() + 60_000;
  let last = await metrics(cdp);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await metrics(cdp);
    if (now.task - last.task < 0.05 || Date.now() > deadline) return now;
    last = now;
  }
}

const lastPartOf = (text: string) => Math.max(0, ...[...text.matchAll(/Part (\d+)/g)].map((m) => Number(m[1])));

/** The prompt for a reply of `kb` KB; `tag` makes it unique to its run (the reply depends only on it). */
function promptFor(kb: number, tag: string): string {
  return `bench native ${tag} len:${kb * 1024}`;
}

interface Surface {
  name: string;
  /** Sends the prompt; returns a reader of the last response's text. */
  ask(wb: Workbench, prompt: string): Promise<() => Promise<string>>;
}

/** The AI Chat panel (a new chat in the editor area). */
const PANEL: Surface = {
  name: 'AI Chat panel',
  async ask(wb, prompt) {
    await setKey(wb);
    const chat: Chat = await wb.openChat();
    if (await chat.articles().count()) await chat.newChat();
    await chat.send(prompt);
    return async () => (await chat.lastReply().textContent().catch(() => '')) ?? '';
  },
};

/** @aichat in VS Code's Chat view (the secondary side bar), in a new chat. */
const CHAT_VIEW: Surface = {
  name: '@aichat in the Chat view',
  async ask(wb, prompt) {
    const page = wb.page;
    const input = page.locator('.part.auxiliarybar .interactive-input-part .monaco-editor').first();
    await input.waitFor({ timeout: 60_000 });
    await setKey(wb);
    const inputPart = page.locator('.part.auxiliarybar .interactive-input-part').first();
    await waitFor(async () => /Swift Chat|Deep Think|Code Pro/.test(await inputPart.innerText().catch(() => '')), "the Chat view's model picker shows no AI Chat model", 60_000);
    // A new chat: the view's own "New Chat" action, else its keybinding in the message box.
    const responses = page.locator('.part.auxiliarybar .interactive-item-container.interactive-response');
    if (await responses.count()) {
      const button = page.locator('.part.auxiliarybar .action-label[aria-label^="New Chat"]').first();
      if (await button.isVisible().catch(() => false)) await button.click();
      else {
        await input.click();
        await page.keyboard.press('Control+L');
      }
      await waitFor(async () => (await responses.count()) === 0, 'the Chat view did not start a new chat', 15_000);
    }
    await input.click();
    await page.keyboard.type(`@aichat ${prompt}`);
    await page.keyboard.press('Enter');
    return async () => {
      const n = await responses.count();
      return n ? ((await responses.nth(n - 1).textContent().catch(() => '')) ?? '') : '';
    };
  },
};

async function measure(browser: Browser, demo: Demo, surface: Surface, kb: number, tag: string, parts: number): Promise<Result> {
  const prompt = promptFor(kb, tag);
  const expected = generateReply([{ role: 'user', content: prompt }]);
  const lastPart = lastPartOf(expected);
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'en-US' });
  try {
    const page: Page = await context.newPage();
    const wb = new Workbench(page, demo.code.url);
    await wb.open();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' } as never);
    const read = await surface.ask(wb, prompt);
    // The span starts when the prompt is sent (the steps above end with the send).
    const start = await metrics(cdp);
    const tSend = Date.now();
    let text = '';
    let lastLineS: number | undefined;
    let halfS: number | undefined;
    let cut = false;
    const deadline = tSend + TIMEOUT_S * 1000;
    while (Date.now() < deadline) {
      text = await read();
      if (halfS === undefined && lastPartOf(text) >= lastPart / 2) halfS = (Date.now() - tSend) / 1000;
      cut = CUT_NOTE.test(text);
      if (cut || (text.includes(CLOSING) && lastPartOf(text) >= lastPart)) {
        lastLineS = (Date.now() - tSend) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const atLast = await metrics(cdp);
    const tQuiet0 = Date.now();
    const atQuiet = lastLineS === undefined ? atLast : await quiet(cdp);
    return {
      surface: surface.name,
      kb,
      chars: expected.length,
      parts,
      lastLineS,
      halfS,
      cut,
      shownPart: lastPartOf(text),
      lastPart,
      toLastLine: minus(atLast, start),
      toQuiet: minus(atQuiet, start),
      quietS: (Date.now() - tQuiet0) / 1000 + (lastLineS ?? 0),
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

const s = (x: number) => `${x.toFixed(2)} s`;
const fmtM = (m: Metrics) => `${s(m.task)} (script ${m.script.toFixed(2)}, layout ${m.layout.toFixed(2)}, style ${m.style.toFixed(2)})`;

function line(r: Result): string {
  const shown =
    r.lastLineS === undefined
      ? `not after ${TIMEOUT_S} s (Part ${r.shownPart} of ${r.lastPart} shown)`
      : r.cut
        ? `cut, its note at ${s(r.lastLineS)} (Part ${r.shownPart} of ${r.lastPart} shown)`
        : s(r.lastLineS);
  return (
    `  ${r.surface.padEnd(26)} ${String(r.kb).padStart(4)} KB (${r.chars} chars, ${r.parts} parts): half ${r.halfS !== undefined ? s(r.halfS) : '-'}, last line ${shown}; ` +
    `renderer main thread to the last line ${fmtM(r.toLastLine)}` +
    (r.lastLineS !== undefined ? `, until quiet (${s(r.quietS)}) ${fmtM(r.toQuiet)}` : '')
  );
}

function ratio(view: Result, panel: Result): string {
  const t = view.lastLineS !== undefined && panel.lastLineS ? `${(view.lastLineS / panel.lastLineS).toFixed(1)}x` : `> ${(TIMEOUT_S / (panel.lastLineS ?? 1)).toFixed(0)}x`;
  const cpu = `${(view.toQuiet.task / Math.max(panel.toQuiet.task, 1e-3)).toFixed(1)}x`;
  return `  ratio Chat view / panel at ${view.kb} KB: time to the last line ${t}, renderer main-thread time ${cpu}${view.lastLineS === undefined ? ' (the Chat view figure stops at the timeout)' : view.cut ? ' (the Chat view shows the reply cut, with its note)' : ''}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-bench-native-'));
  const log = (msg: string) => console.log(`  ${msg}`);
  console.log(`bench:native: replies of ${SIZES_KB.join(', ')} KB in the AI Chat panel and through @aichat in VS Code's Chat view (timeout ${TIMEOUT_S} s per run)`);
  const demo = await startDemo({
    dir,
    skipBuild: SKIP_BUILD,
    chunkSize: SERVICE_PART,
    chunkDelayMs: 0,
    settings: { 'chat.disableAIFeatures': false, 'workbench.secondarySideBar.defaultVisibility': 'visibleInWorkspace' },
    log,
  });
  const browser = await launchWorkbenchBrowser();
  const results: Result[] = [];
  const coalesced: Result[] = [];
  try {
    let run = 0;
    const tag = () => `r${++run}`;
    const service = (kb: number) => Math.ceil((kb * 1024) / SERVICE_PART);
    // The panel first, then the Chat view with updates at a coalescer's pace, and last the Chat
    // view as the service sends it (a run that times out leaves the extension host streaming).
    demo.server.control.configure({ chunkSize: SERVICE_PART, chunkDelayMs: 0 });
    for (const kb of SIZES_KB) {
      const r = await measure(browser, demo, PANEL, kb, tag(), service(kb));
      console.log(line(r));
      results.push(r);
    }
    for (const every of EVERY_MS) {
      // 0: the service's own 40-character parts, paced at the same rate (what @aichat gets uncoalesced).
      const part = every === 0 ? SERVICE_PART : partFor(every);
      const delay = every === 0 ? Math.max(1, Math.round((SERVICE_PART * 1000) / (RATE_KBPS * 1024))) : every;
      demo.server.control.configure({ chunkSize: part, chunkDelayMs: delay });
      for (const kb of COALESCED_KB) {
        const r = await measure(browser, demo, CHAT_VIEW, kb, tag(), Math.ceil((kb * 1024) / part));
        r.surface = every === 0 ? `@aichat, every ${SERVICE_PART}-char part` : `@aichat, 1 update / ${every} ms`;
        console.log(line(r));
        coalesced.push(r);
      }
    }
    demo.server.control.configure({ chunkSize: SERVICE_PART, chunkDelayMs: 0 });
    for (const kb of SIZES_KB) {
      const r = await measure(browser, demo, CHAT_VIEW, kb, tag(), service(kb));
      console.log(line(r));
      results.push(r);
    }
  } finally {
    await browser.close().catch(() => undefined);
    await demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  console.log('');
  console.log(`As the service sends it (${SERVICE_PART}-character parts, no delay):`);
  for (const r of results) console.log(line(r));
  for (const kb of SIZES_KB) {
    const panel = results.find((r) => r.kb === kb && r.surface === PANEL.name);
    const view = results.find((r) => r.kb === kb && r.surface === CHAT_VIEW.name);
    if (panel && view) console.log(ratio(view, panel));
  }
  if (coalesced.length) {
    console.log(`The Chat view with the reply streamed at ${RATE_KBPS} KB/s: one update per ${EVERY_MS.map((e) => (e === 0 ? `${SERVICE_PART}-character part` : `${e} ms`)).join(' / ')}:`);
    for (const r of coalesced) console.log(line(r));
  }
  const fig = (r: Result) => `${/\/ (\d+) ms/.exec(r.surface)?.[1] ?? ''}${r.surface.includes('update') ? 'ms:' : r.surface.includes('part') ? 'part:' : ''}${r.kb}KB:lastLine=${r.lastLineS?.toFixed(2) ?? 'timeout'}${r.cut ? '(cut)' : ''},task=${r.toQuiet.task.toFixed(2)}`;
  console.log(`native: panel ${results.filter((r) => r.surface === PANEL.name).map(fig).join(' ')} chatview ${results.filter((r) => r.surface === CHAT_VIEW.name).map(fig).join(' ')} coalesced ${coalesced.map(fig).join(' ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
