/**
 * `npm run bench:memory`: the chat webview's memory with a 300-turn conversation (replies of about
 * 8 KB, each its own text), through the real webview bundle in headless Chromium, with the messages
 * the real ChatController posts (JSON-serialised, then a `message` event, as VS Code delivers them).
 *
 * Printed, each after a full garbage collection (CDP HeapProfiler.collectGarbage):
 * - the page's memory: its JS heap (V8) and the DOM's heap (Blink's Oilpan: elements, text and
 *   layout objects), from CDP Runtime.getHeapUsage (usedSize, embedderHeapUsedSize), and their sum;
 *   performance.memory.usedJSHeapSize (--enable-precise-memory-info) counts the JS heap only; the
 *   elements in the document, and every DOM node the page holds (Memory.getDOMCounters);
 * - after opening the conversation;
 * - after scrolling to the top (every older turn rendered on the way) and back to the bottom;
 * - after each of 10 cycles that close and open it again as the panel sees it: a New Chat (an
 *   empty conversation), the 300-turn conversation once more, scrolled to the top and back, then a
 *   New Chat and the conversation again; the sample is taken just opened (the same state each
 *   cycle); growth over the cycles is the last cycle's figure against the first's.
 * The last line is for scripts.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { HostMessage } from '../../src/protocol';
import type { ChatServiceClient } from '../../src/client';
import { launchChromium, serveChatPanel } from '../../test/render/harness';
import { chat, conversationOf } from '../history/webview';

const TURNS = 300;
const CYCLES = Number(/^--cycles=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--cycles=')) ?? '')?.[1] ?? 10);

interface Sample {
  /** JS heap (V8) plus the DOM's heap (Blink's Oilpan: elements, text, layout objects). */
  totalMB: number;
  heapMB: number;
  domMB: number;
  perfMemoryMB: number;
  /** Messages whose body is rendered. */
  bodies: number;
  elements: number;
  nodes: number;
  listeners: number;
}

const mb = (bytes: number) => bytes / (1024 * 1024);

/** Rendered message bodies, once the panel stopped rendering or releasing them. */
async function settledBodies(page: Page): Promise<number> {
  let last = -1;
  for (let i = 0; i < 20; i++) {
    const now = await page.evaluate(() => document.querySelectorAll('.reply-body').length);
    if (now === last) return now;
    last = now;
    await settle(page, 200);
  }
  return last;
}

async function sample(page: Page, cdp: CDPSession): Promise<Sample> {
  const bodies = await settledBodies(page);
  // Twice: what a first collection frees (weak references, finalizers) goes in the second.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const dom = await cdp.send('Memory.getDOMCounters');
  const inPage = await page.evaluate(() => ({
    elements: document.getElementsByTagName('*').length,
    perf: (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
  }));
  const dom_ = (heap as { embedderHeapUsedSize?: number }).embedderHeapUsedSize ?? 0;
  return { totalMB: mb(heap.usedSize + dom_), heapMB: mb(heap.usedSize), domMB: mb(dom_), perfMemoryMB: mb(inPage.perf), bodies, elements: inPage.elements, nodes: dom.nodes, listeners: dom.jsEventListeners };
}

function deliver(page: Page, messages: unknown[]): Promise<void> {
  const data = messages.map((m) => JSON.stringify(m));
  return page.evaluate(async (json) => {
    for (const d of json) window.postMessage(JSON.parse(d), '*');
    await new Promise((ok) => setTimeout(ok, 0));
    await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
  }, data);
}

/** Frames and a pause: the observers and anything the panel does after a scroll have run. */
async function settle(page: Page, ms = 150): Promise<void> {
  await page.evaluate(
    (wait) => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, wait)))),
    ms,
  );
}

/** Scrolls the conversation to its top until no older message is left to render, then to the bottom. */
async function scrollTopAndBack(page: Page): Promise<number> {
  let steps = 0;
  for (; steps < 400; steps++) {
    const done = await page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('.messages')!;
      const sentinel = document.querySelector<HTMLElement>('.older-sentinel');
      const first = list.querySelector('article.message');
      const atStart = (!sentinel || sentinel.hidden) && first?.querySelector('.reply-body, .user-body')?.textContent?.includes('Question 0:');
      list.scrollTop = 0;
      return !!atStart && list.scrollTop === 0;
    });
    if (done) break;
    await settle(page, 20);
  }
  // Back down in steps of 5 screens, as a quick scroll would go.
  for (let i = 0; i < 2000; i++) {
    const atBottom = await page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('.messages')!;
      list.scrollTop += list.clientHeight * 5;
      return list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
    });
    await settle(page, 0);
    if (atBottom) break;
  }
  await settle(page, 300);
  return steps;
}

function conversationMessage(messages: HostMessage[]): Extract<HostMessage, { type: 'conversation' }> {
  const m = messages.find((x) => x.type === 'conversation');
  if (!m || m.type !== 'conversation') throw new Error('no conversation message');
  return m;
}

const fmt = (s: Sample) =>
  `${s.totalMB.toFixed(1)} MB (JS ${s.heapMB.toFixed(1)} MB, DOM ${s.domMB.toFixed(1)} MB; performance.memory ${s.perfMemoryMB.toFixed(1)} MB), ${s.bodies} message bodies rendered, ${s.elements} elements in the document, ${s.nodes} DOM nodes held, ${s.listeners} listeners`;

async function main(): Promise<void> {
  const conversation = conversationOf(TURNS, true);
  const textBytes = conversation.messages.reduce((n, m) => n + m.content.length, 0);
  // No request is made: the client is never used.
  const c = await chat('http://127.0.0.1:9', undefined as unknown as ChatServiceClient, conversation);
  const initial = c.initialMessages() as HostMessage[];
  const conv = conversationMessage(initial);
  const panel = await serveChatPanel(process.env.MEMORY_ENTRY ?? 'src/webview/main.ts');
  const browser = await launchChromium(['--enable-precise-memory-info']);
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    const cdp = await page.context().newCDPSession(page);
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    const blank = await sample(page, cdp);
    await deliver(page, initial);
    await settle(page, 300);
    const opened = await sample(page, cdp);
    const steps = await scrollTopAndBack(page);
    const scrolled = await sample(page, cdp);
    const cycles: Sample[] = [];
    let version = conv.version ?? 0;
    for (let i = 0; i < CYCLES; i++) {
      const empty = { ...conv, version: ++version, conversation: { id: `conv-new-${i}`, title: 'New Chat', messages: [] } };
      await deliver(page, [empty]);
      await settle(page);
      await deliver(page, [{ ...conv, version: ++version }]);
      await settle(page, 300);
      await scrollTopAndBack(page);
      await deliver(page, [{ ...empty, version: ++version }]);
      await settle(page);
      await deliver(page, [{ ...conv, version: ++version }]);
      await settle(page, 300);
      cycles.push(await sample(page, cdp));
    }
    const growth = (100 * (cycles[cycles.length - 1].totalMB - cycles[0].totalMB)) / cycles[0].totalMB;
    const peak = Math.max(...cycles.map((s) => s.totalMB));
    console.log(`Chat webview memory, ${TURNS} turns (replies of about 8 KB, ${(textBytes / 1e6).toFixed(2)} MB of text), headless Chromium, after a full GC (JS heap + DOM heap):`);
    console.log(`  empty panel:                   ${fmt(blank)}`);
    console.log(`  after opening:                 ${fmt(opened)}`);
    console.log(`  after scrolling to the top and back (${steps} scroll steps up): ${fmt(scrolled)}`);
    cycles.forEach((s, i) => console.log(`  after cycle ${String(i + 1).padStart(2)} (New Chat, reopen, scroll top and back, New Chat, reopen): ${fmt(s)}`));
    console.log(`  growth over the cycles (cycle ${CYCLES} against cycle 1): ${growth.toFixed(1)} % (goal <= 5 %); highest of the cycles: ${peak.toFixed(1)} MB (goal <= 100 MB)`);
    console.log(
      `memory: openedMB=${opened.totalMB.toFixed(1)} scrolledMB=${scrolled.totalMB.toFixed(1)} cycle1MB=${cycles[0].totalMB.toFixed(1)} ` +
        `cycle${CYCLES}MB=${cycles[cycles.length - 1].totalMB.toFixed(1)} growthPct=${growth.toFixed(1)} elementsOpened=${opened.elements} elementsScrolled=${scrolled.elements}`,
    );
  } finally {
    await browser.close();
    await panel.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
